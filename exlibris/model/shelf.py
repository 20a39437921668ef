"""A player's bookshelf: a grid of cards kept legal under the shelving rules.

Positions are ``(row, col)`` integers; rows grow downward, so the top row is the
smallest row number. The shelf may grow in any direction, but its cards never span
more than three rows and always form one edge-connected group.

Every operation checks the rules first and changes nothing when it refuses: it
raises a :class:`~exlibris.model.shelf_errors.ShelfError` that says why.

The scoring language reads a shelf only through :meth:`Shelf.positions`,
:meth:`Shelf.at` and :meth:`Shelf.neighbours`; bots call :meth:`Shelf.shelve` and
:meth:`Shelf.legal_positions` in hot loops, so both are cheap (a dict of cells,
cached row counts, a cached set of legal cells) and :meth:`Shelf.copy` is shallow.

What depends only on which cells are occupied (the legal cells, the articulation
points, the reading order) is kept until a cell is filled or emptied, and updated in
place when a card is shelved in a new cell; what also depends on the cards (the
removable cells and cards) is kept until any cell changes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from exlibris.model.cards import ArtifactCard, BookCard, Card
from exlibris.model.shelf_errors import (
    EmptyCellError,
    EntombError,
    FlipError,
    NotAdjacentError,
    OccupiedError,
    ShelfError,
    ShiftError,
    TooTallError,
    TuckError,
    WouldSplitError,
    where,
)

Pos = tuple[int, int]
Edition = Literal["base", "expansion"]

STEPS: tuple[Pos, ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIRECTIONS: dict[str, Pos] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

Shift = tuple[int, int, int, int]  # a shift of part of a row: row, first, last, distance

# ``Shelf.shift_moves`` by the occupied cells (in reading order); emptied when it holds
# ``SHIFTS_KEPT``
_SHIFTS: dict[tuple[Pos, ...], tuple[Shift, ...]] = {}
SHIFTS_KEPT = 1024  # a whole solo Artifactorium game of the search bot meets ~200


@dataclass(frozen=True, slots=True)
class ShelfRules:
    """The numbers and rulings the shelf enforces.

    ``removal_may_split``: clause SHELF-14; False (the default) refuses any removal
    that would leave the shelf in two groups.
    """

    max_rows: int = 3
    removal_may_split: bool = False


DEFAULT_RULES = ShelfRules()


@dataclass(slots=True, unsafe_hash=True)  # a value, never changed once made; not
class Slot:                               # frozen only because that is 4x slower to build
    """One occupied cell: its visible card and what lies beneath it.

    ``beneath`` is a card the Mummy entombed (always face down); ``tucked`` are
    cards tucked under an artifact (the Mystical Crystal See-All Ball).
    """

    card: Card
    face_down: bool = False
    beneath: BookCard | None = None
    tucked: tuple[Card, ...] = ()

    @property
    def face_up_book(self) -> BookCard | None:
        """The visible card when it is a face-up book card, else None."""
        card = self.card
        return card if isinstance(card, BookCard) and not self.face_down else None

    def token(self) -> str:
        """The cell in table-file notation (``~M3:FFS``, ``K2:CC+M3:FFS``...)."""
        text = ("~" if self.face_down else "") + str(self.card)
        if self.beneath is not None:
            text += f"+{self.beneath}"
        if self.tucked:
            text += f"[{len(self.tucked)}]"
        return text


def _add(pos: Pos, step: Pos) -> Pos:
    return (pos[0] + step[0], pos[1] + step[1])


def is_connected(cells: Iterable[Pos]) -> bool:
    """True when ``cells`` form one edge-connected group (or are empty)."""
    todo = set(cells)
    if not todo:
        return True
    stack = [todo.pop()]
    while stack:
        r, c = stack.pop()
        for dr, dc in STEPS:
            nxt = (r + dr, c + dc)
            if nxt in todo:
                todo.remove(nxt)
                stack.append(nxt)
    return not todo


def _rejoined(cells: set[Pos], gone: Pos, row: int, lo: int, hi: int) -> bool:
    """Whether ``cells`` are one group, given that they were before the run of ``row``
    from column ``lo`` to ``hi`` slid one cell off ``gone`` (``Shelf._slide``): a path
    that broke went through ``gone``, so it is enough that each card beside ``gone``
    (not of the run) still reaches the run, which touches every cell it touched but
    ``gone``'s."""
    r, c = gone
    loose = {pos for pos in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
             if pos in cells and not (pos[0] == row and lo <= pos[1] <= hi)}
    if not loose:
        return True
    seen = {(row, col) for col in range(lo, hi + 1)}
    stack = list(seen)
    while stack:
        r, c = stack.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in cells and near not in seen:
                seen.add(near)
                if near in loose:
                    loose.discard(near)
                    if not loose:
                        return True
                stack.append(near)
    return False


def components(cells: Iterable[Pos]) -> list[list[Pos]]:
    """The edge-connected groups of ``cells``, each sorted in reading order."""
    todo = set(cells)
    groups: list[list[Pos]] = []
    while todo:
        start = min(todo)
        todo.remove(start)
        group, stack = [start], [start]
        while stack:
            pos = stack.pop()
            for step in STEPS:
                nxt = _add(pos, step)
                if nxt in todo:
                    todo.remove(nxt)
                    group.append(nxt)
                    stack.append(nxt)
        groups.append(sorted(group))
    groups.sort()
    return groups


class Shelf:
    """A bookshelf: occupied cells mapped to :class:`Slot`."""

    __slots__ = ("_joints", "_key", "_legal", "_legal_order", "_order", "_removable",
                 "_removable_cards", "_rows", "_slots", "rules")

    def __init__(self, rules: ShelfRules = DEFAULT_RULES) -> None:
        self.rules = rules
        self._slots: dict[Pos, Slot] = {}
        self._rows: dict[int, int] = {}
        # kept while the occupied cells stay the same (see _grown and _changed)
        self._legal: frozenset[Pos] | None = None
        self._legal_order: tuple[Pos, ...] | None = None
        self._order: tuple[Pos, ...] | None = None
        self._joints: frozenset[Pos] | None = None  # articulation points, of a connected shelf
        # kept while no cell changes
        self._removable: frozenset[Pos] | None = None
        self._removable_cards: frozenset[Card] | None = None
        self._key: frozenset[tuple[Pos, Slot]] | None = None

    # ----------------------------------------------------------------- building
    @classmethod
    def from_slots(
        cls, slots: Mapping[Pos, Slot], rules: ShelfRules = DEFAULT_RULES, *, check: bool = True
    ) -> Shelf:
        """A shelf holding ``slots`` as given; checked (connected, rows) unless told not to."""
        shelf = cls(rules)
        for pos, slot in slots.items():
            shelf._put(pos, slot)
        if check:
            shelf.check()
        return shelf

    def copy(self) -> Shelf:
        """An independent shelf with the same cells (slots are immutable, so shallow)."""
        other = Shelf(self.rules)
        other._slots = dict(self._slots)
        other._rows = dict(self._rows)
        other._legal = self._legal
        other._legal_order = self._legal_order
        other._order = self._order
        other._joints = self._joints
        other._removable = self._removable
        other._removable_cards = self._removable_cards
        other._key = self._key
        return other

    def snapshot(self) -> dict[Pos, Slot]:
        """The cells as a plain dict, for comparing states."""
        return dict(self._slots)

    def key(self) -> frozenset[tuple[Pos, Slot]]:
        """The cells as one hashable value: equal shelves (``==``) have equal keys (kept
        while no cell changes)."""
        key = self._key
        if key is None:
            key = self._key = frozenset(self._slots.items())
        return key

    # ------------------------------------------------------------ reading it
    def positions(self) -> tuple[Pos, ...]:
        """Occupied cells in reading order: top row first, left to right."""
        if self._order is None:
            self._order = tuple(sorted(self._slots))
        return self._order

    def at(self, pos: Pos) -> Slot | None:
        """The slot at ``pos``, or None when the cell is empty."""
        return self._slots.get(pos)

    def items(self) -> Iterator[tuple[Pos, Slot]]:
        """``(pos, slot)`` pairs in reading order."""
        slots = self._slots
        return ((pos, slots[pos]) for pos in self.positions())

    def position_of(self, card: Card) -> Pos | None:
        """The cell whose visible card is ``card`` (None if none is)."""
        for pos, slot in self._slots.items():
            if slot.card is card:
                return pos
        return None

    def neighbours(self, pos: Pos) -> list[Pos]:
        """Occupied cells sharing an edge with ``pos``."""
        slots = self._slots
        r, c = pos
        return [(r + dr, c + dc) for dr, dc in STEPS if (r + dr, c + dc) in slots]

    def __len__(self) -> int:
        return len(self._slots)

    def __contains__(self, pos: object) -> bool:
        return pos in self._slots

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shelf) and self._slots == other._slots

    __hash__ = None  # type: ignore[assignment]

    @property
    def top_row(self) -> int | None:
        return min(self._rows) if self._rows else None

    @property
    def bottom_row(self) -> int | None:
        return max(self._rows) if self._rows else None

    @property
    def height(self) -> int:
        """How many rows the cards span (0 for an empty shelf)."""
        return max(self._rows) - min(self._rows) + 1 if self._rows else 0

    def card_count(self) -> int:
        """Cards that count toward the final-round trigger: one per occupied cell.

        Face-down cards and artifacts count; entombed lower cards and tucked cards
        do not (clause FINAL-05).
        """
        return len(self._slots)

    def entombed_count(self) -> int:
        """How many cells hold an entombed card beneath their top card."""
        return sum(1 for slot in self._slots.values() if slot.beneath is not None)

    def is_connected(self) -> bool:
        return is_connected(self._slots)

    def render(self) -> list[str]:
        """The shelf as table-file rows (``.`` for empty cells), for messages and tests."""
        if not self._slots:
            return []
        cols = [c for _, c in self._slots]
        lo, hi = min(cols), max(cols)
        rows = []
        for r in range(min(self._rows), max(self._rows) + 1):
            cells = [self._slots[(r, c)].token() if (r, c) in self._slots else "."
                     for c in range(lo, hi + 1)]
            rows.append("  ".join(cells))
        return rows

    def __repr__(self) -> str:
        return f"Shelf({' / '.join(self.render())!r})"

    def check(self) -> None:
        """Raise a ShelfError unless the shelf obeys every standing rule."""
        if self.height > self.rules.max_rows:
            raise TooTallError(
                f"the shelf spans {self.height} rows; at most {self.rules.max_rows} are allowed"
            )
        if not self.rules.removal_may_split and not self.is_connected():
            raise WouldSplitError("the shelf is not one connected group of cards")
        for pos, slot in self._slots.items():
            if slot.beneath is not None and not isinstance(slot.beneath, BookCard):
                raise EntombError(f"only a book card can lie beneath {where(pos)}", pos=pos)

    # ------------------------------------------------------------ shelving
    def legal_positions(self) -> frozenset[Pos]:
        """Empty cells where a new card may go.

        An empty shelf accepts its first card anywhere; ``(0, 0)`` stands for that.
        """
        if self._legal is None:
            if not self._slots:
                self._legal = frozenset({(0, 0)})
            else:
                slots = self._slots
                lo, hi = min(self._rows), max(self._rows)
                top, bottom = hi - self.rules.max_rows + 1, lo + self.rules.max_rows - 1
                legal = set()
                for r, c in slots:
                    for dr, dc in STEPS:
                        cell = (r + dr, c + dc)
                        if cell not in slots and top <= cell[0] <= bottom:
                            legal.add(cell)
                self._legal = frozenset(legal)
        return self._legal

    def legal_cells(self) -> tuple[Pos, ...]:
        """``legal_positions`` in reading order (what a shelving decision offers)."""
        if self._legal_order is None:
            self._legal_order = tuple(sorted(self.legal_positions()))
        return self._legal_order

    def removable_positions(self) -> frozenset[Pos]:
        """Cells whose visible card may be taken off without splitting the shelf.

        A cell with a card entombed beneath always may (the lower card stays); any
        other cell may unless it joins two parts (an articulation point), or when
        the rules allow removals to split the shelf.
        """
        if self._removable is None:
            cells = self._slots
            if self.rules.removal_may_split:
                self._removable = frozenset(cells)
            else:
                joints = self._articulation()
                if joints is None:  # not one group (a position laid out unchecked)
                    joints = _articulation_points(cells)[0]
                self._removable = frozenset(
                    p for p, slot in cells.items() if slot.beneath is not None or p not in joints)
        return self._removable

    def removable_cards(self) -> frozenset[Card]:
        """The visible cards of ``removable_positions``."""
        if self._removable_cards is None:
            slots = self._slots
            self._removable_cards = frozenset(slots[p].card for p in self.removable_positions())
        return self._removable_cards

    def _articulation(self) -> frozenset[Pos] | None:
        """The articulation points, kept with the cells; None when the shelf is not
        one group (then nothing is kept)."""
        if self._joints is None:
            joints, whole = _articulation_points(self._slots)
            if not whole:
                return None
            self._joints = frozenset(joints)
        return self._joints

    def can_shelve(self, pos: Pos) -> bool:
        """True when a new card may go at ``pos``."""
        return not self._slots or pos in self.legal_positions()

    def shelve(self, card: Card, pos: Pos, *, face_down: bool = False) -> None:
        """Shelve ``card`` at ``pos`` (face down for the Witch's transmogrify)."""
        legal = self._legal
        if legal is None or pos not in legal:  # a kept legal cell passes every check
            self._check_new_cell(card, pos, self._slots.keys(), self._rows)
        if face_down and not isinstance(card, BookCard):
            raise FlipError(f"{card} is an artifact; only book cards are shelved face down",
                            pos=pos, card=card)
        self._put(pos, Slot(card, face_down))

    def with_card(self, card: Card, pos: Pos) -> Shelf:
        """A copy with ``card`` shelved face up at ``pos``, checked as ``shelve`` checks
        it; what is kept about the cells (the legal cells, the joints) is worked out
        again if the copy is asked (a bot's trial shelf is read, not grown further)."""
        legal = self._legal
        if legal is None or pos not in legal:
            self._check_new_cell(card, pos, self._slots.keys(), self._rows)
        other = Shelf(self.rules)
        slots = other._slots = dict(self._slots)
        slots[pos] = Slot(card, False)
        rows = other._rows = dict(self._rows)
        rows[pos[0]] = rows.get(pos[0], 0) + 1
        order = self._order
        if order is not None:
            i = bisect_left(order, pos)
            other._order = (*order[:i], pos, *order[i:])
        return other

    def shelving_refusal(self, card: Card, pos: Pos) -> ShelfError | None:
        """Why ``card`` may not be shelved at ``pos`` (the error ``shelve`` raises), or
        None when it may: what "why not?" answers about a cell."""
        held = self._slots.get(pos)
        if held is not None:
            return OccupiedError(f"cannot shelve {card} at {where(pos)}: the cell holds "
                                 f"{held.card}", pos=pos, card=card)
        return self._new_cell_refusal(card, pos, self._slots.keys(), self._rows)

    def removal_refusal(self, pos: Pos) -> ShelfError | None:
        """Why the visible card at ``pos`` may not be taken off (the error ``remove``
        raises), or None when it may."""
        slot = self._slots.get(pos)
        if slot is None:
            return EmptyCellError(f"cannot remove {where(pos)}: the cell is empty", pos=pos)
        if slot.beneath is None and not self.rules.removal_may_split \
                and pos not in self.removable_positions():
            return WouldSplitError(
                f"cannot remove {slot.card} at {where(pos)}: the shelf would split in two",
                pos=pos, card=slot.card)
        return None

    def _check_new_cell(
        self, card: Card, pos: Pos, occupied: Iterable[Pos] | Mapping[Pos, object],
        rows: Mapping[int, int],
    ) -> None:
        refusal = self._new_cell_refusal(card, pos, occupied, rows)
        if refusal is not None:
            raise refusal

    def _new_cell_refusal(
        self, card: Card, pos: Pos, occupied: Iterable[Pos] | Mapping[Pos, object],
        rows: Mapping[int, int],
    ) -> ShelfError | None:
        if pos in occupied:
            return OccupiedError(f"cannot shelve {card} at {where(pos)}: the cell holds a card",
                                 pos=pos, card=card)
        if not rows:
            return None
        r, c = pos
        if ((r - 1, c) not in occupied and (r, c - 1) not in occupied
                and (r, c + 1) not in occupied and (r + 1, c) not in occupied):
            return NotAdjacentError(
                f"cannot shelve {card} at {where(pos)}: no shelved card touches it along an edge",
                pos=pos, card=card)
        span = max(max(rows), r) - min(min(rows), r) + 1
        if span > self.rules.max_rows:
            return TooTallError(
                f"cannot shelve {card} at {where(pos)}: the shelf would span {span} rows "
                f"(at most {self.rules.max_rows})", pos=pos, card=card)
        return None

    def remove(self, pos: Pos) -> Slot:
        """Take the visible card at ``pos`` off the shelf and return it (with its tucked cards).

        A card entombed beneath stays in the cell, face down and no longer entombed.
        """
        slot = self._need(pos, "remove")
        if slot.beneath is not None:
            self._put(pos, Slot(slot.beneath, face_down=True))
            return replace(slot, beneath=None)
        refusal = self.removal_refusal(pos)
        if refusal is not None:
            raise refusal
        self._take(pos)
        return slot

    # ----------------------------------------------------- Librarians Lodge
    def swap(self, a: Pos, b: Pos) -> None:
        """Exchange the cards of two shelf cells (each keeps what lies beneath it)."""
        slot_a, slot_b = self._need(a, "swap"), self._need(b, "swap")
        if a == b:
            raise ShelfError(f"cannot swap {slot_a.card} at {where(a)} with itself", pos=a)
        self._slots[a], self._slots[b] = slot_b, slot_a
        self._restocked()

    def swap_with_hand(self, pos: Pos, card: Card) -> Slot:
        """Put ``card`` from hand in place of the visible card at ``pos``; return the old one.

        A card entombed beneath stays entombed under the new card; cards tucked under
        an artifact leave with it.
        """
        slot = self._need(pos, "swap")
        self._slots[pos] = Slot(card, beneath=slot.beneath)
        self._restocked()
        return replace(slot, beneath=None)

    def reshelve(self, src: Pos, dst: Pos) -> None:
        """Lift the visible card at ``src`` and shelve it again at ``dst``.

        Only the shelf after the move is checked (clause LOC-08-5): lifting a card
        that joins two parts is fine if its new cell joins them again.
        """
        slot = self._need(src, "re-shelve")
        if dst == src:
            return
        cells = dict(self._slots)
        if slot.beneath is not None:
            cells[src] = Slot(slot.beneath, face_down=True)
            rows = self._rows  # src stays occupied: the same rows (only read below)
        else:
            del cells[src]
            rows = dict(self._rows)
            if rows[src[0]] == 1:
                del rows[src[0]]
            else:
                rows[src[0]] -= 1
        self._check_new_cell(slot.card, dst, cells, rows)
        cells[dst] = replace(slot, beneath=None) if slot.beneath is not None else slot
        if not self.rules.removal_may_split and not is_connected(cells):
            raise WouldSplitError(
                f"cannot move {slot.card} from {where(src)} to {where(dst)}: "
                "the shelf would be left in two groups", pos=dst, card=slot.card)
        self._replace_all(cells)

    def reshelve_cells(self, src: Pos, candidates: Iterable[Pos]) -> list[Pos]:
        """The ``candidates`` (in their order) where ``reshelve(src, dst)`` would succeed,
        worked out once for ``src`` rather than by trying each move on a copy: after
        the lift, a cell is legal when it is empty, touches a card (unless the shelf is
        then empty), keeps the rows within the limit, and touches every group of cards
        left (so that the shelf is one group again). The groups are only worked out
        when lifting ``src`` splits the shelf (it is an articulation point)."""
        return self._reshelve_into(src, self._touching(candidates))

    def reshelve_moves(self, candidates: Iterable[Pos]) -> list[tuple[Pos, Pos]]:
        """Every ``(src, dst)`` with ``dst`` in ``reshelve_cells(src, candidates)``, for
        each card in reading order: what the cells touch is found once for all."""
        touching = self._touching(candidates)
        return [(src, dst) for src in self.positions()
                for dst in self._reshelve_into(src, touching)]

    def _touching(self, cells: Iterable[Pos]) -> list[tuple[Pos, tuple[Pos, ...] | None]]:
        """Each cell with the occupied cells beside it (None for an occupied cell)."""
        slots = self._slots
        return [(cell, None) if cell in slots else
                (cell, tuple(n for n in ((cell[0] - 1, cell[1]), (cell[0], cell[1] - 1),
                                         (cell[0], cell[1] + 1), (cell[0] + 1, cell[1]))
                             if n in slots))
                for cell in cells]

    def _reshelve_into(self, src: Pos, touching: list[tuple[Pos, tuple[Pos, ...] | None]]
                       ) -> list[Pos]:
        """``reshelve_cells`` of ``src`` among cells given with what they touch."""
        slot = self._need(src, "re-shelve")
        rows = self._rows
        lifted = slot.beneath is None  # an entombed card stays in the cell
        if lifted:
            rows = dict(rows)
            if rows[src[0]] == 1:
                del rows[src[0]]
            else:
                rows[src[0]] -= 1
        gone = src if lifted else None
        groups: list[set[Pos]] = []
        if not self.rules.removal_may_split:
            joints = self._articulation()
            if joints is None or (lifted and src in joints):
                cells = self._slots.keys() - {src} if lifted else self._slots.keys()
                groups = [set(g) for g in components(cells)]
        top = bottom = 0
        if rows:
            top, bottom = min(rows), max(rows)
        most = self.rules.max_rows
        found = []
        for dst, near in touching:
            if dst == src:
                found.append(dst)  # reshelving in place changes nothing
                continue
            if near is None:
                continue  # a card is there
            if rows:
                if not near or (len(near) == 1 and near[0] == gone):
                    continue  # touches no card once ``src`` is lifted
                r = dst[0]
                if max(bottom, r) - min(top, r) + 1 > most:
                    continue
            if groups and any(group.isdisjoint(near) for group in groups):
                continue
            found.append(dst)
        return found

    # ---------------------------------------------------- Shelfmasons Guild
    def shift_run(self, row: int, first: int, last: int, distance: int, *,
                  legal: bool = False) -> None:
        """Slide the touching cards of ``row`` from column ``first`` to ``last``
        ``distance`` cells sideways (negative = left), one cell at a time.

        Every intermediate step must keep the shelf connected, and the run may not
        pass through other cards (clauses LOC-18-1, LOC-18-2; LOC-18-3 reading (a)).
        ``legal``: the shift is one this shelf's ``shift_reach`` allowed (an option the
        engine offered, tried on a copy), so its steps are not walked again.
        """
        if first > last:
            first, last = last, first
        if not legal:
            run = [(row, c) for c in range(first, last + 1)]
            for pos in run:
                if pos not in self._slots:
                    raise ShiftError(
                        f"cannot shift row {row} columns {first}..{last}: {where(pos)} is "
                        "empty; the run must be touching cards", pos=pos)
            if distance == 0:
                raise ShiftError("a shift must move the cards at least one cell", pos=run[0])
            _, refusal = self._slide(row, first, last, distance)
            if refusal is not None:
                raise refusal
        moved = {(row, c): self._slots[(row, c)] for c in range(first, last + 1)}
        cells_map = {p: s for p, s in self._slots.items() if p not in moved}
        for (r, c), slot in moved.items():
            cells_map[(r, c + distance)] = slot
        self._replace_all(cells_map)

    def shift_moves(self) -> tuple[Shift, ...]:
        """Every legal shift of this shelf, as ``(row, first, last, distance)``: for each
        row (top first), each run of touching cards in it, and each part of the run
        that ends at one of its ends, towards that end, each distance the single steps
        allow (``shift_reach``), without repeats. It depends only on the occupied
        cells, so it is kept by them for every shelf that has those cells (at most
        ``SHIFTS_KEPT`` sets of cells): the Shelfmasons Guild asks it of the same
        shelves again and again in a search's play-outs."""
        cells = self.positions()
        found = _SHIFTS.get(cells)
        if found is None:
            if len(_SHIFTS) >= SHIFTS_KEPT:
                _SHIFTS.clear()
            found = _SHIFTS[cells] = self._shifts()
        return found

    def _shifts(self) -> tuple[Shift, ...]:
        """``shift_moves`` worked out."""
        cells = self.positions()
        columns = [c for _, c in cells]
        width = max(columns) - min(columns) + 2 if cells else 0
        runs: list[tuple[int, list[int]]] = []  # (row, columns), in reading order
        for r, c in cells:
            if runs and runs[-1][0] == r and runs[-1][1][-1] == c - 1:
                runs[-1][1].append(c)
            else:
                runs.append((r, [c]))
        legal: list[Shift] = []
        for row, run in runs:
            for i in range(len(run)):
                for first, last, sign in ((run[0], run[i], -1), (run[i], run[-1], 1)):
                    # a shift by d is legal when its d single steps are: one walk gives
                    # every legal distance
                    reach = self.shift_reach(row, first, last, sign, width)
                    legal += [(row, first, last, sign * d) for d in range(1, reach + 1)]
        return tuple(dict.fromkeys(legal))

    def shift_reach(self, row: int, first: int, last: int, sign: int, most: int) -> int:
        """How many cells (up to ``most``) the touching cards of ``row`` from column
        ``first`` to ``last`` may slide towards ``sign`` (-1 left, 1 right): a shift by
        ``d`` is legal exactly when its ``d`` single steps are, so one walk gives every
        legal distance (the run is not checked: it must be touching cards)."""
        if first > last:
            first, last = last, first
        return self._slide(row, first, last, sign * most)[0]

    def _slide(self, row: int, first: int, last: int, distance: int
               ) -> tuple[int, ShelfError | None]:
        """Walk ``shift_run``'s steps, one cell at a time, without changing the shelf:
        how many succeed, and why the next is refused (None when all succeed)."""
        step = 1 if distance > 0 else -1
        cells = set(self._slots)
        lo, hi = first, last
        # whether the shelf before this step is known to be one group (its articulation
        # points are kept with its cells, so the walks of one shelf check it once)
        joined = self._articulation() is not None
        for n in range(1, abs(distance) + 1):
            ahead = (row, hi + 1) if step > 0 else (row, lo - 1)
            if ahead in cells:
                return n - 1, ShiftError(
                    f"cannot shift row {row} columns {first}..{last} by {distance}: "
                    f"{self._slots[ahead].card} at {where(ahead)} is in the way", pos=ahead)
            behind = (row, lo) if step > 0 else (row, hi)
            cells.discard(behind)
            cells.add(ahead)
            lo, hi = lo + step, hi + step
            joined = _rejoined(cells, behind, row, lo, hi) if joined else is_connected(cells)
            if not joined:
                return n - 1, WouldSplitError(
                    f"cannot shift row {row} columns {first}..{last} by {distance}: "
                    f"the shelf splits after {n} step{'s' if n > 1 else ''}", pos=(row, first))
        return abs(distance), None

    # ------------------------------------------------------------ the Wizard
    def levitate_lines(self) -> list[tuple[tuple[Pos, ...], str, Pos]]:
        """Every legal straight push of the Wizard, worked out at once rather than by
        trying ``levitate`` on a copy: for each cell (reading order) and direction
        (``DIRECTIONS`` order), the line of touching cards from that cell on, pushed one
        cell so that the new card takes the cell, as ``(line, direction, cell)``.

        Such a push always obeys the shift's own rules (either edition); the shelf then
        holds one more cell, beyond the line's end, so it is legal when the rows stay
        within the limit and the shelf is one group.
        """
        slots = self._slots
        if not slots:
            return []
        rows = self._rows
        lo, hi = min(rows), max(rows)
        most = self.rules.max_rows
        whole = is_connected(slots)
        found = []
        for target in self.positions():
            for direction, (dr, dc) in DIRECTIONS.items():
                line = []
                r, c = target
                while (r, c) in slots:
                    line.append((r, c))
                    r, c = r + dr, c + dc
                # (r, c): the empty cell the line is pushed into
                if max(hi, r) - min(lo, r) + 1 > most:
                    continue
                if not whole and not is_connected([*slots, (r, c)]):
                    continue
                found.append((tuple(line), direction, target))
        return found

    def levitate(
        self,
        card: Card,
        moved: Iterable[Pos],
        direction: str | Pos,
        target: Pos,
        *,
        edition: Edition = "base",
        face_down: bool = False,
    ) -> None:
        """Shift ``moved`` cards one cell in ``direction``, then shelve ``card`` at ``target``.

        ``edition="base"``: the moved cards must be one group of touching cards and
        the new card goes into any cell the shift emptied. ``"expansion"``: any cards
        may move (one direction) and the new card must touch a moved card in a cell
        the shift emptied. The shelf may come apart during the shift, but must obey
        every rule once the new card is in (LIB-WIZARD-1/2, SA-WIZARD-1..3).
        """
        step = DIRECTIONS.get(direction) if isinstance(direction, str) else direction
        if step not in STEPS:
            raise ShiftError(f"unknown direction {direction!r}; use up, down, left or right")
        group = set(moved)
        if not group:
            raise ShiftError("the Wizard must move at least one card")
        for pos in sorted(group):
            self._need(pos, "move")
        if edition == "base" and not is_connected(group):
            raise ShiftError("the base Wizard moves one group of touching cards; "
                             f"{sorted(group)} is not one group")
        landing = {_add(pos, step) for pos in group}
        for pos in sorted(landing - group):
            if pos in self._slots:
                raise ShiftError(f"cannot shift onto {self._slots[pos].card} at {where(pos)}",
                                 pos=pos)
        emptied = group - landing
        if target not in emptied:
            raise ShiftError(
                f"cannot shelve {card} at {where(target)}: the new card must go into a cell "
                f"the shift emptied ({', '.join(where(p) for p in sorted(emptied))})",
                pos=target, card=card)
        if edition == "expansion" and not any(_add(target, s) in landing for s in STEPS):
            raise ShiftError(f"cannot shelve {card} at {where(target)}: it must touch a moved card",
                             pos=target, card=card)
        cells = {p: s for p, s in self._slots.items() if p not in group}
        for pos in group:
            cells[_add(pos, step)] = self._slots[pos]
        cells[target] = Slot(card, face_down=face_down)
        rows = _row_counts(cells)
        span = max(rows) - min(rows) + 1
        if span > self.rules.max_rows:
            raise TooTallError(f"cannot levitate: the shelf would span {span} rows "
                               f"(at most {self.rules.max_rows})", pos=target, card=card)
        if not is_connected(cells):
            raise WouldSplitError(f"cannot levitate: with {card} at {where(target)} the shelf "
                                  "is still in more than one group", pos=target, card=card)
        self._replace_all(cells)

    # ------------------------------------------------------------ the Mummy
    def entomb(self, card: Card, pos: Pos, *, under: bool) -> None:
        """Stack ``card`` on top of (``under=False``) or beneath the card at ``pos``.

        The lower card of the stack is face down; a cell holds at most one card
        beneath its top card (LIB-MUMMY-1..3).
        """
        refusal = self.entomb_refusal(card, pos, under=under)
        if refusal is not None:
            raise refusal
        slot = self._slots[pos]
        if under:
            self._slots[pos] = replace(slot, beneath=card)
        else:
            self._slots[pos] = Slot(card, beneath=slot.card)
        self._restocked()

    def entomb_refusal(self, card: Card, pos: Pos, *, under: bool) -> ShelfError | None:
        """Why ``entomb(card, pos, under=under)`` may not be done, or None."""
        slot = self._slots.get(pos)
        if slot is None:
            return EmptyCellError(f"cannot entomb at {where(pos)}: the cell is empty", pos=pos)
        if slot.beneath is not None:
            return EntombError(
                f"cannot entomb {card} at {where(pos)}: {slot.beneath} already lies beneath "
                f"{slot.card}", pos=pos, card=card)
        if under and not isinstance(card, BookCard):
            return EntombError(f"cannot entomb {card} beneath {slot.card}: only book cards "
                               "are entombed", pos=pos, card=card)
        if not under and not isinstance(slot.card, BookCard):
            return EntombError(f"cannot entomb on top of {slot.card} at {where(pos)}: "
                               "an artifact cannot lie beneath", pos=pos, card=card)
        return None

    def entomb_options(self, card: Card) -> list[tuple[Pos, bool]]:
        """Every ``(cell, under)`` where ``entomb(card, cell, under=under)`` would succeed,
        in reading order, on top before beneath: a cell with nothing beneath its card,
        where the card that would lie beneath is a book card."""
        book = isinstance(card, BookCard)
        return [(pos, under) for pos, slot in self.items() if slot.beneath is None
                for under in (False, True)
                if (book if under else isinstance(slot.card, BookCard))]

    # ------------------------------------------------------- flips and tucks
    def flip(self, pos: Pos) -> None:
        """Turn the visible card at ``pos`` face down (a book, or an artifact by a
        voluntary flip: SCORE-00-2)."""
        refusal = self.flip_refusal(pos)
        if refusal is not None:
            raise refusal
        slot = self._slots[pos]
        self._slots[pos] = Slot(slot.card, True, slot.beneath, slot.tucked)  # not replace(): slow
        self._restocked()

    def turned_down(self, positions: Iterable[Pos]) -> Shelf:
        """A copy with the visible cards at ``positions`` turned face down, each refused
        as ``flip`` refuses it."""
        other = self.copy()
        slots = other._slots
        for pos in positions:
            slot = slots.get(pos)
            if slot is None or slot.face_down:
                raise other.flip_refusal(pos)  # type: ignore[misc]
            slots[pos] = Slot(slot.card, True, slot.beneath, slot.tucked)
        other._restocked()
        return other

    def flip_refusal(self, pos: Pos) -> ShelfError | None:
        """Why the card at ``pos`` may not be turned face down, or None."""
        slot = self._slots.get(pos)
        if slot is None:
            return EmptyCellError(f"cannot flip {where(pos)}: the cell is empty", pos=pos)
        if slot.face_down:
            return FlipError(f"cannot flip {slot.card} at {where(pos)}: it is already face down",
                             pos=pos, card=slot.card)
        return None

    def tuck(self, pos: Pos, cards: Iterable[Card]) -> None:
        """Tuck ``cards`` beneath the artifact at ``pos``."""
        refusal = self.tuck_refusal(pos)
        if refusal is not None:
            raise refusal
        slot = self._slots[pos]
        self._slots[pos] = replace(slot, tucked=slot.tucked + tuple(cards))
        self._restocked()

    def tuck_refusal(self, pos: Pos) -> ShelfError | None:
        """Why cards may not be tucked under the card at ``pos``, or None."""
        slot = self._slots.get(pos)
        if slot is None:
            return EmptyCellError(f"cannot tuck under {where(pos)}: the cell is empty", pos=pos)
        if not isinstance(slot.card, ArtifactCard):
            return TuckError(f"cannot tuck cards under {slot.card} at {where(pos)}: "
                             "it is not an artifact", pos=pos, card=slot.card)
        return None

    # ------------------------------------------------------------ internals
    def _need(self, pos: Pos, verb: str) -> Slot:
        slot = self._slots.get(pos)
        if slot is None:
            raise EmptyCellError(f"cannot {verb} {where(pos)}: the cell is empty", pos=pos)
        return slot

    def _put(self, pos: Pos, slot: Slot) -> None:
        slots = self._slots
        if pos in slots:
            slots[pos] = slot
            self._restocked()
            return
        slots[pos] = slot
        self._rows[pos[0]] = self._rows.get(pos[0], 0) + 1
        self._grown(pos)

    def _take(self, pos: Pos) -> None:
        del self._slots[pos]
        row = pos[0]
        if self._rows[row] == 1:
            del self._rows[row]
        else:
            self._rows[row] -= 1
        self._shrunk(pos)

    def _replace_all(self, cells: dict[Pos, Slot]) -> None:
        self._slots = cells
        self._rows = _row_counts(cells)
        self._changed()

    def _changed(self) -> None:
        """Cells were filled or emptied: forget everything kept."""
        self._legal = None
        self._legal_order = None
        self._order = None
        self._joints = None
        self._restocked()

    def _restocked(self) -> None:
        """The same cells hold other slots: forget what depends on the cards."""
        self._removable = None
        self._removable_cards = None
        self._key = None

    def _shrunk(self, pos: Pos) -> None:
        """The card at ``pos`` left and its cell is empty (already out of ``_slots`` and
        ``_rows``): keep the reading order and, when the card hung on one neighbour
        (the commonest removal), the articulation points, where only that neighbour's
        may change; forget the rest."""
        joints = self._joints
        order = self._order
        self._changed()
        if order is not None:
            i = order.index(pos)
            self._order = order[:i] + order[i + 1:]
        slots = self._slots
        if joints is None:
            return
        if len(slots) <= 2:
            self._joints = frozenset()
            return
        r, c = pos
        around = [n for n in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if n in slots]
        if len(around) != 1:
            return
        held = around[0]
        r, c = held
        if sum(1 for n in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if n in slots) > 1 \
                and not is_connected(slots.keys() - {held}):
            self._joints = joints
        else:
            self._joints = joints - {held}

    def _grown(self, pos: Pos) -> None:
        """A card went into the empty cell ``pos`` (already in ``_slots`` and ``_rows``):
        update what is kept rather than forget it (each update is what a fresh
        computation would give; ``tests/test_shelf_properties.py`` checks it)."""
        self._removable = self._removable_cards = self._legal_order = self._key = None
        slots = self._slots
        if len(slots) == 1:
            self._legal = self._order = None
            self._joints = frozenset()
            return
        order = self._order
        if order is not None:
            i = bisect_left(order, pos)
            self._order = (*order[:i], pos, *order[i:])
        r, c = pos
        beside = ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
        legal = self._legal
        if legal is not None:
            rows = self._rows
            most = self.rules.max_rows
            top, bottom = max(rows) - most + 1, min(rows) + most - 1
            if rows[r] == 1:  # a new row: the rows left open may be fewer
                legal = frozenset(cell for cell in legal if top <= cell[0] <= bottom)
            self._legal = legal.difference((pos,)).union(
                [cell for cell in beside if cell not in slots and top <= cell[0] <= bottom])
        joints = self._joints
        if joints is not None:
            around = [cell for cell in beside if cell in slots]
            if len(around) == 1:
                # a card hanging on one neighbour: that neighbour now holds it to the
                # rest (if there is a rest); nothing else changes
                self._joints = joints | {around[0]} if len(slots) > 2 else frozenset()
            elif not around or joints:
                # apart from the rest, or it may close a loop that frees some joints
                self._joints = None
            # else: no joints, and a card touching two or more keeps it so


def _articulation_points(cells: Iterable[Pos]) -> tuple[set[Pos], bool]:
    """Cells whose removal disconnects the others (Tarjan's algorithm), in the group of
    the first cell; and whether that group is every cell."""
    cells = set(cells)
    if len(cells) <= 2:
        return set(), is_connected(cells)
    depth: dict[Pos, int] = {}
    joints: set[Pos] = set()

    def visit(node: Pos, parent: Pos | None, d: int) -> int:
        """Number ``node`` at depth ``d``; return the least depth its subtree reaches."""
        depth[node] = low = d
        children = 0
        r, c = node
        for nxt in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
            if nxt not in cells:
                continue
            seen = depth.get(nxt)
            if seen is None:
                children += 1
                below = visit(nxt, node, d + 1)
                if below < low:
                    low = below
                if below >= d and parent is not None:
                    joints.add(node)  # that subtree reaches nothing above this cell
            elif seen < low and nxt != parent:
                low = seen
        if parent is None and children > 1:
            joints.add(node)
        return low

    visit(next(iter(cells)), None, 0)  # depth at most the number of cells
    return joints, len(depth) == len(cells)


def _row_counts(cells: Iterable[Pos]) -> dict[int, int]:
    rows: dict[int, int] = {}
    for r, _ in cells:
        rows[r] = rows.get(r, 0) + 1
    return rows
