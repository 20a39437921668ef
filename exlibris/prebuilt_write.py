"""Writes ``prebuilt.json`` (``prebuilt.py``) from the shipped files as they are:

    python -m exlibris.prebuilt_write [FILE]
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from exlibris.prebuilt import _FORMAT, FILE, code_key, typed_key


def build() -> dict[str, Any]:
    """Parse every shipped file and text: the file's contents."""
    from exlibris.dsl import ast_json, lark_parser
    from exlibris.dsl.effect_texts import texts
    from exlibris.dsl.errors import DslError
    from exlibris.paths import content_dir, rules_dir
    from exlibris.safefile import read_limited
    from exlibris.sources import yaml_files
    from exlibris.yamlsafe import record_of

    records: dict[str, Any] = {}
    trees: dict[str, str] = {}
    for path in yaml_files([content_dir(), rules_dir()]):
        raw = read_limited(path, 1 << 24)
        made = record_of(raw.decode("utf-8"), str(path))
        if made is None or json.loads(json.dumps(made)) != made:
            continue  # parsed (and refused) each time
        records[hashlib.sha256(raw).hexdigest()] = made
        for start, text in texts(made["data"]):
            try:
                tree = ast_json.encode(lark_parser.parse(text, start))
            except (DslError, TypeError, RecursionError):
                continue  # an error is Lark's to tell each time
            trees[f"{start}\0{text}"] = json.dumps(tree, separators=(",", ":"))
    return {"format": _FORMAT, "code": code_key(),
            "typed": typed_key() if typed_stamp(list(records.values())) else None,
            "records": dict(sorted(records.items())), "trees": dict(sorted(trees.items()))}


def typed_stamp(records: list[dict[str, Any]]) -> bool:
    """True if every record validates into the model of its ``kind`` and every variant
    among them resolves to valid settings (what ``prebuilt.typed`` then vouches for)."""
    from pydantic import ValidationError

    from exlibris.catalog import KINDS
    from exlibris.model.rules import Variant
    from exlibris.model.variants import resolve_settings

    variants = {}
    try:
        for made in records:
            data = made["data"]
            model = KINDS[data["kind"]].model_validate(data)
            if isinstance(model, Variant):
                variants[model.id] = model
        for variant_id in variants:
            resolve_settings(variant_id, variants)
    except (ValidationError, ValueError, KeyError, TypeError, RecursionError):
        return False
    return True


def text_of(built: dict[str, Any]) -> str:
    """The file's text: one record or tree a line, so that a change reads as a diff."""
    lines = ["{", f'"format": {json.dumps(built["format"])},',
             f'"code": {json.dumps(built["code"])},',
             f'"typed": {json.dumps(built["typed"])},', '"records": {']
    for group in ("records", "trees"):
        items = list(built[group].items())
        lines += [f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}"
                  + ("," if i < len(items) - 1 else "") for i, (k, v) in enumerate(items)]
        lines.append("}," if group == "records" else "}")
        if group == "records":
            lines.append('"trees": {')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write ``prebuilt.json`` (or the file named) from the shipped files as they are."""
    from exlibris.safefile import write_output

    write_output(Path(argv[0]) if argv else FILE, text_of(build()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
