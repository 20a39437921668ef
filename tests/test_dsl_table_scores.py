"""Scores that read the table (prominent, banned, opponents' shelves) and the
conditional expression `A if COND else B`, in scores and in effects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exlibris.catalog import load_catalog
from exlibris.dsl.checker import Catalog, check_program, check_score, program_names
from exlibris.dsl.errors import DslError
from exlibris.dsl.parser import parse_expression, parse_program
from exlibris.dsl.scoring import compile_score
from exlibris.model.cards import BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.scoring.artifacts import NO_TOWN, ScoreEnv, Town
from exlibris.sources import use_content

IDS = Catalog(load_catalog().ids())


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts and leaves the process with the shipped content only."""
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def shelf(*cells: tuple[tuple[int, int], str]) -> Shelf:
    return Shelf.from_slots({pos: Slot(BookCard("A", i + 1, tuple(books)))
                             for i, (pos, books) in enumerate(cells)})


MINE = shelf(((0, 0), "RR"), ((0, 1), "M"), ((1, 0), "H"))
THEIRS = shelf(((0, 0), "R"), ((0, 1), "MM"))


def score(source: str, town: Town = NO_TOWN) -> int:
    return compile_score(source)(ScoreEnv(MINE, (0, 0), None, town))


TOWN = Town("R", "M", "Ada", (("Bo", THEIRS),))


def test_a_score_reads_the_prominent_and_banned_categories() -> None:
    assert score("books(shelf, prominent)", TOWN) == 2
    assert score("books(shelf, banned)", TOWN) == 1
    assert score("books(shelf, prominent)") == 0  # no table known: no category


def test_a_score_compares_with_the_opponents_shelves() -> None:
    mine = "books(shelf, prominent)"
    most = f"count(opponents where books(it.shelf, prominent) >= {mine}) == 0"
    assert score(f"3 if {most} else 0", TOWN) == 3
    more = Town("M", None, "Ada", (("Bo", THEIRS),))
    assert score(f"3 if {most.replace('prominent', '@M')} else 0", more) == 0
    assert score("count(players)", TOWN) == 2
    assert score("count(opponents where it.name == \"Bo\")", TOWN) == 1


def test_a_score_may_not_read_an_opponents_hand() -> None:
    errors = check_score(parse_expression("count(first(opponents).hand)"), IDS)
    assert [e.code for e in errors] == ["dsl/not-in-scoring"]


@pytest.mark.parametrize(("source", "points"), [
    ("4 if count(adjacent(this)) == 2 else 1", 4),
    ("4 if count(adjacent(this)) == 4 else 1", 1),
    ("1 + (2 if true else 3) * 2", 5),
    ("1 if false else 2 if true else 3", 2),  # it nests to the right
])
def test_the_conditional_expression_in_scores(source: str, points: int) -> None:
    assert score(source) == points


def test_the_conditional_wants_a_condition_and_a_number_in_a_score() -> None:
    errors = check_score(parse_expression("3 if count(shelf) else 0"), IDS)
    assert [e.code for e in errors] == ["dsl/condition-type"]
    errors = check_score(parse_expression("3 if true else shelf"), IDS)
    assert [e.code for e in errors] == ["dsl/arg-kind"]


def test_the_conditional_expression_in_effects_checks_and_parses() -> None:
    program = parse_program("draw(2 if count(hand) < 3 else 1)\n")
    assert check_program(program, program_names(location=True), IDS) == []
    with pytest.raises(DslError):
        parse_program("draw(2 if count(hand) < 3)\n")


def test_a_score_from_a_table_file_sees_the_town(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    artifact = tmp_path / "town-crier.yaml"
    artifact.write_text(
        "kind: artifact\nid: town-crier\nname: Town Crier\ntiming: end-of-game\n"
        "solo: false\ntext: A test.\nabilities:\n  - timing: end-of-game\n"
        "    text: A test.\n    score: 2 * books(shelf, prominent)\n", "utf-8")
    table = tmp_path / "t.yaml"
    table.write_text("variant: standard\nprominent: R\nbanned: M\nplayers:\n"
                     "  - {name: Ada, focus: H, hand: 0, shelf: 'A1:RR  B1:HR *town-crier'}\n"
                     "  - {name: Bo, focus: S, hand: 0, shelf: 'A2:CF'}\n", "utf-8")
    result = CliRunner().invoke(cli, ["score", "--content", str(artifact), "--json",
                                      str(table)])
    assert result.exit_code == 0, result.output
    (ada, bo) = json.loads(result.output)["players"]
    assert (ada["artifacts"], bo["artifacts"]) == (6, 0)
