"""What happened inside a game, read from its event log: which locations each seat
visited, what it hired, and the events rows of ``--events FILE`` (one a placement,
activation, hire or gain, with its round; and ``board`` rows, seat 0, one a location
on the board at the start of each round), a table a dataframe reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

EVENTS = ("place", "activate", "hire", "gain", "first-player")
BOARD = "board"  # an events row of a location on the board in a round (seat 0)
EVENT_COLUMNS = ("variant", "players", "game", "seat", "round", "event", "what")


@dataclass
class SeatLog:
    """One seat's game: locations visited (placements on a location), hires."""

    locations: set[str] = field(default_factory=set)
    visits: int = 0
    hires: int = 0


def observe(records: Sequence[dict[str, Any]], seats: int, key: tuple[str, int, int],
            keep_events: bool, boards: Sequence[Sequence[str]] = ()
            ) -> tuple[list[SeatLog], list[dict[str, Any]]]:
    """Each seat's :class:`SeatLog` and, if ``keep_events``, the events rows (with a
    ``board`` row for each location of ``boards``, one list a round from round 1)."""
    logs = [SeatLog() for _ in range(seats)]
    events: list[dict[str, Any]] = []
    round_ = 0
    variant, players, game = key
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
            events.append({"variant": variant, "players": players, "game": game,
                           "seat": seat + 1, "round": round_, "event": kind, "what": what})
    if keep_events:
        events += [{"variant": variant, "players": players, "game": game, "seat": 0,
                    "round": number, "event": BOARD, "what": location}
                    for number, board in enumerate(boards, 1) for location in board]
    return logs, events
