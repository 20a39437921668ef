"""What the screen shows a player, and what it keeps from them."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console, RenderableType

from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision, DecisionKind, Purpose
from exlibris.interactive.narrate import Narrator
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.screen import Screen, position_marks
from exlibris.interactive.session import Session
from exlibris.interactive.shelf_grid import category_styles, shelf_grid
from exlibris.model.cards import BookCard
from exlibris.model.shelf import Shelf

STYLES = category_styles(load_catalog().categories)
LIBRARIES = {lib.id: lib.name for lib in load_catalog().libraries.values()}


def render(renderable: RenderableType, width: int = 120) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


def token(card: Any) -> str:
    return f"{card.name}/{card.of}:{''.join(card.books)}"


class Looker:
    """Plays seat 0 (shelving whenever it can) and draws its screen at each decision."""

    needs_view = False

    def __init__(self) -> None:
        self.session: Session | None = None
        self.screens: list[tuple[Decision, str, Any]] = []

    def decide(self, view: Any, decision: Decision) -> int:
        assert self.session is not None and self.session.game is not None
        game = self.session.game
        screen = Screen(game, 0, STYLES, LIBRARIES, 120)
        text = render(screen.table((), position_marks(decision)))
        hands = [list(p.hand.cards) for p in game.state.players]
        areas = {loc.id: (loc.area.face_down, list(loc.area.cards)) for loc in game.state.in_play}
        self.screens.append((decision, text, (hands, areas)))
        if decision.kind == "home-action" and "shelve" in decision.values:
            return decision.values.index("shelve")
        return 0


def looked_at_game(seed: int = 12) -> list[tuple[Decision, str, Any]]:
    looker = Looker()
    record = SaveRecord(seed=seed, seats=["human", "greedy", "random"],
                        names=["Me", "Greta", "Rand"]).stamp()
    session = Session(record, load_catalog(), humans={0: looker})
    looker.session = session
    session.run()
    return looker.screens


def test_the_screen_shows_my_hand_and_hides_the_others() -> None:
    screens = looked_at_game()
    assert len(screens) > 30
    for decision, text, (hands, areas) in screens:
        assert text.count("Focus: ") <= 1
        for card in hands[0]:
            assert token(card) in text
        if decision.kind == "library":  # set-up: no empty board, hands or shelves
            assert "Hand" not in text and "Prominent" not in text and "Shelf" not in text
            continue
        for other in hands[1:]:
            assert f"Hand: {len(other)} card" in text
            for card in other:
                if isinstance(card, BookCard):
                    assert token(card) not in text, decision.prompt
        for face_down, cards in areas.values():
            for card in cards:
                if isinstance(card, BookCard):
                    assert (token(card) in text) != face_down
    assert "Prominent: " in text and "Banned: " in text and "Deck " in text


def test_a_shelving_decision_numbers_the_free_cells() -> None:
    screens = looked_at_game()
    positions = [(d, text) for d, text, _ in screens if d.kind == "position"]
    assert positions
    for decision, text in positions:
        for number in range(1, len(decision.values) + 1):
            assert f"[{number}]" in text


def test_face_down_shelf_cards_are_hidden_from_others() -> None:
    shelf = Shelf()
    shelf.shelve(BookCard("M", 3, ("F", "F", "S"), 8), (0, 0))
    shelf.shelve(BookCard("N", 1, ("C",), 2), (0, 1))
    shelf.flip((0, 1))
    mine = render(shelf_grid(shelf, STYLES))
    theirs = render(shelf_grid(shelf, STYLES, secret=True))
    assert "M3/8" in mine and "FFS" in mine and "~N1/2" in mine
    assert "M3/8" in theirs and "N1/2" not in theirs and "face" in theirs


def test_the_log_tells_others_draws_as_counts() -> None:
    looker_game = _a_game()
    records = [{"event": "draw", "seat": 1, "cards": ["M3", "A1"]},
               {"event": "shelve", "seat": 1, "card": "M3", "pos": [0, 0], "face_down": False},
               {"event": "gain", "seat": 1, "card": "Q1"}]
    mine = Narrator(looker_game, 0).lines(records)
    theirs = Narrator(looker_game, 1).lines(records)
    everyone = Narrator(looker_game, None).lines(records)
    m3, a1, q1 = (books_of(looker_game, name) for name in ("M3", "A1", "Q1"))
    assert mine == ["Greta drew 2 cards.", f"Greta shelved {m3} at row 0, column 0.",
                    "Greta took a card."]
    assert theirs[0] == f"You drew {m3}, {a1}." and theirs[2] == f"You took {q1}."
    assert everyone[0] == f"Greta drew {m3}, {a1}."


def books_of(game: Any, name: str) -> str:
    """``M3:FFS``, read from the game's own card."""
    card = next(c for c in game.state.cards.where if c.name == name)
    return f"{name}:{''.join(card.books)}"


def _a_game() -> Any:
    record = SaveRecord(seed=1, seats=["greedy", "greedy"], names=["Me", "Greta"]).stamp()
    session = Session(record, load_catalog(), log_events=False)
    session.run()
    return session.game


def test_artifacts_on_the_screen_and_behind_question_mark() -> None:
    """The Artifactorium's display, the artifact deck's size, artifacts in hand by name,
    artifacts on display and on shelves by a short form of their names (*Hammer); '?'
    gives an offered or displayed artifact's text."""
    from exlibris.agents import RandomAgent
    from exlibris.engine.flow import new_game, placement_options, preparation
    from exlibris.engine.public import public
    from exlibris.interactive.context import help_text
    from exlibris.interactive.shelf_grid import artifact_short
    from exlibris.validation import resolve_settings

    catalog = load_catalog()
    game = new_game(catalog, resolve_settings("artifactorium", catalog.variants),
                    [RandomAgent(1), RandomAgent(2)], seed=3, variant="artifactorium")
    game.state.round = 1  # as play() does before preparation; round 0 is the set-up screen
    preparation(game)
    state = game.state
    shown = [c.artifact_id for c in next(loc for loc in state.in_play
                                         if loc.id == "artifactorium-tile").area.cards]
    held, shelved = state.artifact_deck.cards[-1], state.artifact_deck.cards[-2]
    me = state.players[0]
    state.cards.move(held, me.hand)
    state.cards.move(shelved, me.shelf_zone, pos=(0, 0))
    text = render(Screen(game, 0, STYLES, LIBRARIES, 120).table())
    assert f"artifact deck {len(state.artifact_deck)}" in text
    assert all(f"*{artifact_short(aid)}" in text for aid in shown)
    assert not any(f"*{aid}" in text for aid in shown)
    assert f"Artifacts in hand: {catalog.artifacts[held.artifact_id].name}" in text
    assert f"*{artifact_short(shelved.artifact_id)}" in text
    # '?' on a placement names the displayed artifacts' texts
    options = placement_options(game, 0)
    decision = Decision(0, DecisionKind.PLACE, "place an assistant",
                        [public(o) for o in options])
    about = help_text(game, decision, [])
    assert all(catalog.artifacts[aid].text in about for aid in shown)
    # '?' on a pick among artifacts gives their texts
    pick = Decision(0, DecisionKind.PICK, "which to shelve?", [held, None],
                    data={"verb": "shelve", "purpose": Purpose.SHELVE})
    assert catalog.artifacts[held.artifact_id].text in help_text(game, pick, [])


def test_narration_of_the_artifact_deck_and_leftovers() -> None:
    from exlibris.agents import RandomAgent
    from exlibris.engine.flow import new_game
    from exlibris.validation import resolve_settings

    catalog = load_catalog()
    game = new_game(catalog, resolve_settings("artifactorium", catalog.variants),
                    [RandomAgent(1), RandomAgent(2)], seed=3, variant="artifactorium")
    told = Narrator(game, 0).lines([
        {"event": "artifact-deck", "cards": 18},
        {"event": "under-deck", "location": "artifactorium-tile", "deck": "artifact-deck",
         "cards": ["foul-vowel-towel"]}])
    assert told == ["The artifact deck: 18 artifacts, shuffled.",
                    "Artifactorium (#21): The Foul Vowel Towel went under the deck."]
