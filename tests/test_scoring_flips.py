"""--best-flips: the search over increasing sequences agrees with brute force."""

from __future__ import annotations

import random
import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.scoring.flips import best_flips, brute_force_best_flips
from exlibris.scoring.inspection import PlayerTable, Table, inspect_table
from exlibris.scoring.settings import ScoringRules
from exlibris.scoring.table import parse_table_text


def fake_points(shelf: Shelf, pos, artifact_id: str, rules, town=None) -> int:
    """Python stand-ins for adjacency artifacts: C books next to it, or 2 per face-down."""
    slots = [shelf.at(p) for p in shelf.neighbours(pos)]
    if artifact_id == "void":
        return 2 * sum(1 for s in slots if s.face_down)
    return sum(s.face_up_book.count("C") for s in slots if s.face_up_book is not None)


def test_rulebook_example_flips_the_left_card() -> None:
    """M8, M3, N3: A1 would flip M3; flipping M8 by choice keeps M3's books instead."""
    table, rules = parse_table_text(textwrap.dedent("""
        prominent: R
        banned: C
        players:
          - {name: Ann, focus: H, shelf: "M8/8:C  M3/8:HHH  N3/3:S"}
          - {name: Bob, focus: F, shelf: "A1:FF"}
    """))
    inspection = inspect_table(table, rules)
    assert inspection.forms[0].flipped == ("M3",)
    best = best_flips(inspection, 0)
    # M3's three Historic Volumes (focus, +6) and M8's banned book gone (+1)
    assert best.cards == ("M8",) and best.gain == 7 and best.exact
    assert best.total == inspection.forms[0].total + 7


def test_no_flip_helps() -> None:
    table, rules = parse_table_text(textwrap.dedent("""
        prominent: R
        banned: C
        players:
          - {name: Ann, focus: H, shelf: "A1:HR  B1:FMRS"}
          - {name: Bob, focus: F, shelf: "C1:FF"}
    """))
    best = best_flips(inspect_table(table, rules), 0)
    assert best.cards == () and best.gain == 0


def test_flipping_banned_books_and_feeding_the_void() -> None:
    table, rules = parse_table_text(textwrap.dedent("""
        prominent: R
        banned: C
        players:
          - name: Ann
            focus: H
            shelf: |
              A1:CCCC  *hungry-void-of-nothingness  B1:CCCC
              C1:HR    D1:HR                        E1:HR
          - {name: Bob, focus: F, shelf: "F1:FF"}
    """))
    inspection = inspect_table(table, rules)
    best = best_flips(inspection, 0)
    # each banned card flipped: +4 (no penalty) +2 (face down next to the Void)
    assert best.cards == ("A1", "B1") and best.gain == 12


@st.composite
def small_tables(draw):
    rng = random.Random(draw(st.integers(0, 10_000)))
    n = draw(st.integers(2, 5))
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    used: set[tuple[str, int]] = set()

    def card() -> BookCard:
        while True:
            key = (rng.choice(letters[:8]), rng.randint(1, 4))
            if key not in used:
                used.add(key)
                return BookCard(key[0], key[1], tuple(rng.choice("CFHMRS")
                                                      for _ in range(rng.randint(1, 3))))

    players = []
    for i in range(n):
        size = draw(st.integers(1, 8)) if i == 0 else rng.randint(1, 4)
        width = rng.randint(max(1, (size + 1) // 2), size)
        slots = {}
        for k in range(size):
            pos = (k // width, k % width)
            if i == 0 and rng.random() < 0.15:
                slots[pos] = Slot(ArtifactCard(rng.choice(["void", "skull"])))
            else:
                slots[pos] = Slot(card(), face_down=rng.random() < 0.1)
        if all(isinstance(s.card, ArtifactCard) for s in slots.values()):
            slots[(0, 0)] = Slot(card())
        shelf = Shelf.from_slots(slots, check=False)
        if not shelf.is_connected() or shelf.height > 3:
            shelf = Shelf.from_slots({(0, k): Slot(card()) for k in range(size)})
        players.append(PlayerTable(f"P{i}", rng.choice("CFHMRS"), shelf, rng.randint(0, 3)))
    cats = rng.sample("CFHMRS", 2)
    five = n == 5
    variant = draw(st.sampled_from(["plain", "needs-a-book", "solo", "weights"]))
    if variant == "solo":
        from exlibris.scoring.inspection import PublicLibrary

        library = PublicLibrary(rng.choice("CFHMRS"), tuple(card() for _ in range(4)))
        table = Table((players[0],), cats[0], cats[1], "solo", 2, library)
        return table, ScoringRules.for_players(1)
    settings_ = {"prominent_needs_a_book": True} if variant == "needs-a-book" else {}
    if variant == "weights":  # a house rule's other weights: no banned penalty, thin variety
        settings_ = {"banned_per_book": 0, "variety_per_book": 1, "focus_per_book": 0}
    table = Table(tuple(players), cats[0], None if five else cats[1])
    return table, ScoringRules.for_players(n, settings_)


@settings(max_examples=80, derandomize=True, deadline=None)
@given(small_tables())
def test_search_matches_brute_force(case) -> None:
    table, rules = case
    inspection = inspect_table(table, rules, points=fake_points)
    best = best_flips(inspection, 0, points=fake_points)
    total, flips = brute_force_best_flips(inspection, 0, points=fake_points)
    assert (best.total, len(best.cards)) == (total, flips)
    assert best.gain == total - inspection.forms[0].total >= 0
    assert best.exact


def test_a_tiny_beam_is_marked_inexact_but_never_worse_than_doing_nothing() -> None:
    slots = {(0, k): Slot(BookCard("ABCDEFGHIJ"[k], 1, ("C", "F"))) for k in range(10)}
    players = (PlayerTable("P0", "C", Shelf.from_slots(slots)),
               PlayerTable("P1", "F", Shelf.from_slots({(0, 0): Slot(BookCard("Z", 1, ("R",)))})))
    inspection = inspect_table(Table(players, "R", "H"), ScoringRules.for_players(2))
    best = best_flips(inspection, 0, beam=3)
    assert not best.exact and best.gain >= 0
