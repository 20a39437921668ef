"""End-of-game score expressions over a shelf.

``compile_score(source)`` checks and compiles a ``score:`` expression into a
``ScoreFn``; calling it with an environment (``shelf``, ``this`` = the scored
card's position, optional ``rules``) gives the points. The shelf is read only
through ``positions()``, ``at(pos)`` and ``neighbours(pos)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from exlibris.dsl.checker import Catalog, check_score
from exlibris.dsl.compiler import Env, compile_expression
from exlibris.dsl.errors import DslError, EffectBudgetExceeded, EffectError
from exlibris.dsl.parser import parse_expression
from exlibris.model.cards import VOWELS, BookCard

Pos = tuple[int, int]


class ShelfView(Protocol):
    def positions(self) -> Iterable[Pos]: ...
    def at(self, pos: Pos) -> Any: ...
    def neighbours(self, pos: Pos) -> list[Pos]: ...


class ScoreEnv(Protocol):
    shelf: ShelfView
    this: Pos


@dataclass(frozen=True, slots=True)
class CategoryValue:
    """A category as a value of the language."""

    id: str
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class ShelfCard:
    """A card as seen on a shelf: its slot's top card, or a card beneath it."""

    pos: Pos | None
    card: Any
    face_down: bool


class ScoreRuntime:
    """The read-only runtime of score expressions."""

    def __init__(self, shelf: ShelfView, categories: Mapping[str, CategoryValue],
                 max_steps: int = 10_000) -> None:
        self.shelf = shelf
        self.categories = categories
        self.by_code = {c.code: c for c in categories.values()}
        self.steps = 0
        self.max_steps = max_steps

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise EffectBudgetExceeded(f"a score took more than {self.max_steps} steps")

    def card_at(self, pos: Pos) -> ShelfCard | None:
        slot = self.shelf.at(pos)
        if slot is None:
            return None
        return ShelfCard(pos, slot.card, bool(slot.face_down))

    def attribute(self, value: Any, name: str) -> Any:
        if isinstance(value, ShelfCard):
            card = value.card
            is_book = isinstance(card, BookCard)
            if name == "face_down":
                return value.face_down
            if name == "is_book":
                return is_book
            if name == "is_artifact":
                return not is_book
            if name == "vowel":
                return is_book and card.letter in VOWELS
            if name == "books":
                return card.books if is_book else ()
            if name in ("letter", "order"):
                return getattr(card, name) if is_book else None
        if isinstance(value, CategoryValue) and name in ("id", "code", "name"):
            return getattr(value, name)
        raise EffectError(f"the attribute {name!r} does not apply to {type(value).__name__}")

    def function(self, name: str, args: list[Any], kwargs: dict[str, Any], env: Env) -> Any:
        match name:
            case "ref":
                return self.categories.get(args[0])
            case "category":
                return self.by_code.get(args[0])
            case "category_codes":
                return [c.code for c in self.categories.values()]
            case "adjacent":
                found: list[ShelfCard] = []
                for card in _cards(args[0]):
                    if card.pos is not None:
                        for pos in self.shelf.neighbours(card.pos):
                            neighbour = self.card_at(pos)
                            if neighbour is not None and neighbour not in found:
                                found.append(neighbour)
                return found
            case "tucked":
                return [ShelfCard(None, c, False)
                        for card in _cards(args[0]) if card.pos is not None
                        for c in getattr(self.shelf.at(card.pos), "tucked", ())]
            case "entombed":
                return [ShelfCard(None, slot.beneath, True)
                        for pos in self.shelf.positions()
                        if (slot := self.shelf.at(pos)) is not None and slot.beneath is not None]
            case "shelved_before" | "shelved_after":
                a, b = (_cards(x)[0].pos if _cards(x) else None for x in args[:2])
                if a is None or b is None:
                    return False
                return a < b if name == "shelved_before" else a > b
        raise DslError("dsl/not-in-scoring", f"{name}() cannot be used in a score", 1, 1)

    def verb(self, *args: Any) -> Any:  # pragma: no cover - the checker forbids verbs here
        raise DslError("dsl/verb-in-expression", "scores cannot change the game", 1, 1)

    def may(self, *args: Any) -> bool:  # pragma: no cover
        return False

    def choose_option(self, *args: Any) -> int:  # pragma: no cover
        return 0

    def bind(self, value: Any) -> Any:
        return value

    def read(self, value: Any) -> Any:
        return value


def _cards(value: Any) -> list[ShelfCard]:
    if isinstance(value, list):
        return [v for v in value if isinstance(v, ShelfCard)]
    return [value] if isinstance(value, ShelfCard) else []


ScoreFn = Callable[[ScoreEnv], int]


def default_categories() -> dict[str, CategoryValue]:
    """The categories of the shipped content, by id."""
    from exlibris.catalog import load_catalog

    return {c.id: CategoryValue(c.id, c.code, c.name) for c in load_catalog().categories}


def compile_score(source: str, *, file: str = "<score>", line: int = 1,
                  categories: Mapping[str, CategoryValue] | None = None) -> ScoreFn:
    """Check and compile a ``score:`` expression. Raises ``DslError`` if it is wrong."""
    cats = dict(categories) if categories is not None else default_categories()
    expr = parse_expression(source)
    errors = check_score(expr, Catalog({cid: "category" for cid in cats}))
    if errors:
        raise errors[0]
    handler = compile_expression(expr)

    def score(env: ScoreEnv) -> int:
        rt = ScoreRuntime(env.shelf, cats)
        this = rt.card_at(env.this)
        shelf_cards = [c for p in env.shelf.positions() if (c := rt.card_at(p)) is not None]
        names = {"this": this, "shelf": shelf_cards, "owner": None, "players": []}
        return int(handler(rt, None, names) or 0)

    return score
