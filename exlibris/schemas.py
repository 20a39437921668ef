"""JSON Schemas generated from the models, one per kind of file."""

from __future__ import annotations

import json
from pathlib import Path

from exlibris.catalog import KINDS
from exlibris.paths import schemas_dir

DIALECT = "https://json-schema.org/draft/2020-12/schema"
BASE_ID = "https://exlibris.invalid/schemas/"


def schema_for(kind: str) -> dict:
    """The JSON Schema of one kind of file."""
    schema = KINDS[kind].model_json_schema()
    return {"$schema": DIALECT, "$id": f"{BASE_ID}{kind}.json", **schema}


def rendered() -> dict[str, str]:
    """File name -> text of every schema."""
    return {f"{kind}.json": json.dumps(schema_for(kind), indent=2, sort_keys=True) + "\n"
            for kind in sorted(KINDS)}


def write_schemas(out: Path | None = None, *, check: bool = False) -> list[str]:
    """Write the schemas (or, with ``check``, list those that differ on disk)."""
    folder = out or schemas_dir()
    changed: list[str] = []
    for name, text in rendered().items():
        path = folder / name
        current = path.read_text("utf-8") if path.exists() else None
        if current != text:
            changed.append(name)
            if not check:
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text, "utf-8")
    return changed if check else list(rendered())
