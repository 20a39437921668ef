"""`exlibris schema`: regenerate the JSON Schemas from the models."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write into (default: the schemas/ folder of this checkout).")
@click.option("--check", is_flag=True,
              help="Only report stale schemas: one line either way; exit 2 if any is stale.")
def schema(out: Path | None, check: bool) -> None:
    """Write one JSON Schema per kind of content file (draft 2020-12)."""
    from exlibris.cli.output import USER_ERROR
    from exlibris.schemas import write_schemas

    stale = write_schemas(out, check=check)
    if check:
        if stale:
            click.echo(f"exlibris schema: stale: {', '.join(stale)}; regenerate them with "
                       "`exlibris schema`", err=True)
            raise SystemExit(USER_ERROR)
        click.echo("schemas are up to date")
        return
    click.echo(f"wrote {len(stale)} schemas")
