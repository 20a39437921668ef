"""The shipped files parsed ahead of time, shipped with the package.

The first command after an install has no per-user cache (``shipped_cache.py``,
``dsl/tree_cache.py``) yet, and ``EXLIBRIS_NO_CACHE=1`` keeps it off: every shipped
file would be parsed as YAML and every effect-language text in it by Lark, which is
most of what a first ``exlibris validate`` does. ``prebuilt.json``, beside this
module, holds what those parsers make of the shipped files as they are in the
repository: each file's record (``yamlsafe.LoadedYaml.record``: its data and node
positions) under the SHA-256 of its bytes, and the syntax tree of each of its texts
(``ast_json``) under its rule and text. It is plain JSON data, never pickled objects.

A record is used only for a file whose bytes have that SHA-256, and a tree only for
the very text it was parsed from, so an edited file or an author's own text is parsed
as before. The whole file is passed over when the code that makes records and trees
has changed since it was written (``code_key``: the SHA-256 of those modules and of
the grammar), or when it is missing or damaged. ``tests/test_prebuilt.py`` holds it to
what the parsers make now; ``EXLIBRIS_NO_PREBUILT=1`` turns it off (every file and
text parsed, as the tests that compare with the parsers want).

It also says (``typed``) that every record read into its model and every shipped
variant resolved to valid settings when it was written, by the models' code and the
pydantic and pydantic-core versions it names (``typed_key``): with those as they are
now, a file read from its record is built from it without validating it again
(``model/construct.py``), as the per-user cache's ``typed`` allows. After a change to
the shipped content, to that code or to the models, write it again:

    python -m exlibris.prebuilt_write
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent
FILE = _PACKAGE / "prebuilt.json"
_FORMAT = 1
# the code whose output the file holds: a change to any of it passes the file over
CODE = ("yamlsafe.py", "dsl/grammar.lark", "dsl/lark_parser.py", "dsl/ast.py",
        "dsl/ast_json.py")
# the code that says whether a record reads into its model (the models, which model a
# kind is, and how a trusted record is built)
MODELS = ("model/content.py", "model/rules.py", "model/merging.py", "model/construct.py",
          "model/variants.py", "limits.py", "catalog.py")


def _files_key(label: str, names: tuple[str, ...]) -> str:
    """The SHA-256 (hex) of ``label`` and of the package's files ``names``."""
    digest = hashlib.sha256(label.encode())
    for name in names:
        try:
            data = (_PACKAGE / name).read_bytes()
        except OSError:
            data = b""
        digest.update(f"\0{name}\0".encode() + hashlib.sha256(data).digest())
    return digest.hexdigest()


def code_key() -> str:
    """The SHA-256 of the format and of the code that makes records and trees."""
    return _files_key(f"{_FORMAT}", CODE)


@cache
def typed_key() -> dict[str, str]:
    """What ``typed`` vouches for: the versions of pydantic and pydantic-core installed
    now (another version may validate by its own rules) and the SHA-256 of the models'
    code."""
    from pydantic.version import VERSION
    from pydantic_core import __version__ as core

    return {"pydantic": VERSION, "pydantic-core": core,
            "models": _files_key(f"{_FORMAT}", MODELS)}


@cache
def _stored() -> dict[str, Any]:
    """The file's records and trees, or empty ones (missing, damaged, stale, or
    turned off by ``EXLIBRIS_NO_PREBUILT=1``)."""
    empty: dict[str, Any] = {"records": {}, "trees": {}}
    if os.environ.get("EXLIBRIS_NO_PREBUILT", "") not in ("", "0"):
        return empty
    try:
        stored = json.loads(FILE.read_bytes())
    except (OSError, ValueError, RecursionError):
        return empty
    if not isinstance(stored, dict) or stored.get("code") != code_key() \
            or not isinstance(stored.get("records"), dict) \
            or not isinstance(stored.get("trees"), dict):
        return empty
    return stored


def record(sha256: str) -> dict[str, Any] | None:
    """The record of the file whose bytes have the SHA-256 ``sha256`` (hex), if it is
    a shipped file as the package was made."""
    found = _stored()["records"].get(sha256)
    return found if isinstance(found, dict) else None


def typed() -> bool:
    """True if every record reads into its model and every shipped variant resolves,
    by the models and the pydantic installed now (``typed_key``)."""
    stored = _stored()
    return bool(stored["records"]) and stored.get("typed") == typed_key()


def tree_text(start: str, text: str) -> str | None:
    """The JSON text of the tree of ``text`` parsed from rule ``start``, if it is a
    shipped text (``tree_cache`` decodes it)."""
    found = _stored()["trees"].get(f"{start}\0{text}")
    return found if isinstance(found, str) else None


def tree(start: str, text: str) -> Any | None:
    """A fresh copy of the tree of ``text`` parsed from rule ``start``, if it is a
    shipped text."""
    found = tree_text(start, text)
    if found is None:
        return None
    from exlibris.dsl import ast_json

    try:
        return ast_json.loads(found)
    except (ValueError, TypeError, RecursionError):
        return None
