"""The effect-language texts of a content file's data: which fields hold them, and the
grammar rule each is parsed from (used by the tree cache and the prebuilt trees)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# the fields of a content file that hold effect-language text, and the rule of each
FIELDS = {"effect": "program", "when": "trigger", "placement": "rule", "score": "expression"}


def texts(data: Any) -> Iterator[tuple[str, str]]:
    """Each effect-language text in a file's data, with the rule it is parsed from."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for field, value in item.items():
                start = FIELDS.get(field) if isinstance(field, str) else None
                if start is not None and isinstance(value, str):
                    yield start, value
                elif start == "rule" and isinstance(value, list):
                    yield from ((start, v) for v in value if isinstance(v, str))
                else:
                    stack.append(value)
