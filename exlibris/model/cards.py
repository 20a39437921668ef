"""Runtime cards: small immutable values shared by the shelf, scoring and engine.

Categories are one-letter codes here (``C F H M R S``); the content file
``content/categories.yaml`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CATEGORY_CODES: tuple[str, ...] = ("C", "F", "H", "M", "R", "S")
VOWELS = frozenset("AEIOUY")


@dataclass(frozen=True, slots=True, eq=False)
class BookCard:
    """A book card: its letter, its order among that letter's cards, how many
    cards share the letter (0 when unknown) and its books as category codes."""

    letter: str
    order: int
    books: tuple[str, ...]
    of: int = 0
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # cards are dict keys everywhere (where each card is): hash them once
        object.__setattr__(self, "_hash", hash((self.letter, self.order)))

    def __eq__(self, other: object) -> bool:
        # hand-written for speed: cards are compared often while moving between zones
        if self is other:
            return True
        if other.__class__ is not BookCard:
            return NotImplemented
        return (self.letter == other.letter and self.order == other.order  # type: ignore[attr-defined]
                and self.books == other.books and self.of == other.of)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return self._hash

    @property
    def name(self) -> str:
        """How a card is named wherever cards are listed: letter and order (``M3``)."""
        return f"{self.letter}{self.order}"

    @property
    def key(self) -> tuple[str, int]:
        """Alphabetical position: letter first, then order."""
        return (self.letter, self.order)

    def follows(self, other: BookCard) -> bool:
        """True when this card comes after ``other`` in alphabetical order."""
        return self.key > other.key

    def count(self, category: str) -> int:
        return self.books.count(category)

    def __str__(self) -> str:
        suffix = f"/{self.of}" if self.of else ""
        return f"{self.name}{suffix}:{''.join(self.books)}"


@dataclass(frozen=True, slots=True)
class ArtifactCard:
    """An artifact card, named by its content id."""

    artifact_id: str

    @property
    def name(self) -> str:
        return self.artifact_id

    def __str__(self) -> str:
        return f"*{self.artifact_id}"


Card = BookCard | ArtifactCard


@dataclass(frozen=True, slots=True)
class ResumeCard:
    """A special assistant card of Expanded Archives (its resume side), named by the
    assistant's content id. It is not a book card: it sits in the special assistant
    deck, on the Job Faire's display, or before the player who hired that assistant."""

    assistant_id: str

    @property
    def name(self) -> str:
        return self.assistant_id

    def __str__(self) -> str:
        return f"^{self.assistant_id}"
