"""What an agent may know about the options of a decision.

Decision values shown to agents are public descriptors: ids, names, numbers,
seats and the content entries (printed on the tiles), never the engine's live
objects, through which hands, face-down card areas or the deck could be read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exlibris.engine.abilities import CompiledAbility, Source
from exlibris.engine.state import Assistant, LocationState, PlayerState, Space
from exlibris.engine.targets import Target
from exlibris.model.content import Location, SpecialAssistant


@dataclass(frozen=True, slots=True)
class PublicPlayer:
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class PublicLocation:
    id: str
    number: int
    name: str
    instant: bool
    spec: Location


@dataclass(frozen=True, slots=True)
class PublicAssistant:
    id: str
    owner: int
    kind: str
    name: str
    spec: SpecialAssistant | None


@dataclass(frozen=True, slots=True)
class PublicSpace:
    location: PublicLocation
    index: int


@dataclass(frozen=True, slots=True)
class PublicTarget:
    """A place for an assistant: a location space (``location``) or a home space."""

    location: PublicLocation | None
    space: int
    bid: int = 0
    share: bool = False
    displaces: PublicAssistant | None = None


@dataclass(frozen=True, slots=True)
class PublicAbility:
    """An ability offered as an option (the Mummy's entombing, say)."""

    label: str
    timing: str
    text: str


def public(value: Any) -> Any:
    """The public descriptor of a decision value (cards and plain values as they are)."""
    if isinstance(value, CompiledAbility):
        return PublicAbility(value.label, value.timing, value.text)
    if isinstance(value, Source):
        return public(value.this)
    if isinstance(value, tuple):
        return tuple(public(v) for v in value)
    if isinstance(value, PlayerState):
        return PublicPlayer(value.seat, value.name)
    if isinstance(value, LocationState):
        return PublicLocation(value.id, value.number, value.spec.name, value.instant, value.spec)
    if isinstance(value, Assistant):
        return PublicAssistant(value.id, value.owner, value.kind, value.name, value.spec)
    if isinstance(value, Space):
        return PublicSpace(public(value.location), value.index)
    if isinstance(value, Target):
        return PublicTarget(public(value.location) if value.location else None, value.space,
                            value.bid, value.share,
                            public(value.displaces) if value.displaces else None)
    return value
