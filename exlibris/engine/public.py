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
    return _describe(value)


def public_list(values: Sequence[Any]) -> list[Any]:
    """The public descriptors of a decision's values. An engine object named by many
    options, or by the options of many decisions (a location, an assistant, a target),
    is described once while it is kept (``KEPT_MOST``), and its descriptor (a value)
    serves them all."""
    plain = _PLAIN
    for v in values:
        if type(v) not in plain:
            break
    else:  # cards, numbers, names...: the options as they are
        return list(values)
    if type(v) is tuple:  # placements: (assistant, target) pairs, each part kept
        return _pairs(values)
    return [_describe(v) for v in values]


def _pairs(values: Sequence[Any]) -> list[Any]:
    """``public_list`` of options that are mostly pairs: a pair (an assistant and a
    target) is the pair of its parts' descriptors, as ``_tuple`` makes it (the pair
    itself when both parts are shown as they are), a kept part's looked up here at
    once; any other value is described as ``_describe`` does."""
    kept = _KEPT.get
    plain = _PLAIN
    described = []
    for v in values:
        if type(v) is not tuple or len(v) != 2:
            described.append(_describe(v))
            continue
        a, b = v
        if type(a) in plain and type(b) in plain:  # a cell, say: its own descriptor
            described.append(v)
            continue
        found = kept(id(a))
        shown_a = found[1] if found is not None and found[0] is a else _describe(a)
        found = kept(id(b))
        shown_b = found[1] if found is not None and found[0] is b else _describe(b)
        described.append(v if shown_a is a and shown_b is b else (shown_a, shown_b))
    return described


# how each class of decision value is described, found once per class
Describer = Callable[[Any], Any]
_DESCRIBERS: dict[type, Describer] = {}
_PLAIN: set[type] = set()  # the classes whose values are shown as they are
# the descriptors of engine objects whose public fields never change, by the ``id`` of
# the object, each with the object (which keeps the ``id`` its own while it is kept);
# emptied when it holds ``KEPT_MOST`` (a search's forks make new objects all the time)
_KEPT: dict[int, tuple[Any, Any]] = {}
KEPT_MOST = 4096


def _describe(value: Any) -> Any:
    cls = type(value)
    if cls in _PLAIN:
        return value
    found = _KEPT.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    describe = _DESCRIBERS.get(cls)
    if describe is None:
        describe = _DESCRIBERS[cls] = _describer(cls)
        if describe is _same:
            _PLAIN.add(cls)
    return describe(value)


def _same(value: Any) -> Any:
    return value


def _kept(make: Describer) -> Describer:
    """``make``, whose descriptor is kept with the object (``_describe`` finds it)."""
    def describe(value: Any) -> Any:  # ``_describe`` looked in ``_KEPT`` first
        made = make(value)
        if len(_KEPT) >= KEPT_MOST:
            _KEPT.clear()
        _KEPT[id(value)] = (value, made)
        return made
    return describe


def _tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    plain = _PLAIN
    for x in value:
        if type(x) not in plain:
            break
    else:  # a cell, say: the tuple is its own descriptor
        return value
    described = []
    for x in value:  # ``_describe``, its first steps inlined (a placement's two)
        if type(x) in plain:
            described.append(x)
            continue
        found = _KEPT.get(id(x))
        described.append(found[1] if found is not None and found[0] is x else _describe(x))
    return tuple(described)


# descriptors by their values: a search's forks copy the engine's objects (new ids), and
# a copy is described by the descriptor its original had; each by the ``id`` of a content
# entry or of a descriptor it holds (checked: the same object), emptied at ``VALUES_MOST``
_VALUES: dict[tuple[Any, ...], Any] = {}
VALUES_MOST = 4096


def _valued(key: tuple[Any, ...], made: Any) -> Any:
    """``made``, the descriptor of ``key``, kept for the next object of that value."""
    if len(_VALUES) >= VALUES_MOST:
        _VALUES.clear()
    _VALUES[key] = made
    return made


def _location(v: LocationState) -> PublicLocation:
    spec = v.spec
    key = ("location", v.id, v.number, v.instant, id(spec))
    found = _VALUES.get(key)
    if found is not None and found.spec is spec:
        return found  # type: ignore[no-any-return]
    return _valued(key, PublicLocation(v.id, v.number, spec.name, v.instant, spec))  # type: ignore[no-any-return]


def _assistant(v: Assistant) -> PublicAssistant:
    spec = v.spec
    key = ("assistant", v.id, v.owner, v.kind, id(spec))
    found = _VALUES.get(key)
    if found is not None and found.spec is spec:
        return found  # type: ignore[no-any-return]
    return _valued(key, PublicAssistant(v.id, v.owner, v.kind, v.name, spec))  # type: ignore[no-any-return]


def _target(v: Target) -> PublicTarget:
    where = _describe(v.location) if v.location else None
    displaces = _describe(v.displaces) if v.displaces else None
    key = ("target", id(where), v.space, v.bid, v.share, id(displaces))
    found = _VALUES.get(key)
    if found is not None and found.location is where and found.displaces is displaces:
        return found  # type: ignore[no-any-return]
    return _valued(key, PublicTarget(where, v.space, v.bid, v.share, displaces))  # type: ignore[no-any-return]


def _describer(cls: type) -> Describer:
    """How the values of ``cls`` are described: the engine's objects whose public fields
    are fixed when they are made (players, locations, assistants, targets, spaces) are
    kept with their descriptors."""
    if issubclass(cls, CompiledAbility):
        return lambda v: PublicAbility(v.label, v.timing, v.text)
    if issubclass(cls, Source):
        return lambda v: _describe(v.this)
    if issubclass(cls, tuple):
        return _tuple
    if issubclass(cls, PlayerState):
        return _kept(lambda v: PublicPlayer(v.seat, v.name))
    if issubclass(cls, LocationState):
        return _kept(_location)
    if issubclass(cls, Assistant):
        return _kept(_assistant)
    if issubclass(cls, Space):
        return _kept(lambda v: PublicSpace(_describe(v.location), v.index))
    if issubclass(cls, Target):  # the same targets come for each assistant offered
        return _kept(_target)
    return _same
