"""The log in a player's words: where cards come from, who gave what to whom,
categories by code and name, books on every card, idle abilities left out."""

from __future__ import annotations

from typing import Any

import pytest

from exlibris.catalog import load_catalog
from exlibris.interactive.narrate import Narrator
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import Session


@pytest.fixture(scope="module")
def game() -> Any:
    record = SaveRecord(seed=1, seats=["greedy", "greedy"], names=["Me", "Greta"]).stamp()
    session = Session(record, load_catalog(), log_events=False)
    session.run()
    return session.game


def books(game: Any, name: str) -> str:
    card = next(c for c in game.state.cards.where if c.name == name)
    return f"{name}:{''.join(card.books)}"


def told(game: Any, seat: int | None, *records: dict[str, Any]) -> list[str]:
    return Narrator(game, seat).lines(list(records))


def test_a_card_taken_from_a_face_up_area_is_named_to_everyone(game: Any) -> None:
    spec = next(iter(game.location_specs.values()))
    taken = {"event": "gain", "seat": 1, "card": "M3", "source": f"area:{spec.id}",
             "hidden": False}
    assert told(game, 0, taken) == [
        f"Greta took {books(game, 'M3')} from {spec.name} (#{spec.number})'s area."]
    hidden = taken | {"hidden": True}
    assert told(game, 0, hidden) == [f"Greta took a card from {spec.name} (#{spec.number})'s area."]


def test_a_gift_names_giver_and_receiver_and_the_card_only_to_them(game: Any) -> None:
    gift = {"event": "gain", "seat": 0, "card": "T1", "source": "hand:1", "hidden": True}
    assert told(game, 0, gift) == [f"Greta gave {books(game, 'T1')} to you."]
    assert told(game, 1, gift) == [f"You gave {books(game, 'T1')} to Me."]


def test_a_named_category_is_told_by_code_and_name(game: Any) -> None:
    value = next(iter(game.by_code.values()))
    assert told(game, 0, {"event": "name", "seat": 1, "category": value.id}) == [
        f"Greta named {value.code} {value.name}."]


def test_looks_and_trades_are_sentences(game: Any) -> None:
    assert told(game, 0, {"event": "look", "seat": 0, "count": 3}) == ["You looked at 3 cards."]
    trade = {"event": "trade", "seat": 1, "gave": "A1", "got": "B1", "to": "hand:0"}
    assert told(game, 0, trade) == [
        f"Greta traded {books(game, 'A1')} for {books(game, 'B1')} with you."]


def test_an_ability_that_did_nothing_is_not_told(game: Any) -> None:
    idle = {"event": "ability", "seat": 0, "ability": "", "source": "fire-imp"}
    after = {"event": "resolve", "location": next(iter(game.location_specs))}
    assert not any("acts" in line for line in told(game, 0, idle, after))
    busy = told(game, 0, idle, {"event": "draw", "seat": 0, "cards": ["M3"]}, after)
    assert any("acts" in line for line in busy)


def test_a_card_taken_off_a_shelf_says_whose_shelf(game: Any) -> None:
    straight = {"event": "gain", "seat": 0, "card": "H7", "source": "shelf:1", "hidden": False}
    assert told(game, 0, straight) == [f"You took {books(game, 'H7')} from Greta's shelf."]
    lifted = straight | {"source": "lifted-1:0"}
    assert told(game, 1, lifted) == [f"Me took {books(game, 'H7')} from your shelf."]
