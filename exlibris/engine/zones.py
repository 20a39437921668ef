"""Where every card is. Each card is in exactly one zone at a time.

A zone is a named list of cards (deck, discard pile, a hand, a card area, cards
set apart by a reveal); shelves are zones too, backed by the player's
``Shelf``. ``Cards.move`` is the only way a card changes zone, so the index of
where each card is stays exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from exlibris.model.cards import Card
from exlibris.model.shelf import Pos, Shelf


class Zone:
    """An ordered pile of cards; for decks the top card is the last one."""

    __slots__ = ("cards", "face_down", "name", "owner")

    def __init__(self, name: str, owner: int | None = None, *, face_down: bool = False) -> None:
        self.name = name
        self.owner = owner
        self.face_down = face_down
        self.cards: list[Card] = []

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return any(c is card for c in self.cards)

    def remove(self, card: Card) -> None:
        cards = self.cards
        # from the top down: a card leaves a pile mostly from its top (the deck's last
        # card); a card is in a zone at most once, so the first match is the only one
        for i in range(len(cards) - 1, -1, -1):
            if cards[i] is card:
                del cards[i]
                return
        raise ValueError(f"{card} is not in {self.name}")

    def add(self, card: Card, *, bottom: bool = False, **_: Any) -> None:
        """Put a card on top (the end of the list), or under the pile with ``bottom``."""
        if bottom:
            self.cards.insert(0, card)
        else:
            self.cards.append(card)

    def __repr__(self) -> str:
        return f"Zone({self.name}, {len(self.cards)})"


class ShelfZone(Zone):
    """A player's shelf seen as a zone; its cards live in the ``Shelf`` grid."""

    __slots__ = ("shelf",)

    def __init__(self, name: str, owner: int, shelf: Shelf) -> None:
        super().__init__(name, owner)
        self.shelf = shelf

    @property  # type: ignore[override]
    def cards(self) -> list[Card]:
        return [self.shelf.at(p).card for p in self.shelf.positions()]  # type: ignore[union-attr]

    @cards.setter
    def cards(self, value: list[Card]) -> None:  # set once by Zone.__init__
        pass

    def position_of(self, card: Card) -> Pos | None:
        for pos, slot in self.shelf.items():
            if slot.card == card:
                return pos
        return None

    def __contains__(self, card: object) -> bool:
        return any(slot.card == card for _, slot in self.shelf.items())

    def __len__(self) -> int:
        return len(self.shelf)

    def remove(self, card: Card) -> None:
        pos = self.position_of(card)
        if pos is None:
            raise KeyError(card)
        self.shelf.remove(pos)

    def add(self, card: Card, **kw: Any) -> None:
        self.shelf.shelve(card, kw["pos"], face_down=kw.get("face_down", False))


class Cards:
    """The index of which zone holds each card."""

    __slots__ = ("where",)

    def __init__(self) -> None:
        self.where: dict[Card, Zone] = {}

    def put(self, card: Card, zone: Zone, **kw: Any) -> None:
        """Place a card that is in no zone yet (setup)."""
        zone.add(card, **kw)
        self.where[card] = zone

    def move(self, card: Card, dst: Zone, **kw: Any) -> None:
        """Move a card from wherever it is to ``dst``."""
        src = self.where[card]
        if src is dst:
            return
        if isinstance(dst, ShelfZone):
            dst.add(card, **kw)  # the shelf may refuse: do it before removing
            src.remove(card)
        else:
            src.remove(card)
            dst.add(card, **kw)
        self.where[card] = dst

    def zone_of(self, card: Card) -> Zone | None:
        return self.where.get(card)
