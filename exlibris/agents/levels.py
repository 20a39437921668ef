"""The levels a player picks an opponent by (``exlibris play --level N``).

A level is a seat name with a measured strength: each beats the one below it in
most two-player games (``docs/bots.md``, "Levels", and ``bench/bot_ratings.py``
for their ratings). The save of a game keeps the seat, not the level, so a saved
game resumes with the same bot even if the levels are tuned later.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    seat: str  # a seat name, as ``--seats`` takes it
    about: str


LEVELS = (
    Level(1, "casual", "greedy", "the greedy bot: answers at once; a fair first game"),
    Level(2, "club", "mcts:25/classic", "the search as first built, 25 iterations a "
                                        "decision"),
    Level(3, "strong", "mcts:150/classic", "the search as first built, 150 iterations "
                                           "(the default search bot until 2026-12)"),
    Level(4, "expert", "mcts:300", "today's search bot (sequential halving on common "
                                   "deals, rollouts to the round's end, in solo to the "
                                   "next round's), 300 iterations"),
)
DEFAULT_LEVEL = 1


def level_seat(text: str) -> str | None:
    """The seat name of the level ``text`` names (its number or its name), or None."""
    wanted = text.strip().lower()
    for level in LEVELS:
        if wanted in (str(level.number), level.name):
            return level.seat
    return None


def levels_text() -> str:
    """The levels, for help and errors: ``1 casual (greedy), 2 club (mcts:100), ...``."""
    return ", ".join(f"{lv.number} {lv.name} ({lv.seat})" for lv in LEVELS)
