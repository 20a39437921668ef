"""The shelf: shelving rules, every operation the content needs, typed errors."""

from __future__ import annotations

import pytest

from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.model.shelf import Shelf, ShelfRules, Slot
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
)


def book(name: str, books: str = "CF") -> BookCard:
    return BookCard(name[0], int(name[1:]), tuple(books))


def grid(*rows: str) -> Shelf:
    """A shelf from rows of card names ('.' for empty), top row first."""
    slots = {}
    for r, row in enumerate(rows):
        for c, name in enumerate(row.split()):
            if name == ".":
                continue
            if name.startswith("*"):
                slots[(r, c)] = Slot(ArtifactCard(name[1:]))
            else:
                slots[(r, c)] = Slot(book(name))
    return Shelf.from_slots(slots)


def refused(shelf: Shelf, error: type[ShelfError], action) -> ShelfError:
    """Run ``action``; it must raise ``error`` and leave the shelf unchanged."""
    before = shelf.snapshot()
    with pytest.raises(error) as info:
        action()
    assert shelf.snapshot() == before
    return info.value


# --------------------------------------------------------------- shelving
def test_first_card_goes_anywhere() -> None:
    shelf = Shelf()
    assert shelf.legal_positions() == {(0, 0)}
    shelf.shelve(book("A1"), (7, -3))
    assert shelf.positions() == ((7, -3),)


def test_new_card_must_touch_along_an_edge() -> None:  # SHELF-01
    shelf = grid("A1 B1")
    shelf.shelve(book("C1"), (1, 1))
    error = refused(shelf, NotAdjacentError, lambda: shelf.shelve(book("D1"), (2, 3)))
    assert error.code == "shelf/not-adjacent"
    assert "D1:CF" in str(error) and "(2, 3)" in str(error)
    refused(shelf, NotAdjacentError, lambda: shelf.shelve(book("D1"), (-1, 2)))  # diagonal


def test_never_more_than_three_rows() -> None:  # SHELF-03, SHELF-04
    shelf = grid("A1", "B1", "C1")
    error = refused(shelf, TooTallError, lambda: shelf.shelve(book("D1"), (3, 0)))
    assert error.code == "shelf/too-tall"
    refused(shelf, TooTallError, lambda: shelf.shelve(book("D1"), (-1, 0)))
    assert (1, 1) in shelf.legal_positions()
    assert (3, 0) not in shelf.legal_positions()


def test_shelf_grows_upward_within_three_rows() -> None:
    shelf = grid("A1 B1")
    shelf.shelve(book("C1"), (-1, 0))
    shelf.shelve(book("D1"), (-2, 0))
    assert shelf.height == 3 and shelf.top_row == -2 and shelf.bottom_row == 0


def test_occupied_cell_is_refused() -> None:
    shelf = grid("A1 B1")
    assert refused(shelf, OccupiedError,
                   lambda: shelf.shelve(book("C1"), (0, 1))).code == "shelf/occupied"


def test_legal_positions_example() -> None:
    shelf = grid("A1 B1 C1", ". D1 .", ". E1 .")
    assert shelf.legal_positions() == {(0, -1), (0, 3), (1, 0), (1, 2), (2, 0), (2, 2)}


def test_an_enclosed_empty_cell_stays_a_legal_target() -> None:  # SHELF-15 reading (a)
    shelf = grid("A1 B1 C1", "D1 . E1", "F1 G1 H1")
    assert (1, 1) in shelf.legal_positions()
    shelf.shelve(book("I1"), (1, 1))
    assert shelf.at((1, 1)) is not None


def test_face_down_shelving_for_the_witch() -> None:
    shelf = grid("A1")
    shelf.shelve(book("B1"), (0, 1), face_down=True)
    assert shelf.at((0, 1)).face_down and shelf.at((0, 1)).face_up_book is None
    refused(shelf, FlipError, lambda: shelf.shelve(ArtifactCard("x"), (0, 2), face_down=True))


def test_final_round_count() -> None:  # FINAL-05
    shelf = grid("A1 *foul-vowel-towel B1")
    shelf.flip((0, 2))
    shelf.entomb(book("C1"), (0, 0), under=True)
    shelf.tuck((0, 1), [book("D1"), book("E1")])
    assert shelf.card_count() == 3


# --------------------------------------------------------------- removal
def test_removal_that_splits_is_refused() -> None:  # SHELF-13, SHELF-14 (a)
    shelf = grid("A1 B1 C1")
    error = refused(shelf, WouldSplitError, lambda: shelf.remove((0, 1)))
    assert error.code == "shelf/would-split" and "B1:CF" in str(error)
    assert shelf.remove((0, 2)).card == book("C1")
    assert shelf.positions() == ((0, 0), (0, 1))


def test_removal_may_split_under_the_other_reading() -> None:
    shelf = Shelf.from_slots({(0, 0): Slot(book("A1")), (0, 1): Slot(book("B1")),
                              (0, 2): Slot(book("C1"))}, ShelfRules(removal_may_split=True))
    shelf.remove((0, 1))
    assert len(shelf) == 2


def test_removing_top_of_stack_leaves_lower_face_down_not_entombed() -> None:  # LIB-MUMMY-5
    shelf = grid("A1 B1")
    shelf.entomb(book("K2"), (0, 1), under=False)
    removed = shelf.remove((0, 1))
    assert removed.card == book("K2") and removed.beneath is None
    assert shelf.at((0, 1)) == Slot(book("B1"), face_down=True)
    assert shelf.entombed_count() == 0


def test_remove_empty_cell() -> None:
    shelf = grid("A1")
    assert refused(shelf, EmptyCellError, lambda: shelf.remove((5, 5))).code == "shelf/empty-cell"


def test_removing_the_last_card() -> None:
    shelf = grid("A1")
    shelf.remove((0, 0))
    assert len(shelf) == 0 and shelf.legal_positions() == {(0, 0)}


# ------------------------------------------------------- Librarians Lodge
def test_swap_two_shelf_cards() -> None:  # LOC-08-4
    shelf = grid("A1 B1", "C1 .")
    shelf.flip((1, 0))
    shelf.swap((0, 0), (1, 0))
    assert shelf.at((0, 0)) == Slot(book("C1"), face_down=True)
    assert shelf.at((1, 0)) == Slot(book("A1"))
    refused(shelf, ShelfError, lambda: shelf.swap((0, 0), (0, 0)))
    refused(shelf, EmptyCellError, lambda: shelf.swap((0, 0), (1, 1)))


def test_swap_with_hand() -> None:
    shelf = grid("A1 B1")
    old = shelf.swap_with_hand((0, 1), book("Z9"))
    assert old.card == book("B1") and shelf.at((0, 1)).card == book("Z9")


def test_swap_with_hand_keeps_the_entombed_card() -> None:
    shelf = grid("A1 B1")
    shelf.entomb(book("C1"), (0, 1), under=True)
    shelf.swap_with_hand((0, 1), book("Z9"))
    assert shelf.at((0, 1)) == Slot(book("Z9"), beneath=book("C1"))


def test_reshelve_checks_only_the_result() -> None:  # LOC-08-5
    shelf = grid("A1 B1 C1", "D1 . E1")
    shelf.reshelve((0, 1), (1, 1))  # lifting B1 splits, its new cell joins again
    assert shelf.render() == ["A1:CF  .  C1:CF", "D1:CF  B1:CF  E1:CF"]
    refused(shelf, WouldSplitError, lambda: shelf.reshelve((1, 1), (1, 3)))
    refused(shelf, NotAdjacentError, lambda: shelf.reshelve((0, 0), (5, 5)))
    refused(shelf, OccupiedError, lambda: shelf.reshelve((0, 0), (1, 0)))
    tall = grid("A1 B1", "C1 .", "D1 .")
    refused(tall, TooTallError, lambda: tall.reshelve((0, 1), (3, 0)))


def test_reshelve_in_place_is_a_no_op() -> None:
    shelf = grid("A1 B1")
    shelf.reshelve((0, 0), (0, 0))
    assert shelf.render() == ["A1:CF  B1:CF"]


# ------------------------------------------------------ Shelfmasons Guild
def test_shift_run_any_distance() -> None:  # LOC-18-1
    shelf = grid("A1 B1 . . .", "D1 E1 F1 G1 H1")
    shelf.shift_run(0, 0, 1, 3)
    assert shelf.render() == [".  .  .  A1:CF  B1:CF", "D1:CF  E1:CF  F1:CF  G1:CF  H1:CF"]


def test_shift_run_refused_when_it_splits_on_the_way() -> None:  # LOC-18-2
    shelf = grid("A1 B1 .", ". C1 D1")
    error = refused(shelf, WouldSplitError, lambda: shelf.shift_run(1, 1, 2, 2))
    assert "after 1 step" in str(error)


def test_shift_run_moves_through_rows_it_stays_attached_to() -> None:
    shelf = grid("A1 B1 C1 D1", "E1 . . .")
    shelf.shift_run(1, 0, 0, 3)
    assert shelf.render()[1] == ".  .  .  E1:CF"


def test_shift_run_blocked_by_a_card() -> None:
    shelf = grid("A1 . C1", "D1 E1 F1")
    error = refused(shelf, ShiftError, lambda: shelf.shift_run(0, 0, 0, 2))
    assert error.code == "shelf/shift" and "C1:CF" in str(error)


def test_shift_run_must_be_touching_cards() -> None:
    shelf = grid("A1 . C1", "D1 E1 F1")
    refused(shelf, ShiftError, lambda: shelf.shift_run(0, 0, 2, 1))
    refused(shelf, ShiftError, lambda: shelf.shift_run(0, 0, 0, 0))


def test_shift_run_left() -> None:
    shelf = grid(". B1 C1", "D1 E1 F1")
    shelf.shift_run(0, 1, 2, -1)
    assert shelf.render() == ["B1:CF  C1:CF  .", "D1:CF  E1:CF  F1:CF"]


# ---------------------------------------------------------------- Wizard
def test_wizard_base_shifts_one_group_and_fills_a_gap() -> None:  # LIB-WIZARD-1
    shelf = grid("A1 B1 C1", "D1 E1 .")
    shelf.levitate(book("Z1"), [(0, 1), (0, 2)], "right", (0, 1))
    assert shelf.render() == ["A1:CF  Z1:CF  B1:CF  C1:CF", "D1:CF  E1:CF  .  ."]


def test_wizard_base_requires_touching_group() -> None:
    shelf = grid("A1 B1 C1", "D1 E1 F1")
    error = refused(shelf, ShiftError,
                    lambda: shelf.levitate(book("Z1"), [(0, 0), (0, 2)], "up", (0, 0)))
    assert "one group" in str(error)


def test_wizard_expansion_moves_any_set() -> None:  # SA-WIZARD-1
    shelf = grid("A1 . C1", "D1 E1 F1")
    shelf.levitate(book("Z1"), [(0, 0), (0, 2)], "right", (0, 2), edition="expansion")
    assert shelf.render() == [".  A1:CF  Z1:CF  C1:CF", "D1:CF  E1:CF  F1:CF  ."]
    base = grid("A1 . C1", "D1 E1 F1")
    refused(base, ShiftError, lambda: base.levitate(book("Z1"), [(0, 0), (0, 2)], "right", (0, 2)))


def test_wizard_may_disconnect_temporarily() -> None:  # LIB-WIZARD-2
    shelf = grid("A1 B1")
    shelf.levitate(book("Z1"), [(0, 1)], "right", (0, 1))
    assert shelf.render() == ["A1:CF  Z1:CF  B1:CF"]


def test_wizard_result_must_be_legal() -> None:
    shelf = grid("A1", "B1", "C1")
    refused(shelf, TooTallError, lambda: shelf.levitate(book("Z1"), [(2, 0)], "down", (2, 0)))
    wide = grid("A1 B1 C1")
    refused(wide, ShiftError,
            lambda: wide.levitate(book("Z1"), [(0, 0)], "right", (0, 0)))  # onto B1
    refused(wide, ShiftError,
            lambda: wide.levitate(book("Z1"), [(0, 2)], "right", (0, 1)))  # not emptied
    refused(wide, ShiftError, lambda: wide.levitate(book("Z1"), [], "right", (0, 1)))
    refused(wide, ShiftError, lambda: wide.levitate(book("Z1"), [(0, 2)], "north", (0, 2)))


def test_wizard_base_final_shelf_must_be_connected() -> None:
    shelf = grid("A1 B1 C1", ". . D1")
    # D1 drops to a third row and the new card fills its old cell: still connected
    shelf.levitate(book("Z1"), [(1, 2)], "down", (1, 2))
    assert shelf.is_connected()
    other = grid("A1 B1", "C1 .")
    refused(other, WouldSplitError,
            lambda: other.levitate(book("Z1"), [(0, 0), (0, 1)], "up", (0, 1)))


# ----------------------------------------------------------------- Mummy
def test_entomb_on_top_and_under() -> None:  # LIB-MUMMY-1, LIB-MUMMY-2
    shelf = grid("A1 B1")
    shelf.entomb(book("K2"), (0, 0), under=False)
    assert shelf.at((0, 0)) == Slot(book("K2"), beneath=book("A1"))
    shelf.entomb(book("M3"), (0, 1), under=True)
    assert shelf.at((0, 1)) == Slot(book("B1"), beneath=book("M3"))
    assert shelf.entombed_count() == 2 and shelf.card_count() == 2


def test_at_most_one_card_beneath() -> None:  # LIB-MUMMY-3
    shelf = grid("A1")
    shelf.entomb(book("K2"), (0, 0), under=True)
    error = refused(shelf, EntombError, lambda: shelf.entomb(book("L1"), (0, 0), under=True))
    assert error.code == "shelf/entomb"
    refused(shelf, EntombError, lambda: shelf.entomb(book("L1"), (0, 0), under=False))


def test_entomb_needs_a_card_and_book_cards_beneath() -> None:
    shelf = grid("A1 *foul-vowel-towel")
    refused(shelf, EmptyCellError, lambda: shelf.entomb(book("K2"), (3, 3), under=True))
    refused(shelf, EntombError,
            lambda: shelf.entomb(ArtifactCard("x"), (0, 0), under=True))
    refused(shelf, EntombError, lambda: shelf.entomb(book("K2"), (0, 1), under=False))


# ------------------------------------------------------- flips and tucks
def test_flip() -> None:
    shelf = grid("A1 *foul-vowel-towel")
    shelf.flip((0, 0))
    assert refused(shelf, FlipError, lambda: shelf.flip((0, 0))).code == "shelf/flip"
    shelf.flip((0, 1))  # an artifact flipped by choice before the inspection (SCORE-00-2)
    assert shelf.at((0, 1)).face_down and shelf.at((0, 1)).token() == "~*foul-vowel-towel"
    refused(shelf, FlipError, lambda: shelf.flip((0, 1)))


def test_tuck_only_under_artifacts() -> None:
    shelf = grid("A1 *mystical-crystal-see-all-ball")
    shelf.tuck((0, 1), [book("B1")])
    shelf.tuck((0, 1), [book("C1")])
    assert len(shelf.at((0, 1)).tucked) == 2
    assert refused(shelf, TuckError, lambda: shelf.tuck((0, 0), [book("D1")])).code == "shelf/tuck"


# -------------------------------------------------------------- reading
def test_reading_protocol() -> None:
    shelf = grid(". B1 C1", "A1 B3 C4")
    assert shelf.positions() == ((0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
    assert sorted(shelf.neighbours((1, 1))) == [(0, 1), (1, 0), (1, 2)]
    assert shelf.at((0, 0)) is None


def test_copy_is_independent() -> None:
    shelf = grid("A1 B1")
    other = shelf.copy()
    other.shelve(book("C1"), (0, 2))
    other.flip((0, 0))
    assert len(shelf) == 2 and not shelf.at((0, 0)).face_down
    assert (0, 2) in shelf.legal_positions()


def test_check_reports_illegal_layouts() -> None:
    with pytest.raises(WouldSplitError):
        Shelf.from_slots({(0, 0): Slot(book("A1")), (0, 2): Slot(book("B1"))})
    with pytest.raises(TooTallError):
        Shelf.from_slots({(r, 0): Slot(book(f"A{r + 1}")) for r in range(4)})


def test_every_error_has_a_code_and_a_docstring() -> None:
    import exlibris.model.shelf_errors as errors

    classes = [v for v in vars(errors).values()
               if isinstance(v, type) and issubclass(v, ShelfError)]
    codes = [cls.code for cls in classes]
    assert len(set(codes)) == len(codes) == 10
    assert all(cls.__doc__ and code.startswith("shelf/") for cls, code in zip(classes, codes,
                                                                              strict=True))


def test_removable_positions_are_exactly_the_cells_whose_removal_keeps_one_group() -> None:
    """Articulation points against brute force, on many random connected shelves."""
    import random as _random

    from exlibris.model.shelf import is_connected

    rng = _random.Random(7)
    for _ in range(300):
        shelf = Shelf()
        for i in range(rng.randint(1, 14)):
            pos = rng.choice(sorted(shelf.legal_positions()))
            shelf.shelve(BookCard("A", i + 1, ("C", "F")), pos)
        cells = set(shelf.positions())
        expected = {p for p in cells if is_connected(cells - {p})}
        assert shelf.removable_positions() == expected
