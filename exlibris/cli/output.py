"""Shared CLI output: problems on standard error, exit status 2 for user mistakes."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from exlibris.errors import Problem

USER_ERROR = 2


def report_problems(problems: Iterable[Problem], *, as_json: bool = False,
                    context: bool = True) -> None:
    """Print problems one per line (with quoted source where known) on stderr."""
    problems = list(problems)
    if as_json:
        click.echo(json.dumps({"ok": not problems,
                               "problems": [p.as_dict() for p in problems]}, indent=2))
        return
    for problem in problems:
        text = str(problem) if context else str(
            Problem(problem.file, problem.line, problem.col, problem.code, problem.message))
        click.echo(text, err=True)


def fail(problems: Iterable[Problem]) -> None:
    """Report problems and exit with the user-error status."""
    report_problems(problems)
    sys.exit(USER_ERROR)


def note_skipped(paths: list[Path]) -> None:
    """One note for the YAML files that are not content (no ``kind:`` line)."""
    if not paths:
        return
    names = ", ".join(str(p) for p in paths[:5]) + (", ..." if len(paths) > 5 else "")
    what = "file" if len(paths) == 1 else "files"
    click.echo(f"note: skipped {len(paths)} YAML {what} without a 'kind:' line (not "
               f"content): {names}", err=True)


def note_ignored(paths: list[Path]) -> None:
    """One note for the YAML files left out of the folders named because git ignores
    them (a folder named that git ignores itself is read whole)."""
    if not paths:
        return
    names = ", ".join(str(p) for p in paths[:5]) + (", ..." if len(paths) > 5 else "")
    what = "file" if len(paths) == 1 else "files"
    click.echo(f"note: skipped {len(paths)} YAML {what} that git ignores inside the "
               f"folders named (name a file or an ignored folder to read it): {names}",
               err=True)
