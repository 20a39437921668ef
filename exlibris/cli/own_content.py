"""``--content PATH`` and ``EXLIBRIS_CONTENT``: an author's own files in every command.

Each command that loads content takes ``--content`` (repeatable: files or folders);
the ``EXLIBRIS_CONTENT`` path list (``:``-separated, ``;`` on Windows) adds the same
for every command. Author entries join the shipped ones; one with a shipped entry's
kind and id replaces it, and the command says so once on standard error.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from exlibris.cli.output import USER_ERROR, report_problems

F = TypeVar("F", bound=Callable[..., Any])

CONTENT_HELP = ("Your own content or rules: a file or a folder (repeatable). Adds to "
                "EXLIBRIS_CONTENT; an entry with a shipped id replaces the shipped one.")


def content_option(fn: F) -> F:
    """The ``--content`` option, as ``content`` (a tuple of paths)."""
    return click.option("--content", "content", multiple=True,
                        type=click.Path(exists=True, path_type=Path),
                        help=CONTENT_HELP)(fn)


def activate(given: tuple[Path, ...], *, variant: str | None = None) -> Any:
    """Load the shipped catalog with the author's content (and a variant given as a path);
    report problems (exit 2) and replacements; return the catalog."""
    from exlibris.catalog import load_catalog
    from exlibris.errors import Problem, UserInputError
    from exlibris.sources import content_paths, use_content

    extra = list(given)
    if variant is not None and is_path(variant):
        extra.append(Path(variant))
    paths = content_paths(extra)
    missing = [Problem(str(p), 1, 1, "content/missing", "no such content file or folder")
               for p in paths if not p.exists()]
    if missing:
        report_problems(missing)
        raise SystemExit(USER_ERROR)
    if paths:  # every check of `exlibris validate`, so that nothing bad reaches a game
        from exlibris.catalog import own_files
        from exlibris.cli.output import note_ignored
        from exlibris.sources import ignored_files
        from exlibris.validation import validate

        note_ignored(ignored_files(paths))

        report = validate(own_files(paths))
        if not report.ok:
            report_problems(report.problems)
            raise SystemExit(USER_ERROR)
    use_content(paths)
    try:
        catalog = load_catalog()
    except UserInputError as exc:
        report_problems(exc.problems)
        raise SystemExit(USER_ERROR) from None
    for entry_id, file in catalog.replaced:
        click.echo(f"{entry_id}: your {file} replaces the shipped entry", err=True)
    return catalog


def is_path(variant: str) -> bool:
    """Whether ``--variant`` names a file rather than an id."""
    return variant.endswith((".yaml", ".yml")) or "/" in variant or "\\" in variant


def variant_id(variant: str | None) -> str | None:
    """The id of ``--variant``: an id as given, or the ``id:`` of the file it names."""
    if variant is None or not is_path(variant):
        return variant
    from exlibris.catalog import read_entry

    path = Path(variant)
    if not path.is_file():
        click.echo(f"exlibris: --variant {variant}: no such file", err=True)
        raise SystemExit(USER_ERROR)
    entry, problems = read_entry(path)
    if entry is None:
        report_problems(problems)
        raise SystemExit(USER_ERROR)
    if entry.kind != "variant":
        click.echo(f"exlibris: --variant {variant}: the file holds a {entry.kind}, not a "
                   "variant (kind: variant)", err=True)
        raise SystemExit(USER_ERROR)
    return entry.id
