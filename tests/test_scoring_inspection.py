"""Whole tables through the form: the spec example, five players, solo, the Mummy,
tiebreakers and variant settings."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from exlibris import paths
from exlibris.errors import UserInputError
from exlibris.scoring.inspection import Form, inspect_table, rank
from exlibris.scoring.report import to_json
from exlibris.scoring.settings import ScoringRules
from exlibris.scoring.table import load_table, parse_table_text

TABLES = Path(__file__).parent / "tables"


def score(text: str):
    table, rules = parse_table_text(textwrap.dedent(text).lstrip("\n"), "t.yaml")
    return inspect_table(table, rules)


def test_spec_example_figures() -> None:
    data = to_json(inspect_table(*load_table(TABLES / "spec-example.yaml")))
    assert data["players"][0] == {
        "name": "Jacob",
        "flipped": ["A1", "B3"],
        "tally": {"corrupted-codices": 0, "fantastical-fictions": 0, "historic-volumes": 2,
                  "monster-manuals": 0, "reference-texts": 2, "spells-and-potions": 2},
        "books": 6,
        "stability": 4,
        "entombed": 0,
        "prominent": 15,
        "banned": 0,
        "variety": 0,
        "focus": 4,
        "artifacts": 0,
        "total": 23,
    }
    assert data["players"][1]["total"] == 15  # "Jamie scores 15"
    assert (data["variant"], data["ranking"], data["winners"]) == (
        "standard", ["Jacob", "Jamie"], ["Jacob"])
    assert "public_library" not in data and "win" not in data


def test_five_player_table() -> None:  # EXP-5P-01..04
    inspection = score("""
        prominent: R
        players:
          - {name: P1, focus: C, shelf: "A1:RRRC  B1:FHMS"}
          - {name: P2, focus: F, shelf: "C1:RRR  D1:CFHM  D2:MS"}
          - {name: P3, focus: H, shelf: "E1:RR  F1:MM"}
          - {name: P4, focus: M, shelf: "G1:R  H1:MMMM"}
          - {name: P5, focus: S, shelf: "I1:SS"}
    """)
    forms = inspection.forms
    assert [f.prominent for f in forms] == [13, 13, 6, 3, 0]  # (15+10)/2 rounded up
    assert [f.banned for f in forms] == [0] * 5
    assert [f.variety for f in forms] == [4, 4, 0, 0, 0]  # x4 over all six categories


def test_solo_table_from_the_spec() -> None:  # SOLO-18..25
    data = to_json(inspect_table(*load_table(TABLES / "spec-solo.yaml")))
    scooter, library = data["players"][0], data["public_library"]
    assert scooter["flipped"] == ["A3"] and scooter["total"] == 7
    assert library == {
        "flipped": [],
        "tally": {"corrupted-codices": 2, "fantastical-fictions": 1, "historic-volumes": 1,
                  "monster-manuals": 2, "reference-texts": 1, "spells-and-potions": 2},
        "books": 9, "stability": 0, "entombed": 0, "prominent": 15, "banned": -2,
        "variety": 3, "focus": 2, "volunteers": 0, "artifacts": 0, "total": 18,
    }
    assert data["win"] is False and data["winners"] == [] and data["ranking"] == ["Scooter"]


SOLO = """
    variant: solo
    prominent: F
    banned: C
    difficulty: {difficulty}
    players:
      - name: Solo
        focus: M
        shelf: |
          {shelf}
    public-library:
      focus: R
      cards: [{cards}]
      volunteers: {volunteers}
      artifacts: {artifacts}
"""


def solo(shelf: str, cards: str = "", difficulty: str = "easy", volunteers: int = 0,
         artifacts: int = 0):
    return score(SOLO.format(shelf=shelf, cards=cards, difficulty=difficulty,
                             volunteers=volunteers, artifacts=artifacts))


def test_solo_volunteers_and_donated_artifacts() -> None:  # EXP-SOLO-16..18
    inspection = solo("A1:FM", difficulty="challenging", volunteers=2, artifacts=1)
    library = inspection.public_library
    assert (library.volunteers, library.artifacts) == (6, 3)
    assert library.books == 0 and library.prominent == 0 and inspection.forms[0].prominent == 15
    nil = solo("A1:MM")
    assert nil.public_library.prominent == 15  # 0-0: the library wins (SOLO-23)


def test_solo_win_needs_more_than_the_library() -> None:  # SOLO-02
    win = solo("A1:FFM  B1:MM", cards="Z1:CC")
    assert (win.forms[0].total, win.public_library.total) == (21, -2)
    assert win.win and win.winners == ("Solo",)
    # player: 15 (F 1 to 0) + 2 (one M); library: 8 (four R) + 3 volunteers x 3
    tie = solo("A1:FM", cards="Z1:RRRR", difficulty="challenging", volunteers=3)
    assert tie.forms[0].total == tie.public_library.total == 17
    assert not tie.win and tie.winners == ()
    ahead = solo("A1:FM", cards="Z1:RRRR", difficulty="challenging", volunteers=2)
    assert ahead.win


def test_mummy_points_are_shown_apart_and_added() -> None:  # LIB-MUMMY-4, SA-MUMMY-7
    inspection = score("""
        prominent: R
        banned: M
        players:
          - name: Crypt
            focus: H
            shelf: |
              A1:HH+Z1:RRRR  B1:CF
              C1:CR+Z2:MMMM  D1:SS
          - {name: Other, focus: S, shelf: "E1:CC"}
    """)
    crypt = inspection.forms[0]
    assert crypt.entombed == 4 and crypt.stability == 4
    assert crypt.tally["R"] == 1 and crypt.tally["M"] == 0  # the entombed books are hidden
    assert crypt.variety == 3 and crypt.total == 4 + 4 + 15 + 0 + 3 + 4


def test_tiebreakers_in_order() -> None:  # SCORE-TIE-1..3
    rules = ScoringRules.for_players(4)

    def form(name: str, books: int, hand: int, banned: int) -> Form:
        return Form(name, {"C": books}, stability=10, hand=hand, banned_books=banned)

    forms = [form("fewer-books", 3, 0, 0), form("more-hand", 5, 2, 0),
             form("more-banned", 5, 1, 3), form("best", 5, 1, 1)]
    assert rank(forms, rules) == (("best", "more-banned", "more-hand", "fewer-books"), ("best",))
    shared = [form("a", 5, 1, 1), form("b", 5, 1, 1), form("c", 1, 1, 1)]
    assert rank(shared, rules) == (("a", "b", "c"), ("a", "b"))
    hand_first = ScoringRules.from_settings({"tiebreakers": ["hand", "books"]})
    assert rank(forms, hand_first)[1] == ("fewer-books",)


def test_tiebreak_books_count_face_up_books_including_banned() -> None:  # SCORE-TIE-2 (a)
    inspection = score("""
        prominent: R
        banned: M
        players:
          - {name: Ann, focus: H, hand: 3, shelf: "A1:MMR  B1:HH"}
          - {name: Bob, focus: H, hand: 0, shelf: "C1:FR  D1:HH"}
    """)
    ann, bob = inspection.forms
    # Ann: 12 prominent (tie) - 2 banned + 4 focus = 14; Bob: 12 + 4 = 16
    assert (ann.total, bob.total) == (14, 16)
    tied = score("""
        prominent: R
        banned: M
        players:
          - {name: Ann, focus: H, hand: 0, shelf: "A1:SR  B1:HH"}
          - {name: Bob, focus: H, hand: 3, shelf: "C1:FFR  ~D1:HHH  E1:HH"}
    """)
    assert [f.total for f in tied.forms] == [16, 16]
    assert tied.forms[1].books == 5 and tied.ranking == ("Bob", "Ann")


def test_hand_breaks_a_tie_on_books() -> None:
    inspection = score("""
        prominent: R
        banned: M
        players:
          - {name: Ann, focus: H, hand: [Q1:CC, Q2:CC], shelf: "A1:SR  B1:HH"}
          - {name: Bob, focus: H, hand: 1, shelf: "C1:SR  D1:HH"}
    """)
    assert inspection.ranking == ("Bob", "Ann") and inspection.winners == ("Bob",)


def test_shared_win_after_every_tiebreaker() -> None:  # SCORE-TIE-3
    inspection = score("""
        prominent: R
        banned: M
        players:
          - {name: Ann, focus: H, shelf: "A1:SR  B1:HH"}
          - {name: Bob, focus: H, shelf: "C1:SR  D1:HH"}
    """)
    assert inspection.winners == ("Ann", "Bob")


def write_variant(folder: Path, name: str, text: str) -> None:
    (folder / f"{name}.yaml").write_text(textwrap.dedent(text).lstrip("\n"))


def test_variant_scoring_settings_follow_the_extends_chain(tmp_path, monkeypatch) -> None:
    write_variant(tmp_path, "standard", """
        kind: variant
        id: standard
        settings:
          scoring: {focus_per_book: 3}
    """)
    write_variant(tmp_path, "generous", """
        kind: variant
        id: generous
        extends: standard
        settings:
          scoring: {prominent_needs_a_book: true}
    """)
    monkeypatch.setattr(paths, "rules_dir", lambda: tmp_path)
    table, rules = parse_table_text("variant: generous\n" + (TABLES / "spec-example.yaml")
                                    .read_text().split("\n", 1)[1])
    assert rules.focus_per_book == 3 and rules.prominent_needs_a_book
    assert inspect_table(table, rules).forms[0].focus == 6


def test_bad_variant_setting_points_into_the_rules_file(tmp_path, monkeypatch) -> None:
    write_variant(tmp_path, "odd", """
        kind: variant
        id: odd
        settings:
          scoring:
            focus_per_bok: 3
    """)
    monkeypatch.setattr(paths, "rules_dir", lambda: tmp_path)
    with pytest.raises(UserInputError) as info:
        parse_table_text("variant: odd\n" + (TABLES / "spec-example.yaml").read_text()
                         .split("\n", 1)[1])
    problem = info.value.problems[0]
    assert problem.code == "table/bad-settings" and problem.file.endswith("odd.yaml")
    assert (problem.line, problem.col) == (5, 20)


def test_shipped_rules_files_are_known_variants() -> None:
    from exlibris.scoring.table import known_variants

    assert {"standard", "solo"} <= set(known_variants())
