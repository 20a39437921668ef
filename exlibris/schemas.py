"""JSON Schemas generated from the models, one per kind of file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

from pydantic import BaseModel

from exlibris.catalog import KINDS
from exlibris.paths import schemas_dir
from exlibris.scenario.schema import ScenarioFile

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_VERSION = 1
BASE_ID = f"urn:exlibris:schema:{SCHEMA_VERSION}:"
"""Every schema's ``$id`` is ``urn:exlibris:schema:1:KIND.json``: a name that stays the
same across releases until the file formats change (then the number goes up). Editors
find the schema through the modeline's relative path, not through the ``$id``."""

SCHEMA_KINDS: dict[str, type[BaseModel]] = {**KINDS, "scenario": ScenarioFile}


def schema_for(kind: str) -> dict:
    """The JSON Schema of one kind of file."""
    schema = SCHEMA_KINDS[kind].model_json_schema()
    return {"$schema": DIALECT, "$id": f"{BASE_ID}{kind}.json", **schema}


def rendered() -> dict[str, str]:
    """File name -> text of every schema."""
    return {f"{kind}.json": json.dumps(schema_for(kind), indent=2, sort_keys=True) + "\n"
            for kind in sorted(SCHEMA_KINDS)}


def write_schemas(out: Path | None = None, *, check: bool = False) -> list[str]:
    """Write the schemas (or, with ``check``, list those that differ on disk)."""
    folder = out or schemas_dir()
    changed: list[str] = []
    for name, text in rendered().items():
        path = folder / name
        if _current(path, len(text)) != text:
            changed.append(name)
            if not check:
                _write(folder, path, text)
    return changed if check else list(rendered())


def _current(path: Path, size: int) -> str | None:
    """The schema on disk, read within a byte more than the new one (None: absent,
    larger, or not text); a device, a FIFO or a folder there is a ``UserInputError``."""
    from exlibris.safefile import FileRefused, read_limited

    try:
        return read_limited(path, size + 1).decode("utf-8")
    except UnicodeDecodeError:
        return None
    except FileRefused as exc:
        if exc.code == "file/not-regular":
            _refuse(path, exc.code, f"{exc}; only regular files are replaced")
        return None


def _write(folder: Path, path: Path, text: str) -> None:
    from exlibris.safefile import FileRefused, write_output

    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_output(path, text)
    except FileRefused as exc:
        _refuse(path, "file/unwritable", f"cannot write the schema: {exc}")
    except OSError as exc:
        _refuse(path, "file/unwritable", f"cannot write the schema: {exc.strerror or exc}")


def _refuse(path: Path, code: str, message: str) -> NoReturn:
    from exlibris.errors import Problem, UserInputError
    from exlibris.safefile import shown_path

    raise UserInputError([Problem(shown_path(path), 1, 1, code, message)])
