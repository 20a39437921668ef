"""Runtime cards: small immutable values shared by the shelf, scoring and engine.

Categories are one-letter codes here (``C F H M R S``); the content file
``content/categories.yaml`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

CATEGORY_CODES: tuple[str, ...] = ("C", "F", "H", "M", "R", "S")
VOWELS = frozenset("AEIOUY")


class BookCard:
    """A book card: its letter, its order among that letter's cards, how many
    cards share the letter (0 when unknown) and its books as category codes.

    Cards are interned: building a card equal to one already built returns that
    one, so equal cards are the same object. Equality and hashing are then the
    object's own (identity, in C), which the engine uses on every card move.
    """

    __slots__ = ("books", "key", "letter", "name", "of", "order")
    _interned: ClassVar[dict[tuple[str, int, tuple[str, ...], int], BookCard]] = {}

    letter: str
    order: int
    books: tuple[str, ...]
    of: int
    #: how a card is named wherever cards are listed: letter and order (``M3``)
    name: str
    #: alphabetical position: letter first, then order
    key: tuple[str, int]

    def __new__(cls, letter: str, order: int, books: tuple[str, ...] | list[str] = (),
                of: int = 0) -> BookCard:
        books = tuple(books)
        key = (letter, order, books, of)
        card = cls._interned.get(key)
        if card is None:
            made = object.__new__(cls)
            object.__setattr__(made, "letter", letter)
            object.__setattr__(made, "order", order)
            object.__setattr__(made, "books", books)
            object.__setattr__(made, "of", of)
            object.__setattr__(made, "name", f"{letter}{order}")  # kept: read on every move
            object.__setattr__(made, "key", (letter, order))
            card = cls._interned.setdefault(key, made)  # atomic: one card even in threads
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a card is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a card is immutable: cannot delete {name}")

    def __reduce__(self) -> tuple[type, tuple[str, int, tuple[str, ...], int]]:
        return (BookCard, (self.letter, self.order, self.books, self.of))  # re-interned

    def __copy__(self) -> BookCard:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> BookCard:
        return self

    def __repr__(self) -> str:
        return (f"BookCard(letter={self.letter!r}, order={self.order!r}, "
                f"books={self.books!r}, of={self.of!r})")

    def follows(self, other: BookCard) -> bool:
        """True when this card comes after ``other`` in alphabetical order."""
        return self.key > other.key

    def count(self, category: str) -> int:
        return self.books.count(category)

    def __str__(self) -> str:
        suffix = f"/{self.of}" if self.of else ""
        return f"{self.name}{suffix}:{''.join(self.books)}"


class ArtifactCard:
    """An artifact card, named by its content id (interned like ``BookCard``)."""

    __slots__ = ("artifact_id",)
    _interned: ClassVar[dict[str, ArtifactCard]] = {}

    artifact_id: str

    @classmethod
    def made(cls) -> tuple[ArtifactCard, ...]:
        """Every artifact card made so far in this process (each is interned)."""
        return tuple(cls._interned.values())

    def __new__(cls, artifact_id: str) -> ArtifactCard:
        card = cls._interned.get(artifact_id)
        if card is None:
            made = object.__new__(cls)
            object.__setattr__(made, "artifact_id", artifact_id)
            card = cls._interned.setdefault(artifact_id, made)  # atomic: one card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a card is immutable: cannot set {name}")

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (ArtifactCard, (self.artifact_id,))

    def __copy__(self) -> ArtifactCard:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ArtifactCard:
        return self

    def __repr__(self) -> str:
        return f"ArtifactCard(artifact_id={self.artifact_id!r})"

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
