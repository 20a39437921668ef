"""Typed errors for illegal shelf operations.

Each class has a stable ``code`` that tests and callers match on, the ``clause``
of ``/work/shared/spec/clauses.md`` it enforces and its ``rule`` in words (what
"why not?" says); the message quotes the position and the card. A refused
operation leaves the shelf as it was.
"""

from __future__ import annotations

Pos = tuple[int, int]


class ShelfError(Exception):
    """An operation the shelving rules do not allow."""

    code = "shelf/illegal"
    clause: str | None = None  # the clause (clauses.md) refusing it; ``rule`` says it
    rule = "the shelving rules do not allow it"

    def __init__(self, message: str, *, pos: Pos | None = None, card: object = None) -> None:
        super().__init__(message)
        self.pos = pos
        self.card = card


class OccupiedError(ShelfError):
    """The target cell already holds a card."""

    code = "shelf/occupied"
    clause: str | None = "SHELF-05"
    rule = "a card only ever goes into an empty cell"


class EmptyCellError(ShelfError):
    """The operation needs a card at a cell that is empty."""

    code = "shelf/empty-cell"
    clause: str | None = None
    rule = "there is no card in that cell"


class NotAdjacentError(ShelfError):
    """A new card must touch a shelved card along an edge."""

    code = "shelf/not-adjacent"
    clause: str | None = "SHELF-01"
    rule = "a new card must touch a shelved card along an edge"


class TooTallError(ShelfError):
    """The shelf would span more rows than allowed (three)."""

    code = "shelf/too-tall"
    clause: str | None = "SHELF-03"
    rule = "the shelf may span at most three rows"


class WouldSplitError(ShelfError):
    """The shelf would no longer be one edge-connected group."""

    code = "shelf/would-split"
    clause: str | None = "SHELF-13"
    rule = "the shelf must stay one edge-connected group of cards"


class EntombError(ShelfError):
    """An entombing the Mummy's rules do not allow."""

    code = "shelf/entomb"
    clause: str | None = "LIB-MUMMY-3"
    rule = "a card is entombed on top of or beneath a book card, at most one beneath any card"


class ShiftError(ShelfError):
    """A shift (Shelfmasons Guild, Wizard) that cannot be made."""

    code = "shelf/shift"
    clause: str | None = "LOC-18-2"
    rule = "a shift moves a run of touching cards along its row, onto empty cells"


class FlipError(ShelfError):
    """A card that cannot be turned face down."""

    code = "shelf/flip"
    clause: str | None = "SCORE-A1-7"
    rule = "only face-up book cards are turned face down"


class TuckError(ShelfError):
    """Cards can be tucked only beneath an artifact."""

    code = "shelf/tuck"
    clause: str | None = "ART-CRYSTAL-3"
    rule = "cards are tucked only beneath an artifact"


def where(pos: Pos) -> str:
    """A position as messages show it: ``(row, col)``."""
    return f"({pos[0]}, {pos[1]})"
