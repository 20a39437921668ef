"""The `exlibris` command. Subcommands are imported only when they run, so
`exlibris --help` stays fast."""

from __future__ import annotations

import importlib

import click

# name -> (module, attribute, one-line help)
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("exlibris.cli.validate", "validate", "Check content and rules files."),
    "content": ("exlibris.cli.content", "content", "List and show shipped and own content."),
    "schema": ("exlibris.cli.schema", "schema", "Write the JSON Schemas."),
    "score": ("exlibris.cli.score", "score", "Score an end-of-game table file."),
    "play": ("exlibris.cli.play", "play", "Play a game of Ex Libris."),
    "replay": ("exlibris.cli.replay", "replay", "Step through a recorded game."),
    "scenario": ("exlibris.cli.scenario", "scenario", "Run rule scenarios."),
    "new": ("exlibris.cli.new", "new", "Write a skeleton of a new content file."),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = _COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module_name, attribute, _ = entry
        return getattr(importlib.import_module(module_name), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup)
@click.version_option(package_name="exlibris")
def cli() -> None:
    """A rules engine for the board game Ex Libris and its expansion."""
