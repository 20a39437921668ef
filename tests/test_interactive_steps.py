"""Long option lists in steps: every option is reachable, the first choice at every
step is option 1, and no step offers more than 15 choices."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.public import PublicAssistant, PublicLocation, PublicTarget
from exlibris.interactive.steps import HOME, MOST, Choice, first_step, levels, next_step, walk
from exlibris.model.cards import BookCard
from exlibris.model.shelf import Shelf, Slot


def leaves(decision: Decision, grouping: Any) -> list[int]:
    """Every option reachable through the steps, in the order a player meets them."""
    found: list[int] = []
    pending = [Choice("", tuple(range(len(decision))))]
    while pending:
        choice = pending.pop(0)
        if choice.final:
            found.append(choice.options[0])
            continue
        pending = list(next_step(decision, grouping, choice).choices) + pending
    return found


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 500))
def test_any_long_list_is_asked_in_steps_of_at_most_15(count: int) -> None:
    decision = Decision(0, DecisionKind.OPTION, "choose one", [f"option {i}" for i in range(count)])
    grouping = levels(None, decision)
    assert walk(decision, grouping) <= MOST
    assert sorted(leaves(decision, grouping)) == list(range(count))
    step = first_step(decision, grouping)
    while len(step.choices[0].options) > 1:  # the first choice at every step ...
        step = next_step(decision, grouping, step.choices[0])
    assert step.choices[0].options == (0,)  # ... is the first option


def placement(locations: int, spaces: int, *, specials: int = 1, home: int = 0) -> Decision:
    """A placement decision: each assistant at each space of each location, then home."""
    spec: Any = None
    places = [PublicLocation(f"loc-{n}", n, f"Place {n}", True, spec)
              for n in range(1, locations + 1)]
    assistants = [PublicAssistant(f"0:imp-{n}", 0, "special", f"The Imp {n}", None)
                  for n in range(1, specials)]
    assistants.append(PublicAssistant("0:standard-1", 0, "standard", "standard assistant", None))
    values = [(a, PublicTarget(loc, space)) for a in assistants
              for loc in [*places, *[None] * min(home, 1)]
              for space in range(home if loc is None else spaces)]
    return Decision(0, DecisionKind.PLACE, "place an assistant", values,
                    lambda v: f"place {v[0].name} at "
                              f"{v[1].location.name if v[1].location else 'home'} space "
                              f"{v[1].space + 1}")


@pytest.mark.parametrize(("locations", "spaces", "specials", "home"),
                         [(1, 1, 1, 0), (2, 1, 1, 0), (0, 0, 1, 3), (3, 2, 1, 3),
                          (8, 2, 2, 3), (12, 4, 1, 3)])
def test_placements_are_always_asked_location_then_space(
        locations: int, spaces: int, specials: int, home: int) -> None:
    """However many options (one, a few, more than twelve): first the location or the
    home spaces, every one of which opens a second step, even with one option."""
    decision = placement(locations, spaces, specials=specials, home=home)
    grouping = levels(None, decision)
    step = first_step(decision, grouping)
    assert step.question == "which location?"
    expected = [f"Place {n} (#{n})" for n in range(1, locations + 1)]
    assert [c.label for c in step.choices] == expected + [HOME] * (home > 0)
    assert all(not c.final for c in step.choices)  # a second step always follows
    for choice in step.choices:
        second = next_step(decision, grouping, choice)
        assert all(c.final for c in second.choices)
        assert second.question == ("which home space?" if choice.label == HOME
                                   else "which space?")
    assert sorted(leaves(decision, grouping)) == list(range(len(decision)))


def test_the_second_step_of_a_placement_names_each_assistant_and_space() -> None:
    decision = placement(8, 2, specials=2)
    grouping = levels(None, decision)
    where = first_step(decision, grouping)
    assert len(where.choices) == 8
    space = next_step(decision, grouping, where.choices[2])
    assert [c.label for c in space.choices] == [
        "place The Imp 1 at Place 3 space 1", "place The Imp 1 at Place 3 space 2",
        "place standard assistant at Place 3 space 1",
        "place standard assistant at Place 3 space 2"]


def test_bot_games_never_ask_a_person_more_than_15_at_a_step() -> None:
    path = Path(__file__).resolve().parent.parent / "scripts" / "step_sizes.py"
    spec = importlib.util.spec_from_file_location("step_sizes", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    widest, flat = script.measure(6, 2)
    assert max(flat.values()) > MOST  # there are long lists to split ...
    assert max(widest.values()) <= MOST  # ... and every step of them is short


@pytest.mark.parametrize("rows", [("L3 M1 T7",), ("A1 B1 C1 D1",), ("A1 B1", "C1 D1"),
                                  ("A1",), ("A1 B1",)])
def test_the_expansion_wizards_levitate_is_asked_in_steps_with_its_free_choice(
        rows: tuple[str, ...]) -> None:
    """The expansion Wizard's levitate offers every line push and "choose any cards to
    move" (a None option). A shelf with more than 11 pushes (three cards in one row,
    the shelf of the game that crashed) made the list long enough to be asked in
    steps, and grouping the None option failed (TypeError) inside the effect."""
    slots = {}
    for r, row in enumerate(rows):
        for c, name in enumerate(row.split()):
            slots[(r, c)] = Slot(BookCard(name[0], int(name[1:]), ("F",)))
    lines = Shelf.from_slots(slots).levitate_lines()
    values = [*lines, None]
    decision = Decision(0, DecisionKind.LEVITATE, "levitate R6", values,
                        lambda o: "choose any cards to move" if o is None else f"push {o}")
    grouping = levels(None, decision)
    assert walk(decision, grouping) <= MOST
    assert sorted(leaves(decision, grouping)) == list(range(len(values)))
