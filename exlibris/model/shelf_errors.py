"""Typed errors for illegal shelf operations.

Each class has a stable ``code`` that tests and callers match on; the message
quotes the position and the card. A refused operation leaves the shelf as it was.
"""

from __future__ import annotations

Pos = tuple[int, int]


class ShelfError(Exception):
    """An operation the shelving rules do not allow."""

    code = "shelf/illegal"

    def __init__(self, message: str, *, pos: Pos | None = None, card: object = None) -> None:
        super().__init__(message)
        self.pos = pos
        self.card = card


class OccupiedError(ShelfError):
    """The target cell already holds a card."""

    code = "shelf/occupied"


class EmptyCellError(ShelfError):
    """The operation needs a card at a cell that is empty."""

    code = "shelf/empty-cell"


class NotAdjacentError(ShelfError):
    """A new card must touch a shelved card along an edge."""

    code = "shelf/not-adjacent"


class TooTallError(ShelfError):
    """The shelf would span more rows than allowed (three)."""

    code = "shelf/too-tall"


class WouldSplitError(ShelfError):
    """The shelf would no longer be one edge-connected group."""

    code = "shelf/would-split"


class EntombError(ShelfError):
    """An entombing the Mummy's rules do not allow."""

    code = "shelf/entomb"


class ShiftError(ShelfError):
    """A shift (Shelfmasons Guild, Wizard) that cannot be made."""

    code = "shelf/shift"


class FlipError(ShelfError):
    """A card that cannot be turned face down."""

    code = "shelf/flip"


class TuckError(ShelfError):
    """Cards can be tucked only beneath an artifact."""

    code = "shelf/tuck"


def where(pos: Pos) -> str:
    """A position as messages show it: ``(row, col)``."""
    return f"({pos[0]}, {pos[1]})"
