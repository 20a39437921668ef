"""The scenario format's newer statements: playing on to the end of the game and
expecting the inspection's figures (docs/scenarios.md "Playing on to the end")."""

from __future__ import annotations

from pathlib import Path

import pytest

from exlibris.errors import UserInputError
from exlibris.scenario import load_scenario, run_scenario

FINAL = """\
kind: scenario
name: the final round is played into the inspection
until: end
setup:
  players:
    - {name: Ann, library: garden-of-education, hand: [A2], shelf: ["A1 B1", "C1 D1"], focus: R}
    - {name: Bob, library: igloo-of-information, shelf: ["E1 F1"], focus: M}
  final_round: true
  prominent: H
  banned: C
  deck: [G1, H1, I1]
  locations: [diviners-hut]
script:
  - Ann: place standard assistant on home space 1
  - Ann: "home action: shelve a card from hand"
  - Ann: shelve A2 at row 0, column 2
  - Bob: place standard assistant on home space 1      # draws: the only home action
  - Ann: place standard assistant on home space 2      # draws H1
  - Bob: place standard assistant on home space 2
  - Bob: "home action: shelve a card from hand"
  - Bob: shelve G1 at row 0, column 2
  - Ann: place The Bookworm on home space 3
  - Ann: "no"
  - Ann: "home action: shelve a card from hand"
  - Ann: shelve H1 at row -1, column 0
  - Bob: place The Snowman on home space 3
  - Ann: flip nothing
  - Bob: flip nothing
expect:
  round: 1
  ended: final-round
  inspection:
    players:
      - {name: Ann, flipped: [A1, B1, A2, C1, D1], stability: 4, prominent: 9, total: 12}
      - {name: Bob, tally: {M: 3, fantastical-fictions: 1}, books: 12, total: 22}
    ranking: [Bob, Ann]
    winners: [Bob]
    tiebreak: total
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, "utf-8")
    return path


def run(tmp_path: Path, text: str) -> str:
    result = run_scenario(load_scenario(write(tmp_path, text)))
    return "" if result.passed else result.difference


def test_a_game_is_played_into_the_inspection(tmp_path: Path) -> None:
    assert run(tmp_path, FINAL) == ""


@pytest.mark.parametrize(("change", "words"), [
    ("total: 12}", "the inspection of Ann: total expected 13, found 12"),
    ("winners: [Bob]", "the inspection's winners: expected ['Ann'], found ['Bob']"),
    ("tiebreak: total", "the inspection's tiebreak: expected books, found total"),
    ("ended: final-round", "the game ended by 'final-round', expected 'stalled'"),
    ("round: 1", "the round: expected 2, found 1"),
    ("tally: {M: 3,", "the inspection of Bob: tally expected {'monster-manuals': 2,"),
])
def test_each_figure_is_checked(tmp_path: Path, change: str, words: str) -> None:
    wrong = {"total: 12}": "total: 13}", "winners: [Bob]": "winners: [Ann]",
             "tiebreak: total": "tiebreak: books", "ended: final-round": "ended: stalled",
             "round: 1": "round: 2", "tally: {M: 3,": "tally: {M: 2,"}[change]
    assert run(tmp_path, FINAL.replace(change, wrong)).startswith(words)


def test_a_script_that_stops_early_never_reaches_the_inspection(tmp_path: Path) -> None:
    text = FINAL.replace("  - Bob: flip nothing\n", "")
    assert run(tmp_path, text) == ("expected the game to reach the inspection, but the run "
                                   "stopped at a decision")


@pytest.mark.parametrize(("change", "code"), [
    (("ended: final-round", "ended: over"), "scenario/bad-value"),
    (("tiebreak: total", "tiebreak: coin"), "scenario/bad-value"),
    (("winners: [Bob]", "winners: [Eve]"), "scenario/unknown-player"),
    (("{name: Bob, tally", "{name: Bob, score: 3, tally"), "scenario/unknown-field"),
    (("tally: {M: 3", "tally: {Z: 3"), "scenario/unknown-category"),
    (("stability: 4", "stability: four"), "scenario/wrong-type"),
    (("until: end", "until: ending"), "scenario/bad-phase"),
])
def test_bad_inspection_expectations(tmp_path: Path, change: tuple[str, str], code: str
                                     ) -> None:
    with pytest.raises(UserInputError) as info:
        load_scenario(write(tmp_path, FINAL.replace(*change)))
    assert code in [p.code for p in info.value.problems]


# ---------------------------------------------------------------------- the other statements
SMALL = """\
kind: scenario
name: small
setup:
  players:
    - {name: Ann, library: garden-of-education, hand: [A1], shelf: ["*magnificent-magnifiers"]}
    - {name: Bob, library: igloo-of-information}
  locations: [diviners-hut]
  placed: [Ann standard#2 at home 1]
script: []
expect:
  shelves: {Ann: ["*magnificent-magnifiers"]}
  assistants: [Ann standard#2 at home 1, Ann standard#1 available]
  never_offered: [place standard assistant on home space 1]
"""


def test_artifacts_numbered_assistants_and_never_offered(tmp_path: Path) -> None:
    assert run(tmp_path, SMALL) == ""


@pytest.mark.parametrize(("change", "words"), [
    (("shelves: {Ann: [\"*magnificent-magnifiers\"]}", "shelves: {Ann: [\"A1\"]}"),
     "Ann's shelf: expected rows 'A1', found rows '*magnificent-magnifiers'"),
    (("[Ann standard#2 at home 1, Ann standard#1 available]",
      "[Ann standard#1 at home 1]"), "expected 'Ann standard#1 at home 1', found"),
    (("never_offered: [place standard assistant on home space 1]",
      "never_offered: [place standard assistant on home space 2]"),
     "decision 1 (Ann, 'place an assistant') offered 'place standard assistant on home space 2'"),
])
def test_the_other_statements_are_checked(tmp_path: Path, change: tuple[str, str], words: str
                                          ) -> None:
    assert run(tmp_path, SMALL.replace(*change)).startswith(words)


@pytest.mark.parametrize(("change", "code"), [
    (("placed: [Ann standard#2 at home 1]", "placed: [Ann standard#3 at home 1]"),
     "scenario/unknown-assistant"),
    (("library: igloo-of-information}", "library: igloo-of-information, assistants: [card:yeti]}"),
     "scenario/unknown-assistant"),
    (("never_offered: [place", "never_offered: [Eve: place"), "scenario/unknown-player"),
    (("locations: [diviners-hut]", "locations: [diviners-hut]\n  location_discard: [nowhere]"),
     "scenario/unknown-location"),
])
def test_bad_statements(tmp_path: Path, change: tuple[str, str], code: str) -> None:
    with pytest.raises(UserInputError) as info:
        load_scenario(write(tmp_path, SMALL.replace(*change)))
    assert code in [p.code for p in info.value.problems]


def test_content_that_cannot_be_read_gives_its_one_error(tmp_path: Path) -> None:
    text = SMALL.replace("name: small\n", "name: small\ncontent: [missing.yaml]\n")
    with pytest.raises(UserInputError) as info:
        load_scenario(write(tmp_path, text))
    assert [p.code for p in info.value.problems] == ["scenario/missing-content"]


def test_content_with_a_syntax_error_gives_its_one_error(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("kind: location\nid: x\n  bad: [\n", "utf-8")
    text = SMALL.replace("name: small\n", "name: small\ncontent: [broken.yaml]\n")
    with pytest.raises(UserInputError) as info:
        load_scenario(write(tmp_path, text))
    assert [p.code for p in info.value.problems] == ["yaml/syntax"]


@pytest.mark.parametrize(("events", "code", "words"), [
    ("[{event: drawn, seat: Ann}]", "scenario/unknown-event", "did you mean 'draw'"),
    ("[{event: draw, player: Ann}]", "scenario/unknown-field", "fields: event, cards, seat"),
])
def test_an_expected_event_is_one_the_engine_logs(tmp_path: Path, events: str, code: str,
                                                  words: str) -> None:
    """Kinds and fields come from ``EventKind`` and ``event_records.RECORDS``."""
    text = FINAL.replace("expect:\n", f"expect:\n  events: {events}\n")
    with pytest.raises(UserInputError) as info:
        load_scenario(write(tmp_path, text))
    found = [p for p in info.value.problems if p.code == code]
    assert found and words in found[0].message
    assert ":" in str(found[0])  # FILE:LINE:COL


@pytest.mark.parametrize(("change", "code"), [
    (("never_offered: [place", "never_offered: [\"Ann: place"), "scenario/quoted-player"),
    (("  players:\n", "  dealt: true\n  players:\n"), "scenario/dealt-setup"),
])
def test_bad_format_additions(tmp_path: Path, change: tuple[str, str], code: str) -> None:
    text = SMALL.replace(*change)
    if code == "scenario/quoted-player":
        text = text.replace("home space 1]", "home space 1\"]")
    with pytest.raises(UserInputError) as info:
        load_scenario(write(tmp_path, text))
    assert code in [p.code for p in info.value.problems]


@pytest.mark.parametrize(("expect", "words"), [
    ("no_events: [{event: place, seat: Ann}]", "event "),
    ("assistants: [Ann standard retired]", "expected 'Ann standard retired', but"),
    ("contents: {in_play: {lacks: [diviners-hut]}}", "in_play holds diviners-hut"),
    ("contents: {in_play: {size: 3}}", "in_play holds 1, expected 3"),
])
def test_the_format_additions_can_fail(tmp_path: Path, expect: str, words: str) -> None:
    text = SMALL.split("expect:\n")[0] + "expect:\n  " + expect + "\n"
    text = text.replace("script: []", "script:\n  - Ann: place standard assistant on home space 2")
    difference = run(tmp_path, text)
    assert words in difference, difference


BOTS = """\
kind: scenario
name: bots play their seats into the inspection
until: end
setup:
  players:
    - {name: Ann, library: garden-of-education, shelf: ["A1 B1", "C1 D1"], focus: R,
       bot: "mcts:24"}
    - {name: Bob, library: igloo-of-information, shelf: ["E1 F1"], focus: M, bot: greedy}
  final_round: true
  prominent: H
  banned: C
  deck: [G1, H1, I1, J1, K1]
  locations: [diviners-hut, book-seller]
script: []
expect:
  ended: final-round
"""


def test_bot_seats_answer_their_own_decisions_the_same_way_each_run(tmp_path: Path) -> None:
    """A player's ``bot:`` plays that seat in a scenario (the search bot on forks of the
    scenario's position); the trace names the bot, and a second run is the same game."""
    traces = []
    for _ in range(2):
        result = run_scenario(load_scenario(write(tmp_path, BOTS)))
        assert result.passed, result.difference
        traces.append(result.trace)
    assert traces[0] == traces[1]
    assert any(line.startswith("-. Ann (mcts:24): place ") for line in traces[0])
    assert any(line.startswith("-. Bob (greedy): place ") for line in traces[0])


def test_a_scripted_seat_beside_a_bot_seat(tmp_path: Path) -> None:
    """Ann's script answers Ann's decisions only; Bob's are the greedy bot's."""
    text = FINAL.replace("focus: M}", "focus: M, bot: greedy}").replace(
        "until: end", "until: placement")
    script = text.index("script:\n")
    text = text[:script] + """script:
  - Ann: place standard assistant on home space 1
  - Ann: "home action: shelve a card from hand"
  - Ann: shelve A2 at row 0, column 2
expect:
  round: 1
"""
    result = run_scenario(load_scenario(write(tmp_path, text)))
    assert result.passed, result.difference
    assert result.trace[:3] == ["1. Ann: place standard assistant on home space 1",
                                "2. Ann: home action: shelve a card from hand",
                                "3. Ann: shelve A2 at row 0, column 2"]
    assert result.trace[3].startswith("-. Bob (greedy): place ")
    assert result.pending is not None and result.pending.seat == 0  # Ann's next turn


@pytest.mark.parametrize("bot", ["mcts:0", "wizard", "3"])
def test_a_bad_bot_is_named_at_its_line(tmp_path: Path, bot: str) -> None:
    path = write(tmp_path, BOTS.replace("bot: greedy", f"bot: {bot}"))
    with pytest.raises(UserInputError) as raised:
        load_scenario(path)
    assert "scenario/bad-bot" in str(raised.value) and ":8:" in str(raised.value)


def test_a_script_that_runs_out_during_a_dealt_set_up_fails_with_the_question(
        tmp_path: Path) -> None:
    """A drafted hand asks during the set-up: a script too short there fails the
    scenario with the question asked, not with a traceback."""
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    examples = Path(__file__).resolve().parents[1] / "examples" / "authoring"
    text = (examples / "scenarios" / "quick-draft-drafts-the-starting-hands.yaml").read_text()
    short = text[:text.index("  - Ann: keep M7")] + "expect:\n  round: 1\n"
    path = tmp_path / "short.yaml"
    path.write_text(short, "utf-8")
    result = CliRunner().invoke(cli, ["scenario", "run", str(path), "--content", str(examples)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert ("the script ran out during the set-up: Ann is asked to 'which card to keep?'"
            in result.output)
