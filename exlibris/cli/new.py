"""`exlibris new KIND ID`: write a commented skeleton of a content file that validates."""

from __future__ import annotations

import os
import re
from pathlib import Path

import click

from exlibris.authoring import KINDS
from exlibris.cli.output import USER_ERROR, echo
from exlibris.cli.own_content import content_option
from exlibris.safefile import (
    FileRefused,
    create_new,
    name_problem,
    remove_file,
    shown_path,
    write_output,
)

MAX_ID_CHARS = 64  # an id (``model.content.Slug``)

_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@click.command()
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("entry_id", metavar="ID")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path),
              default=Path("."), show_default=True, help="Folder to write ID.yaml into.")
@click.option("--schemas", type=click.Path(file_okay=False, path_type=Path),
              default=Path("schemas"), show_default=True,
              help="Your copy of the schemas (`exlibris schema --out schemas`), for the "
                   "editor line at the top of the file.")
@content_option
def new(kind: str, entry_id: str, folder: Path, schemas: Path,
        content: tuple[Path, ...]) -> None:
    """Write ID.yaml: a commented skeleton of a location, assistant, artifact,
    variant or scenario that validates as it is. A new location takes the lowest
    number that no location uses: shipped, --content, or already in the --dir
    folder."""
    from exlibris.authoring import free_number, skeleton
    from exlibris.cli.own_content import activate

    if not _SLUG.match(entry_id) or len(entry_id) > MAX_ID_CHARS:
        echo(f"exlibris new: {entry_id[:80]!r} is not an id: use lower-case words "
                   f"joined by hyphens (reading-nook), at most {MAX_ID_CHARS} characters",
                   err=True)
        raise SystemExit(USER_ERROR)
    target = folder / f"{entry_id}.yaml"
    for option, path in (("--dir", target), ("--schemas", schemas)):
        problem = name_problem(path)
        if problem is not None:
            echo(f"exlibris new: {option} {shown_path(path)}: {problem}", err=True)
            raise SystemExit(USER_ERROR)
    if os.path.lexists(target):
        echo(f"exlibris new: {shown_path(target)} exists; nothing written", err=True)
        raise SystemExit(USER_ERROR)
    catalog = activate(content)
    if kind != "scenario":
        kind_of = catalog.ids().get(entry_id) or (
            "variant" if entry_id in catalog.variants else None)
        if kind_of is not None:
            echo(f"exlibris new: {entry_id!r} is already the id of a {kind_of}; "
                       "choose another", err=True)
            raise SystemExit(USER_ERROR)
    number = free_number({loc.number for loc in catalog.locations.values()}
                         | _numbers_in(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not create_new(target):  # a link (even dangling) or a file: never written
            raise FileRefused("file/exists", "a file or a link is there; nothing written")
        try:
            write_output(target, skeleton(kind, entry_id, folder=folder, schemas=schemas,
                                          number=number))
        except (FileRefused, OSError):
            remove_file(target)  # the empty file this command made
            raise
    except FileRefused as exc:
        echo(f"exlibris new: cannot write {shown_path(target)}: {exc}", err=True)
        raise SystemExit(USER_ERROR) from None
    except OSError as exc:
        echo(f"exlibris new: cannot write {shown_path(target)}: "
                   f"{exc.strerror or exc}", err=True)
        raise SystemExit(USER_ERROR) from None
    echo(f"wrote {target}")
    if not schemas.exists():
        echo(f"The editor line points at {schemas}/; write the schemas there with: "
                   f"exlibris schema --out {schemas}", err=True)


def _numbers_in(folder: Path) -> set[int]:
    """The numbers of the locations already in ``folder`` (the author's own, even
    without --content); files that do not read are left to `validate`."""
    if not folder.is_dir():
        return set()
    from exlibris.catalog import read_catalog

    return {loc.number for loc in read_catalog([folder])[0].locations.values()}
