"""Rule scenarios: every shipped scenario passes; the loader's errors; the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.errors import UserInputError
from exlibris.scenario import load_scenario, run_scenario, scenario_files

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = scenario_files([ROOT / "scenarios"])

HEAD = """\
kind: scenario
name: Book Seller sells one card
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: igloo-of-information}
  locations:
    - diviners-hut
    - {id: book-seller, area: [A1, B1]}
"""
GOOD = HEAD + """\
script:
  - Ann: place standard assistant at Book Seller (#10) space 1
  - take B1
  - done
expect:
  hands: {Ann: [B1]}
  areas: {book-seller: [A1]}
"""


def placed(statement: str) -> str:
    """GOOD with one assistant already placed."""
    return GOOD.replace("script:", f"  placed: [{statement}]\nscript:")


def write(tmp_path: Path, text: str, name: str = "scenario.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def codes(path: Path) -> list[str]:
    with pytest.raises(UserInputError) as info:
        load_scenario(path)
    return [p.code for p in info.value.problems]


# ---------------------------------------------------------------------- the shipped set
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_shipped_scenario_passes(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    assert result.passed, result.difference


def test_every_base_location_and_special_assistant_has_a_scenario() -> None:
    from exlibris.catalog import load_catalog

    catalog = load_catalog()
    loaded = [load_scenario(p) for p in SCENARIOS]
    cited = {c for s in loaded for c in s.clauses}
    base = [loc for loc in catalog.locations.values() if loc.module == "base"]
    assert len(base) == 18
    for loc in base:
        assert any(c.startswith(f"LOC-{loc.number:02d}-") for c in cited), loc.id
    libraries = {lib.assistant.id for lib in catalog.libraries.values()}
    assert len(libraries) == 12
    names = {p.name for p in (ROOT / "scenarios" / "assistants").iterdir()}
    for assistant in libraries:
        assert any(n.startswith(assistant) for n in names), assistant
    for clause in ("TIME-01", "TIME-02", "TIME-03", "TIME-04", "TIME-05"):
        assert clause in cited, clause


def test_every_cited_clause_exists() -> None:
    clauses_file = Path("/work/shared/spec/clauses.md")
    if not clauses_file.exists():
        pytest.skip("the clause checklist is not available here")
    known = set(re.findall(r"`([A-Z0-9]+(?:-[A-Z0-9]+)+)`", clauses_file.read_text("utf-8")))
    for path in SCENARIOS:
        for clause in load_scenario(path).clauses:
            assert clause in known, f"{path.name}: {clause}"


# ---------------------------------------------------------------------- running
def test_a_good_scenario_passes(tmp_path: Path) -> None:
    result = run_scenario(load_scenario(write(tmp_path, GOOD)))
    assert result.passed, result.difference
    assert result.pending is not None and result.pending.seat == 1


@pytest.mark.parametrize(("change", "words"), [
    ("hands: {Ann: [B1]}", "Ann's hand: expected [A1], found [B1] (missing A1; also holds B1)"),
    ("areas: {book-seller: [A1]}",
     "the area of book-seller: expected nothing, found [A1] (also holds A1)"),
])
def test_first_difference_is_reported(tmp_path: Path, change: str, words: str) -> None:
    wrong = {"hands: {Ann: [B1]}": "hands: {Ann: [A1]}",
             "areas: {book-seller: [A1]}": "areas: {book-seller: []}"}[change]
    result = run_scenario(load_scenario(write(tmp_path, GOOD.replace(change, wrong))))
    assert not result.passed
    assert result.difference == words


def test_expectations_are_checked_in_file_order(tmp_path: Path) -> None:
    text = GOOD.replace("hands: {Ann: [B1]}", "hands: {Ann: [A1]}").replace(
        "areas: {book-seller: [A1]}", "areas: {book-seller: []}")
    result = run_scenario(load_scenario(write(tmp_path, text)))
    assert result.difference.startswith("Ann's hand")


def test_a_label_that_is_not_offered_fails_with_the_options(tmp_path: Path) -> None:
    text = GOOD.replace("take B1", "take C9")
    result = run_scenario(load_scenario(write(tmp_path, text)))
    assert not result.passed
    assert "script step 2" in result.difference
    assert "'take C9' is not an option" in result.difference
    assert "take A1; take B1" in result.difference


def test_the_wrong_player_fails(tmp_path: Path) -> None:
    text = GOOD.replace("  - take B1", "  - Bob: take B1")
    result = run_scenario(load_scenario(write(tmp_path, text)))
    assert "expects Bob to choose 'take B1', but Ann is asked" in result.difference


def test_unused_script_lines_fail(tmp_path: Path) -> None:
    text = HEAD.replace("setup:", "phase: resolution\nsetup:") + (
        "script: [done]\nexpect: {}\n")
    result = run_scenario(load_scenario(write(tmp_path, text)))
    assert not result.passed
    assert "1 script line(s) unused" in result.difference


def test_next_decision_offers_and_lacks(tmp_path: Path) -> None:
    text = GOOD.replace("  areas: {book-seller: [A1]}\n", """\
  next_decision:
    player: Bob
    offers: [place standard assistant at Book Seller (#10) space 2]
    lacks: [place standard assistant at Book Seller (#10) space 1]
""")
    assert run_scenario(load_scenario(write(tmp_path, text))).passed
    wrong = text.replace("lacks: [place standard assistant at Book Seller (#10) space 1]",
                         "lacks: [place standard assistant at Book Seller (#10) space 2]")
    result = run_scenario(load_scenario(write(tmp_path, wrong)))
    assert "offers 'place standard assistant at Book Seller (#10) space 2'" in result.difference


def test_events_are_a_subsequence(tmp_path: Path) -> None:
    events = """\
  events:
    - {event: place, seat: Ann, assistant: Ann standard, location: book-seller, space: 1}
    - {event: gain, seat: Ann, card: B1}
"""
    text = GOOD + events
    assert run_scenario(load_scenario(write(tmp_path, text))).passed
    swapped = GOOD + """\
  events:
    - {event: gain, seat: Ann, card: B1}
    - {event: place, seat: Ann}
"""
    result = run_scenario(load_scenario(write(tmp_path, swapped)))
    assert result.difference == ("expected event 2 {event: place, seat: Ann} after the ones "
                                 "before it did not happen")


def test_users_own_content(tmp_path: Path) -> None:
    write(tmp_path, """\
kind: location
id: reading-room
name: Reading Room
number: 30
timing: instant
spaces: [1]
solo: true
text: Draw two cards.
effect: |
  draw(2)
""", "reading-room.yaml")
    scenario = write(tmp_path, """\
kind: scenario
name: Reading Room draws two
content: [reading-room.yaml]
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: igloo-of-information}
  deck: [A1, B1, C1]
  locations: [diviners-hut, reading-room]
script:
  - Ann: place standard assistant at Reading Room (#30) space 1
expect:
  hands: {Ann: [A1, B1]}
  deck: [C1]
""", "reading-room-scenario.yaml")
    result = run_scenario(load_scenario(scenario))
    assert result.passed, result.difference


# ---------------------------------------------------------------------- loader errors
@pytest.mark.parametrize(("text", "code", "line"), [
    ("kind: table\n", "scenario/wrong-kind", 1),
    ("- a list\n", "scenario/not-a-mapping", 1),
    (GOOD + "extra: 1\n", "scenario/unknown-field", 17),
    (GOOD.replace("name: Book Seller sells one card\n", ""), "scenario/missing-field", 1),
    (GOOD.replace("[A1, B1]", "[A1, Q9]"), "scenario/unknown-card", 9),
    (GOOD.replace("[A1, B1]", "[A1, A1]"), "scenario/duplicate-card", 9),
    (GOOD.replace("garden-of-education", "garden-of-edukation"), "scenario/unknown-library", 5),
    (GOOD.replace("book-seller, area", "book-sellers, area"), "scenario/unknown-location", 9),
    (GOOD.replace("  - take B1", "  - Cal: take B1"), "scenario/unknown-player", 12),
    (GOOD.replace("  - take B1", "  - home action: draw a card"), "scenario/unknown-player", 12),
    (GOOD.replace("hands: {Ann", "hands: {Eve"), "scenario/unknown-player", 15),
    (GOOD.replace("kind: scenario", "kind: scenario\nrules: standerd"),
     "scenario/unknown-rules", 2),
    (GOOD.replace("kind: scenario", "kind: scenario\nphase: inspection"), "scenario/bad-phase", 2),
    (placed("Ann standard at book-seller space 3"), "scenario/bad-space", 10),
    (placed("Ann snowman at home 1"), "scenario/unknown-assistant", 10),
    (placed("Ann standard at wishing-well space 1"), "scenario/location-not-in-play", 10),
    (placed("Ann standard on home 1"), "scenario/bad-placed", 10),
    (placed("Ann standard at home 4"), "scenario/bad-space", 10),
    (GOOD.replace("library: igloo-of-information}",
                  "library: igloo-of-information, shelf: [\"A2 . B2\"]}"),
     "scenario/bad-shelf", 6),
    (GOOD.replace("  areas: {book-seller: [A1]}\n", "  assistants: [Ann is somewhere]\n"),
     "scenario/bad-statement", 16),
    (GOOD.replace("setup:", "setup:\n  prominent: Z"), "scenario/unknown-category", 4),
    (GOOD.replace("    - {name: Bob, library: igloo-of-information}\n", ""),
     "scenario/player-count", 5),
    (GOOD + "expect: {}\n", "yaml/duplicate-key", 17),
])
def test_loader_errors(tmp_path: Path, text: str, code: str, line: int) -> None:
    path = write(tmp_path, text)
    with pytest.raises(UserInputError) as info:
        load_scenario(path)
    found = [(p.code, p.line) for p in info.value.problems]
    assert (code, line) in found, found


def test_every_problem_of_a_file_is_reported(tmp_path: Path) -> None:
    text = GOOD.replace("[A1, B1]", "[Q8, Q9]").replace("garden-of-education", "nowhere")
    assert sorted(codes(write(tmp_path, text))) == [
        "scenario/unknown-card", "scenario/unknown-card", "scenario/unknown-library"]


# ---------------------------------------------------------------------- the command
def test_cli_reports_pass(tmp_path: Path) -> None:
    result = invoke("scenario", "run", str(write(tmp_path, GOOD)))
    assert result.exit_code == 0, result.output
    assert "PASS Book Seller sells one card" in result.output


def test_cli_reports_a_failing_scenario_with_its_first_difference(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "a-good.yaml")
    write(tmp_path, GOOD.replace("hands: {Ann: [B1]}", "hands: {Ann: [A1]}"), "b-bad.yaml")
    result = invoke("scenario", "run", str(tmp_path))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0] == "PASS Book Seller sells one card"
    assert lines[1] == ("FAIL Book Seller sells one card: Ann's hand: expected [A1], found "
                        "[B1] (missing A1; also holds B1)")
    assert lines[-1] == "1 passed, 1 failed"


def test_cli_malformed_file_exits_2_with_file_line_col(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("[A1, B1]", "[A1, Q9]"))
    result = CliRunner().invoke(cli, ["scenario", "run", str(path)])
    assert result.exit_code == 2
    assert re.search(r"scenario\.yaml:9:\d+: .*Q9.* \[scenario/unknown-card\]", result.output)


def test_cli_verbose_shows_the_decisions_and_where_it_stopped(tmp_path: Path) -> None:
    result = invoke("scenario", "run", "-v", str(write(tmp_path, GOOD)))
    assert "1. Ann: place standard assistant at Book Seller (#10) space 1" in result.output
    assert "stopped: Bob is asked to 'place an assistant':" in result.output


def test_cli_runs_the_shipped_scenarios() -> None:
    result = invoke("scenario", "run", str(ROOT / "scenarios"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"{len(SCENARIOS)} passed, 0 failed"
