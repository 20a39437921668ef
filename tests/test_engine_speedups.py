"""The engine's fast paths give the answers of the general code they stand in for.

* a placement rule starting ``placing == this and`` is recognised (and skipped for
  other assistants), and no other rule is;
* ``Shelf`` trials: a refused shift or re-shelve changes nothing (the shelf verbs
  reuse one trial copy until a trial succeeds).
"""

from __future__ import annotations

import pytest

from exlibris.dsl.parser import parse_rule
from exlibris.engine.abilities import _placing_is_this
from exlibris.model.cards import BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.model.shelf_errors import ShelfError


@pytest.mark.parametrize("text, own", [
    ("deny if placing == this and target == @diviners-hut", True),
    ("share if this == placing and target.instant and count(occupant) > 0", True),
    ("deny if this.at_location and target == this.location and target.instant", False),
    ("deny if placing == this or target.instant", False),
    ("deny if target.instant and placing == this", False),
])
def test_own_only_rules_are_recognised(text: str, own: bool) -> None:
    assert _placing_is_this(parse_rule(text).condition) is own


def _shelf(cells: list[tuple[int, int]]) -> Shelf:
    return Shelf.from_slots({pos: Slot(BookCard("ABCDEFGHIJKLMNOP"[i], 1, ("C",)))
                             for i, pos in enumerate(cells)})


@pytest.mark.parametrize("cells", [
    [(0, 0), (0, 1), (0, 2), (1, 1)],
    [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2)],
    [(2, 0), (2, 1), (2, 2), (2, 3), (1, 1), (0, 1), (1, 3)],
])
def test_refused_shelf_operations_change_nothing(cells: list[tuple[int, int]]) -> None:
    shelf = _shelf(cells)
    before = shelf.snapshot()
    refused = 0
    for row in range(-1, 4):
        for first in range(-1, 4):
            for last in range(first, 4):
                for distance in (-3, -2, -1, 1, 2, 3):
                    trial = shelf.copy()
                    try:
                        trial.shift_run(row, first, last, distance)
                    except ShelfError:
                        refused += 1
                        assert trial.snapshot() == before
    for src in cells:
        for dst in [(r, c) for r in range(-1, 4) for c in range(-1, 5)]:
            trial = shelf.copy()
            try:
                trial.reshelve(src, dst)
            except ShelfError:
                refused += 1
                assert trial.snapshot() == before
    assert refused > 0 and shelf.snapshot() == before
