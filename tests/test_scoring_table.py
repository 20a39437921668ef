"""Reading table files: every error class, with its code and FILE:LINE:COL."""

from __future__ import annotations

import textwrap

import pytest

from exlibris.errors import UserInputError
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.scoring.table import parse_table_text


def table(text: str):
    return parse_table_text(textwrap.dedent(text).lstrip("\n"), "t.yaml")


def problems(text: str) -> list[tuple[str, int, int]]:
    with pytest.raises(UserInputError) as info:
        table(text)
    for problem in info.value.problems:
        assert problem.file == "t.yaml"
    return [(p.code, p.line, p.col) for p in info.value.problems]


def message(text: str) -> str:
    with pytest.raises(UserInputError) as info:
        table(text)
    return "\n".join(p.message for p in info.value.problems)


GOOD = textwrap.dedent("""
    prominent: R
    banned: M
    players:
      - name: Jacob
        focus: H
        hand: 2
        shelf: |
          .      B2:HR  C1:SS
          A1:CC  B3:FM  C4:RH
      - name: Jamie
        focus: S
        hand: []
        shelf:
          - "A2:CF  D1:MMR"
          - "B1:HH  E3:SS"
""").lstrip("\n")


# ------------------------------------------------------------------ reading
def test_reads_the_spec_table() -> None:
    t, rules = table(GOOD)
    assert [p.name for p in t.players] == ["Jacob", "Jamie"]
    assert (t.prominent, t.banned, t.variant, rules.players) == ("R", "M", "standard", 2)
    jacob = t.players[0]
    assert jacob.shelf.render() == [".  B2:HR  C1:SS", "A1:CC  B3:FM  C4:RH"]
    assert jacob.hand == 2 and jacob.focus == "H"
    assert jacob.origins[(0, 1)] == (8, 14)
    assert t.players[1].origins[(1, 1)] == (15, 17)


def test_reads_every_token_kind() -> None:
    t, _ = table("""
        prominent: reference-texts
        banned: monster-manuals
        players:
          - name: A
            focus: C
            hand: [Q1:CC, "*little-place-like-home"]
            shelf: |
              M3/8:FFS  ~N1:CC  K2:CC+L3:FFS
              *mystical-crystal-see-all-ball[3]  *foul-vowel-towel  .
          - name: B
            focus: F
            shelf: A1:CF
    """)
    a = t.players[0]
    assert a.hand == 2 and t.players[1].hand == 0
    assert a.shelf.at((0, 0)).card == BookCard("M", 3, ("F", "F", "S"), 8)
    assert a.shelf.at((0, 1)).face_down
    assert a.shelf.at((0, 2)).beneath == BookCard("L", 3, ("F", "F", "S"))
    assert a.shelf.at((1, 0)).card == ArtifactCard("mystical-crystal-see-all-ball")
    assert len(a.shelf.at((1, 0)).tucked) == 3


# ---------------------------------------------------------- error classes
def test_unknown_category_in_a_field() -> None:
    text = GOOD.replace("prominent: R", "prominent: referense-texts")
    assert problems(text) == [("table/unknown-category", 1, 12)]
    assert "did you mean 'reference-texts'" in message(text)


def test_unknown_category_in_a_cell() -> None:
    text = GOOD.replace("B2:HR", "B2:HX")
    assert problems(text) == [("table/unknown-category", 8, 14)]
    assert "'X'" in message(text)


def test_lower_case_category_code_hints() -> None:
    text = GOOD.replace("focus: S", "focus: s")
    assert problems(text) == [("table/unknown-category", 11, 12)]
    assert "did you mean 'S'" in message(text)


@pytest.mark.parametrize(
    "token", ["B2HR", "B2:", "b2:HR", "B2:HRHRH", "~~B2:HR", "B2:HR+~C9:SS", "M9/8:CF", "B0:HR"]
)
def test_malformed_token(token: str) -> None:
    text = GOOD.replace("B2:HR", f"{token:<5}")
    assert problems(text) == [("table/malformed-token", 8, 14)]


def test_malformed_token_in_a_list_row_points_inside_the_quotes() -> None:
    text = GOOD.replace('"B1:HH  E3:SS"', '"B1:HH  E3SS"')
    assert problems(text) == [("table/malformed-token", 15, 17)]


def test_four_row_shelf() -> None:
    text = GOOD.replace("      A1:CC  B3:FM  C4:RH\n",
                        "      A1:CC  B3:FM  C4:RH\n      D1:CC  D2:CC  D3:CC\n"
                        "      E1:CC  E2:CC  E3:CF\n")
    assert problems(text) == [("table/too-many-rows", 11, 7)]


def test_ragged_rows() -> None:
    text = GOOD.replace("A1:CC  B3:FM  C4:RH", "A1:CC  B3:FM")
    assert problems(text) == [("table/ragged-rows", 9, 7)]


def test_disconnected_shelf() -> None:
    text = GOOD.replace(".      B2:HR  C1:SS", "C1:SS  .      .    ").replace(
        "A1:CC  B3:FM  C4:RH", ".      B3:FM  C4:RH")
    assert problems(text) == [("table/disconnected-shelf", 9, 14)]


def test_duplicate_card() -> None:
    text = GOOD.replace("E3:SS", "B2:SS")
    assert problems(text) == [("table/duplicate-card", 15, 17)]
    assert "also in Jacob's shelf at line 8, column 14" in message(text)


def test_duplicate_card_beneath_and_in_hand() -> None:
    text = GOOD.replace("C4:RH", "C4:RH+A2:FF").replace("hand: []", "hand: [C1:MM]")
    assert [p[0] for p in problems(text)] == ["table/duplicate-card"] * 2


def test_unknown_artifact() -> None:
    text = GOOD.replace(".      B2:HR", "*foul-vowel-towl  B2:HR")
    assert problems(text) == [("table/unknown-artifact", 8, 7)]
    assert "did you mean 'foul-vowel-towel'" in message(text)


def test_unknown_variant() -> None:
    text = "variant: standrad\n" + textwrap.dedent(GOOD).lstrip("\n")
    assert problems(text) == [("table/unknown-variant", 1, 10)]
    assert "did you mean 'standard'" in message(text) and "known variants:" in message(text)


def test_missing_fields() -> None:
    text = GOOD.replace("    focus: H\n", "").replace("prominent: R\n", "")
    assert problems(text) == [("table/missing-field", 1, 1), ("table/missing-field", 3, 5)]
    assert problems(GOOD.replace("    shelf:\n      - \"A2:CF  D1:MMR\"\n"
                                 "      - \"B1:HH  E3:SS\"\n", "")) == [
        ("table/missing-field", 10, 5)]


def test_missing_banned_category() -> None:
    assert problems(GOOD.replace("banned: M\n", "")) == [("table/missing-field", 1, 1)]


@pytest.mark.parametrize(
    ("hand", "col"), [("-1", 11), ('"two"', 11), ("true", 11), ("[Q1]", 12), ("[1]", 12)]
)
def test_bad_hand(hand: str, col: int) -> None:
    assert problems(GOOD.replace("hand: 2", f"hand: {hand}")) == [("table/bad-hand"
                                                                    if hand != "[Q1]"
                                                                    else "table/malformed-token",
                                                                    6, col)]


SOLO = textwrap.dedent("""
    variant: solo
    prominent: F
    banned: C
    difficulty: easy
    players:
      - name: Scooter
        focus: M
        hand: 0
        shelf: |
          A1:CF  B2:HS
          A3:MR  C1:MM
    public-library:
      focus: R
      cards: [A2:CC, D4:FHS, Q1:MMRS]
      volunteers: 0
      artifacts: 0
""").lstrip("\n")


def test_reads_the_solo_table() -> None:
    t, rules = table(SOLO)
    assert t.solo and rules.solo and t.difficulty == 2
    assert t.public_library.focus == "R" and len(t.public_library.cards) == 3


@pytest.mark.parametrize("value", ["insane", "0", "8", "true"])
def test_bad_difficulty(value: str) -> None:
    assert problems(SOLO.replace("difficulty: easy", f"difficulty: {value}")) == [
        ("table/bad-difficulty", 4, 13)]


def test_difficulty_by_number_and_words() -> None:
    assert table(SOLO.replace("easy", "7"))[0].difficulty == 7
    assert table(SOLO.replace("easy", "nigh-impossible"))[0].difficulty == 6
    assert "did you mean 'easy'" in message(SOLO.replace("easy", "eazy"))


def test_solo_without_public_library() -> None:
    text = SOLO.split("public-library:")[0]
    assert problems(text) == [("table/missing-public-library", 1, 1)]


def test_solo_without_difficulty() -> None:
    assert problems(SOLO.replace("difficulty: easy\n", "")) == [("table/missing-field", 1, 1)]


def test_public_library_checks() -> None:
    text = SOLO.replace("volunteers: 0", "volunteers: -2").replace("A2:CC", "A2:CX")
    assert problems(text) == [("table/unknown-category", 14, 11), ("table/bad-count", 15, 15)]
    assert problems(SOLO.replace("  cards: [A2:CC, D4:FHS, Q1:MMRS]\n", "")) == [
        ("table/missing-field", 13, 3)]


def test_one_player_is_a_solo_table() -> None:
    text = SOLO.replace("variant: solo\n", "")
    t, rules = table(text)
    assert t.solo and rules.solo


def five_players(banned: str = "") -> str:
    seats = "".join(f"""
  - name: P{i}
    focus: {"CFHMS"[i]}
    shelf: {"ABCDE"[i]}1:CF"""
                    for i in range(5))
    return f"prominent: R\n{banned}players:{seats}\n"


def test_five_players_with_a_banned_category() -> None:
    assert problems(five_players("banned: M\n")) == [("table/banned-not-used", 2, 9)]
    t, rules = table(five_players())
    assert t.banned is None and rules.players == 5 and rules.variety_per_book == 4
    assert table(five_players("banned: null\n"))[0].banned is None


def test_player_counts() -> None:
    six = five_players() + "  - name: P6\n    focus: C\n    shelf: F1:CF\n"
    assert problems(six) == [("table/player-count", 3, 3)]
    two_solo = SOLO.replace("players:\n", "players:\n  - name: Other\n    focus: C\n"
                            "    shelf: Z1:CC\n")
    assert [p[0] for p in problems(two_solo)] == ["table/player-count"]


def test_unknown_field() -> None:
    text = GOOD.replace("focus: H", "focuss: H")
    assert problems(text) == [("table/unknown-field", 5, 5), ("table/missing-field", 4, 5)]
    assert "did you mean 'focus'" in message(text)


def test_same_category() -> None:
    assert problems(GOOD.replace("banned: M", "banned: reference-texts")) == [
        ("table/same-category", 2, 9)]


def test_duplicate_names() -> None:
    assert problems(GOOD.replace("name: Jamie", "name: Jacob")) == [
        ("table/duplicate-name", 10, 11)]


def test_wrong_types() -> None:
    assert problems("prominent: R\nbanned: M\nplayers: everyone\n") == [
        ("table/wrong-type", 3, 10)]
    assert problems("- a list\n") == [("table/not-a-mapping", 1, 1)]
    assert problems(GOOD.replace("- name: Jamie", "- 7\n  - name: Jamie"))[0] == (
        "table/wrong-type", 10, 5)


def test_empty_shelf() -> None:
    assert problems(GOOD.replace('shelf:\n      - "A2:CF  D1:MMR"\n      - '
                                 '"B1:HH  E3:SS"', 'shelf: ""')) == [("table/empty-shelf", 13, 12)]
    t, _ = table(GOOD.replace('shelf:\n      - "A2:CF  D1:MMR"\n      - '
                              '"B1:HH  E3:SS"', 'shelf: "."'))
    assert len(t.players[1].shelf) == 0


def test_solo_fields_outside_solo() -> None:
    assert problems("difficulty: easy\n" + textwrap.dedent(GOOD).lstrip("\n")) == [
        ("table/solo-only", 1, 13)]


def test_yaml_errors_come_from_the_safe_loader() -> None:
    assert problems("prominent: [R\n")[0][0] == "yaml/syntax"
    assert problems("a: &x 1\nb: *x\n")[0][0] == "yaml/alias"


def test_every_problem_is_reported_together() -> None:
    text = GOOD.replace("B2:HR", "B2:HX").replace("focus: S", "focus: Q").replace(
        "hand: 2", "hand: -3")
    assert {p[0] for p in problems(text)} == {"table/unknown-category", "table/bad-hand"}
    assert len(problems(text)) == 3


def test_an_artifact_may_top_an_entombed_stack() -> None:
    """EXP-ROUND-02 with LIB-MUMMY-1: the Mummy may entomb under an artifact it shelves;
    the table writes it as Slot.token does, and reads it back."""
    from exlibris.model.shelf import Slot
    from exlibris.scoring.table import TokenError, parse_cell

    known = ("pandorkas-blocks", "mystical-crystal-see-all-ball")
    book = BookCard("M", 3, ("F", "F", "S"), 8)
    for slot in (Slot(ArtifactCard("pandorkas-blocks"), beneath=book),
                 Slot(ArtifactCard("mystical-crystal-see-all-ball"), beneath=book,
                      tucked=(book, book))):
        parsed = parse_cell(slot.token(), known)
        assert parsed is not None
        assert (parsed.card, parsed.beneath, len(parsed.tucked)) == (
            slot.card, slot.beneath, len(slot.tucked))
    for bad in ("*pandorkas-blocks+", "*pandorkas-blocks+~M3/8:FFS",
                "*pandorkas-blocks+*mystical-crystal-see-all-ball"):
        with pytest.raises(TokenError):
            parse_cell(bad, known)
