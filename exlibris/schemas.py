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
    nullable: set[str] = set()
    schema = _optional_in_place(schema, nullable)
    for name in nullable:  # a mapping that may be left empty (null): said in the mapping
        target = schema.get("$defs", {}).get(name)
        if isinstance(target, dict) and target.get("type") == "object":
            target["type"] = ["object", "null"]
    return {"$schema": DIALECT, "$id": f"{BASE_ID}{kind}.json", **schema}


_NULL = {"type": "null"}


def _optional_in_place(node: object, nullable: set[str]) -> object:
    """``X | None`` without the ``anyOf`` pydantic writes for it: null joins X's own
    ``type`` (or the mapping ``$ref`` names, listed in ``nullable``). An editor then
    checks a value against X alone and points at what is wrong inside it (an unknown
    setting), not at the union ("not valid under any of the given schemas"). X's
    other keywords apply only to values of X's type, so null passes them."""
    if isinstance(node, list):
        return [_optional_in_place(item, nullable) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _optional_in_place(value, nullable) for key, value in node.items()}
    union = node.get("anyOf")
    if not (isinstance(union, list) and len(union) == 2 and _NULL in union):
        return node
    (other,) = [member for member in union if member != _NULL]
    if not isinstance(other, dict) or "anyOf" in other or "oneOf" in other:
        return node
    merged = {key: value for key, value in node.items() if key != "anyOf"}
    ref = other.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and len(other) == 1:
        nullable.add(ref.removeprefix("#/$defs/"))
        return {**merged, "$ref": ref}
    kind = other.get("type")
    if isinstance(kind, str) and "const" not in other and "enum" not in other:
        return {**merged, **other, "type": [kind, "null"]}
    if "enum" in other and isinstance(other["enum"], list):
        return {**merged, **other, "enum": [*other["enum"], None]}
    return node


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
    from exlibris.safefile import write_atomic

    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
    except OSError as exc:
        _refuse(path, "file/unwritable", f"cannot write the schema: {exc.strerror or exc}")


def _refuse(path: Path, code: str, message: str) -> NoReturn:
    from exlibris.errors import Problem, UserInputError
    from exlibris.safefile import shown_path

    raise UserInputError([Problem(shown_path(path), 1, 1, code, message)])
