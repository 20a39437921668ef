"""The greedy bot reads the rules: its values come from the inspection form with the
game's own scoring settings, it keeps its shelf in alphabetical order, and its flip
search is bounded.

* over 20 seeded greedy-against-greedy two-player games, at most 2 cards a player
  are face down at the inspection on average (A1's flips and voluntary ones);
* a variant that only raises ``focus_per_book`` changes the decisions of at least 8
  of 10 seeded games;
* the shelf valuation (``worth.py``: ``Worth``, ``ShelfReading``) agrees with the
  shelf it stands for, built and read from scratch; the bounded flip search
  (``flips.bounded_flips``) finds what the exact one finds on the shelves games end
  with, and is never worse than flipping nothing.
"""

from __future__ import annotations

import bisect
import random
import textwrap
from typing import Any

import pytest

from exlibris.agents import GreedyAgent
from exlibris.agents.view import PlayerView, player_view
from exlibris.agents.worth import PUSHED_OUT, Foresight, ShelfReading, Worth, rank
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision, DecisionKind, Purpose
from exlibris.engine.flow import new_game, play
from exlibris.model.cards import CATEGORY_CODES, ArtifactCard, BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.scoring import steps
from exlibris.scoring.artifacts import NO_TOWN, Town, artifact_points, shelf_artifact_points
from exlibris.scoring.flips import (
    OwnTotal,
    PlanTotals,
    _heaviest_increasing,
    _voluntary,
    best_flips,
    bounded_flips,
)
from exlibris.scoring.inspection import PlayerTable, Table, inspect_table
from exlibris.scoring.settings import ScoringRules
from exlibris.scoring.table import parse_table_text
from exlibris.validation import resolve_settings

CATALOG = load_catalog()
STANDARD = resolve_settings("standard", CATALOG.variants)
MAX_FLIPPED = 2.0  # face-down cards a player at the inspection, on average


class Recording:
    """A greedy bot that writes down every answer it gives."""

    needs_view = True

    def __init__(self, seed: int, answers: list[tuple[int, str, int]]) -> None:
        self.inner = GreedyAgent(seed)
        self.answers = answers
        self.before_flips: PlayerView | None = None  # the view at the voluntary flips

    def decide(self, view: PlayerView, decision: Decision) -> int:
        if decision.kind is DecisionKind.FLIPS:
            self.before_flips = view
        index = self.inner.decide(view, decision)
        self.answers.append((decision.seat, decision.kind.value, index))
        return index


def greedy_game(seed: int, game_settings: Any = STANDARD, agents: list[Recording] | None = None
                ) -> tuple[Any, Any, list]:
    answers: list[tuple[int, str, int]] = []
    agents = agents if agents is not None else []
    agents += [Recording(seed, answers), Recording(seed + 1, answers)]
    game = new_game(CATALOG, game_settings, agents, seed=seed, views=player_view)
    return game, play(game), answers


def face_down_at_inspection(game: Any, outcome: Any) -> list[int]:
    """Per player, the shelf's face-down cards once A1 has flipped its own."""
    counts = []
    for player, form in zip(game.state.players, outcome.inspection.forms, strict=True):
        shelf = steps.with_flips(player.shelf, form.flipped_at)
        counts.append(sum(1 for _, slot in shelf.items() if slot.face_down))
    return counts


# ------------------------------------------------------------------ whole games


def test_greedy_keeps_its_shelf_in_order() -> None:
    counts: list[int] = []
    for seed in range(20):
        game, outcome, _ = greedy_game(seed)
        counts += face_down_at_inspection(game, outcome)
    mean = sum(counts) / len(counts)
    print(f"face-down cards a player at the inspection: {mean:.2f} ({counts})")
    assert mean <= MAX_FLIPPED, counts


def test_a_scoring_only_house_rule_changes_the_greedy_games() -> None:
    focus = STANDARD.model_copy(update={"scoring": {**STANDARD.scoring, "focus_per_book": 4}})
    changed = [seed for seed in range(10)
               if greedy_game(seed)[2] != greedy_game(seed, focus)[2]]
    assert len(changed) >= 8, changed


def test_the_view_shows_the_tables_scoring_rules() -> None:
    focus = STANDARD.model_copy(update={"scoring": {**STANDARD.scoring, "focus_per_book": 4}})
    game = new_game(CATALOG, focus, [GreedyAgent(1), GreedyAgent(2)], seed=3)
    view = player_view(game, 0)
    assert view.scoring is game.scoring and view.scoring.focus_per_book == 4
    assert PlayerView(0, (), "C", Shelf(), "F", "H", (), {}, 0, (), 1, False).scoring \
        == ScoringRules()


def test_the_same_seed_plays_the_same_greedy_game() -> None:
    assert greedy_game(5)[2] == greedy_game(5)[2]


# ------------------------------------------------------------------ the valuation


def card(name: str, books: str, of: int = 9) -> BookCard:
    return BookCard(name[0], int(name[1:]), tuple(books), of)


def shelf_of(rows: dict[tuple[int, int], BookCard]) -> Shelf:
    return Shelf.from_slots({pos: Slot(c) for pos, c in rows.items()})


def view_of(shelf: Shelf, hand: tuple[BookCard, ...] = (), *, rules: ScoringRules | None = None,
            focus: str = "C") -> PlayerView:
    return PlayerView(seat=0, hand=hand, focus=focus, shelf=shelf, prominent="F", banned="H",
                      opponents=(), areas={}, deck_size=40, discard=(), round=3,
                      final_round=False, scoring=rules or ScoringRules())


def test_worth_reads_the_numbers_of_the_form() -> None:
    tally = (2, 1, 1, 1, 1, 1)  # C F H M R S
    plain = Worth(ScoringRules(), "C", "F", "H", (0,))
    doubled = Worth(ScoringRules(focus_per_book=4), "C", "F", "H", (0,))
    more_c = (3, 1, 1, 1, 1, 1)
    assert doubled.books(more_c) - doubled.books(tally) == \
        plain.books(more_c) - plain.books(tally) + 2
    more_h = (2, 1, 2, 1, 1, 1)  # the banned category: -1 a book, no variety
    assert plain.books(more_h) - plain.books(tally) == -1
    harsh = Worth(ScoringRules(banned_per_book=-3), "C", "F", "H", (0,))
    assert harsh.books(more_h) - harsh.books(tally) == -3
    # the award the prominent tally takes against the others' as they stand
    assert plain.award(1) == 15 and Worth(ScoringRules(), "C", "F", "H", (2,)).award(1) == 9


def test_a_card_goes_where_a1_keeps_it() -> None:
    """B1 . F1 over G1 H1 K1: C1 is kept only in the gap between B1 and F1."""
    shelf = shelf_of({(0, 0): card("B1", "CF"), (0, 2): card("F1", "CF"),
                      (1, 0): card("G1", "CM"), (1, 1): card("H1", "CS"),
                      (1, 2): card("K1", "CR")})
    c1 = card("C1", "CC")
    decision = Decision(0, DecisionKind.POSITION, "where?", list(shelf.legal_cells()),
                        data={"card": c1})
    assert decision.values[GreedyAgent(1).decide(view_of(shelf), decision)] == (0, 1)
    reading = ShelfReading(shelf, Worth(ScoringRules(), "C", "F", "H", (0,)), Foresight())
    gains = {pos: reading.gain(c1, pos) for pos in shelf.legal_cells()}
    assert max(gains, key=gains.__getitem__) == (0, 1)
    assert gains[(0, 3)] < 0 and gains[(-1, 0)] < gains[(0, 1)]  # flipped; pushes B1 out


def test_a_careful_player_leaves_room_between_letters() -> None:
    """Z1 next to A1 in the same row would leave no cell for B..Y between them."""
    shelf = shelf_of({(0, 0): card("A1", "CF")})
    view = view_of(shelf)
    z1 = card("Z1", "CF", of=3)
    decision = Decision(0, DecisionKind.POSITION, "where?", [(-1, 0), (0, -1), (0, 1), (1, 0)],
                        data={"card": z1})
    assert decision.values[GreedyAgent(1).decide(view, decision)] == (1, 0)
    assert 0 < rank(card("A1", "C")) < rank(card("M4", "C", of=8)) < rank(z1) < 1


# artifacts whose points read the cells next to them, the whole shelf, faces, or nothing
SCORED_ARTIFACTS = ("pandorkas-blocks", "foul-vowel-towel", "drawer-of-ruined-runeography",
                    "hungry-void-of-nothingness", "categorical-gauntlet")


def random_shelf(rng: random.Random, artifacts: int = 0) -> tuple[Shelf, list[BookCard]]:
    """A legal shelf of random cards grown cell by cell, and some cards to shelve;
    ``artifacts``: as many artifact cards shelved among them at random."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    keys = rng.sample([(a, n) for a in letters for n in range(1, 5)], 24)
    cards = [BookCard(a, n, tuple(rng.choice("CFHMRS") for _ in range(rng.randint(2, 4))), 4)
             for a, n in keys]
    shelf = Shelf()
    shelved: list[Any] = cards[:rng.randint(0, 16)]
    for artifact in rng.sample(SCORED_ARTIFACTS, artifacts):
        shelved.insert(rng.randint(0, len(shelved)), ArtifactCard(artifact))
    for c in shelved:
        pos = rng.choice(shelf.legal_cells())
        shelf.shelve(c, pos, face_down=isinstance(c, BookCard) and rng.random() < 0.05)
    return shelf, cards[16:]


def entombed_under(rng: random.Random, shelf: Shelf, cards: list[BookCard]) -> Shelf:
    """``shelf`` with each of ``cards`` laid on a random cell, the card there entombed
    beneath it (LIB-MUMMY-5), where no card is entombed yet."""
    for c in cards:
        pos = rng.choice(shelf.positions()) if shelf.positions() else None
        if pos is not None and shelf.at(pos).beneath is None:
            slot = shelf.at(pos)
            shelf = Shelf.from_slots({**shelf.snapshot(), pos: Slot(c, beneath=slot.card)},
                                     check=False)
    return shelf


@pytest.mark.parametrize("seed", range(25))
def test_the_fast_gain_is_the_built_shelfs_value(seed: int) -> None:
    """Every cell's gain, worked out from the reading, is the value of the shelf built
    with the card in it, read afresh (a card A1 flips is credited all of B1 here);
    the best gain is at least that of every cell where the card breaks no order."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng)
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    foresight = Foresight(flipped_stability=1.0)
    reading = ShelfReading(shelf, worth, foresight)
    assert reading.stability == steps.b1_stability(shelf, rules)
    flipped = len(steps.a1_alphabetical(shelf))
    for c in hand:
        gains, in_order = [], []
        for pos in shelf.legal_cells():
            built = shelf.copy()
            built.shelve(c, pos)
            expected = ShelfReading(built, worth, foresight).value - reading.value
            gains.append(reading.gain(c, pos))
            assert gains[-1] == pytest.approx(expected, abs=1e-9), (c, pos)
            if len(steps.a1_alphabetical(built)) == flipped:
                in_order.append(gains[-1])
        assert max(in_order, default=-1e9) - 1e-9 <= reading.best_gain(c) <= max(gains) + 1e-9
    for pos, slot in shelf.items():  # a card lifted and put back: the same shelf
        if slot.face_down:
            continue
        lifted = reading.lifted(pos)
        assert lifted.value + lifted.gain(slot.card, pos) == \
            pytest.approx(reading.value, abs=1e-9)


@pytest.mark.parametrize("seed", range(25))
def test_what_a_reading_shares_is_what_a_fresh_one_finds(seed: int) -> None:
    """The bot's shortcuts give exactly (not nearly) what reading the shelf afresh gives:
    every cell's gain in one pass (``gains``), the shelf read again for another worth or
    foresight (``reread``) and a shelf card's loss from the lifted shelf."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng)
    if rng.random() < 0.3:  # an artifact: the shelves built are read
        shelf.shelve(ArtifactCard("foul-vowel-towel"), rng.choice(shelf.legal_cells()))
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    reading = ShelfReading(shelf, worth, Foresight())
    cells = shelf.legal_cells()
    for c in hand:
        assert reading.gains(c, cells) == [reading.gain(c, pos) for pos in cells]
    other = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    for foresight in (Foresight(), Foresight(layout=0.5, flipped_stability=1.0),
                      Foresight(width=4)):
        again, fresh = reading.reread(other, foresight), ShelfReading(shelf, other, foresight)
        assert again.value == fresh.value and again.stability == fresh.stability
        for c in hand:
            assert again.best_gain(c) == fresh.best_gain(c)
            assert again.gains(c, cells) == fresh.gains(c, cells)
    for pos, slot in shelf.items():
        trial = shelf.copy()
        if trial.removal_refusal(pos) is not None:
            assert reading.loss(slot.card) == float("inf")
            continue
        trial.remove(pos)
        assert reading.loss(slot.card) == reading.value - ShelfReading(trial, worth,
                                                                       Foresight()).value


READ_FIELDS = ("order", "keys", "kept", "lasts", "starts", "kept_cards", "tally", "flips", "zs",
               "z_count", "sum_z", "sum_zz", "slow", "artifact_cells", "stability", "entombed",
               "tombs", "artifacts", "base_books", "value")


def each_card_shifted(shelf: Shelf) -> list[Shelf]:
    """``shelf`` with each card alone shifted as far as it may go, either way."""
    shifted = []
    for row, col in shelf.positions():
        for sign in (-1, 1):
            reach = shelf.shift_reach(row, col, col, sign, 4)
            if reach:
                moved = shelf.copy()
                moved.shift_run(row, col, col, sign * reach, legal=True)
                shifted.append(moved)
    return shifted


@pytest.mark.parametrize("seed", range(25))
def test_a_lifted_shelf_is_read_as_a_fresh_reading_reads_it(seed: int) -> None:
    """The shelf without one card, read from the reading of the whole shelf (A1's pass
    resumed at the card's cell), is exactly what reading it afresh finds, field by field:
    for every cell, an entombed pair's (the card beneath stays, face down) and a cell
    whose card may not leave (the shelf read in two parts) among them."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng)
    shelf = entombed_under(rng, shelf, hand[:rng.randint(0, 3)])
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    foresight = rng.choice([Foresight(), Foresight(layout=0.5, flipped_stability=1.0)])
    reading = ShelfReading(shelf, worth, foresight)
    for pos, _ in shelf.items():
        lifted = reading.lifted(pos)
        fresh = ShelfReading(lifted.shelf, worth, foresight)
        for name in READ_FIELDS:
            assert getattr(lifted, name) == getattr(fresh, name), (pos, name)
        for c in hand:
            assert lifted.best_gain(c) == fresh.best_gain(c)


@pytest.mark.parametrize("seed", range(25))
def test_a_changed_shelf_is_read_as_a_fresh_reading_reads_it(seed: int) -> None:
    """A shelf after a move (a card shelved, one face down, two swapped, part of a row
    shifted), another player's shelf, or the same shelf, read from the last reading
    (``changed``: A1's pass
    resumed at the first cell that differs) is exactly what reading it afresh finds,
    field by field, for another worth and foresight too."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng)
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    other = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    reading = ShelfReading(shelf, worth, Foresight())
    after = []
    for c in hand:
        grown = shelf.copy()
        grown.shelve(c, rng.choice(grown.legal_cells()), face_down=rng.random() < 0.2)
        after.append(grown)
    cells = shelf.positions()
    if len(cells) >= 2:
        swapped = shelf.copy()
        swapped.swap(*rng.sample(cells, 2))
        after.append(swapped)
    after += each_card_shifted(shelf)
    after += [shelf.copy(), random_shelf(rng)[0]]
    for changed in after:
        for read_with, foresight in ((worth, Foresight()),
                                     (other, Foresight(layout=0.5, flipped_stability=1.0))):
            again = reading.changed(changed, read_with, foresight)
            fresh = ShelfReading(changed, read_with, foresight)
            for name in READ_FIELDS:
                assert getattr(again, name) == getattr(fresh, name), name
            for c in hand:
                assert again.best_gain(c) == fresh.best_gain(c)


@pytest.mark.parametrize("seed", range(25))
def test_a_shelf_with_artifacts_read_from_another_reading_is_a_fresh_reading(seed: int
                                                                              ) -> None:
    """With artifacts on the shelf (their points read the shelf as A1 leaves it), the
    shelf with a card shelved in any cell (``_built_gain``), without one of its cards
    (``lifted``), or after a move (``changed``: a card shelved, turned face down or
    entombed, two swapped, a card shifted, another shelf), read from this reading, is
    exactly what reading it afresh finds, field by field, the artifacts' points among
    them."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng, artifacts=rng.randint(1, 3))
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    foresight = rng.choice([Foresight(), Foresight(layout=0.5, flipped_stability=1.0)])
    reading = ShelfReading(shelf, worth, foresight)
    assert reading.slow
    assert reading.artifacts == shelf_artifact_points(
        steps.with_flips(shelf, steps.a1_alphabetical(shelf)), rules)
    others = [*hand[:3], ArtifactCard("sands-of-our-fathers")]
    for c in others:
        for pos in shelf.legal_cells():
            built = shelf.copy()
            built.shelve(c, pos)
            assert reading.gain(c, pos) == ShelfReading(built, worth, foresight).value \
                - reading.value, (c, pos)
    for pos, _ in shelf.items():
        lifted = reading.lifted(pos)
        fresh = ShelfReading(lifted.shelf, worth, foresight)
        for name in READ_FIELDS:
            assert getattr(lifted, name) == getattr(fresh, name), (pos, name)
    after = [random_shelf(rng, artifacts=1)[0], random_shelf(rng)[0],
             entombed_under(rng, shelf.copy(), hand[3:5])]
    for c in hand[:3]:
        grown = shelf.copy()
        grown.shelve(c, rng.choice(grown.legal_cells()), face_down=rng.random() < 0.2)
        after.append(grown)
    cells = shelf.positions()
    for pos in rng.sample(cells, min(4, len(cells))):  # a card turned face down
        if not shelf.at(pos).face_down:
            after.append(steps.with_flips(shelf, [pos]))
    if len(cells) >= 2:
        for _ in range(3):
            swapped = shelf.copy()
            swapped.swap(*rng.sample(cells, 2))
            after.append(swapped)
    after += each_card_shifted(shelf)
    for changed in after:
        again = reading.changed(changed, worth, foresight)
        fresh = ShelfReading(changed, worth, foresight)
        for name in READ_FIELDS:
            assert getattr(again, name) == getattr(fresh, name), name


@pytest.mark.parametrize("seed", range(40))
def test_a_shelf_grown_by_a_card_read_from_the_reading_before_is_a_fresh_reading(
        seed: int) -> None:
    """The shelf (some cards entombed in it) with one card more in any legal cell (face up
    or down, a book card or an artifact), read from the shelf's reading (A1's pass anew
    only until it keeps what the shelf's pass kept, the rest the shelf's a cell further
    on), is exactly what reading it afresh finds, field by field."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng, artifacts=rng.randint(0, 2))
    shelf = entombed_under(rng, shelf, hand[4:4 + rng.randint(0, 3)])
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    foresight = rng.choice([Foresight(), Foresight(layout=0.5, flipped_stability=1.0)])
    reading = ShelfReading(shelf, worth, foresight)
    for card in [*hand[:4], ArtifactCard("vessel-of-wand-storage")]:
        for pos in shelf.legal_cells():
            face_down = isinstance(card, BookCard) and rng.random() < 0.2
            built = shelf.copy()
            built.shelve(card, pos, face_down=face_down)
            grown = reading._resumed(built, bisect.bisect_left(shelf.positions(), pos), worth,
                                     foresight, grown=True)
            fresh = ShelfReading(built, worth, foresight)
            for name in READ_FIELDS:
                assert getattr(grown, name) == getattr(fresh, name), (card, pos, name)


def best_by_cells(reading: ShelfReading, card: BookCard) -> float:
    """``best_gain`` of a book card worked out cell by cell in reading order, each cell's
    sum as ``_best_book_gain`` makes it (a reference for its cells taken by kind)."""
    foresight, n = reading.foresight, reading.z_count
    scale = foresight.layout * n / (n + 1)
    mean = reading.sum_z / n if n else 0.0
    shift = 3 * rank(card)
    keys, _, tallies = reading.run()
    key = (card.letter, card.order)
    end, below = bisect.bisect_right(keys, key), bisect.bisect_left(keys, key)
    best = float("-inf")
    for start, z, stability in reading._legal_cells():
        if start > below:
            value = (foresight.flipped_stability * stability - foresight.per_flip
                     - scale * (z - (shift + mean)) ** 2)
        elif end <= start:
            value = reading.book_gain(card) + stability - scale * (z - (shift + mean)) ** 2
        elif end - start <= PUSHED_OUT:
            left = reading._pushed_books(card, tallies[start], tallies[end])
            layout = scale * (z - shift - mean) ** 2 if n else 0.0
            value = (stability - layout + left - reading.base_books
                     - foresight.per_flip * (end - start))
        else:
            continue
        best = max(best, value)
    return best


@pytest.mark.parametrize("seed", range(25))
def test_the_best_gain_is_the_best_cell_exactly(seed: int) -> None:
    """``best_gain`` of a book card, its cells taken by kind (where A1 flips it, keeps
    it, or pushes kept cards out), is exactly the best of its cells weighed one by one."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng)
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    cards = hand + [c for _, slot in shelf.items() if isinstance(c := slot.card, BookCard)]
    cards += [BookCard(a, n, tuple(rng.choice("CFHMRS") for _ in range(3)), 4)
              for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for n in (1, 4)]  # every letter
    # no cost a flip: a cell where the card pushes kept cards out may be the best
    for foresight in (Foresight(), Foresight(layout=0.5, flipped_stability=1.0),
                      Foresight(per_flip=0.0, layout=0.0)):
        reading = ShelfReading(shelf, worth, foresight)
        for c in cards:
            assert reading.best_gain(c) == best_by_cells(reading, c), c


def test_a_shelf_card_is_worth_what_it_holds_up() -> None:
    """A card on the shelf is valued by what taking it off costs, not as a card to
    shelve again: the bot pays a tax with a hand card it has no use for."""
    shelf = shelf_of({(0, 0): card("B1", "CCF"), (0, 1): card("D1", "CCF"),
                      (1, 0): card("F1", "CCM"), (1, 1): card("G1", "CCS")})
    junk = card("A2", "HH")  # banned books, and before B1 only as the first card
    view = view_of(shelf, (junk,))
    decision = Decision(0, DecisionKind.PICK, "which to discard?",
                        [card("B1", "CCF"), card("G1", "CCS"), junk],
                        data={"purpose": Purpose.DISCARD})
    assert GreedyAgent(1).decide(view, decision) == 2


# ------------------------------------------------------------------ the flip search


def test_bounded_flips_find_the_rulebook_flips() -> None:
    table, rules = parse_table_text(textwrap.dedent("""
        prominent: R
        banned: C
        players:
          - {name: Ann, focus: H, shelf: "M8/8:C  M3/8:HHH  N3/3:S  A1/9:HH  Z1/3:F  B1/9:HH"}
          - {name: Bob, focus: F, shelf: "C1:FF"}
    """))
    inspection = inspect_table(table, rules)
    found = bounded_flips(inspection, 0)
    exact = best_flips(inspection, 0)
    assert set(found.cards) == set(exact.cards) and found.gain == exact.gain > 0


def fake_points(shelf: Shelf, pos: tuple[int, int], artifact_id: str, rules: Any,
                town: Any = None) -> int:
    """A stand-in adjacency artifact: 2 points per face-down card next to it."""
    return 2 * sum(1 for p in shelf.neighbours(pos) if shelf.at(p).face_down)  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", range(60))
def test_bounded_flips_are_never_worse_than_none_nor_better_than_exact(seed: int) -> None:
    rng = random.Random(seed)
    shelf, _ = random_shelf(rng)
    if len(shelf) and rng.random() < 0.3:  # an artifact whose points read the faces
        pos = rng.choice(shelf.legal_cells())
        shelf = Shelf.from_slots({**shelf.snapshot(), pos: Slot(ArtifactCard("void"))})
    if not any(slot.face_up_book for _, slot in shelf.items()):
        return
    other, _ = random_shelf(rng)
    players = (PlayerTable("P0", rng.choice("CFHMRS"), shelf),
               PlayerTable("P1", rng.choice("CFHMRS"), other))
    prominent, banned = rng.sample("CFHMRS", 2)
    rules = ScoringRules.for_players(2, rng.choice([{}, {"prominent_needs_a_book": True},
                                                    {"focus_per_book": 5}]))
    table = Table(players, prominent, banned)
    inspection = inspect_table(table, rules, points=fake_points)
    found = bounded_flips(inspection, 0, points=fake_points)
    exact = best_flips(inspection, 0, points=fake_points)
    assert 0 <= found.gain <= exact.gain
    player = PlayerTable("P0", players[0].focus, steps.with_flips(shelf, found.positions))
    again = inspect_table(Table((player, players[1]), prominent, banned), rules,
                          points=fake_points)
    assert again.forms[0].total == found.total == inspection.forms[0].total + found.gain


@pytest.mark.parametrize("seed", range(20))
def test_a_plans_total_from_its_parts_is_the_total_of_the_shelf_it_leaves(seed: int) -> None:
    """``PlanTotals`` (each shipped artifact's points kept by the faces of the cells its
    score read) gives, plan after plan on one shelf, what the player's column gives for
    the shelf the plan leaves."""
    rng = random.Random(seed)
    shelf, cards = random_shelf(rng, artifacts=rng.randint(1, 3))
    shelf = entombed_under(rng, shelf, cards[:rng.randint(0, 2)])
    other, _ = random_shelf(rng, artifacts=rng.randint(0, 1))
    players = (PlayerTable("P0", rng.choice("CFHMRS"), shelf),
               PlayerTable("P1", rng.choice("CFHMRS"), other))
    prominent, banned = rng.sample("CFHMRS", 2)
    rules = ScoringRules.for_players(2, rng.choice([{}, {"focus_per_book": 5}]))
    inspection = inspect_table(Table(players, prominent, banned), rules)
    own = OwnTotal(inspection, 0, artifact_points)
    parts = PlanTotals.of(own)
    assert parts is not None
    books = [(pos, slot.face_up_book) for pos, slot in shelf.items()
             if slot.face_up_book is not None]
    for _ in range(30):  # increasing plans, many sharing the faces of some cells
        keep = _heaviest_increasing(books, [rng.choice([-1, 1, 2, 9]) for _ in books])
        down = frozenset(pos for (pos, _), kept in zip(books, keep, strict=True) if not kept)
        tally = tuple(sum(card.books.count(code)
                          for (_, card), kept in zip(books, keep, strict=True) if kept)
                      for code in CATEGORY_CODES)
        flips = _voluntary(books, down)
        assert parts.total(down, tally) == own.total(steps.with_flips(shelf, flips))


def test_a_shelf_weighed_apart_sees_the_same_opponents_as_the_inspection() -> None:
    """The flips search scores its player's shelves with the table the inspection
    gives their scores: the others' shelves, not their own among them."""
    def by_opponents(shelf: Shelf, pos: Any, artifact_id: str, rules: Any,
                     town: Town = NO_TOWN) -> int:
        return 10 * len(town.opponents) + sum(len(s) for _, s in town.opponents)

    rng = random.Random(3)
    shelf, _ = random_shelf(rng, artifacts=1)
    other, _ = random_shelf(rng)
    players = (PlayerTable("P0", "C", shelf), PlayerTable("P1", "F", other))
    inspection = inspect_table(Table(players, "R", "H"), ScoringRules.for_players(2),
                               points=by_opponents)
    assert OwnTotal(inspection, 0, by_opponents).total(shelf) == inspection.forms[0].total


def test_bounded_flips_match_the_exact_search_on_shelves_games_end_with() -> None:
    """The common case: the shelves of seeded greedy games at the voluntary flips."""
    views = 0
    for seed in range(6):
        agents: list[Recording] = []
        greedy_game(seed, agents=agents)
        for agent in agents:
            view = agent.before_flips
            if view is None:
                continue
            players = [PlayerTable("me", view.focus, view.shelf)]
            players += [PlayerTable(f"seat {o.seat}", view.focus, o.shelf, o.hand_size)
                        for o in view.opponents]
            inspection = inspect_table(Table(tuple(players), view.prominent, view.banned),
                                       view.scoring)
            assert bounded_flips(inspection, 0).gain == best_flips(inspection, 0).gain
            views += 1
    assert views >= 10



def test_a_move_off_an_entombed_card_is_valued_on_the_shelf_the_engine_leaves() -> None:
    """Re-shelving the top card of an entombed pair leaves the lower card in its cell
    (LIB-MUMMY-5), so a cell beside it stays legal: the bot's reading of the lifted
    shelf keeps it too (a crash sweep's mcts seat once failed on this move)."""
    a1, b1, z1 = BookCard("A", 1, ("C",)), BookCard("B", 1, ("F",)), BookCard("Z", 1, ("H",))
    shelf = Shelf.from_slots({(0, 0): Slot(a1, beneath=z1), (0, 1): Slot(b1)})
    assert ((0, 0), (1, 0)) in shelf.reshelve_moves([(1, 0)])  # the engine offers it
    reading = ShelfReading(shelf, Worth(ScoringRules(), "C", "F", "H", (0,)), Foresight())
    lifted = reading.lifted((0, 0))
    assert lifted.shelf.at((0, 0)).card is z1 and lifted.shelf.at((0, 0)).face_down
    assert lifted.gain(a1, (1, 0)) > float("-inf")  # valued, not refused


def test_a_hand_card_swapped_onto_an_entombed_pair_is_valued_over_the_entombed_card() -> None:
    """The Librarians Lodge's swap with a hand card, at a cell holding an entombed
    pair: the hand card goes on top and the entombed card stays beneath (LIB-MUMMY-5),
    so the bot values that shelf rather than shelving into an occupied cell (a crash
    sweep's mcts seat once failed on this, artifactorium seeds 1198 and 4499)."""
    a1, b1, z1 = card("A1", "CF"), card("B1", "CS"), card("Z1", "CH")
    c1 = card("C1", "CC")
    # an artifact on the shelf: the bot reads it by building each shelf it values
    shelf = Shelf.from_slots({(0, 0): Slot(a1, beneath=z1), (0, 1): Slot(b1),
                              (0, 2): Slot(ArtifactCard("foul-vowel-towel"))})
    options = [("hand", (0, 0), c1), ("hand", (0, 1), c1), ("swap", (0, 0), (0, 1))]
    decision = Decision(0, DecisionKind.REARRANGE, "rework the shelf", options)
    chosen = options[GreedyAgent(1).decide(view_of(shelf, (c1,)), decision)]
    assert chosen in options  # valued, not refused
    trial = shelf.copy()
    trial.swap_with_hand((0, 0), c1)
    assert trial.at((0, 0)).card is c1 and trial.at((0, 0)).beneath is z1


@pytest.mark.parametrize("seed", range(20))
def test_a_card_s_cells_weighed_for_its_best_gain_are_given_again_as_weighed(
        seed: int) -> None:
    """On a shelf whose cards are weighed on the shelf built (artifacts on it, or an
    artifact weighed), a card's gains in its cells after its ``best_gain`` (kept by the
    reading) are exactly those a fresh reading weighs one by one, in the order asked,
    and its best gain is the best of them."""
    rng = random.Random(seed)
    shelf, hand = random_shelf(rng, artifacts=rng.randint(0, 2))
    rules = ScoringRules(min_rectangle=rng.choice([(2, 2), (1, 1), (3, 2)]))
    worth = Worth(rules, rng.choice("CFMRS"), "F", "H", (rng.randint(0, 6),))
    reading = ShelfReading(shelf, worth, Foresight())
    cards = [*hand[:4], ArtifactCard("vessel-of-wand-storage")]
    cards = [c for c in cards if reading.slow or not isinstance(c, BookCard)]
    assert cards
    for card in cards:
        cells = shelf.legal_cells()
        best = reading.best_gain(card)
        asked = rng.sample(cells, len(cells))  # another order, as a decision may offer
        fresh = ShelfReading(shelf, worth, Foresight())
        expected = [fresh._built_gain(card, pos) for pos in asked]
        assert reading.gains(card, asked) == expected
        assert best == max(expected)
