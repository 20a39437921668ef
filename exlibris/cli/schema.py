"""`exlibris schema`: regenerate the JSON Schemas from the models."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write into (default: the schemas/ folder of this checkout).")
@click.option("--check", is_flag=True, help="Only report stale schemas; exit 1 if any.")
def schema(out: Path | None, check: bool) -> None:
    """Write one JSON Schema per kind of content file (draft 2020-12)."""
    from exlibris.schemas import write_schemas

    stale = write_schemas(out, check=check)
    if check:
        for name in stale:
            click.echo(f"stale: {name}", err=True)
        raise SystemExit(1 if stale else 0)
    click.echo(f"wrote {len(stale)} schemas")
