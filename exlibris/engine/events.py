"""Events: every change of state, in order, as JSON-ready records.

The log is off by default (bots playing thousands of games pay nothing for
it); ``--log FILE`` turns it on and writes one JSON object per line. A record's
``event`` is an ``EventKind`` (written as its string value); the fields of each
kind are declared in ``event_records.py``.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO


class EventKind(StrEnum):
    """Every kind of event the engine logs (the value is the record's ``event``)."""

    SETUP = "setup"
    SCENARIO = "scenario"  # a scenario's position instead of a setup
    LOCATIONS = "locations"
    LOCATIONS_RESHUFFLED = "locations-reshuffled"
    LIBRARY = "library"
    ASSISTANT_CARD = "assistant-card"
    ASSISTANT_DECK = "assistant-deck"
    ARTIFACT_DECK = "artifact-deck"
    CATEGORIES = "categories"
    DEAL_HAND = "deal-hand"
    ROUND = "round"
    GAME_STALLED = "game-stalled"
    REVEAL_LOCATION = "reveal-location"
    DEAL = "deal"
    UNDER_DECK = "under-deck"
    RESOLVE = "resolve"
    DISCARD_AREA = "discard-area"
    CLEANUP = "cleanup"
    FINAL_ROUND = "final-round"
    FLIP = "flip"
    INSPECTION = "inspection"
    DECISION = "decision"
    DRAW = "draw"
    RESHUFFLE = "reshuffle"
    DISCARD = "discard"
    GAIN = "gain"
    SHELVE = "shelve"
    ABILITY = "ability"
    PLACE = "place"
    ACTIVATE = "activate"
    RETURN = "return"
    RETIRE = "retire"
    FIRST_PLAYER = "first-player"
    TRADE = "trade"
    REVEAL = "reveal"
    LOOK = "look"
    SHOW = "show"
    TUCK = "tuck"
    NAME = "name"
    ENTOMB = "entomb"
    LEVITATE = "levitate"
    LEVITATE_REFUSED = "levitate-refused"
    REPLACE = "replace"
    SHIFT = "shift"
    REARRANGE = "rearrange"
    HIRE = "hire"
    BORROW = "borrow"
    DISMISS = "dismiss"
    REVEAL_CATEGORY = "reveal-category"
    SOLO_DISCARD = "solo-discard"
    ELIMINATE = "eliminate"
    DISCARD_HAND = "discard-hand"


class EventLog:
    """An append-only list of ``{"n": i, "event": kind, ...}`` records; given
    ``kinds``, only the records of those kinds are kept (``n`` counts the kept ones):
    a reader that wants a few kinds (``simulate/observe.py``) does not pay for
    the others' records."""

    __slots__ = ("enabled", "kinds", "records")

    def __init__(self, enabled: bool = False, kinds: frozenset[str] | None = None) -> None:
        self.enabled = enabled
        self.kinds = kinds
        self.records: list[dict[str, Any]] = []

    def wants(self, kind: EventKind) -> bool:
        """Whether a record of ``kind`` is kept (for a record costly to build)."""
        return self.enabled and (self.kinds is None or kind in self.kinds)

    def add(self, kind: EventKind, /, **data: Any) -> None:
        kinds = self.kinds
        if kinds is None or kind in kinds:
            self.records.append({"n": len(self.records), "event": kind, **data})

    def write(self, out: TextIO) -> None:
        for record in self.records:
            out.write(json.dumps(record, sort_keys=True) + "\n")

    def text(self) -> str:
        """The records as JSON lines (what :meth:`write` writes)."""
        return "".join(json.dumps(record, sort_keys=True) + "\n" for record in self.records)

    def save(self, path: Path | str) -> None:
        from exlibris.safefile import write_output

        write_output(path, self.text())
