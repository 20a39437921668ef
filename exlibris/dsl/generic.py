"""Functions of the effect language that need nothing from a runtime but attributes:
one implementation, shared by the game and the score runtime (``words.SHARED``), that
the compiler calls directly. Each is ``impl(rt, env, *args, **kw)``."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

from exlibris.dsl.values import CategoryValue, Claim, as_list, number
from exlibris.dsl.words import SHARED


class Reader(Protocol):
    """What these functions ask of a runtime: attributes, and the internal functions
    ``category`` and ``category_codes``."""

    def attribute(self, value: Any, name: str) -> Any: ...

    def function(self, name: str, args: list[Any], kwargs: dict[str, Any], env: Any) -> Any: ...


@SHARED.function("count")
def count(rt: Reader, env: object, items: Any) -> int:
    return len(items) if type(items) is list else len(as_list(items))


@SHARED.function("first")
def first(rt: Reader, env: object, items: Any) -> Any:
    items = as_list(items)
    return items[0] if items else None


@SHARED.function("min")
def min_(rt: Reader, env: object, *args: Any) -> int:
    values = [number(v, "min()") for a in args for v in as_list(a)]
    return min(values) if values else 0


@SHARED.function("max")
def max_(rt: Reader, env: object, *args: Any) -> int:
    values = [number(v, "max()") for a in args for v in as_list(a)]
    return max(values) if values else 0


# runtimes with their own ``face_up_books(cards)`` (the game's knows where each card
# is without asking for three attributes of each), by class; None: the generic way
_OWN_BOOKS: dict[type, Callable[[Any, Any], Sequence[str]] | None] = {}
_MISSING = object()


def _face_up_books(rt: Reader, cards: Any) -> Sequence[str]:
    own = _OWN_BOOKS.get(type(rt), _MISSING)
    if own is _MISSING:
        own = _OWN_BOOKS[type(rt)] = getattr(type(rt), "face_up_books", None)
    if own is not None:
        return own(rt, cards)  # type: ignore[operator]
    books: list[str] = []
    for card in as_list(cards):
        if rt.attribute(card, "is_book") and not rt.attribute(card, "face_down"):
            books.extend(rt.attribute(card, "books"))
    return books


def _category_codes(rt: Reader, value: Any) -> Collection[str]:
    if type(value) is CategoryValue:  # one category: its code, as every runtime reads it
        return (value.code,)
    # a card's ``books`` are codes already
    return {c if type(c) is str else rt.attribute(c, "code") for c in as_list(value)}


@SHARED.function("books")
def books(rt: Reader, env: object, cards: Any, *categories: Any) -> int:
    found = _face_up_books(rt, cards)
    if not categories:
        return len(found)
    wanted = _category_codes(rt, categories[0])
    return sum(1 for b in found if b in wanted)


@SHARED.function("categories")
def categories(rt: Reader, env: object, cards: Any) -> list[Any]:
    codes = sorted(set(_face_up_books(rt, cards)))
    return [rt.function("category", [code], {}, env) for code in codes]


@SHARED.function("has")
def has(rt: Reader, env: object, card: Any, categories: Any) -> bool:
    # one category (``has(it, @M)``), the common case: its code without a call
    wanted = (categories.code,) if type(categories) is CategoryValue \
        else _category_codes(rt, categories)
    for book in _face_up_books(rt, card):  # noqa: SIM110 - no generator on each call
        if book in wanted:
            return True
    return False


@SHARED.function("letters")
def letters(rt: Reader, env: object, cards: Any) -> list[str]:
    return sorted({rt.attribute(c, "letter") for c in as_list(cards)
                   if rt.attribute(c, "is_book") and not rt.attribute(c, "face_down")})


@SHARED.function("complete_sets")
def complete_sets(rt: Reader, env: object, cards: Any) -> int:
    found = _face_up_books(rt, cards)
    codes = rt.function("category_codes", [], {}, env)
    return min((found.count(code) for code in codes), default=0)


def _alpha(rt: Reader, card: Any) -> tuple[str, int]:
    cards = as_list(card)
    if not cards:
        return ("", 0)
    # a card without a letter (an artifact) comes before every lettered card
    return (rt.attribute(cards[0], "letter") or "", rt.attribute(cards[0], "order") or 0)


@SHARED.function("comes_before")
def comes_before(rt: Reader, env: object, a: Any, b: Any) -> bool:
    return _alpha(rt, a) < _alpha(rt, b)


@SHARED.function("comes_after")
def comes_after(rt: Reader, env: object, a: Any, b: Any) -> bool:
    return _alpha(rt, a) > _alpha(rt, b)


@SHARED.function("claim")
def claim(rt: Reader, env: object, player: Any, category: Any) -> Claim:
    return Claim(player, category)


@SHARED.function("best")
def best(rt: Reader, env: object, items: Any, *, by: Callable[[Any], Any],
         tiebreak: Any = None) -> Any:
    items = as_list(items)
    if not items:
        return None
    order = as_list(tiebreak)

    def rank(item: Any) -> tuple[int, int]:
        player = getattr(item, "player", item)
        seat = order.index(player) if player in order else len(order)
        return (-number(by(item), "best()'s 'by:'"), seat)

    return min(items, key=rank)


@SHARED.function("largest")
def largest(rt: Reader, env: object, items: Any, *, by: Callable[[Any], Any]) -> int:
    values = [number(by(item), "largest()'s 'by:'") for item in as_list(items)]
    return max(values) if values else 0


@SHARED.function("smallest")
def smallest(rt: Reader, env: object, items: Any, *, by: Callable[[Any], Any]) -> int:
    values = [number(by(item), "smallest()'s 'by:'") for item in as_list(items)]
    return min(values) if values else 0


@SHARED.function("sum")
def sum_(rt: Reader, env: object, items: Any, value: Callable[[Any], Any]) -> int:
    return number(sum(number(value(item), "sum()") for item in as_list(items)), "sum()")


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _letter(value: Any) -> str:
    text = str(value or "").strip().upper()
    return text if len(text) == 1 and text in LETTERS else ""


@SHARED.function("next_letter")
def next_letter(rt: Reader, env: object, letter: Any) -> str:
    found = _letter(letter)
    index = LETTERS.find(found) if found else -1
    return LETTERS[index + 1] if 0 <= index < len(LETTERS) - 1 else ""


@SHARED.function("letter_distance")
def letter_distance(rt: Reader, env: object, a: Any, b: Any) -> int:
    x, y = _letter(a), _letter(b)
    return abs(LETTERS.index(x) - LETTERS.index(y)) if x and y else 0


# The table the compiler reads: name -> impl(rt, env, *args, **kw).
GENERIC: Mapping[str, Callable[..., Any]] = SHARED.functions
