"""What happened inside a game, read from its event log: which locations each seat
visited, what it hired, and the events rows of ``--events FILE`` (one a placement,
activation, hire or gain, with its round; and ``board`` rows, seat 0, one a location
on the board at the start of each round), a table a dataframe reads.

A simulated game's log keeps only the kinds read here (:data:`OBSERVED`), and the
events rows are encoded where the game was played (:func:`events_text`), so the
process that writes the file only appends text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii as _quoted  # what json.dumps gives a str
from typing import Any

EVENTS = ("place", "activate", "hire", "gain", "first-player")
BOARD = "board"  # an events row of a location on the board in a round (seat 0)
EVENT_COLUMNS = ("variant", "players", "game", "seat", "round", "event", "what")
OBSERVED = frozenset({*EVENTS, "round"})  # the kinds of records observe reads
FORMATS = ("jsonl", "csv")  # an events file's formats, by its suffix
EventRow = tuple[int, int, str, str]  # seat (from 1; 0 for a board row), round, event, what


@dataclass
class SeatLog:
    """One seat's game: locations visited (placements on a location), hires."""

    locations: set[str] = field(default_factory=set)
    visits: int = 0
    hires: int = 0


def observe(records: Sequence[dict[str, Any]], seats: int, keep_events: bool,
            boards: Sequence[Sequence[str]] = ()) -> tuple[list[SeatLog], list[EventRow]]:
    """Each seat's :class:`SeatLog` and, if ``keep_events``, the events rows (with a
    ``board`` row for each location of ``boards``, one list a round from round 1)."""
    logs = [SeatLog() for _ in range(seats)]
    events: list[EventRow] = []
    round_ = 0
    for record in records:
        kind = str(record["event"])
        if kind == "round":
            round_ = int(record.get("round", round_))
            continue
        if kind not in EVENTS:
            continue
        seat = record.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < seats:
            continue
        what = ""
        if kind == "place":
            location = record.get("location")
            what = str(location) if location else "home"
            if location:
                logs[seat].locations.add(str(location))
                logs[seat].visits += 1
        elif kind == "activate":
            what = str(record.get("location", ""))
        elif kind == "hire":
            what = str(record.get("assistant", ""))
            logs[seat].hires += 1
        elif kind == "gain":
            what = str(record.get("card", ""))
        if keep_events:
            events.append((seat + 1, round_, kind, what))
    if keep_events:
        events += [(0, number, BOARD, location)
                   for number, board in enumerate(boards, 1) for location in board]
    return logs, events


def events_text(key: tuple[str, int, int], events: Sequence[EventRow], form: str) -> str:
    """The events rows of the game ``key`` as lines of the events file: ``jsonl`` (one
    JSON object a line, keys in :data:`EVENT_COLUMNS` order, as ``json.dumps`` writes
    it) or ``csv`` (the ``excel`` dialect, as ``csv.writer`` writes it)."""
    variant, players, game = key
    if form == "csv":
        buffer = io.StringIO()
        csv.writer(buffer).writerows((variant, players, game, *row) for row in events)
        return buffer.getvalue()
    head = f'{{"variant": {_quoted(variant)}, "players": {int(players)}, "game": {int(game)}, '
    quoted: dict[str, str] = {}
    lines = []
    for seat, round_, kind, what in events:
        said = quoted.get(what)
        if said is None:
            said = quoted[what] = _quoted(what)
        lines.append(f'{head}"seat": {seat}, "round": {round_}, "event": {_quoted(kind)}, '
                     f'"what": {said}}}\n')
    return "".join(lines)


def event_dicts(key: tuple[str, int, int], events: Sequence[EventRow]
                ) -> list[dict[str, Any]]:
    """The events rows of the game ``key`` as dicts of :data:`EVENT_COLUMNS`."""
    return [dict(zip(EVENT_COLUMNS, (*key, *row), strict=True)) for row in events]
