"""Writes ``prebuilt.json`` (``prebuilt.py``) from the shipped files as they are:

    python -m exlibris.prebuilt_write [FILE]
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from exlibris.prebuilt import (
    _FORMAT,
    _PACKAGE,
    FILE,
    checker_key,
    code_key,
    shipped_set_key,
    typed_key,
)

# a first ``exlibris validate`` of the shipped files, as a user's is: no cache, nothing
# prebuilt (every file and text parsed), what it found as JSON
_VALIDATE = (
    "import json\n"
    "from exlibris.validation import validate\n"
    "report = validate()\n"
    "print(json.dumps({'ok': report.ok, 'files': report.files,\n"
    "                  'other': bool(report.skipped or report.unchecked or report.replaced)}))\n")


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
    key = typed_key()
    typed = key if all(key.values()) and typed_stamp(list(records.values())) else None
    return {"format": _FORMAT, "code": code_key(), "typed": typed,
            "checked": checked_stamp() if typed else None,
            "records": dict(sorted(records.items())), "trees": dict(sorted(trees.items()))}


def checked_stamp() -> dict[str, Any] | None:
    """What ``prebuilt.checked`` vouches for: the shipped set's key, the checker's and
    how many files ``validate`` checked, if a first ``validate`` of the shipped files
    (run in a process of its own, as a user's is) finds them clean; else None."""
    found = shipped_set_key()
    if found is None:
        return None
    paths = os.environ.get("PYTHONPATH")
    env = {**os.environ, "EXLIBRIS_NO_CACHE": "1", "EXLIBRIS_NO_PREBUILT": "1",
           "PYTHONPATH": os.pathsep.join([str(_PACKAGE.parent), *([paths] if paths else [])])}
    done = subprocess.run([sys.executable, "-c", _VALIDATE], env=env, capture_output=True,
                          text=True, check=False, timeout=600)
    try:
        report = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    if done.returncode or not report["ok"] or report["other"]:
        return None
    return {"code": checker_key(), "set": found, "files": report["files"]}


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
             f'"typed": {json.dumps(built["typed"])},',
             f'"checked": {json.dumps(built["checked"])},', '"records": {']
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
