"""`exlibris play`: play a game. Bot seats play headless; human seats come later."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import click

from exlibris.cli.output import USER_ERROR

SEAT_KINDS = ("random", "greedy")


def _seats(value: str) -> list[str]:
    seats = [s.strip().lower() for s in value.split(",") if s.strip()]
    for seat in seats:
        if seat not in SEAT_KINDS:
            raise click.BadParameter(
                f"unknown seat {seat!r}; seats are {', '.join(SEAT_KINDS)} "
                "(human seats come with interactive play)", param_hint="--seats")
    if not 2 <= len(seats) <= 4:
        raise click.BadParameter(f"{len(seats)} seats; a game has two to four",
                                 param_hint="--seats")
    return seats


@click.command()
@click.option("--seats", default="greedy,random", show_default=True,
              help="Comma-separated seats in turn order: random or greedy.")
@click.option("--seed", type=int, help="The game's seed (default: a fresh one, shown).")
@click.option("--variant", default="standard", show_default=True, help="A rules file id.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the inspection as `exlibris score --json` does, plus seed and seats.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every event of the game to FILE as JSON lines.")
@click.option("--table-out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the final table in the table-file format to FILE.")
def play(seats: str, seed: int | None, variant: str, as_json: bool, log_file: Path | None,
         table_out: Path | None) -> None:
    """Play a whole game of Ex Libris with bots and print the final inspection form.

    Interactive play for people at the terminal is not built yet; every seat is a
    bot (random or greedy) for now."""
    from exlibris.agents import BOTS
    from exlibris.agents.view import player_view
    from exlibris.catalog import load_catalog
    from exlibris.engine.events import EventLog
    from exlibris.engine.flow import new_game
    from exlibris.engine.flow import play as run
    from exlibris.engine.table_out import table_text
    from exlibris.errors import UserInputError
    from exlibris.scoring.report import render_form, to_json
    from exlibris.validation import resolve_settings, variant_chain

    kinds = _seats(seats)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    try:
        catalog = load_catalog()
        variant_chain(variant, catalog.variants)
    except UserInputError as exc:
        from exlibris.cli.output import report_problems

        report_problems(exc.problems)
        raise SystemExit(USER_ERROR) from None
    except ValueError as exc:
        click.echo(f"exlibris play: {exc}", err=True)
        raise SystemExit(USER_ERROR) from None
    settings = resolve_settings(variant, catalog.variants)
    agents = [BOTS[kind](seed * 31 + i) for i, kind in enumerate(kinds)]
    names = [f"{kind.capitalize()} {i + 1}" for i, kind in enumerate(kinds)]
    log = EventLog(enabled=log_file is not None)
    game = new_game(catalog, settings, agents, seed=seed, names=names, log=log,
                    views=player_view, variant=variant)
    outcome = run(game)
    if log_file is not None:
        log.save(log_file)
    if table_out is not None:
        table_out.write_text(table_text(game), "utf-8")
    if as_json:
        data = to_json(outcome.inspection)
        data.update({"seed": seed, "seats": kinds, "rounds": outcome.rounds,
                     "decisions": outcome.decisions})
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"seed {seed}; seats {', '.join(kinds)}; {outcome.rounds} rounds")
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    click.echo(render_form(outcome.inspection, color=color), nl=False)
