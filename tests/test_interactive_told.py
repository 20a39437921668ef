"""Every visible event told: over seeded games of every mode, each change of zone a
seat may see is a line of that seat's log (the same lines make the since-your-turn
strip) naming the card, or for a card the seat may not see the count, and where it
came from and went. Some cases players met are checked by name."""

from __future__ import annotations

import re
from typing import Any

import pytest
from seeded_games import every_mode, mode_names

from exlibris.engine.events import EventKind
from exlibris.interactive.narrate import Narrator

MOVES = {EventKind.DRAW, EventKind.GAIN, EventKind.DISCARD, EventKind.SHELVE, EventKind.DEAL,
         EventKind.UNDER_DECK, EventKind.DISCARD_AREA, EventKind.SOLO_DISCARD,
         EventKind.TRADE, EventKind.RETURN, EventKind.REARRANGE, EventKind.DISCARD_HAND,
         EventKind.PLACE}


def _viewers(game: Any) -> list[int | None]:
    return [None, *range(len(game.state.players))]


def _name(narrator: Narrator, card: str) -> str:
    """How a line names ``card``: ``R1:HHS``, an artifact by its name."""
    return narrator.card(card)


def _check(record: dict[str, Any], text: str, narrator: Narrator, seat: int | None) -> None:
    kind = record["event"]
    where = f"{kind} {record} told to {seat}: {text!r}"
    cards = record.get("cards")
    if isinstance(cards, list) and not cards:
        return  # nothing moved
    assert text, f"not told: {where}"
    if kind == EventKind.GAIN:
        assert record["source"], f"a gain with no source: {record}"
        assert " from " in text or " gave " in text, where  # from a hand: who gave it
        seen = seat is None or seat == record["seat"] or not record["hidden"] \
            or record.get("by") == seat
        if seen:
            assert _name(narrator, record["card"]) in text, where
    elif kind == EventKind.SHELVE:
        assert " from " in text and " at row " in text, where
        if not record["face_down"] or seat in (None, record["seat"]):
            assert _name(narrator, record["card"]) in text, where
    elif kind == EventKind.DISCARD:
        to = str(record.get("to", ""))
        if not to.startswith("hand:"):
            assert _name(narrator, record["card"]) in text, where
            assert " from " in text or "discard" in text, where
    elif kind == EventKind.DRAW:
        if seat in (None, record["seat"]):
            assert all(_name(narrator, c) in text for c in cards), where
        else:
            assert re.search(rf"drew {len(cards)} card", text), where
    elif kind == EventKind.RETURN:
        assert narrator.assistant(record["assistant"]) in text and " back" in text, where
        if "location" in record:
            assert narrator.place(record["location"]) in text, where
    elif kind == EventKind.REARRANGE and "card" in record:
        assert _name(narrator, record["card"]) in text, where
        if "other" in record:
            assert _name(narrator, record["other"]) in text, where
    elif kind == EventKind.PLACE and "location" in record:
        spec = narrator.game.location_specs[record["location"]]
        if spec.auction is not None:
            assert f"bidding {record['bid']}" in text and " space " not in text, where
        else:
            assert f"space {record['space']}" in text and "bidding" not in text, where


@pytest.mark.parametrize("mode", mode_names())
def test_every_visible_move_is_told_with_its_card_source_and_destination(mode: str) -> None:
    played = next(p for p in every_mode() if p.mode == mode)
    checked = 0
    for seat in _viewers(played.game):
        narrator = Narrator(played.game, seat)
        for record in played.log.records:
            if record["event"] in MOVES:
                _check(record, narrator.tell(record), narrator, seat)
                checked += 1
    assert checked > 50


def test_the_cases_players_met_are_told() -> None:
    """A take-all's last card names its source; an outbid assistant going back is told;
    a bid of 0 is a bid; the Lodge's swap names both cards; an ability that found
    nothing to count tells nothing."""
    played = every_mode()[0]
    game = played.game
    narrator = Narrator(game, 0)
    assert narrator.lines([{"event": "gain", "seat": 1, "card": "J3",
                            "source": "area:auction-house", "hidden": False}]) == [
        f"{game.state.players[1].name} took {narrator.card('J3')} from Auction House (#3)'s "
        "area."]
    back = narrator.lines([{"event": "return", "seat": 1, "assistant": "1:standard-1",
                            "location": "auction-house"}])
    assert back and "went back from Auction House (#3)" in back[0]
    bid = narrator.lines([{"event": "place", "seat": 0, "assistant": "0:standard-1",
                           "location": "auction-house", "space": 1, "bid": 0}])
    assert bid == ["You placed standard assistant at Auction House (#3), bidding 0."]
    swap = narrator.lines([{"event": "rearrange", "seat": 0, "how": "hand", "card": "A1",
                            "pos": [0, 0], "other": "B2"}])
    assert "A1" in swap[0] and "B2" in swap[0] and "hand" in swap[0]
    assert narrator.lines([{"event": "ability", "seat": 1, "source": "1:gossip",
                            "ability": "", "index": 0},
                           {"event": "draw", "seat": 1, "cards": []},
                           {"event": "round", "round": 2, "final": False,
                            "first_player": 0}]) == ["Round 2 begins; first player: you."]


def test_a_take_all_records_the_source_of_its_last_card() -> None:
    """The area the last card of a take-all leaves is empty (and falsy): its gain still
    names it (it was recorded as no source)."""
    gains = [r for p in every_mode() for r in p.log.records if r["event"] == EventKind.GAIN]
    assert gains and all(r["source"] for r in gains)
