"""Each step of the inspection form on its own, with the rulebooks' examples."""

from __future__ import annotations

import pytest

from exlibris.model.shelf import Shelf
from exlibris.scoring import steps
from exlibris.scoring.settings import ScoringRules, SettingsError
from exlibris.scoring.table import parse_cell

STANDARD = ScoringRules.for_players(4)


def shelf(*rows: str) -> Shelf:
    """A shelf from table-format rows (artifacts by any id)."""
    slots = {}
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            known = [token[1:].split("[")[0]] if token.startswith("*") else []
            slot = parse_cell(token, known)
            if slot is not None:
                slots[(r, c)] = slot
    return Shelf.from_slots(slots)


def names(s: Shelf, positions: list) -> list[str]:
    return [s.at(p).card.name for p in positions]


# ----------------------------------------------------------------------- A1
def test_a1_rulebook_example() -> None:  # SCORE-A1-5
    s = shelf("M8/8:CF  M3/8:HR  N3/3:SS")
    assert names(s, steps.a1_alphabetical(s)) == ["M3"]


def test_a1_voluntary_flip_of_the_left_card_saves_the_rest() -> None:  # SCORE-A1-4 (b)
    s = shelf("~M8/8:CF  M3/8:HR  N3/3:SS")
    assert steps.a1_alphabetical(s) == []


def test_a1_is_one_greedy_pass() -> None:  # SCORE-A1-6
    s = shelf("A1:CF  Z1:CF  B1:CF  C1:CF")
    assert names(s, steps.a1_alphabetical(s)) == ["B1", "C1"]


def test_a1_spec_example_compares_with_last_card_left_face_up() -> None:
    s = shelf(".  B2:HR  C1:SS", "A1:CC  B3:FM  C4:RH")
    assert names(s, steps.a1_alphabetical(s)) == ["A1", "B3"]


def test_a1_skips_face_down_cards_and_artifacts() -> None:  # SCORE-A1-7
    s = shelf("C1:CF  *foul-vowel-towel  ~Z9:CF  D1:CF  B1:CF")
    assert names(s, steps.a1_alphabetical(s)) == ["B1"]


def test_a1_reads_the_top_of_a_stack_only() -> None:
    s = shelf("B1:CF  C1:CF+A1:SS  D1:CF")
    assert steps.a1_alphabetical(s) == []


def test_a1_same_letter_needs_a_higher_order() -> None:  # SCORE-A1-2
    s = shelf("M3/8:CF  M3/9:CF", "M2:CF  M4/4:CF")
    # M3/9 is a different card only for this test; the letter count is irrelevant
    assert names(s, steps.a1_alphabetical(s)) == ["M3", "M2"]


def test_a1_first_face_up_card_is_never_flipped() -> None:  # SCORE-A1-3
    s = shelf("~A1:CF  Z9:CF")
    assert steps.a1_alphabetical(s) == []


# ----------------------------------------------------------------------- A2
def test_a2_counts_books_on_face_up_book_cards_only() -> None:  # SCORE-A2-1, SCORE-A1-8
    s = shelf("A1:CCF  ~B1:HHH  C1:MR+D1:SSSS  *pandorkas-blocks")
    assert steps.a2_tally(s) == {"C": 2, "F": 1, "H": 0, "M": 1, "R": 1, "S": 0}


# ----------------------------------------------------------------------- B1
@pytest.mark.parametrize(
    ("rows", "points"),
    [
        (("A1:C A2:C A3:C", "B1:C B2:C B3:C", "C1:C C2:C C3:C"), 9),  # a full 3x3
        ((". A1:C A2:C A3:C A4:C", "B1:C B2:C B3:C B4:C B5:C"), 8),  # short and wide: 2x4
        (("A1:C A2:C A3:C", "B1:C B2:C B3:C", ". C1:C ."), 0),  # nothing on the bottom row
        (("A1:C A2:C A3:C A4:C", "B1:C B2:C B3:C B4:C", "C1:C C2:C C3:C C4:C"), 12),
        (("A1:C A2:C A3:C A4:C A5:C",), 0),  # one row: never two tall
        (("A1:C .", "B1:C B2:C"), 0),  # no 2x2
        (("A1:C A2:C . .", "B1:C B2:C B3:C B4:C", "C1:C C2:C C3:C C4:C"), 8),  # 2x4 beats 3x2
        (("A1:C A2:C A3:C .", "B1:C B2:C B3:C .", "C1:C C2:C C3:C C4:C"), 9),
    ],
    ids=["nine", "eight", "zero-no-bottom", "twelve", "one-row", "no-square", "wide", "tall"],
)
def test_b1_largest_rectangle_on_the_bottom_row(rows: tuple[str, ...], points: int) -> None:
    assert steps.b1_stability(shelf(*rows), STANDARD) == points  # SCORE-B1-1, B1-2


def test_b1_face_down_artifacts_and_stacks_fill_cells() -> None:  # SCORE-B1-3
    s = shelf("~A1:C  *foul-vowel-towel", "B1:C+Z1:C  ~B2:C")
    assert steps.b1_stability(s, STANDARD) == 4


def test_b1_minimum_rectangle_is_a_setting() -> None:
    s = shelf("A1:C A2:C A3:C")
    rules = ScoringRules.from_settings({"min_rectangle": [2, 1]})
    assert steps.b1_stability(s, rules) == 3


# ------------------------------------------------------------------ entombed
def test_entombed_cards_are_two_points_each() -> None:  # LIB-MUMMY-4, SA-MUMMY-3
    s = shelf("A1:C+B1:F  C1:C+D1:F  E1:S")
    assert steps.entombed_points(s, STANDARD) == 4
    assert steps.entombed_points(s, ScoringRules.from_settings({"entombed_per_card": 3})) == 6


# ----------------------------------------------------------------------- B2
def test_b2_rulebook_example() -> None:  # SCORE-B2-6: Jacob 8, Jamie 10, Reena 9, Alap 7
    assert steps.b2_prominent([8, 10, 9, 7], STANDARD) == [4, 15, 9, 0]


@pytest.mark.parametrize(
    ("players", "counts", "awards"),
    [
        (3, [5, 5, 3], [12, 12, 4]),  # two tied 1st: 12 each, next player 4
        (3, [5, 5, 5], [10, 10, 10]),  # three tied 1st: 10 each
        (4, [6, 4, 4, 1], [15, 7, 7, 0]),  # two tied 2nd: 7 each
        (4, [6, 5, 2, 2], [15, 9, 2, 2]),  # two tied 3rd of four: 2 each
        (2, [3, 3], [12, 12]),  # two-player tie: 12 each
        (4, [4, 4, 4, 4], [7, 7, 7, 7]),  # four tied 1st: 7 each
    ],
    ids=["two-first", "three-first", "two-second", "two-third-of-four", "two-players", "four"],
)
def test_b2_tie_values_from_the_clauses(players: int, counts: list[int],
                                        awards: list[int]) -> None:  # SCORE-B2-3
    assert steps.b2_prominent(counts, ScoringRules.for_players(players)) == awards


@pytest.mark.parametrize(
    ("counts", "awards"),
    [
        ([9, 7], [15, 9]),
        ([2, 2, 1], [12, 12, 4]),
        ([1, 2, 2], [4, 12, 12]),
        ([3, 2, 2], [15, 7, 7]),
        ([3, 3, 3, 0], [10, 10, 10, 0]),
        ([5, 1, 1, 1], [15, 5, 5, 5]),  # (9 + 4 + 0) / 3 rounded up
        ([2, 2, 2, 2, 2], [7, 7, 7, 7, 7]),  # five players: 34 / 5 = 6.8, rounded up
        ([5, 5, 3, 3, 1], [13, 13, 5, 5, 0]),  # (15+10)/2, (6+3)/2
        ([7, 6, 6, 6, 0], [15, 7, 7, 7, 0]),  # (10+6+3)/3 = 6.33
        ([4, 3, 2, 1, 1], [15, 10, 6, 2, 2]),
        ([1, 1, 1, 1, 0], [9, 9, 9, 9, 0]),  # (15+10+6+3)/4 = 8.5
    ],
)
def test_b2_ties_for_two_to_five_players(counts: list[int], awards: list[int]) -> None:
    assert steps.b2_prominent(counts, ScoringRules.for_players(len(counts))) == awards


def test_b2_five_player_awards() -> None:  # EXP-5P-01
    assert steps.b2_prominent([5, 4, 3, 2, 1], ScoringRules.for_players(5)) == [15, 10, 6, 3, 0]


def test_b2_zero_books_can_win_by_default() -> None:  # SCORE-B2-5 (a)
    assert steps.b2_prominent([0, 0], STANDARD) == [12, 12]
    assert steps.b2_prominent([2, 0, 0], ScoringRules.for_players(3)) == [15, 7, 7]


def test_b2_zero_books_setting() -> None:  # SCORE-B2-5 (b)
    rules = ScoringRules.from_settings({"prominent_needs_a_book": True}, players=3)
    assert steps.b2_prominent([0, 0, 0], rules) == [0, 0, 0]
    assert steps.b2_prominent([2, 0, 0], rules) == [15, 0, 0]


@pytest.mark.parametrize(
    ("player", "library", "result"),
    [(5, 3, (15, 0)), (3, 5, (0, 15)), (4, 4, (0, 15)), (0, 0, (0, 15))],
)
def test_b2_solo_public_library_wins_ties(player: int, library: int,
                                          result: tuple[int, int]) -> None:  # SOLO-23
    assert steps.b2_solo(player, library, ScoringRules.for_players(1)) == result


def test_b2_solo_settings() -> None:
    needs = ScoringRules.from_settings({"prominent_needs_a_book": True}, players=1)
    assert steps.b2_solo(0, 0, needs) == (0, 0)
    shared = ScoringRules.from_settings({"public_library_wins_ties": False}, players=1)
    assert steps.b2_solo(3, 3, shared) == (8, 8)


# ------------------------------------------------------------------ B3 to B5
def test_b3_rulebook_example() -> None:  # SCORE-B3-1: Alex's 13 Monster Manuals
    tally = {"C": 0, "F": 0, "H": 0, "M": 13, "R": 0, "S": 0}
    assert steps.b3_banned(tally, "M", STANDARD) == -13


def test_b3_none_at_five_players() -> None:  # EXP-5P-02
    tally = {"C": 0, "F": 0, "H": 0, "M": 13, "R": 0, "S": 0}
    assert steps.b3_banned(tally, None, ScoringRules.for_players(5)) == 0


def test_b4_rulebook_example() -> None:  # SCORE-B4-1: Ruth
    tally = {"C": 0, "F": 5, "H": 9, "M": 7, "R": 6, "S": 6}
    assert steps.b4_variety(tally, "C", STANDARD) == 15
    assert steps.b4_variety(tally, "H", STANDARD) == 0  # C counts when it is not banned


def test_b4_five_players_all_six_times_four() -> None:  # EXP-5P-03, EXP-5P-04
    tally = {"C": 2, "F": 5, "H": 9, "M": 7, "R": 6, "S": 6}
    assert steps.b4_variety(tally, None, ScoringRules.for_players(5)) == 8


def test_b5_rulebook_example() -> None:  # SCORE-B5-1: Chris's 14 Monster Manuals
    tally = {"C": 0, "F": 0, "H": 0, "M": 14, "R": 0, "S": 0}
    assert steps.b5_focus(tally, "M", STANDARD) == 28


def test_solo_volunteers_and_donations_at_the_difficulty_level() -> None:  # EXP-SOLO-17/18
    assert steps.solo_volunteers(3, 2) == 6
    assert steps.solo_donations(2, 7) == 14


# ------------------------------------------------------------------ settings
def test_for_players_defaults() -> None:
    assert ScoringRules.for_players(3).awards == (15, 9, 4)
    five = ScoringRules.for_players(5)
    assert (five.awards, five.banned_books, five.variety_per_book) == ((15, 10, 6, 3), False, 4)
    solo = ScoringRules.for_players(1)
    assert solo.solo and solo.awards == (15,) and solo.public_library_wins_ties
    assert solo.difficulty_level("very difficult") == 5 and solo.difficulty_level(7) == 7
    assert solo.difficulty_level(8) is None and solo.difficulty_level("hard") is None


def test_from_settings_layers() -> None:
    mapping = {"focus_per_book": 3, "five_players": {"variety_per_book": 5},
               "solo": {"awards": [20]}}
    assert ScoringRules.from_settings(mapping, players=4).focus_per_book == 3
    assert ScoringRules.from_settings(mapping, players=4).variety_per_book == 3
    assert ScoringRules.from_settings(mapping, players=5).variety_per_book == 5
    assert ScoringRules.from_settings(mapping, players=1).awards == (20,)
    full = {"awards": [15, 9, 4], "banned_books": True, "variety_per_book": 3}
    five = ScoringRules.from_settings(full, players=5)  # a fully written standard file
    assert (five.awards, five.banned_books, five.variety_per_book) == ((15, 10, 6, 3), False, 4)


@pytest.mark.parametrize(
    ("mapping", "key"),
    [
        ({"focus": 2}, ("focus",)),
        ({"awards": [15, "nine"]}, ("awards",)),
        ({"banned_per_book": 1}, ("banned_per_book",)),
        ({"tiebreakers": ["books", "luck"]}, ("tiebreakers",)),
        ({"five_players": {"awardz": [1]}}, ("five_players", "awardz")),
        ({"solo": 3}, ("solo",)),
        ({"min_rectangle": [2]}, ("min_rectangle",)),
        ({"prominent_needs_a_book": "yes"}, ("prominent_needs_a_book",)),
    ],
)
def test_from_settings_refuses_bad_settings(mapping: dict, key: tuple) -> None:
    with pytest.raises(SettingsError) as info:
        ScoringRules.from_settings(mapping)
    assert info.value.key == key
