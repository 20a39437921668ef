"""`exlibris scenario run FILE...`: run rule scenarios and report each one."""

from __future__ import annotations

from pathlib import Path

import click

from exlibris.cli.output import USER_ERROR, note_skipped, report_problems
from exlibris.cli.own_content import activate, content_option


@click.group()
def scenario() -> None:
    """Run rule scenarios: a starting position, a script of decisions by option
    label, and what the state must be afterwards (see docs/scenarios.md)."""


@scenario.command("run")
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("-v", "--verbose", is_flag=True,
              help="Show each scripted decision, and the options of the decision where the "
                   "script stopped.")
@content_option
def run(paths: tuple[Path, ...], verbose: bool, content: tuple[Path, ...]) -> None:
    """Run the scenario FILEs (folders are searched for .yaml files).

    A folder may hold content and rules beside its scenarios: each file is judged
    by its `kind:`, and the content found joins the catalog the scenarios use (as
    --content does); YAML files without a `kind:` are skipped with a note. Prints
    PASS or FAIL with the first difference for each scenario, or STOPPED when the
    content stops the game (an effect that cannot go on, named at its
    FILE:LINE:COL). Exit status 0 when all pass, 1 when any fails, 2 when a file is
    not a valid scenario or content (reported as FILE:LINE:COL: message [code]) or
    the content stopped a game."""
    from exlibris.errors import UserInputError
    from exlibris.scenario import load_scenario, run_scenario
    from exlibris.sources import sort_files

    own, files, other = sort_files(paths)
    named = {p.resolve() for p in paths if p.is_file()}
    moved = [p for p in own if p.resolve() in named and _named_scenario(p)]
    files += moved
    activate((*content, *(p for p in own if p not in moved)))
    note_skipped(other)
    if not files:
        click.echo("exlibris scenario run: no scenario files found", err=True)
        raise SystemExit(USER_ERROR)
    malformed = passed = failed = stopped = 0
    for file in files:
        try:
            loaded = load_scenario(file)
        except UserInputError as exc:
            report_problems(exc.problems)
            malformed += 1
            continue
        result = run_scenario(loaded)
        if result.stopped:  # the content cannot go on: the author's mistake, exit 2
            stopped += 1
            click.echo(f"STOPPED {result.name}: {result.difference}")
        elif result.passed:
            passed += 1
            click.echo(f"PASS {result.name}")
        else:
            failed += 1
            click.echo(f"FAIL {result.name}: {result.difference}")
        if verbose:
            for line in result.trace:
                click.echo(f"    {line}")
            if result.pending is not None:
                who = loaded.setup.players[result.pending.seat].name
                click.echo(f"    stopped: {who} is asked to {result.pending.prompt!r}:")
                for label in result.pending.labels:
                    click.echo(f"      - {label}")
    summary = f"{passed} passed, {failed} failed"
    if stopped:
        summary += f", {stopped} stopped by the content"
    if malformed:
        summary += f", {malformed} malformed"
    click.echo(summary)
    if malformed or stopped:
        raise SystemExit(USER_ERROR)
    if failed:
        raise SystemExit(1)


def _named_scenario(path: Path) -> bool:
    """A file named on its own without 'kind: scenario' is still run, so that the
    scenario loader can say what is wrong with it."""
    from exlibris.sources import file_kind

    return file_kind(path) in (None, "?")
