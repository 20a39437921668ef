"""``exlibris score TABLE.yaml``: run the inspection form on an end-of-game table."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from exlibris.cli.output import USER_ERROR, echo, echo_rendered, report_problems
from exlibris.cli.own_content import activate, content_option
from exlibris.errors import Problem, UserInputError
from exlibris.sources import content_paths, use_content


def _report(problems: list[Problem]) -> None:
    """One line per problem on standard error: ``FILE:LINE:COL: message [code]``."""
    report_problems(problems, context=False)


def _color(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    return (bool(isatty and isatty()) and "NO_COLOR" not in os.environ
            and os.environ.get("TERM") != "dumb")


@click.command("score")
@click.argument("table_file", metavar="TABLE.yaml", type=click.Path(dir_okay=False,
                                                                    path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--best-flips", is_flag=True,
              help="Also find, for each player, the voluntary flips that maximise their total.")
@content_option
def score(table_file: Path, as_json: bool, best_flips: bool, content: tuple[Path, ...]) -> None:
    """Score an end-of-game table file with the Official Library Inspection Form.

    The table format is described in the table-format specification; bad input
    is reported as FILE:LINE:COL lines on standard error, with exit status 2. With
    --content (or EXLIBRIS_CONTENT) the table may name your own artifacts and
    variants.
    """
    from exlibris.scoring.artifacts import ArtifactScoringError
    from exlibris.scoring.flips import best_flips as find_best
    from exlibris.scoring.inspection import inspect_table
    from exlibris.scoring.report import render_form, to_json
    from exlibris.scoring.table import load_table

    if content_paths(content):
        activate(content)  # your artifacts and variants: a table may name them
    else:
        use_content(())
    try:
        table, rules = load_table(table_file)
        inspection = inspect_table(table, rules)
        best = ([find_best(inspection, i) for i in range(len(table.players))]
                if best_flips else None)
    except UserInputError as exc:
        _report(exc.problems)
        raise SystemExit(USER_ERROR) from None
    except ArtifactScoringError as exc:
        line, col = 1, 1
        for player in table.players:
            for pos, slot in player.shelf.items():
                if getattr(slot.card, "artifact_id", None) == exc.artifact_id:
                    line, col = player.origins.get(pos, (1, 1))
                    break
            else:
                continue
            break
        _report([Problem(str(table_file), line, col, exc.code, str(exc))])
        raise SystemExit(USER_ERROR) from None

    if as_json:
        echo(json.dumps(to_json(inspection, best), indent=2))
        return
    from exlibris.cli.play import form_width
    from exlibris.scoring.table import variant_modules

    color = _color(sys.stdout)
    out = echo_rendered if color else echo  # colours are the form's own escapes
    out(render_form(inspection, color=color, width=form_width(), best=best,
                    modules=variant_modules(table.variant)), nl=False)
