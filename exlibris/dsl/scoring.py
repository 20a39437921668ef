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

from exlibris.dsl.ast import BinOp, Call, Name, Neg, Num, Ref, Where, calls, names_read, walk
from exlibris.dsl.checker import Catalog, check_score
from exlibris.dsl.compiler import Env, compile_expression
from exlibris.dsl.errors import DslError, EffectBudgetExceeded, EffectError
from exlibris.dsl.parser import parse_expression
from exlibris.dsl.values import CategoryValue, no_attribute, number
from exlibris.dsl.words import SCORE
from exlibris.model.cards import VOWELS, BookCard

Pos = tuple[int, int]


class ShelfView(Protocol):
    def positions(self) -> Iterable[Pos]: ...
    def at(self, pos: Pos) -> Any: ...
    def neighbours(self, pos: Pos) -> list[Pos]: ...


class ScoreEnv(Protocol):
    shelf: ShelfView
    this: Pos
    # optional: ``town`` (``scoring/artifacts.py: Town``): prominent, banned, owner and
    # opponents (name, shelf); a score without one sees no town board and no one


@dataclass(frozen=True, slots=True)
class ShelfOwner:
    """A player as a score sees them: a name and the cards of a shelf."""

    name: str
    shelf: list[Any]


# a value, never changed once made; not frozen only because that is slower to build (a
# score makes one for every cell it reads, and the bots score shelf after shelf)
@dataclass(slots=True, unsafe_hash=True)
class ShelfCard:
    """A card as seen on a shelf: its slot's top card, or a card beneath it."""

    pos: Pos | None
    card: Any
    face_down: bool


class ScoreRuntime:
    """The read-only runtime of score expressions."""

    words = SCORE  # what ``attribute`` and ``function`` dispatch from (``compiler.link``)

    def __init__(self, shelf: ShelfView, categories: Mapping[str, CategoryValue],
                 max_steps: int = 10_000, by_code: dict[str, CategoryValue] | None = None
                 ) -> None:
        """``by_code``: the categories by their codes, when the caller has them."""
        self.shelf = shelf
        self.categories = categories
        self.by_code = {c.code: c for c in categories.values()} if by_code is None \
            else by_code
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
        table = _ATTRIBUTES.get(type(value))
        read = table.get(name) if table is not None else None
        if read is None:
            if value is None:  # of nothing: nothing (``first`` of no opponents...)
                return None
            raise no_attribute(value, name)
        return read(self, value)

    def function(self, name: str, args: list[Any], kwargs: dict[str, Any], env: Env) -> Any:
        impl = _FUNCTIONS.get(name)
        if impl is None:  # the checker allows in scores only what is implemented here
            raise DslError("dsl/not-in-scoring", f"{name}() cannot be used in a score", 1, 1)
        return impl(self, env, *args, **kwargs) if kwargs else impl(self, env, *args)

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


# ---- the words of the language as a score reads them (``words.SCORE``) ----------------

def _book_or(default: Any, read: Callable[[BookCard], Any]) -> Callable[[Any, ShelfCard], Any]:
    return lambda rt, value: read(value.card) if isinstance(value.card, BookCard) else default


SCORE.attributes_of("card", ShelfCard, {
    "face_down": lambda rt, value: value.face_down,
    "is_book": lambda rt, value: isinstance(value.card, BookCard),
    "is_artifact": lambda rt, value: not isinstance(value.card, BookCard),
    "vowel": _book_or(False, lambda card: card.letter in VOWELS),
    "books": _book_or((), lambda card: card.books),
    "letter": _book_or(None, lambda card: card.letter),
    "order": _book_or(None, lambda card: card.order),
})
SCORE.attributes_of("player", ShelfOwner, {
    "name": lambda rt, player: player.name,
    "shelf": lambda rt, player: player.shelf,
})
SCORE.attributes_of("category", CategoryValue, {
    "id": lambda rt, category: category.id,
    "code": lambda rt, category: category.code,
    "name": lambda rt, category: category.name,
})
_ATTRIBUTES = SCORE.attributes


@SCORE.function("ref")
def _ref(rt: ScoreRuntime, env: Env, ref: str) -> CategoryValue | None:
    return rt.categories.get(ref)


@SCORE.function("category")
def _category(rt: ScoreRuntime, env: Env, code: str) -> CategoryValue | None:
    return rt.by_code.get(code)


@SCORE.function("category_codes")
def _category_codes(rt: ScoreRuntime, env: Env) -> list[str]:
    return [c.code for c in rt.categories.values()]


@SCORE.function("adjacent")
def _adjacent(rt: ScoreRuntime, env: Env, cards: Any) -> list[ShelfCard]:
    found: list[ShelfCard] = []
    for card in _cards(cards):
        if card.pos is not None:
            for pos in rt.shelf.neighbours(card.pos):
                neighbour = rt.card_at(pos)
                if neighbour is not None and neighbour not in found:
                    found.append(neighbour)
    return found


@SCORE.function("tucked")
def _tucked(rt: ScoreRuntime, env: Env, cards: Any) -> list[ShelfCard]:
    return [ShelfCard(None, c, False)
            for card in _cards(cards) if card.pos is not None
            for c in getattr(rt.shelf.at(card.pos), "tucked", ())]


@SCORE.function("entombed")
def _entombed(rt: ScoreRuntime, env: Env, shelf: Any) -> list[ShelfCard]:
    return [ShelfCard(None, slot.beneath, True)
            for pos in rt.shelf.positions()
            if (slot := rt.shelf.at(pos)) is not None and slot.beneath is not None]


def _positions(a: Any, b: Any) -> tuple[Pos | None, Pos | None]:
    first, second = (_cards(x)[0].pos if _cards(x) else None for x in (a, b))
    return first, second


@SCORE.function("shelved_before")
def _shelved_before(rt: ScoreRuntime, env: Env, a: Any, b: Any) -> bool:
    first, second = _positions(a, b)
    return first is not None and second is not None and first < second


@SCORE.function("shelved_after")
def _shelved_after(rt: ScoreRuntime, env: Env, a: Any, b: Any) -> bool:
    first, second = _positions(a, b)
    return first is not None and second is not None and first > second


_FUNCTIONS = SCORE.functions


ScoreFn = Callable[[ScoreEnv], int]


def default_categories() -> dict[str, CategoryValue]:
    """The categories of the shipped content, by id."""
    from exlibris.catalog import load_catalog

    return {c.id: CategoryValue(c.id, c.code, c.name) for c in load_catalog().categories}


def compile_score(source: str, *, file: str = "<score>", line: int = 1,
                  categories: Mapping[str, CategoryValue] | None = None,
                  name: str = "<score>:score") -> ScoreFn:
    """Check and compile a ``score:`` expression. Raises ``DslError`` if it is wrong.
    ``name``: the source name it runs under (``errors.source_name``), which a run-time
    error names."""
    cats = dict(categories) if categories is not None else default_categories()
    expr = parse_expression(source)
    errors = check_score(expr, Catalog({cid: "category" for cid in cats},
                                         codes={c.code: cid for cid, c in cats.items()}))
    if errors:
        raise errors[0]
    handler = compile_expression(expr, name)
    read = names_read(expr)
    others = bool({"opponents", "players"} & read)  # built only if read
    cards = bool({"shelf", "owner", "players"} & read)  # the shelf's cards: likewise

    by_code = {c.code: c for c in cats.values()}

    def score(env: ScoreEnv) -> int:
        rt = ScoreRuntime(env.shelf, cats, by_code=by_code)
        # checked as an effect's numbers are where the checker could only say "any"
        # (``first(["a", 1])``): a number within the limit, text that reads as one too
        points = handler(rt, None, score_names(rt, env, others=others, cards=cards))
        try:
            return number(points, "a score")
        except EffectError as exc:  # named as the handler names its own errors
            raise EffectError(exc.message, name, expr.line, expr.col) from None

    # whether it may read every card of its shelf (it names the shelf's cards, the owner's
    # or the players'): then what it reads is not worth noting (``ReadCells``)
    score.whole_shelf = cards  # type: ignore[attr-defined]
    # whether its points are those of the shelf's cards and faces whatever their order
    # and cells (``shelf_as_set``)
    score.shelf_as_set = shelf_as_set(expr)  # type: ignore[attr-defined]
    # what its points are a sum over, card by card: "shelf", "adjacent" or None
    # (``summed_over``)
    score.summed_over = summed_over(expr)  # type: ignore[attr-defined]
    # what the letters calls it reads its shelf through find, as one set, or None where
    # it reads its shelf otherwise (``letters_read``)
    found = letters_read(expr)
    score.letters = None if found is None else \
        letters_finder(found, name, cats, by_code)  # type: ignore[attr-defined]
    return score


# the words whose value depends on the cards given and not on their order nor on where
# they lie (``first`` and ``best`` read the order; ``adjacent``, ``tucked``,
# ``entombed``, ``shelved_before`` and ``shelved_after`` the cells; ``claim`` a player)
ORDER_FREE = frozenset({
    "count", "min", "max", "books", "categories", "has", "letters", "complete_sets",
    "comes_before", "comes_after", "largest", "smallest", "sum", "next_letter",
    "letter_distance", "ref", "category", "category_codes"})


def shelf_as_set(expr: Any) -> bool:
    """Whether a score reads its shelf only as the set of its cards, each face up or
    down: it names ``shelf`` and not the scored card (``this``) nor any player, and calls
    only ``ORDER_FREE`` words (a card's own words do not tell its cell). Such a score
    gives the same points on any shelf of those cards and faces."""
    read = names_read(expr)
    return ("shelf" in read and not {"this", "owner", "players", "opponents"} & read
            and set(calls(expr)) <= ORDER_FREE)


def card_by_card(expr: Any) -> bool:
    """Whether a score is a sum over its shelf's cards, each card's share its own
    (``summed_over`` is ``"shelf"``)."""
    return summed_over(expr) == "shelf"


def summed_over(expr: Any) -> str | None:
    """What a score is a sum over, card by card, each card's share its own: ``"shelf"``
    (its shelf's cards), ``"adjacent"`` (the cards next to the scored card, from
    ``adjacent(this)``) or None (neither). Such a score is a count of those cards, all
    or those a condition on the card alone keeps (it reads no other name and calls only
    ``ORDER_FREE`` words), or their books (of one category or all), or sums,
    differences and whole-number multiples of such terms over the same cards. It gives
    the sum of what it gives with each card alone (beside the scored card, for
    ``"adjacent"``); a constant term (``count(shelf) + 1``) would be counted once a
    card, so it is not one."""
    if isinstance(expr, BinOp):
        if expr.op in ("+", "-"):
            left = summed_over(expr.left)
            return left if left is not None and left == summed_over(expr.right) else None
        if expr.op == "*" and isinstance(expr.left, Num):
            return summed_over(expr.right)
        if expr.op == "*" and isinstance(expr.right, Num):
            return summed_over(expr.left)
        return None
    if isinstance(expr, Neg):
        return summed_over(expr.operand)
    if not isinstance(expr, Call) or any(arg.name is not None for arg in expr.args):
        return None
    args = expr.positional()
    if expr.func == "count" and len(args) == 1:
        return _cards_summed(args[0])
    if expr.func == "books" and (len(args) == 1 or (len(args) == 2 and isinstance(args[1], Ref))):
        return _cards_summed(args[0])
    return None


def _cards_summed(cards: Any) -> str | None:
    """``summed_over``'s cards: ``shelf`` or ``adjacent(this)``, kept by conditions on
    each card alone."""
    if isinstance(cards, Where):
        alone = (names_read(cards.condition) <= {cards.name}
                 and set(calls(cards.condition)) <= ORDER_FREE)
        return _cards_summed(cards.source) if alone else None
    if isinstance(cards, Name):
        return "shelf" if cards.id == "shelf" else None
    if (isinstance(cards, Call) and cards.func == "adjacent" and len(cards.args) == 1
            and cards.args[0].name is None and isinstance(cards.args[0].value, Name)
            and cards.args[0].value.id == "this"):
        return "adjacent"
    return None


def letters_read(expr: Any) -> list[Call] | None:
    """The ``letters`` calls through which alone a score reads its shelf, each of the
    shelf's cards or of those conditions on the card alone keep (``_cards_summed``),
    nothing else of it reading a name or calling a word not ``ORDER_FREE``; None for
    any other score. Such a score's points follow from the letters those calls find."""
    found: list[Call] = []
    inside: set[int] = set()  # the nodes under a call found
    for node in walk(expr):
        if id(node) in inside:
            continue
        if isinstance(node, Call) and node.func == "letters":
            if (len(node.args) != 1 or node.args[0].name is not None
                    or _cards_summed(node.args[0].value) != "shelf"):
                return None
            found.append(node)
            inside.update(map(id, walk(node)))
        elif isinstance(node, Name) or (isinstance(node, Call) and node.func not in ORDER_FREE):
            return None
    return found or None


def letters_finder(found: list[Call], name: str, cats: Mapping[str, CategoryValue],
                   by_code: Mapping[str, CategoryValue]) -> Callable[[ShelfView], frozenset[
                       tuple[int, str]]]:
    """What the ``letters`` calls ``found`` (``letters_read``) find on a shelf, as one
    set of (the call's index, a letter)."""
    handlers = [compile_expression(call, name) for call in found]

    def letters(shelf: ShelfView) -> frozenset[tuple[int, str]]:
        rt = ScoreRuntime(shelf, cats, by_code=by_code)
        names = {"shelf": _shelf_cards(rt, shelf)}
        return frozenset((i, letter) for i, handler in enumerate(handlers)
                         for letter in handler(rt, None, names))

    return letters


def score_names(rt: ScoreRuntime, env: ScoreEnv, *, others: bool = True,
                cards: bool = True) -> dict[str, Any]:
    """The names a score reads, one for each of ``vocabulary.SCORE_NAMES``: the scored
    card and the shelf's cards, and from the table (``env.town``, where known) the
    town board's categories, the owner and the opponents with their shelves. Without
    a table, the owner is nothing and there is no one else. ``others``: False when the
    score reads neither ``opponents`` nor ``players`` (their shelves are not listed);
    ``cards``: False when it reads none of ``shelf``, ``owner`` and ``players`` (the
    shelf's cards are not listed: a score of the cards next to its own reads them from
    the shelf itself, cell by cell)."""
    this = rt.card_at(env.this)
    shelf_cards = _shelf_cards(rt, env.shelf) if cards else []
    town = getattr(env, "town", None)
    if town is None:
        return {"this": this, "shelf": shelf_cards, "owner": None, "players": [],
                "opponents": [], "prominent": None, "banned": None}
    owner = ShelfOwner(town.owner, shelf_cards)
    opponents = [ShelfOwner(name, _cards_of(shelf)) for name, shelf in town.opponents
                 ] if others else []
    return {"this": this, "shelf": shelf_cards, "owner": owner,
            "players": [owner, *opponents], "opponents": opponents,
            "prominent": rt.by_code.get(town.prominent or ""),
            "banned": rt.by_code.get(town.banned or "")}


def _shelf_cards(rt: ScoreRuntime, shelf: ShelfView) -> list[ShelfCard]:
    """The scored shelf's cards, each in its cell (``shelf`` as a score names it)."""
    return [c for p in shelf.positions() if (c := rt.card_at(p)) is not None]


def _cards_of(shelf: ShelfView) -> list[ShelfCard]:
    """Another player's shelf cards: they have no place on the scored shelf, so
    ``adjacent`` finds nothing next to them."""
    return [ShelfCard(None, slot.card, bool(slot.face_down))
            for pos in shelf.positions() if (slot := shelf.at(pos)) is not None]
