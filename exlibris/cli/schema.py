"""`exlibris schema`: write the JSON Schemas of every kind of file."""

from __future__ import annotations

from pathlib import Path

import click

from exlibris.cli.output import USER_ERROR, echo


@click.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write into, e.g. `schemas` in your own repository (default: "
                   "the schemas/ folder of a source checkout).")
@click.option("--check", is_flag=True,
              help="Only report stale schemas, of --out or else of ./schemas: one line "
                   "either way; exit 2 if any is stale or missing, or there is no folder.")
def schema(out: Path | None, check: bool) -> None:
    """Write one JSON Schema per kind of file (draft 2020-12): location, library,
    assistant, artifact, module, variant, scenario, categories, books.

    Editors check a file against its schema through a first line such as
    `# yaml-language-server: $schema=../schemas/location.json` (what `exlibris new`
    writes). From a pip install, write the schemas into your own repository with
    `exlibris schema --out schemas`."""
    from exlibris.paths import data_root
    from exlibris.schemas import write_schemas

    if check:
        folder = out or Path("schemas")  # what an author's editor line points at
        if not folder.is_dir():
            echo(f"exlibris schema: no schemas in {folder}/ to check; write them with "
                       f"`exlibris schema --out {folder}`", err=True)
            raise SystemExit(USER_ERROR)
        stale = write_schemas(folder, check=True)
        if stale:
            missing = [n for n in stale if not (folder / n).exists()]
            changed = [n for n in stale if n not in missing]
            said = "; ".join(part for part in (
                f"stale: {', '.join(changed)}" if changed else "",
                f"missing: {', '.join(missing)}" if missing else "") if part)
            echo(f"exlibris schema: {said}; regenerate them with "
                       f"`exlibris schema --out {folder}`", err=True)
            raise SystemExit(USER_ERROR)
        echo("schemas are up to date")
        return
    if out is None and (data_root() / "exlibris").is_dir() is False:
        echo("exlibris schema: this is an installed copy; choose a folder with --out "
                   "(e.g. --out schemas)", err=True)
        raise SystemExit(USER_ERROR)
    stale = write_schemas(out)
    echo(f"wrote {len(stale)} schemas to {out or 'schemas'}")
