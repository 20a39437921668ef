"""Values of the effect language as the compiler and every runtime see them: a value
as a list, a value as a number within the effect limits, a claim, an amount."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exlibris.dsl.errors import EffectError
from exlibris.limits import MAX_EFFECT_INT


@dataclass(frozen=True, slots=True)
class Claim:
    """A player's naming of a category."""

    player: Any
    category: Any


@dataclass(frozen=True, slots=True)
class CategoryValue:
    """A category as a value of the language (the same in every runtime)."""

    id: str
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class AmountSpec:
    """An evaluated amount: kind ``exact``, ``any``, ``all``, ``up_to`` or ``at_least``."""

    kind: str
    n: int | None = None


# the language's type of each class of value a runtime registers (``words.attributes_of``)
TYPE_NAMES: dict[type, str] = {}


def kind_name(value: Any) -> str:
    """How a value is named in a run-time error: in the language's words (a player, a
    card, nothing, a number, text, a list...), never a Python class's name."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple | set | frozenset) \
            or isinstance(getattr(value, "cards", None), list):
        return "a list"
    kind = TYPE_NAMES.get(type(value))
    if kind is None:
        kind = next((k for cls, k in TYPE_NAMES.items() if isinstance(value, cls)), None)
    if kind is None:
        return "a value of another kind"
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def no_attribute(value: Any, name: str) -> EffectError:
    """The error of reading ``.name`` of a value that has no such attribute."""
    if value is None:
        return EffectError(f"it read .{name} of nothing: a value that was not there (an "
                           "empty choice or list, or a name set only on a path not taken)")
    return EffectError(f"it read .{name} of {kind_name(value)}, which has no {name!r}")


def number(value: Any, where: str) -> int:
    """``value`` as a number within the effect limit: nothing counts as 0, a list
    (the checker lets only a value of unknown kind through, such as ``[]``) counts its
    elements, and a number past ±``MAX_EFFECT_INT`` is held at it (so that no sum
    stops a game)."""
    if value is None:
        return 0
    if type(value) is list:
        return len(value)
    if not isinstance(value, int):
        raise EffectError(f"{where} works on numbers, not {kind_name(value)}")
    if not -MAX_EFFECT_INT <= value <= MAX_EFFECT_INT:  # held at the limit
        return MAX_EFFECT_INT if value > 0 else -MAX_EFFECT_INT
    return value


def as_list(value: Any) -> list[Any]:
    """A value as a list: collections as they are, a zone as its cards, one value alone."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    cards = getattr(value, "cards", None)  # a zone of the game: its cards
    if isinstance(cards, list):
        return cards
    return [value]
