"""Compiled handlers run against a runtime; decisions come from the runtime."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from exlibris.dsl import parse_expression, parse_program
from exlibris.dsl.compiler import AmountSpec, compile_expression, compile_program
from exlibris.dsl.errors import EffectBudgetExceeded


@dataclass
class Card:
    letter: str
    order: int
    books: tuple[str, ...]
    is_book: bool = True
    face_down: bool = False


@dataclass(frozen=True)
class Cat:
    id: str
    code: str


@dataclass
class FakeRuntime:
    """Records verbs; answers 'may' and choices from scripted lists."""

    answers: Iterator[Any] = field(default_factory=lambda: iter(()))
    log: list[tuple] = field(default_factory=list)
    steps: int = 0
    max_steps: int = 1000

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise EffectBudgetExceeded("too many steps")

    def attribute(self, value: Any, name: str) -> Any:
        return getattr(value, name)

    def function(self, name, args, kwargs, env):  # type: ignore[no-untyped-def]
        if name == "ref":
            return Cat(args[0], args[0][0].upper())
        if name == "category":
            return Cat(args[0], args[0])
        if name == "category_codes":
            return list("CFHMRS")
        raise KeyError(name)

    def verb(self, name, args, kwargs, env, node):  # type: ignore[no-untyped-def]
        self.log.append((env.me, name, args, kwargs))
        if name == "draw":
            return [Card("Z", i, ("C",)) for i in range(args[0])]
        if name == "discard":
            amount = args[0]
            source = kwargs["from"]
            return list(source) if amount == AmountSpec("all") else source[: next(self.answers)]
        return None

    def may(self, env, node) -> bool:  # type: ignore[no-untyped-def]
        return bool(next(self.answers))

    def choose_option(self, chooser, labels, env, node,  # type: ignore[no-untyped-def]
                      about=None) -> int:
        self.log.append((chooser, "choose", labels) + ((about,) if about is not None else ()))
        return int(next(self.answers))

    def bind(self, value: Any) -> Any:
        return value

    def read(self, value: Any) -> Any:
        return value


def run(source: str, answers: list[Any], **names: Any) -> FakeRuntime:
    rt = FakeRuntime(iter(answers))
    compile_program(parse_program(source))(rt, names.pop("me", "alice"), names)
    return rt


HAND = [Card("A", 1, ("C", "F")), Card("B", 2, ("M",)), Card("C", 1, ("M", "M", "R"))]


def test_counting_and_arithmetic_feed_verbs() -> None:
    rt = run("gone = discard(any, from: hand)\ndrawn = draw(count(gone) + 1)\n"
             "shelve(up to 1, from: drawn)\n", [2], hand=HAND)
    assert [entry[1] for entry in rt.log] == ["discard", "draw", "shelve"]
    assert rt.log[1][2] == [3]
    assert rt.log[2][2] == [AmountSpec("up_to", 1)]
    assert len(rt.log[2][3]["from"]) == 3


def test_may_choose_and_as() -> None:
    source = ('may draw(1)\n'
              'choose one by visitor:\n'
              '  option "give" if count(hand) > 5: draw(9)\n'
              '  option "home": both_home_actions()\n'
              'as visitor:\n'
              '  draw(2)\n')
    rt = run(source, [False, 0], hand=HAND, visitor="bob")
    assert rt.log[0] == ("bob", "choose", ["home"])
    assert rt.log[1][:2] == ("alice", "both_home_actions")
    assert rt.log[2][:2] == ("bob", "draw")


def test_options_hand_the_cards_they_are_about_to_the_runtime() -> None:
    source = ('drawn = draw(2)\n'
              'may:\n'
              '  choose one:\n'
              '    option "first" about first(hand): draw(5)\n'
              '    option "never" about hand if count(hand) > 5: draw(6)\n'
              '    option "plain": draw(7)\n'
              '    option "drawn" about drawn: draw(8)\n')
    rt = run(source, [2], hand=HAND)
    who, _, labels, about = rt.log[1]
    assert (who, labels) == ("alice", ["first", "plain", "drawn", "do nothing"])
    first, plain, drawn, decline = about  # the guarded-out option is not there
    assert first is HAND[0] and plain is None and decline is None
    assert [(c.letter, c.order) for c in drawn] == [("Z", 0), ("Z", 1)]
    assert rt.log[2][1:3] == ("draw", [8])
    # without an 'about', the runtime is asked as before (no fifth argument)
    plain = run('choose one:\n  option "a": draw(1)\n  option "b": draw(2)\n', [1])
    assert plain.log[0] == ("alice", "choose", ["a", "b"])


def test_loops_conditions_and_require() -> None:
    source = ("for each p in players:\n"
              "  if p == me:\n    draw(1)\n  elif p == \"carol\":\n    draw(3)\n"
              "  else:\n    draw(2)\n"
              "require count(hand where has(it, @monster-manuals)) > 5\n"
              "draw(100)\n")
    rt = run(source, [], hand=HAND, players=["alice", "bob", "carol"])
    assert [entry[2] for entry in rt.log] == [[1], [2], [3]]


def test_stop_ends_the_effect_and_unbound_names_read_as_nothing() -> None:
    rt = run("may:\n  gift = draw(1)\nrepeat count(gift) times:\n  draw(5)\nstop\ndraw(7)\n",
             [False])
    assert rt.log == []


def test_best_with_tiebreak_order() -> None:
    source = ('claims = [claim("anita", @fantastical-fictions), claim("scott", @spells),'
              ' claim("sara", @corrupted)]\n'
              'winner = best(claims, by: books(revealed, it.category),'
              ' tiebreak: ["anita", "sara", "scott"])\n'
              'as winner.player:\n  draw(1)\n')
    revealed = [Card("A", 1, ("F", "F", "S")), Card("B", 1, ("S", "S", "C")),
                Card("C", 1, ("F", "F", "C", "S")), Card("D", 1, ("S", "C"))]
    rt = run(source, [], revealed=revealed)
    assert rt.log[0][0] == "scott"  # F 4, S 5, C 3: Scott wins
    revealed[3] = Card("D", 1, ("C", "C"))  # S 4 ties F 4: the active player wins
    rt = run(source, [], revealed=revealed)
    assert rt.log[0][0] == "anita"


def test_step_budget_stops_runaway_effects() -> None:
    rt = FakeRuntime(max_steps=50)
    handler = compile_program(parse_program("repeat 1000000 times:\n  draw(1)\n"))
    with pytest.raises(EffectBudgetExceeded):
        handler(rt, "alice", {})
    assert rt.steps == 51


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("7 / 2", 3),
        ("1 + 2 * 3", 7),
        ("-2 + 5", 3),
        ("min(4, 2, 9)", 2),
        ("max(1, 8)", 8),
        ("count(hand where it.letter in [\"A\", \"C\"])", 2),
        ("books(hand)", 6),
        ("books(hand, @monster-manuals)", 3),
        ("count(letters(hand))", 3),
        ("complete_sets(hand)", 0),
        ("comes_before(first(hand), card)", True),
        ("3 > 2 and not (1 == 2) or false", True),
        ("count(hand | [card])", 4),
    ],
)
def test_expressions(source: str, value: Any) -> None:
    handler = compile_expression(parse_expression(source))
    card = Card("Q", 1, ("H",))
    assert handler(FakeRuntime(), "alice", {"hand": HAND, "card": card}) == value


def test_face_down_books_do_not_count() -> None:
    handler = compile_expression(parse_expression("books(hand)"))
    hand = [Card("A", 1, ("C", "F")), Card("B", 1, ("M",), face_down=True)]
    assert handler(FakeRuntime(), "me", {"hand": hand}) == 2


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("sum(hand, count(it.books))", 6),
        ("sum(hand where it.letter == \"A\", it.order)", 1),
        ("sum([], 5)", 0),
        ("next_letter(\"B\")", "C"),
        ("next_letter(card.letter)", "R"),
        ("next_letter(\"Z\")", ""),
        ("letter_distance(\"A\", \"C\")", 2),
        ("letter_distance(card.letter, \"A\")", 16),
        ("letter_distance(\"?\", \"A\")", 0),
        ("books(hand, @M)", 3),
        # a named element stays reachable inside a nested filter over the same cards
        # A is followed by B and B by C in HAND; C by nothing
        ("count(hand where c: count(hand where d: d.letter == next_letter(c.letter)) > 0)", 2),
        ("count(hand where c: count(hand where d: d.order > c.order) > 0)", 2),
    ],
)
def test_language_additions(source: str, value: Any) -> None:
    handler = compile_expression(parse_expression(source))
    card = Card("Q", 1, ("H",))
    assert handler(FakeRuntime(), "alice", {"hand": HAND, "card": card}) == value


def test_a_named_binding_leaves_it_alone() -> None:
    handler = compile_expression(parse_expression(
        "count(hand where it.letter == \"A\" and count(hand where c: c.order > it.order) > 0)"))
    hand = [Card("A", 1, ("C",)), Card("A", 2, ("C",)), Card("B", 1, ("C",))]
    assert handler(FakeRuntime(), "me", {"hand": hand}) == 1
