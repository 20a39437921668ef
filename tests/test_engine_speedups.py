"""The engine's fast paths give the answers of the general code they stand in for.

* ``EffectRuntime.attribute`` reads the most used attributes from a table by class;
  at every decision of seeded games, each table entry must agree with
  ``attribute_by_type`` (the general code) on every object of the table's classes;
* a placement rule starting ``placing == this and`` is recognised (and skipped for
  other assistants), and no other rule is;
* ``Shelf`` trials: a refused shift or re-shelve changes nothing (the shelf verbs
  reuse one trial copy until a trial succeeds).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from exlibris.catalog import load_catalog
from exlibris.dsl.parser import parse_rule
from exlibris.engine.abilities import _placing_is_this
from exlibris.engine.decisions import Decision
from exlibris.engine.flow import new_game, play
from exlibris.engine.runtime import _ATTRIBUTES
from exlibris.engine.state import Space
from exlibris.model.cards import BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.model.shelf_errors import ShelfError
from exlibris.validation import resolve_settings

CATALOG = load_catalog()


class Checker:
    """A random seat that compares the attribute table with the general code."""

    needs_view = True

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.checked: set[tuple[type, str]] = set()

    def decide(self, game: Any, decision: Decision) -> int:
        rt = game.rt
        values: list[Any] = list(game.categories.values())
        for player in game.state.players:
            values += player.assistants
            values += player.hand.cards
            values += player.shelf_zone.cards
        for loc in game.state.in_play:
            values.append(loc)
            values += [Space(loc, i) for i in range(len(loc.spaces))]
            values += loc.area.cards
        for value in values:
            for name, read in _ATTRIBUTES.get(value.__class__, {}).items():
                assert read(rt, value) == rt.attribute_by_type(value, name), (value, name)
                self.checked.add((value.__class__, name))
        return self.rng.randrange(len(decision))


@pytest.mark.parametrize("players", [2, 4])
def test_attribute_table_agrees_with_the_general_code(players: int) -> None:
    settings = resolve_settings("standard", CATALOG.variants)
    seats = [Checker(players * 10 + i) for i in range(players)]
    play(new_game(CATALOG, settings, seats, seed=players, views=lambda game, seat: game))
    checked = set().union(*(seat.checked for seat in seats))
    every = {(cls, name) for cls, table in _ATTRIBUTES.items() for name in table}
    assert checked == every  # each entry was compared at least once


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
