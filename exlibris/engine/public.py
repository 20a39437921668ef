"""What an agent may know about the options of a decision.

Decision values shown to agents are public descriptors: ids, names, numbers,
seats and the content entries (printed on the tiles), never the engine's live
objects, through which hands, face-down card areas or the deck could be read.
"""

from __future__ import annotations

from collections.abc import Callable
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
    describe = _DESCRIBERS.get(type(value))
    if describe is None:
        describe = _DESCRIBERS[type(value)] = _describer(type(value))
    return describe(value)


# how each class of decision value is described, found once per class
_DESCRIBERS: dict[type, Callable[[Any], Any]] = {}


def _same(value: Any) -> Any:
    return value


def _describer(cls: type) -> Callable[[Any], Any]:
    if issubclass(cls, CompiledAbility):
        return lambda v: PublicAbility(v.label, v.timing, v.text)
    if issubclass(cls, Source):
        return lambda v: public(v.this)
    if issubclass(cls, tuple):
        return lambda v: tuple(public(x) for x in v)
    if issubclass(cls, PlayerState):
        return lambda v: PublicPlayer(v.seat, v.name)
    if issubclass(cls, LocationState):
        return lambda v: PublicLocation(v.id, v.number, v.spec.name, v.instant, v.spec)
    if issubclass(cls, Assistant):
        return lambda v: PublicAssistant(v.id, v.owner, v.kind, v.name, v.spec)
    if issubclass(cls, Space):
        return lambda v: PublicSpace(public(v.location), v.index)
    if issubclass(cls, Target):
        return lambda v: PublicTarget(public(v.location) if v.location else None, v.space,
                                      v.bid, v.share,
                                      public(v.displaces) if v.displaces else None)
    return _same
