"""`exlibris validate`: check content and rules files."""

from __future__ import annotations

from pathlib import Path

import click

from exlibris.cli.output import USER_ERROR, report_problems


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
def validate(paths: tuple[Path, ...], as_json: bool) -> None:
    """Check content and rules files: YAML, schema, the effect language and
    cross-references. With no PATHS, check the shipped content and rules.

    Problems are printed as FILE:LINE:COL: message [code]. Exit status 0 when
    everything is clean, 2 otherwise."""
    from exlibris.validation import validate as run

    report = run(list(paths) if paths else None)
    if as_json:
        report_problems(report.problems, as_json=True)
    else:
        report_problems(report.problems)
        if report.ok:
            click.echo(f"{report.files} files checked, no problems.")
        else:
            click.echo(f"{report.files} files checked, {len(report.problems)} problems.",
                       err=True)
    if not report.ok:
        raise SystemExit(USER_ERROR)
