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


def home_targets(spaces: int) -> list[Target]:
    """The targets of home spaces ``0..spaces-1`` (values, so one of each serves every
    game)."""
    while len(_HOME) < spaces:
        _HOME.append(Target(None, len(_HOME)))
    return _HOME[:spaces]


def free_home_targets(home: list[Assistant | None]) -> list[Target]:
    """The targets of the home spaces of ``home`` that no assistant holds."""
    return [t for t, held in zip(home_targets(len(home)), home, strict=True) if held is None]
