"""Syntax trees as plain JSON data and back, for the per-user cache (``tree_cache.py``).

A node is ``{"_": class name, field: value, ...}`` with every field, its line and
column included; a tuple is ``{"<tuple>": [...]}`` and a mapping
``{"<dict>": [[key, value], ...]}``. Reading builds only the node classes of
``ast.py``, from exactly their fields, and plain values: anything else is a
``ValueError``, so a damaged file can make nothing but a tree.
"""

from __future__ import annotations

import json
from dataclasses import fields
from functools import cache
from typing import Any

from exlibris.dsl import ast

_PLAIN = (str, int, bool, type(None))


@cache
def _classes() -> dict[str, tuple[type[ast.Node], frozenset[str]]]:
    """The node classes by name, as ``ast.py`` names them (not ``Node.__subclasses__``:
    ``dataclass(slots=True)`` leaves the class it replaced there until it is
    collected, a class of the same name that no ``match`` recognises)."""
    return {name: (cls, frozenset(f.name for f in fields(cls)))
            for name, cls in vars(ast).items()
            if isinstance(cls, type) and issubclass(cls, ast.Node) and cls.__name__ == name}


def encode(value: Any) -> Any:
    """A tree (or any value in one) as JSON data."""
    if isinstance(value, ast.Node):
        data = {"_": type(value).__name__}
        data.update((f.name, encode(getattr(value, f.name))) for f in fields(value))
        return data
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"<tuple>": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"<dict>": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, _PLAIN) and not isinstance(value, float):
        return value
    raise TypeError(f"a syntax tree holds no {type(value).__name__}")


def decode(data: Any) -> Any:
    """What ``encode`` gave; ``ValueError`` for anything it could not have given."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if isinstance(data, dict):  # its values first, then the object, as ``loads`` does
        return _object({k: decode(v) for k, v in data.items()})
    if isinstance(data, _PLAIN):
        return data
    raise ValueError(f"a syntax tree holds no {type(data).__name__}")


def loads(text: str | bytes) -> Any:
    """``decode(json.loads(text))``, each object decoded as the JSON parser makes it
    (its values already decoded): the same tree or the same ``ValueError``, without a
    second walk over the data."""
    return json.loads(text, object_hook=_object, parse_float=_no_number,
                      parse_constant=_no_number)


def _no_number(text: str) -> Any:
    """A float (or NaN, Infinity) read: no tree holds one."""
    raise ValueError(f"a syntax tree holds no float: {text[:20]!r}")


def _object(data: dict[str, Any]) -> Any:
    """One JSON object whose values are decoded: a tuple, a mapping or a node."""
    if data.keys() == {"<tuple>"} and isinstance(data["<tuple>"], list):
        return tuple(data["<tuple>"])
    if data.keys() == {"<dict>"} and isinstance(data["<dict>"], list):
        pairs = data["<dict>"]
        if not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                   for p in pairs):
            raise ValueError("a mapping in a tree is a list of [key, value] pairs")
        return {k: v for k, v in pairs}
    name = data.get("_")
    known = _classes().get(name) if isinstance(name, str) else None
    if known is None or data.keys() - {"_"} != known[1]:
        raise ValueError(f"not a syntax tree node: {str(name)[:40]!r}")
    del data["_"]
    return known[0](**data)
