"""Deep-merging plain settings maps (a variant over the rules it extends).

Kept apart from the pydantic models in ``rules.py`` so that reading a table file
(``exlibris score``) merges a variant's scoring settings without building them.
"""

from __future__ import annotations

from collections.abc import Callable
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


class ChainError(ValueError):
    """A variant chain that cannot be followed: an unknown parent or a cycle."""

    def __init__(self, message: str, missing: str | None = None) -> None:
        super().__init__(message)
        self.missing = missing


def parents_of(extends: Any) -> list[str]:
    """The parents an ``extends:`` value names: none, one id, or a list of ids."""
    if isinstance(extends, str):
        return [extends]
    if isinstance(extends, list | tuple):
        return [p for p in extends if isinstance(p, str)]
    return []


def linearize(start: str, parents: Callable[[str], list[str] | None]) -> list[str]:
    """``start`` and its ancestors, each once, in merge order (base first, ``start``
    last): each parent's chain in the order the parents are listed, so a later parent
    wins over an earlier one. ``parents(id)`` is None for an unknown id (``ChainError``
    names it); a cycle raises ``ChainError`` naming the ids around it."""
    order: list[str] = []
    done: set[str] = set()
    # an explicit stack of (id, its parents, the next parent to visit): no recursion,
    # so a long chain of rules files cannot exhaust Python's stack
    stack: list[tuple[str, list[str], int]] = []
    path: list[str] = []

    def enter(current: str) -> None:
        if current in path:
            loop = [*path[path.index(current):], current]
            if len(loop) == 2:
                raise ChainError(f"variant {current!r} extends itself")
            raise ChainError(f"these variants extend each other in a cycle: "
                             f"{' -> '.join(loop)}; one of them must extend another "
                             "(standard, for example)")
        found = parents(current)
        if found is None:
            raise ChainError(f"unknown variant {current!r}", missing=current)
        stack.append((current, found, 0))
        path.append(current)

    enter(start)
    while stack:
        current, found, i = stack[-1]
        if i < len(found):
            stack[-1] = (current, found, i + 1)
            if found[i] not in done:
                enter(found[i])
            continue
        stack.pop()
        path.pop()
        done.add(current)
        order.append(current)
    return order
