"""The effect language's LALR tables, kept as JSON next to the grammar.

``grammar_tables.json`` holds what Lark's ``memo_serialize`` gives for
``grammar.lark``, with the Lark version and the grammar's SHA-256 it was made
from. JSON has no tuples and only string keys, so those are spelled
``{"<tuple>": [...]}`` and ``{"<keys>": [[key, value], ...]}``. Write it again
after changing the grammar or upgrading Lark::

    PYTHONPATH=. python scripts/write_grammar_tables.py

(``parser.py: write_tables``; ``tests/test_dsl_parser.py`` fails while it is out
of date). Lark numbers its states differently from one run to the next, so each
writing gives another file that parses alike: the test compares what they parse.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

FILE = "grammar_tables.json"


def load(lark_version: str, grammar_sha256: str) -> dict[str, Any] | None:
    """The kept tables, if they were made by this Lark from this grammar."""
    try:
        text = resources.files("exlibris.dsl").joinpath(FILE).read_text("utf-8")
        kept = json.loads(text, object_hook=_decode)
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("lark") != lark_version \
            or kept.get("grammar_sha256") != grammar_sha256:
        return None
    return kept.get("tables")


def dumps(tables: dict[str, Any], lark_version: str, grammar_sha256: str) -> str:
    return json.dumps({"lark": lark_version, "grammar_sha256": grammar_sha256,
                       "tables": _encode(tables)}, separators=(",", ":"), sort_keys=True)


def _encode(value: Any) -> Any:
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"<keys>": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"<tuple>": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__} in the grammar tables")


def _decode(found: dict[str, Any]) -> Any:
    if len(found) == 1:
        if "<keys>" in found:
            return {k: v for k, v in found["<keys>"]}
        if "<tuple>" in found:
            return tuple(found["<tuple>"])
    return found
