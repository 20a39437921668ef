"""The `exlibris` command. Subcommands are imported only when they run, so
`exlibris --help` stays fast."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from exlibris.cli.output import echo
from exlibris.errors import UserInputError

# name -> (module, attribute, one-line help)
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("exlibris.cli.validate", "validate", "Check content and rules files."),
    "content": ("exlibris.cli.content", "content", "List and show shipped and own content."),
    "schema": ("exlibris.cli.schema", "schema", "Write the JSON Schemas."),
    "score": ("exlibris.cli.score", "score", "Score an end-of-game table file."),
    "play": ("exlibris.cli.play", "play", "Play a game of Ex Libris."),
    "replay": ("exlibris.cli.replay", "replay", "Step through a recorded game."),
    "scenario": ("exlibris.cli.scenario", "scenario", "Run rule scenarios."),
    "simulate": ("exlibris.cli.simulate", "simulate", "Bots play many games; a balance report."),
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

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Usage mistakes are told like every other user error of exlibris: one line
        ``exlibris CMD: what is wrong`` on standard error, exit status 2."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Abort:
            echo("Aborted.", err=True)
            sys.exit(1)
        except click.ClickException as exc:
            sys.exit(usage_error(exc))
        except UserInputError as exc:  # a problem found outside a command's own checks
            from exlibris.cli.output import report_problems

            report_problems(exc.problems)
            sys.exit(2)
        sys.exit(result if isinstance(result, int) else 0)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup)
@click.version_option(package_name="exlibris")
def cli() -> None:
    """A rules engine for the board game Ex Libris and its expansion."""


def usage_error(exc: click.ClickException) -> int:
    """Print a click error in the project's style; the exit status (2 for usage)."""
    ctx = getattr(exc, "ctx", None)
    names = []
    while ctx is not None and ctx.parent is not None:
        names.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    where = " ".join(["exlibris", *names])
    hint = f" (see: {where} --help)" if isinstance(exc, click.UsageError) else ""
    message = exc.format_message()
    if len(message) > 1_000:  # an argument of thousands of characters, quoted
        message = message[:600] + " ... " + message[-200:]
    echo(f"{where}: {message}{hint}", err=True)
    return 2 if isinstance(exc, click.UsageError) else exc.exit_code
