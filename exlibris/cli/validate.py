"""`exlibris validate`: check content and rules files (and scenarios beside them)."""

from __future__ import annotations

from pathlib import Path

import click

from exlibris.cli.output import USER_ERROR, echo, note_ignored, note_skipped, report_problems
from exlibris.cli.own_content import content_option


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
@content_option
def validate(paths: tuple[Path, ...], as_json: bool, content: tuple[Path, ...]) -> None:
    """Check content and rules files: YAML, schema, the effect language and
    cross-references. With no PATHS (and no --content or EXLIBRIS_CONTENT), check
    the shipped content and rules.

    Folders may hold content, rules and scenarios together: each file is judged by
    its `kind:`; scenarios are read against the content beside them, and YAML files
    without a `kind:` are skipped with a note. Problems are printed as
    FILE:LINE:COL: message [code]. Exit status 0 when everything is clean, 2
    otherwise."""
    from exlibris.sources import content_paths, ignored_files

    chosen = [*paths, *content_paths(content)]
    if not chosen and (_checked_before(as_json) or _vouched_for(as_json)):
        return
    from exlibris.validation import validate as check_content

    report = check_content(chosen or None)
    if not chosen and report.ok:
        from exlibris.shipped_cache import mark_validated
        from exlibris.yamlsafe import record_of

        mark_validated(report.files, record_of)
    if report.unchecked:  # scenario files among the paths: the engine reads them
        from exlibris.scenario.check import read_scenarios

        read_scenarios(report)
    if as_json:
        report_problems(report.problems, as_json=True)
    else:
        for entry_id, file in report.replaced:
            echo(f"{entry_id}: your {file} replaces the shipped entry", err=True)
        note_skipped([Path(_shown(path)) for path in report.skipped])
        note_ignored([Path(_shown(path)) for path in ignored_files(chosen)])
        report_problems(report.problems)
        if report.unchecked:
            unchecked = _count(len(report.unchecked), "scenario file")
            echo(f"note: {unchecked} not checked until the content problems above are "
                       "fixed", err=True)
        if report.ok:
            echo(f"{_count(report.files, 'file')} checked, no problems.")
        else:
            echo(f"{_count(report.files, 'file')} checked, "
                       f"{_count(len(report.problems), 'problem')}.", err=True)
    if not report.ok:
        raise SystemExit(USER_ERROR)


def _checked_before(as_json: bool) -> bool:
    """Say the shipped files are clean if the per-user cache holds that check of them
    as they are now (``shipped_cache``): nothing is parsed then."""
    from exlibris.shipped_cache import validated_files

    files = validated_files()
    if files is None:
        return False
    _say_clean(files, as_json)
    return True


def _vouched_for(as_json: bool) -> bool:
    """Say the shipped files are clean if the package vouches for them as they are now
    (``prebuilt.checked``: the first command after an install, or no cache): nothing
    is read into a model nor checked then. The per-user cache remembers it as a check
    of its own would."""
    from exlibris import prebuilt

    files = prebuilt.checked()
    if files is None:
        return False
    from exlibris import shipped_cache

    if shipped_cache.enabled():
        from exlibris.yamlsafe import record_of

        shipped_cache.mark_validated(files, record_of)
    _say_clean(files, as_json)
    return True


def _say_clean(files: int, as_json: bool) -> None:
    """What a check of the shipped files that found no problem prints."""
    if as_json:
        report_problems([], as_json=True)
    else:
        echo(f"{_count(files, 'file')} checked, no problems.")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
