"""Where an assistant may be placed: the value of a placement option."""

from __future__ import annotations

from dataclasses import dataclass

from exlibris.engine.state import Assistant, LocationState


@dataclass(slots=True, unsafe_hash=True)
class Target:
    """Where an assistant may be placed (a value: never changed once made; not
    ``frozen`` only because frozen dataclasses are four times slower to build)."""

    location: LocationState | None  # None: a home space
    space: int
    bid: int = 0
    share: bool = False
    displaces: Assistant | None = None


_HOME: list[Target] = []


def home_target(space: int) -> Target:
    """The target of home space ``space`` (values, so one of each serves every game)."""
    while len(_HOME) <= space:
        _HOME.append(Target(None, len(_HOME)))
    return _HOME[space]


def home_targets(spaces: int) -> list[Target]:
    """The targets of home spaces ``0..spaces-1``."""
    if spaces:
        home_target(spaces - 1)
    return _HOME[:spaces]
