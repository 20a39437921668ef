"""Property tests: random sequences of shelf operations.

Every operation either succeeds and leaves a legal shelf (at most three rows, one
connected group, only book cards entombed), or raises a ShelfError and leaves the
shelf exactly as it was. Shelving succeeds exactly where ``legal_positions`` says.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from itertools import count

from hypothesis import given, settings
from hypothesis import strategies as st

from exlibris.model.cards import ArtifactCard, BookCard, Card
from exlibris.model.shelf import (
    DIRECTIONS,
    STEPS,
    Shelf,
    Slot,
    _articulation_points,
    components,
    is_connected,
)
from exlibris.model.shelf_errors import ShelfError

SETTINGS = settings(max_examples=200, derandomize=True, deadline=None)

index = st.integers(0, 40)
cell = st.tuples(st.integers(-4, 4), st.integers(-4, 6))
SHELVE = st.tuples(st.just("shelve"), index, st.integers(0, 3), st.booleans())
MIXED = st.lists(
    st.one_of(
        SHELVE,
        st.tuples(st.just("shelve_at"), cell, st.booleans()),
        st.tuples(st.just("remove"), index),
        st.tuples(st.just("swap"), index, index),
        st.tuples(st.just("hand"), index),
        st.tuples(st.just("reshelve"), index, index),
        st.tuples(st.just("shift"), index, st.integers(0, 3), st.integers(-3, 3)),
        st.tuples(st.just("levitate"), st.lists(index, min_size=1, max_size=4),
                  st.sampled_from(["up", "down", "left", "right"]), index,
                  st.sampled_from(["base", "expansion"])),
        st.tuples(st.just("entomb"), index, st.booleans()),
        st.tuples(st.just("flip"), index),
        st.tuples(st.just("tuck"), index),
    ),
    max_size=30,
)
OPS = st.tuples(st.lists(SHELVE, min_size=3, max_size=16), MIXED).map(lambda t: t[0] + t[1])
"""A few shelvings to grow a shelf, then any mix of operations."""


class Deck:
    """Fresh cards: book cards, with an artifact every fifth card."""

    def __init__(self) -> None:
        self.n = count()

    def draw(self) -> Card:
        n = next(self.n)
        if n % 5 == 4:
            return ArtifactCard(f"artifact-{n}")
        return BookCard("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 26], n // 26 + 1, ("C", "F"))


def pick(shelf: Shelf, i: int) -> tuple[int, int]:
    """An occupied cell chosen by ``i`` (or (0, 0) on an empty shelf)."""
    positions = shelf.positions()
    return positions[i % len(positions)] if positions else (0, 0)


def connected_by_union_find(cells: list[tuple[int, int]]) -> bool:
    """Edge-connectedness by union-find: the test's own check, not the shelf's."""
    parent = {cell: cell for cell in cells}

    def root(cell: tuple[int, int]) -> tuple[int, int]:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for r, c in cells:
        for other in ((r + 1, c), (r, c + 1)):
            if other in parent:
                parent[root(other)] = root((r, c))
    return len({root(cell) for cell in cells}) <= 1


def test_the_independent_connectivity_check_agrees_with_hand_made_cases() -> None:
    assert connected_by_union_find([(0, 0), (0, 1), (1, 1)])
    assert not connected_by_union_find([(0, 0), (1, 1)])
    assert not connected_by_union_find([(0, 0), (0, 2)])
    assert connected_by_union_find([])


def assert_legal(shelf: Shelf) -> None:
    assert shelf.height <= 3
    cells = list(shelf.positions())
    assert connected_by_union_find(cells)
    assert is_connected(cells) == connected_by_union_find(cells)
    for pos in shelf.positions():
        slot = shelf.at(pos)
        assert slot.beneath is None or isinstance(slot.beneath, BookCard)
        assert not (slot.face_down and isinstance(slot.card, ArtifactCard))
    if len(shelf):
        for pos in shelf.legal_positions():
            assert pos not in shelf
            assert any((pos[0] + dr, pos[1] + dc) in shelf for dr, dc in STEPS)
            rows = [r for r, _ in shelf.positions()] + [pos[0]]
            assert max(rows) - min(rows) < 3


def apply(shelf: Shelf, deck: Deck, op: tuple) -> None:
    kind, *args = op
    if kind == "shelve":
        legal = sorted(shelf.legal_positions())
        pos = legal[args[0] % len(legal)]
        shelf.shelve(deck.draw(), pos, face_down=args[2] and args[1] == 0)
    elif kind == "shelve_at":
        shelf.shelve(deck.draw(), args[0])
    elif kind == "remove":
        shelf.remove(pick(shelf, args[0]))
    elif kind == "swap":
        shelf.swap(pick(shelf, args[0]), pick(shelf, args[1]))
    elif kind == "hand":
        shelf.swap_with_hand(pick(shelf, args[0]), deck.draw())
    elif kind == "reshelve":
        legal = sorted(shelf.legal_positions())
        shelf.reshelve(pick(shelf, args[0]), legal[args[1] % len(legal)])
    elif kind == "shift":
        row, col = pick(shelf, args[0])
        last = col
        while last < col + args[1] and (row, last + 1) in shelf:
            last += 1
        shelf.shift_run(row, col, last, args[2])
    elif kind == "levitate":
        moved = {pick(shelf, i) for i in args[0]}
        step = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[args[1]]
        emptied = sorted(moved - {(r + step[0], c + step[1]) for r, c in moved})
        target = emptied[args[2] % len(emptied)] if emptied else (0, 0)
        shelf.levitate(deck.draw(), moved, args[1], target, edition=args[3])
    elif kind == "entomb":
        shelf.entomb(deck.draw(), pick(shelf, args[0]), under=args[1])
    elif kind == "flip":
        shelf.flip(pick(shelf, args[0]))
    elif kind == "tuck":
        shelf.tuck(pick(shelf, args[0]), [deck.draw()])


def grow(ops: list[tuple]) -> tuple[Shelf, Deck]:
    """A shelf built by ``ops``, skipping the refused ones."""
    shelf, deck = Shelf(), Deck()
    for op in ops:
        with contextlib.suppress(ShelfError):
            apply(shelf, deck, op)
    return shelf, deck


@SETTINGS
@given(OPS)
def test_random_operations_keep_the_shelf_legal(ops: list[tuple]) -> None:
    shelf, deck = Shelf(), Deck()
    for op in ops:
        before = shelf.snapshot()
        legal_before = shelf.legal_positions()
        try:
            apply(shelf, deck, op)
        except ShelfError as error:
            assert shelf.snapshot() == before, f"{op} failed but changed the shelf"
            assert shelf.legal_positions() == legal_before
            assert error.code.startswith("shelf/") and str(error)
        assert_legal(shelf)


@SETTINGS
@given(OPS, st.lists(cell, min_size=1, max_size=10))
def test_shelving_succeeds_exactly_at_legal_positions(ops: list[tuple], cells: list) -> None:
    shelf, deck = grow(ops)
    for pos in cells:
        trial = shelf.copy()
        expected = trial.can_shelve(pos)
        try:
            trial.shelve(deck.draw(), pos)
        except ShelfError:
            assert not expected
            assert trial.snapshot() == shelf.snapshot()
        else:
            assert expected
            assert_legal(trial)
        assert shelf.snapshot() != trial.snapshot() or not expected


@SETTINGS
@given(OPS)
def test_final_round_count_is_one_per_cell(ops: list[tuple]) -> None:
    shelf, _ = grow(ops)
    assert shelf.card_count() == len(shelf.positions())
    assert shelf.entombed_count() == sum(1 for p in shelf.positions() if shelf.at(p).beneath)


@SETTINGS
@given(OPS, st.booleans())
def test_reshelve_cells_are_exactly_the_moves_reshelve_allows(ops: list[tuple],
                                                              may_split: bool) -> None:
    """``Shelf.reshelve_cells`` (worked out at once for the Librarians Lodge) offers a
    cell exactly when trying ``reshelve`` on a copy succeeds, entombed cards included."""
    shelf, _ = grow(ops)
    if may_split:
        shelf = Shelf.from_slots(shelf.snapshot(),
                                 replace(shelf.rules, removal_may_split=True), check=False)
    cells = sorted({(r + dr, c + dc) for r, c in shelf.positions() for dr, dc in STEPS}
                   | set(shelf.positions()) | {(5, 5)})
    for src in shelf.positions():
        allowed = []
        for dst in cells:
            trial = shelf.copy()
            try:
                trial.reshelve(src, dst)
            except ShelfError:
                continue
            allowed.append(dst)
        assert shelf.reshelve_cells(src, cells) == allowed, src
    assert shelf.reshelve_moves(cells) == [
        (src, dst) for src in shelf.positions() for dst in shelf.reshelve_cells(src, cells)]


def _largest_rectangle_by_search(shelf: Shelf, min_width: int, min_height: int) -> int:
    """B1 by trying every rectangle standing on the bottom row: the test's own check."""
    cells = set(shelf.positions())
    if not cells:
        return 0
    bottom = max(r for r, _ in cells)
    cols = sorted({c for _, c in cells})
    best = 0
    for left in range(cols[0], cols[-1] + 1):
        for right in range(left, cols[-1] + 1):
            for height in range(1, 4):
                if right - left + 1 < min_width or height < min_height:
                    continue
                if all((bottom - k, c) in cells for k in range(height)
                       for c in range(left, right + 1)):
                    best = max(best, (right - left + 1) * height)
    return best


@SETTINGS
@given(OPS, st.sampled_from([(2, 2), (1, 1), (3, 1), (2, 3)]))
def test_stability_is_the_largest_rectangle_on_the_bottom_row(ops: list[tuple],
                                                             least: tuple[int, int]) -> None:
    from exlibris.scoring import steps
    from exlibris.scoring.settings import ScoringRules

    shelf, _ = grow(ops)
    rules = replace(ScoringRules(), min_rectangle=least)
    assert steps.b1_stability(shelf, rules) == _largest_rectangle_by_search(shelf, *least)


def fresh_answers(shelf: Shelf) -> tuple:
    """What a shelf says about itself, read from a fresh copy with nothing kept."""
    other = Shelf.from_slots(shelf.snapshot(), shelf.rules, check=False)
    return (other.positions(), other.legal_positions(), other.legal_cells(),
            other.removable_positions(), other.removable_cards(), other.key())


def kept_answers(shelf: Shelf) -> tuple:
    return (shelf.positions(), shelf.legal_positions(), shelf.legal_cells(),
            shelf.removable_positions(), shelf.removable_cards(), shelf.key())


@SETTINGS
@given(OPS)
def test_what_a_shelf_keeps_is_what_a_fresh_computation_gives(ops: list[tuple]) -> None:
    """Legal cells, reading order, articulation points, removable cells and the cells'
    key are kept and updated in place as cards are shelved: after every operation they
    equal a fresh computation, and the removable cells are those whose removal keeps
    one group."""
    shelf, deck = Shelf(), Deck()
    for op in ops:
        kept_answers(shelf)  # fill what is kept, so that the operation updates it
        with contextlib.suppress(ShelfError):
            apply(shelf, deck, op)
        assert kept_answers(shelf) == fresh_answers(shelf), op
        cells = set(shelf.positions())
        assert shelf.removable_positions() == {
            p for p in cells if shelf.at(p).beneath is not None or is_connected(cells - {p})}


@SETTINGS
@given(st.lists(cell, min_size=1, max_size=12), st.lists(index, max_size=8))
def test_what_a_shelf_laid_out_unchecked_keeps_is_fresh_too(cells: list, picks: list) -> None:
    """A position may lay out a shelf in two groups (``check=False``): shelving into it
    keeps the answers a fresh computation gives."""
    deck = Deck()
    shelf = Shelf.from_slots({pos: Slot(deck.draw()) for pos in cells}, check=False)
    for i in picks:
        kept_answers(shelf)
        legal = shelf.legal_cells()
        if not legal:  # too tall already
            break
        with contextlib.suppress(ShelfError):
            shelf.shelve(deck.draw(), legal[i % len(legal)])
        assert kept_answers(shelf) == fresh_answers(shelf)


def levitations_by_trial(shelf: Shelf, edition: str) -> list:
    """Every straight push that ``levitate`` accepts on a copy: the test's own search."""
    found = []
    cells = set(shelf.positions())
    for target in sorted(cells):
        for direction, (dr, dc) in DIRECTIONS.items():
            line, pos = [], target
            while pos in cells:
                line.append(pos)
                pos = (pos[0] + dr, pos[1] + dc)
            trial = shelf.copy()
            try:
                trial.levitate(BookCard("Z", 99, ("C",)), line, direction, target,
                               edition=edition)
            except ShelfError:
                continue
            found.append((tuple(line), direction, target))
    return found


@SETTINGS
@given(OPS, st.lists(cell, max_size=8), st.sampled_from(["base", "expansion"]))
def test_levitate_lines_are_exactly_the_pushes_levitate_allows(
        ops: list[tuple], extra: list, edition: str) -> None:
    shelf, deck = grow(ops)
    assert shelf.levitate_lines() == levitations_by_trial(shelf, edition)
    # a shelf laid out unchecked, maybe in several groups or too tall
    slots = {**shelf.snapshot(), **{pos: Slot(deck.draw()) for pos in extra}}
    loose = Shelf.from_slots(slots, check=False)
    assert loose.levitate_lines() == levitations_by_trial(loose, edition)


@SETTINGS
@given(OPS, st.integers(0, 40), st.integers(0, 3), st.sampled_from([-1, 1]))
def test_shift_reach_is_the_longest_shift_shift_run_allows(
        ops: list[tuple], at: int, length: int, sign: int) -> None:
    shelf, _ = grow(ops)
    row, first = pick(shelf, at)
    last = first
    while last < first + length and (row, last + 1) in shelf:
        last += 1
    allowed = []
    for distance in range(1, 9):
        trial = shelf.copy()
        try:
            trial.shift_run(row, first, last, sign * distance)
        except ShelfError:
            continue
        allowed.append(distance)
        # a shift known legal (the greedy bot's trials of the engine's options) is
        # applied unchecked, to the same shelf
        unchecked = shelf.copy()
        unchecked.shift_run(row, first, last, sign * distance, legal=True)
        assert unchecked.snapshot() == trial.snapshot()
    reach = shelf.shift_reach(row, first, last, sign, 8)
    assert allowed == list(range(1, reach + 1))


def reach_by_whole_checks(shelf: Shelf, row: int, first: int, last: int, sign: int,
                          most: int) -> int:
    """How far the run may slide, each step checked on the whole shelf (the test's
    own walk: ``Shelf._slide`` checks a step after the first only near the cell left)."""
    cells = set(shelf.positions())
    lo, hi = first, last
    for n in range(1, most + 1):
        ahead = (row, hi + 1) if sign > 0 else (row, lo - 1)
        if ahead in cells:
            return n - 1
        cells.discard((row, lo) if sign > 0 else (row, hi))
        cells.add(ahead)
        lo, hi = lo + sign, hi + sign
        if len(components(cells)) > 1:
            return n - 1
    return most


@SETTINGS
@given(OPS, st.lists(cell, max_size=6))
def test_a_slide_is_checked_as_a_check_of_the_whole_shelf_at_every_step_would(
        ops: list[tuple], extra: list) -> None:
    shelf, deck = grow(ops)
    slots = {**shelf.snapshot(), **{pos: Slot(deck.draw()) for pos in extra}}
    for trial in (shelf, Shelf.from_slots(slots, check=False)):  # the second maybe loose
        cells = set(trial.positions())
        for row, first in sorted(cells):  # every run of touching cards of a row
            last = first
            while True:
                for sign in (-1, 1):
                    assert trial.shift_reach(row, first, last, sign, 8) == \
                        reach_by_whole_checks(trial, row, first, last, sign, 8)
                if (row, last + 1) not in cells:
                    break
                last += 1


@SETTINGS
@given(OPS)
def test_entomb_options_are_exactly_the_entombings_entomb_allows(ops: list[tuple]) -> None:
    shelf, deck = grow(ops)
    for card in (deck.draw(), ArtifactCard("an-artifact")):
        allowed = []
        for pos in shelf.positions():
            for under in (False, True):
                trial = shelf.copy()
                try:
                    trial.entomb(card, pos, under=under)
                except ShelfError:
                    continue
                allowed.append((pos, under))
        assert shelf.entomb_options(card) == allowed


@SETTINGS
@given(st.lists(cell, min_size=0, max_size=16))
def test_articulation_points_are_the_cells_whose_removal_splits_the_shelf(cells: list) -> None:
    """``_articulation_points`` (an iterative Tarjan search) against the definition: of
    a connected set, the cells without which the rest falls apart; of any other set,
    it says the set is not one group."""
    group = set(cells)
    joints, whole = _articulation_points(group)
    assert whole == is_connected(group)
    if whole:
        assert joints == {p for p in group if not is_connected(group - {p})}


def _refusal(action, *args) -> type | None:  # type: ignore[no-untyped-def]
    """The kind of ShelfError ``action(*args)`` raises, or None."""
    try:
        action(*args)
    except ShelfError as error:
        return type(error)
    return None


@SETTINGS
@given(OPS, st.lists(cell, min_size=1, max_size=8), st.lists(index, max_size=6))
def test_a_copy_with_a_card_or_cards_turned_is_the_shelf_those_moves_make(
        ops: list[tuple], cells: list, picks: list) -> None:
    """``with_card`` is ``shelve`` on a copy, and ``turned_down`` is ``flip`` on a copy
    cell by cell: the same cells, the same answers (each fresh), the same refusals,
    the shelf they copy left as it was."""
    shelf, deck = grow(ops)
    kept_answers(shelf)  # what the shelf keeps, which the copies may share
    before = shelf.snapshot()
    for pos in cells:
        card = deck.draw()
        trial = shelf.copy()
        refused = _refusal(trial.shelve, card, pos)
        assert _refusal(shelf.with_card, card, pos) is refused
        if refused is None:
            made = shelf.with_card(card, pos)
            assert made.snapshot() == trial.snapshot()
            assert kept_answers(made) == fresh_answers(trial)
    turned = [pick(shelf, i) for i in picks]
    trial = shelf.copy()
    refused = _refusal(lambda: [trial.flip(pos) for pos in turned])
    assert _refusal(shelf.turned_down, turned) is refused
    if refused is None:
        made = shelf.turned_down(turned)
        assert made.snapshot() == trial.snapshot()
        assert kept_answers(made) == fresh_answers(trial)
    assert shelf.snapshot() == before


def shifts_by_trial(shelf: Shelf) -> list[tuple[int, int, int, int]]:
    """The Shelfmasons Guild's shifts found by trying each on a copy: every part of a
    run of touching cards that ends at an end of the run, towards that end, by each
    distance ``shift_run`` allows (top row first, each run left to right)."""
    cells = shelf.positions()
    width = max(c for _, c in cells) - min(c for _, c in cells) + 2
    found = []
    for row in sorted({r for r, _ in cells}):
        columns = [c for r, c in cells if r == row]
        runs = [[columns[0]]]
        for c in columns[1:]:
            if c == runs[-1][-1] + 1:
                runs[-1].append(c)
            else:
                runs.append([c])
        for run in runs:
            for i in range(len(run)):
                for first, last, sign in ((run[0], run[i], -1), (run[i], run[-1], 1)):
                    for distance in range(1, width + 1):
                        trial = shelf.copy()
                        try:
                            trial.shift_run(row, first, last, sign * distance)
                        except ShelfError:
                            break
                        if (row, first, last, sign * distance) not in found:
                            found.append((row, first, last, sign * distance))
    return found


@SETTINGS
@given(OPS)
def test_the_shifts_offered_are_those_shift_run_allows_and_kept_by_the_cells(
        ops: list[tuple]) -> None:
    shelf, deck = grow(ops)
    if not shelf.positions():
        return
    assert list(shelf.shift_moves()) == shifts_by_trial(shelf)
    # another shelf of the same cells, other cards: the same shifts (kept by the cells)
    other = Shelf.from_slots({pos: Slot(deck.draw()) for pos in shelf.positions()})
    assert other.shift_moves() == shelf.shift_moves()
    # a card shelved: the shifts of the shelf it makes, not the kept ones
    grown = shelf.copy()
    grown.shelve(deck.draw(), sorted(grown.legal_positions())[0])
    assert list(grown.shift_moves()) == shifts_by_trial(grown)
