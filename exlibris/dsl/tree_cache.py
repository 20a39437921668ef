"""The syntax trees of the shipped content's effects, kept in the per-user cache.

Importing Lark, loading its tables and parsing take a good part of a game's
start-up, for the same texts every time. So the tree of every effect-language
text of the shipped files (their ``effect``, ``when``, ``placement`` and ``score``
fields) is kept as JSON data (``ast_json.py``; never pickled objects; each tree as
JSON text of its own, read only when its text is parsed) in one file,
``trees-KEY.json``, beside the shipped files' cache (``shipped_cache.py``: the same
private folder, read only when the folder and the file are the user's alone).

The key is the shipped cache's (the exlibris version, the package's files, each
shipped file's SHA-256) and Lark's own files'. The file is written the first time
a text is parsed with no file for the key (every shipped text is parsed then, by
Lark); a damaged or foreign file, or a tree that does not read back, is passed over
and the text parsed by Lark. A text found here is one that parsed: every error is
Lark's to find and explain.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.util import find_spec
from typing import Any

from exlibris import prebuilt, shipped_cache
from exlibris.dsl import ast_json
from exlibris.dsl.effect_texts import texts

_FORMAT = 3
_state: dict[str, Any] = {}  # "trees": what this process read or wrote (None: no cache)


def lookup(start: str, text: str) -> Any | None:
    """A fresh copy of the tree of ``text`` parsed from ``start``, or None."""
    trees = _trees() if shipped_cache.enabled() else None
    found = trees.get(f"{start}\0{text}") if trees is not None else None
    if not isinstance(found, str):
        return None
    try:
        return ast_json.loads(found)
    except (ValueError, TypeError, RecursionError):
        return None


def _trees() -> dict[str, Any] | None:
    if "trees" not in _state:
        _state["trees"] = _load()
    return _state["trees"]


def clear() -> None:
    """Forget what this process read (tests)."""
    _state.clear()


def _key() -> str | None:
    shipped = shipped_cache.key()
    if shipped is None:
        return None
    spec = find_spec("lark")
    try:
        info = os.stat(spec.origin) if spec is not None and spec.origin else None
    except OSError:
        info = None
    lark = f"{spec.origin}:{info.st_size}:{info.st_mtime_ns}" if info else "none"
    return hashlib.sha256(f"{_FORMAT}\0{shipped}\0{lark}".encode()).hexdigest()


def _load() -> dict[str, Any] | None:
    key = _key()
    if key is None:
        return None
    name = f"trees-{key[:32]}.json"
    raw = shipped_cache.read_private(name)
    if raw is not None:
        try:
            stored = json.loads(raw)
            if stored.get("key") == key and isinstance(stored.get("trees"), dict):
                return stored["trees"]  # type: ignore[no-any-return]
        except (ValueError, AttributeError, RecursionError):
            pass
    return _fill(key, name)


def _fill(key: str, name: str) -> dict[str, Any] | None:
    """Parse every shipped text (with Lark, unless the package has its tree: ``prebuilt``)
    and write the file (None: no shipped cache)."""
    records = shipped_cache.records()
    if records is None:
        return None
    from exlibris.dsl.errors import DslError

    trees: dict[str, Any] = {}
    for record in records.values():
        for start, text in texts(record.get("data")):
            made = prebuilt.tree_text(start, text)
            if made is not None:  # parsed when the package was made
                trees[f"{start}\0{text}"] = made
                continue
            from exlibris.dsl import lark_parser

            try:
                tree = ast_json.encode(lark_parser.parse(text, start))
            except (DslError, TypeError, RecursionError):
                continue  # an error is Lark's to tell each time
            trees[f"{start}\0{text}"] = json.dumps(tree, separators=(",", ":"))
    shipped_cache.write_private(name, json.dumps({"key": key, "trees": trees},
                                                 separators=(",", ":")))
    return trees
