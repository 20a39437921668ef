"""Decisions: every choice in a game is asked of an agent as a ``Decision``.

A decision has a kind, the deciding seat and its legal options. Each option
has a stable, human-readable label, built only when someone asks for it (bots
that pick by index never pay for the strings). Agents answer with an index.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(slots=True)
class Decision:
    """A choice for one seat: ``kind`` (``place``, ``pick``, ``position``, ``may``,
    ``option``, ``category``, ``player``...), a prompt, and the options."""

    seat: int
    kind: str
    prompt: str
    values: Sequence[Any]
    labeller: Callable[[Any], str] = str
    _labels: list[str] | None = field(default=None, repr=False)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = [self.labeller(v) for v in self.values]
        return self._labels

    def __len__(self) -> int:
        return len(self.values)

    def index_of(self, label: str) -> int:
        """The option with this label; raises ``KeyError`` listing the labels."""
        try:
            return self.labels.index(label)
        except ValueError:
            raise KeyError(f"no option {label!r}; options: {self.labels}") from None


class Agent(Protocol):
    """Something that answers decisions for one seat."""

    def decide(self, view: Any, decision: Decision) -> int:
        """The index of the chosen option."""


class ReplayExhausted(Exception):
    """A scripted agent ran out of recorded answers."""
