"""`exlibris play`: play a game (the game engine is not built yet)."""

from __future__ import annotations

import click


@click.command()
def play() -> None:
    """Play a game of Ex Libris against bots or friends.

    The game engine is a later piece of work: for now this command says so and
    exits with status 1. `exlibris validate`, `exlibris content` and
    `exlibris score` work today."""
    click.echo("exlibris play: the game engine is not built yet. Try `exlibris content list`, "
               "`exlibris validate` or `exlibris score TABLE.yaml`.", err=True)
    raise SystemExit(1)
