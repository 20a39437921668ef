"""The registry of words (``exlibris/dsl/words.py``): every word the vocabulary
declares is implemented in each runtime where the checker lets it appear, no runtime
implements a word the vocabulary does not declare, and each implementation accepts
the arguments its signature declares.

The registry check itself is shown to fail: a word declared without an
implementation, and an implementation without a word, are both reported.
"""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

import exlibris.dsl.scoring  # (registers the score runtime's words)
import exlibris.engine.runtime  # noqa: F401  (registers the game runtime's words)
from exlibris.catalog import load_catalog
from exlibris.dsl import vocabulary as vocab
from exlibris.dsl import words
from exlibris.dsl.errors import DslError
from exlibris.dsl.scoring import ScoreRuntime, ShelfCard, compile_score
from exlibris.dsl.vocabulary import Signature
from exlibris.dsl.words import GAME, SCORE, SHARED, Implementations, UndeclaredWord
from exlibris.engine.decisions import Decision
from exlibris.engine.flow import new_game, play
from exlibris.engine.state import Space
from exlibris.validation import resolve_settings

CATALOG = load_catalog()


def test_every_declared_word_is_implemented_where_it_can_appear() -> None:
    assert words.missing() == []


def test_no_runtime_implements_an_undeclared_word() -> None:
    assert words.orphans() == []


def test_a_declared_but_unimplemented_word_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(vocab.VERBS, "juggle", Signature(("cards",)))
    monkeypatch.setitem(vocab.FUNCTIONS, "glitter", Signature(("cards",), returns="int",
                                                               in_scores=True))
    monkeypatch.setitem(vocab.FUNCTIONS, "rumour", Signature(returns="int"))
    monkeypatch.setitem(vocab.ATTRIBUTES["card"], "shine", "int")
    monkeypatch.setitem(vocab.ATTRIBUTES["player"], "mood", "str")
    problems = words.missing()
    assert "game: verb 'juggle' is not implemented" in problems
    assert "game: function 'glitter' is not implemented" in problems
    assert "score: function 'glitter' is not implemented" in problems  # allowed in scores
    assert "game: function 'rumour' is not implemented" in problems
    assert "score: function 'rumour' is not implemented" not in problems  # never in scores
    for runtime, cls in (("game", "BookCard"), ("game", "ArtifactCard"),
                         ("game", "ResumeCard"), ("score", "ShelfCard")):
        assert f"{runtime}: attribute 'shine' of a card is not implemented for {cls}" \
            in problems
    assert "game: attribute 'mood' of a player is not implemented for PlayerState" in problems
    assert not any("mood" in p for p in problems if p.startswith("score"))  # not in scores
    assert len(problems) == 9


def test_a_function_implemented_both_shared_and_by_a_runtime_is_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAME.functions, "count", lambda rt, env, items: 0)
    assert words.missing() == ["game: function 'count' is implemented twice (also shared)"]


def test_an_undeclared_word_cannot_be_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Implementations("test")
    with pytest.raises(UndeclaredWord, match="juggle"):
        table.verb("juggle")
    with pytest.raises(UndeclaredWord, match="glitter"):
        table.function("glitter")
    with pytest.raises(UndeclaredWord, match="shine"):
        table.attributes_of("card", ShelfCard, {"shine": lambda rt, value: 1})
    with pytest.raises(ValueError, match="twice"):
        table.function("count")(lambda rt, env, items: 0)
        table.function("count")(lambda rt, env, items: 0)
    # a table written to directly is still caught
    monkeypatch.setitem(GAME.verbs, "juggle", lambda rt, env, cards: None)
    monkeypatch.setitem(SCORE.attributes[ShelfCard], "shine", lambda rt, value: 1)
    assert words.orphans() == ["game: verb 'juggle'", "score: attribute 'shine' of ShelfCard"]


def _calls(sig: Signature) -> list[tuple[int, frozenset[str]]]:
    """Argument shapes a checked call may have: (positional count, keywords)."""
    most = len(sig.params) + (1 if sig.variadic else 0)
    return [(n, frozenset(sig.keywords)) for n in range(sig.min_args, most + 1)] + \
        [(most, sig.required_keywords)]


def _implementations() -> list[tuple[str, str, Signature, Any]]:
    found = []
    for name, sig in vocab.VERBS.items():
        found.append(("game", name, sig, GAME.verbs[name]))
    for name, sig in words.declared_functions().items():
        for runtime in (GAME, SCORE) if sig.in_scores else (GAME,):
            impl = runtime.functions.get(name) or SHARED.functions[name]
            found.append((runtime.runtime, name, sig, impl))
    return found


@pytest.mark.parametrize("runtime, name, sig, impl", _implementations(),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_each_implementation_takes_the_arguments_its_signature_declares(
        runtime: str, name: str, sig: Signature, impl: Any) -> None:
    for n, keywords in _calls(sig):
        inspect.signature(impl).bind("rt", "env", *range(n), **dict.fromkeys(keywords))


@pytest.mark.parametrize("source, word", [
    ("count(opponents_of(owner))", "opponents_of"),
    ("count(owner.hand)", "'hand' of a player"),
    ("count(players where it.first)", "'first' of a player"),
    ("setting(\"x\")", "setting"),
])
def test_a_score_may_use_only_what_the_score_runtime_implements(source: str, word: str) -> None:
    with pytest.raises(DslError, match=word) as error:
        compile_score(source)
    assert error.value.code == "dsl/not-in-scoring"


def test_a_score_is_given_every_name_the_checker_lets_it_read() -> None:
    from exlibris.dsl.scoring import default_categories, score_names
    from exlibris.model.cards import BookCard
    from exlibris.model.shelf import Shelf, Slot
    from exlibris.scoring.artifacts import ScoreEnv

    shelf = Shelf.from_slots({(0, 0): Slot(BookCard("A", 1, ("M",)))})
    env = ScoreEnv(shelf, (0, 0), None)
    assert set(score_names(ScoreRuntime(shelf, default_categories()), env)) == \
        set(vocab.SCORE_NAMES)


class _Reader:
    """A random seat that, at every decision, reads every declared attribute of every
    value on the table through the game runtime, and checks that the score runtime's
    twin answers the same for each shelf card."""

    needs_view = True

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.read: set[tuple[type, str]] = set()

    def decide(self, game: Any, decision: Decision) -> int:
        rt = game.rt
        values: list[Any] = [*game.categories.values(), *game.state.players]
        for player in game.state.players:
            values += player.assistants + player.hand.cards + player.shelf_zone.cards
            score_rt = ScoreRuntime(player.shelf, game.categories)
            for pos in player.shelf.positions():
                twin = score_rt.card_at(pos)
                assert twin is not None
                for name in vocab.ATTRIBUTES["card"]:
                    assert score_rt.attribute(twin, name) == rt.attribute(twin.card, name)
        for loc in game.state.in_play:
            values += [loc, *loc.area.cards]
            values += [Space(loc, i) for i in range(len(loc.spaces))]
        for value in values:
            for name in words.declared_attributes(GAME.types[value.__class__]):
                rt.attribute(value, name)
                self.read.add((value.__class__, name))
        return self.rng.randrange(len(decision))


@pytest.mark.parametrize("variant, players", [("standard", 2), ("expanded", 3)])
def test_every_attribute_answers_in_real_games(variant: str, players: int) -> None:
    seats = [_Reader(players * 10 + i) for i in range(players)]
    play(new_game(CATALOG, resolve_settings(variant, CATALOG.variants), seats, seed=players,
                  variant=variant, views=lambda game, seat: game))
    read = {cls.__name__ for seat in seats for cls, _ in seat.read}
    assert {"BookCard", "PlayerState", "Assistant", "LocationState", "Space",
            "CategoryValue"} <= read


def test_the_language_reference_lists_the_functions_a_score_may_use() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text("utf-8")
    section = " ".join(text.split("## End-of-game scoring", 1)[1].split("## ", 1)[0].split())
    listed = section.split("functions that need nothing else (", 1)[1].split(")", 1)[0]
    in_scores = {name for name, sig in vocab.FUNCTIONS.items() if sig.in_scores}
    assert set(listed.replace("`", "").split()) == in_scores
