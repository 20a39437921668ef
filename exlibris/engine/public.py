"""What an agent may know about the options of a decision.

Decision values shown to agents are public descriptors: ids, names, numbers,
seats and the content entries (printed on the tiles), never the engine's live
objects, through which hands, face-down card areas or the deck could be read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    return _describe(value, {})


def public_list(values: Sequence[Any]) -> list[Any]:
    """The public descriptors of a decision's values. An engine object named by many
    options (a location, an assistant) is described once, and its descriptor (a
    value) serves them all."""
    plain = _PLAIN
    for v in values:
        if type(v) not in plain:
            break
    else:  # cards, numbers, names...: the options as they are
        return list(values)
    seen: dict[int, Any] = {}
    return [_describe(v, seen) for v in values]


# how each class of decision value is described, found once per class; a describer
# takes the value and ``seen``, the descriptors already made for one list by the
# ``id`` of what they describe (each alive while the list is made)
Describer = Callable[[Any, dict[int, Any]], Any]
_DESCRIBERS: dict[type, Describer] = {}
_PLAIN: set[type] = set()  # the classes whose values are shown as they are


def _describe(value: Any, seen: dict[int, Any]) -> Any:
    cls = type(value)
    if cls in _PLAIN:
        return value
    describe = _DESCRIBERS.get(cls)
    if describe is None:
        describe = _DESCRIBERS[cls] = _describer(cls)
        if describe is _same:
            _PLAIN.add(cls)
    return describe(value, seen)


def _same(value: Any, seen: dict[int, Any]) -> Any:
    return value


def _once(make: Callable[[Any, dict[int, Any]], Any]) -> Describer:
    """``make``, called once for each object of a list however often it comes."""
    def describe(value: Any, seen: dict[int, Any]) -> Any:
        found = seen.get(id(value))
        if found is None:
            found = seen[id(value)] = make(value, seen)
        return found
    return describe


def _tuple(value: tuple[Any, ...], seen: dict[int, Any]) -> tuple[Any, ...]:
    plain = _PLAIN
    for x in value:
        if type(x) not in plain:
            break
    else:  # a cell, say: the tuple is its own descriptor
        return value
    return tuple([_describe(x, seen) for x in value])


def _target(v: Target, seen: dict[int, Any]) -> PublicTarget:
    return PublicTarget(_describe(v.location, seen) if v.location else None, v.space, v.bid,
                        v.share, _describe(v.displaces, seen) if v.displaces else None)


def _describer(cls: type) -> Describer:
    if issubclass(cls, CompiledAbility):
        return lambda v, seen: PublicAbility(v.label, v.timing, v.text)
    if issubclass(cls, Source):
        return lambda v, seen: _describe(v.this, seen)
    if issubclass(cls, tuple):
        return _tuple
    if issubclass(cls, PlayerState):
        return _once(lambda v, seen: PublicPlayer(v.seat, v.name))
    if issubclass(cls, LocationState):
        return _once(lambda v, seen: PublicLocation(v.id, v.number, v.spec.name, v.instant,
                                                    v.spec))
    if issubclass(cls, Assistant):
        return _once(lambda v, seen: PublicAssistant(v.id, v.owner, v.kind, v.name, v.spec))
    if issubclass(cls, Space):
        return lambda v, seen: PublicSpace(_describe(v.location, seen), v.index)
    if issubclass(cls, Target):  # the same targets come for each assistant offered
        return _once(_target)
    return _same
