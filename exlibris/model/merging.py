"""Deep-merging plain settings maps (a variant over the rules it extends).

Kept apart from the pydantic models in ``rules.py`` so that reading a table file
(``exlibris score``) merges a variant's scoring settings without building them.
"""

from __future__ import annotations

from typing import Any


def merge(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge ``overlay`` onto ``base`` (maps merge, everything else replaces)."""
    merged = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged
