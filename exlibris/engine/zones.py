# cython: annotation_typing=True
"""Where every card is. Each card is in exactly one zone at a time.

A zone is a named list of cards (deck, discard pile, a hand, a card area, cards
set apart by a reveal); shelves are zones too, backed by the player's
``Shelf``. ``Cards`` is the only writer of where a card is: ``Cards.move`` and the
few named operations beside it (setup, the shelf's tucks, lifts, swaps and special
placements) change a zone and the index together, so the index stays exact.
``tests/test_zone_index.py`` fails if any other module writes the index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from exlibris.model.cards import Card
from exlibris.model.shelf import Pos, Shelf, Slot


class Zone:
    """An ordered pile of cards; for decks the top card is the last one. A zone is
    ``hidden`` when not every seat sees its cards: face down, or a hand (``private``)."""

    __slots__ = ("cards", "face_down", "hidden", "name", "owner")

    def __init__(self, name: str, owner: int | None = None, *, face_down: bool = False,
                 private: bool = False) -> None:
        self.name = name
        self.owner = owner
        self.face_down = face_down
        self.hidden = face_down or private
        self.cards: list[Card] = []

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return any(c is card for c in self.cards)

    def _remove(self, card: Card) -> None:
        cards = self.cards
        # a card leaves a pile mostly from its top (the deck's last card); else the
        # list's own search (cards compare by identity, in C) finds its one place
        if cards and cards[-1] is card:
            cards.pop()
            return
        try:
            cards.remove(card)
        except ValueError:
            raise ValueError(f"{card} is not in {self.name}") from None

    def _add(self, card: Card, *, bottom: bool = False, **_: Any) -> None:
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
        return self.shelf.position_of(card)

    def __contains__(self, card: object) -> bool:
        return any(slot.card == card for _, slot in self.shelf.items())

    def __len__(self) -> int:
        return len(self.shelf)

    def _remove(self, card: Card) -> None:
        pos = self.position_of(card)
        if pos is None:
            raise KeyError(card)
        self.shelf.remove(pos)

    def _add(self, card: Card, **kw: Any) -> None:
        self.shelf.shelve(card, kw["pos"], face_down=kw.get("face_down", False))


def copy_zone(zone: Zone) -> Zone:
    """A zone holding the same cards in the same order, independent of ``zone`` (a copy of
    the game: ``engine/copying.py``; the index of the copy says where its cards are)."""
    new = Zone.__new__(Zone)
    new.name, new.owner, new.face_down, new.hidden = (zone.name, zone.owner, zone.face_down,
                                                      zone.hidden)
    new.cards = list(zone.cards)
    return new


class Cards:
    """The index of which zone holds each card, and the only code that changes it.

    Readers use ``zone_of(card)`` (the zone, or None: the index's own ``get``, as cheap
    as a dict lookup) or ``where`` (a read-only view of the whole index). A card on a
    shelf, entombed beneath a shelf card or tucked under an artifact is indexed to
    that shelf's zone.

    It also remembers who has seen where each card in a hidden zone is
    (``known_to``): every seat, for a card that went there from a zone all see (a
    face-up card taken into a hand); the owners of the zones it passed between (a
    card given from one hand to another); a seat that looked at it (``saw``). A
    card dealt from the deck or shuffled into it is known to nobody but the owner of
    the hand it reaches. A determinization deals again only what a seat has not
    seen (``engine/forward.py``).
    """

    __slots__ = ("_seen", "_where", "where", "zone_of")

    def __init__(self) -> None:
        self._where: dict[Card, Zone] = {}
        self._seen: dict[Card, int] = {}  # a hidden card's seats that know its place (bits)
        self.where: Mapping[Card, Zone] = MappingProxyType(self._where)
        self.zone_of: Callable[[Card], Zone | None] = self._where.get

    # ------------------------------------------------------------------ copies
    def copy_from(self, other: Cards, zones: Mapping[int, Zone]) -> None:
        """Index every card of ``other`` in the copy of its zone, found by ``id()`` of the
        original zone in ``zones`` (this index is a copy of the game's)."""
        self._where.update({card: zones[id(zone)] for card, zone in other._where.items()})
        self._seen.update(other._seen)

    # ------------------------------------------------------------------ memory
    def known_to(self, card: Card, seat: int) -> bool:
        """Whether ``seat`` knows where ``card`` is (a card in a zone all see: always)."""
        zone = self._where.get(card)
        return zone is None or not zone.hidden or bool(self._seen.get(card, 0) >> seat & 1)

    def known_in_hidden(self, seat: int) -> set[Card]:
        """The cards in hidden zones whose place ``seat`` knows (``known_to`` of every
        card at once: a card in a hidden zone is known exactly when it is here)."""
        bit = 1 << seat
        return {card for card, seats in self._seen.items() if seats & bit}

    def saw(self, cards: Iterable[Card], seat: int) -> None:
        """``seat`` has looked at ``cards`` where they are (a look, a show)."""
        seen = self._seen
        bit = 1 << seat
        for card in cards:
            zone = self._where.get(card)
            if zone is not None and zone.hidden:
                seen[card] = seen.get(card, 0) | bit

    def forget(self, cards: Iterable[Card]) -> None:
        """Nobody knows where ``cards`` are any more (shuffled into a pile)."""
        seen = self._seen
        for card in cards:
            seen.pop(card, None)

    def _moved(self, card: Card, src: Zone, dst: Zone) -> None:
        """Who knows where ``card`` is, after its move from ``src`` to ``dst``: whoever
        knew where it was (every seat, from a zone all see), and both zones' owners."""
        seen = self._seen
        if not dst.hidden:
            if seen:
                seen.pop(card, None)
            return
        known = seen.get(card, 0) if src.hidden else -1
        if src.owner is not None:
            known |= 1 << src.owner
        if dst.owner is not None:
            known |= 1 << dst.owner
        if known:
            seen[card] = known
        elif seen:
            seen.pop(card, None)

    def redeal(self, places: Sequence[tuple[Zone, int]], cards: Sequence[Card]) -> None:
        """Put ``cards`` into ``places`` (a zone and an index in its list), one each, in
        place of the cards there, which must be ``cards`` in some order (a determinization
        deals the hidden cards again: ``engine/forward.py``)."""
        where = self._where
        for (zone, i), card in zip(places, cards, strict=True):
            zone.cards[i] = card
            where[card] = zone

    # ------------------------------------------------------------------ setup
    def put(self, card: Card, zone: Zone, **kw: Any) -> None:
        """Place a card that is in no zone yet (setup)."""
        zone._add(card, **kw)
        self._where[card] = zone

    def put_pile(self, cards: Iterable[Card], zone: Zone) -> None:
        """``put`` each of ``cards`` on top of the pile ``zone`` (not a shelf), in order;
        nobody knows where they are in it."""
        cards = list(cards)
        zone.cards.extend(cards)
        self._where.update(dict.fromkeys(cards, zone))
        if self._seen:
            self.forget(cards)

    def put_shelf(self, zone: ShelfZone) -> None:
        """Index every card of a shelf laid out whole (a scenario's position)."""
        for _, slot in zone.shelf.items():
            for card in (slot.card, slot.beneath, *slot.tucked):
                if card is not None:
                    self._where[card] = zone

    # ------------------------------------------------------------------ moves
    def move(self, card: Card, dst: Zone, **kw: Any) -> None:
        """Move a card from wherever it is but a shelf to ``dst`` (a card leaves a shelf
        by :meth:`take_off_shelf`, which knows where its tucked cards go)."""
        where = self._where
        src = where[card]
        if src is dst:
            return
        if type(src) is ShelfZone:
            raise ValueError(f"{card} is on {src.name}: take it off the shelf first")
        if type(dst) is ShelfZone:
            self.shelve(card, dst, kw["pos"], face_down=kw.get("face_down", False))
            return
        src._remove(card)
        if kw:
            dst._add(card, **kw)
        else:
            dst.cards.append(card)  # on top: Zone._add without options
        where[card] = dst
        if dst.hidden or self._seen:
            self._moved(card, src, dst)

    def shelve(self, card: Card, zone: ShelfZone, pos: Pos, *, face_down: bool = False
               ) -> None:
        """``move`` of ``card`` onto the cell ``pos`` of the shelf of ``zone``, said
        directly (the shelf may refuse, before anything moved)."""
        src = self._where[card]
        if src is zone:
            return
        if type(src) is ShelfZone:
            raise ValueError(f"{card} is on {src.name}: take it off the shelf first")
        zone.shelf.shelve(card, pos, face_down=face_down)
        src._remove(card)
        self._where[card] = zone
        self._seen.pop(card, None)

    def deal(self, src: Zone, dst: Zone, n: int) -> list[Card]:
        """Move up to ``n`` cards from the top of the pile ``src`` onto ``dst`` (neither a
        shelf), one after another, and return them: ``move`` of each top card in turn,
        without looking for it."""
        pile = src.cards
        dealt = pile[:-n - 1:-1] if n > 0 else []  # the top card first
        if dealt:
            del pile[-len(dealt):]
            dst.cards += dealt
            self._where.update(dict.fromkeys(dealt, dst))
            if dst.hidden or self._seen:
                for card in dealt:
                    self._moved(card, src, dst)
        return dealt

    def take_off_shelf(self, zone: ShelfZone, pos: Pos, dst: Zone, *, tucked_to: Zone
                       ) -> Slot:
        """Take the visible card at ``pos`` off the shelf into ``dst``; the cards tucked
        under it go on top of ``tucked_to``, a card beneath it stays (LIB-MUMMY-5)."""
        slot = zone.shelf.remove(pos)
        self.put_pile(slot.tucked, tucked_to)
        dst._add(slot.card)
        self._where[slot.card] = dst
        self._moved(slot.card, zone, dst)
        return slot

    def tuck(self, cards: Iterable[Card], zone: ShelfZone, pos: Pos) -> None:
        """Tuck ``cards``, from wherever each is, under the artifact at ``pos``."""
        cards = tuple(cards)
        zone.shelf.tuck(pos, cards)  # the shelf may refuse: do it before removing
        for card in cards:
            self._where[card]._remove(card)
            self._where[card] = zone
            self._seen.pop(card, None)

    def shelve_by(self, card: Card, zone: ShelfZone, operation: Callable[[], None]) -> None:
        """Put ``card`` on the shelf of ``zone`` by a special shelf operation (entomb,
        levitate) that places it there; the card must not be on a shelf already."""
        src = self._where[card]
        if isinstance(src, ShelfZone):
            raise ValueError(f"{card} is on {src.name} already")
        operation()  # may refuse (ShelfError) before anything moved
        src._remove(card)
        self._where[card] = zone
        self._seen.pop(card, None)

    def swap_onto_shelf(self, card: Card, zone: ShelfZone, pos: Pos, old_to: Zone, *,
                        tucked_to: Zone) -> Slot:
        """Put ``card`` in place of the visible card at ``pos`` (a card beneath stays);
        the old card goes on top of ``old_to``, the cards tucked under it on top of
        ``tucked_to``. Returns the old slot."""
        if zone.shelf.at(pos) is None:  # refused before anything moves
            raise ValueError(f"no card at {pos} on {zone.name} to swap {card} with")
        self._where[card]._remove(card)
        old = zone.shelf.swap_with_hand(pos, card)
        self._where[card] = zone
        self._seen.pop(card, None)
        old_to._add(old.card)
        self._where[old.card] = old_to
        self._moved(old.card, zone, old_to)
        self.put_pile(old.tucked, tucked_to)
        return old
