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

And it says (``checked``) that ``exlibris validate`` of the shipped files, run as a
first one is (no cache, nothing prebuilt, every file and text parsed), found them
clean: for the set of files as it was (each file's path inside its folder and the
SHA-256 of its bytes), by the checker's code as it was (``checker_key``: the
SHA-256 of ``validation.py`` and of every module it imports), and with ``typed``
holding. While all of that is as it is now, a first ``validate`` of the shipped files
says so without reading them into models or checking their effects
(``cli/validate.py``): only an author's own files, or shipped files that differ,
are checked.
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

# the code whose verdict ``checked`` holds: ``validation.py`` and every module of the
# package it imports (``tests/test_prebuilt.py`` holds the list to the import graph),
# and the grammar's files
CHECKER = ("validation.py", "__init__.py", "catalog.py", "errors.py", "limits.py",
           "paths.py", "prebuilt.py", "safefile.py", "schema_words.py", "shipped_cache.py",
           "shown.py", "sources.py", "yamlsafe.py",
           "dsl/__init__.py", "dsl/ast.py", "dsl/ast_json.py", "dsl/checker.py",
           "dsl/effect_texts.py", "dsl/errors.py", "dsl/grammar_tables.py",
           "dsl/lark_parser.py", "dsl/parser.py", "dsl/tree_cache.py", "dsl/vocabulary.py",
           "dsl/grammar.lark", "dsl/grammar_tables.json",
           "model/__init__.py", "model/cards.py", "model/construct.py", "model/content.py",
           "model/merging.py", "model/rules.py", "model/variants.py",
           "scoring/__init__.py", "scoring/categories.py", "scoring/settings.py")


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
    now (another version may validate by its own rules; "" when not known) and the
    SHA-256 of the models' code."""
    return {"pydantic": installed_version("pydantic"),
            "pydantic-core": installed_version("pydantic_core"),
            "models": _files_key(f"{_FORMAT}", MODELS)}


def installed_version(package: str) -> str:
    """The version of the distribution that installed the top-level ``package``, as the
    ``.dist-info`` folder beside it names it (found without importing the package, whose
    import a first ``validate`` has no other need of, nor ``importlib.metadata``); ""
    unless there is exactly one."""
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec(package)
    if spec is None or not spec.origin:
        return ""
    prefix, suffix = f"{package}-", ".dist-info"
    try:
        names = [name for name in os.listdir(Path(spec.origin).parent.parent)
                 if name.startswith(prefix) and name.endswith(suffix)]
    except OSError:
        return ""
    return names[0][len(prefix):-len(suffix)] if len(names) == 1 else ""


def checker_key() -> str:
    """The SHA-256 of the format and of the checker's code (``CHECKER``)."""
    return _files_key(f"{_FORMAT}", CHECKER)


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
    stored, key = _stored(), typed_key()
    return bool(stored["records"]) and all(key.values()) and stored.get("typed") == key


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


def shipped_set_key() -> str | None:
    """The SHA-256 of the shipped set as it is now: each YAML file's path inside its
    folder (``content/``, ``rules/``) and the SHA-256 of its bytes; None if a link
    leads to any of them (where it is, and whether ``validate`` reports it, takes
    resolving it) or one cannot be read (``validate`` says why)."""
    from exlibris.errors import UserInputError
    from exlibris.limits import MAX_FILE_BYTES
    from exlibris.paths import content_dir, rules_dir
    from exlibris.safefile import FileRefused, read_limited
    from exlibris.sources import unlinked_files

    digest = hashlib.sha256(b"shipped set")
    for label, folder in (("content", content_dir()), ("rules", rules_dir())):
        try:
            found = unlinked_files(folder)
        except UserInputError:  # too many files, too deep: validate says so
            return None
        if found is None:
            return None
        for path, inside in found:
            try:
                raw = read_limited(path, MAX_FILE_BYTES)
            except (FileRefused, OSError):
                return None
            digest.update(f"\0{label}/{inside}\0".encode() + hashlib.sha256(raw).digest())
    return digest.hexdigest()


def checked() -> int | None:
    """How many files ``exlibris validate`` of the shipped files checks, if the package
    vouches that they are clean as they are now (``checked``: the same set of files,
    the same checker, ``typed`` holding); else None."""
    stamp = _stored().get("checked")
    if not isinstance(stamp, dict) or stamp.get("code") != checker_key() or not typed():
        return None
    files = stamp.get("files")
    if not isinstance(files, int) or isinstance(files, bool):
        return None
    return files if stamp.get("set") == shipped_set_key() else None
