"""Decisions: every choice in a game is asked of an agent as a ``Decision``.

A decision has a kind, the deciding seat and its legal options. Each option has
a stable, human-readable label, built only when someone asks for it (bots that
pick by index never pay for the strings). ``values`` are public descriptors of
the options (see ``public.py``): an agent learns nothing from them that its
player could not see. Agents answer with an index.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from exlibris.engine.public import public


class Decision:
    """A choice for one seat: ``kind`` (``place``, ``pick``, ``position``, ``may``,
    ``option``, ``category``, ``home-action``...), a prompt, and the options."""

    __slots__ = ("_labeller", "_labels", "_raw", "_values", "data", "kind", "prompt", "seat")

    def __init__(self, seat: int, kind: str, prompt: str, values: Sequence[Any],
                 labeller: Callable[[Any], str] = str, data: dict[str, Any] | None = None
                 ) -> None:
        self.seat = seat
        self.kind = kind
        self.prompt = prompt
        self.data = data or {}
        self._raw = values
        self._labeller = labeller
        self._labels: list[str] | None = None
        self._values: list[Any] | None = None

    @property
    def values(self) -> list[Any]:
        """The options as public descriptors."""
        if self._values is None:
            self._values = [public(v) for v in self._raw]
        return self._values

    @property
    def handles(self) -> Sequence[Any]:
        """The engine's own objects behind the options: for the engine and white-box
        tests only. Agents use ``values``, which show what their player may know."""
        return self._raw

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = [self._labeller(v) for v in self._raw]
        return self._labels

    def label(self, index: int) -> str:
        """One option's label (without building the others)."""
        if self._labels is not None:
            return self._labels[index]
        return self._labeller(self._raw[index])

    def __len__(self) -> int:
        return len(self._raw)

    def index_of(self, label: str) -> int:
        """The option with this label; raises ``KeyError`` listing the labels."""
        try:
            return self.labels.index(label)
        except ValueError:
            raise KeyError(f"no option {label!r}; options: {self.labels}") from None

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat}, kind={self.kind!r}, {len(self)} options)"


class Agent(Protocol):
    """Something that answers decisions for one seat."""

    def decide(self, view: Any, decision: Decision) -> int:
        """The index of the chosen option."""


class ReplayExhausted(Exception):
    """A scripted agent ran out of recorded answers."""
