"""`exlibris simulate tune`: the space, the objective, the search (a synthetic
objective whose optimum is known), and a real search over one scoring setting."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.simulate import tune


def bowl(optimum: tuple[int, int], noise: float = 1.0):  # type: ignore[no-untyped-def]
    """A synthetic game: its value is the squared distance to ``optimum`` plus the
    deal's own luck (the same for every candidate on a deal: paired)."""
    calls: list[tuple[dict[str, Any], int]] = []

    def evaluate(values: dict[str, Any], games: int) -> list[tune.GameValues]:
        calls.append((values, games))
        luck = random.Random(7)
        distance = sum((values.get(n, 0) - o) ** 2 for n, o in zip("ab", optimum, strict=True))
        return [{"v": (distance + luck.gauss(0, noise), 1.0)} for _ in range(games)]

    return evaluate, calls


def mean(games: list[tune.GameValues]) -> float:
    return sum(g["v"][0] for g in games) / len(games)


def test_a_grid_finds_the_known_optimum_and_stops_the_clearly_worse() -> None:
    evaluate, calls = bowl((5, 0))
    result = tune.search([tune.parse_param("a=0:8")], evaluate, mean, games=40, budget=20,
                         seed=1)
    assert result.method.startswith("grid of 9") and result.best.values == {"a": 5}
    stopped = [c for c in result.candidates if c.stopped]
    assert stopped and all(c.games < 40 for c in stopped)
    assert sum(games for _, games in calls) < 9 * 40 + 9 * 20  # stages, not all in full
    assert result.best.low <= result.best.score <= result.best.high


def test_optuna_finds_the_known_optimum_of_a_larger_space() -> None:
    pytest.importorskip("optuna")
    evaluate, _ = bowl((13, 6))
    space = [tune.parse_param("a=0:20"), tune.parse_param("b=0:20")]
    result = tune.search(space, evaluate, mean, games=24, budget=60, seed=1)
    assert result.method.startswith("optuna TPE") and result.best.values == {"a": 13, "b": 6}
    again = tune.search(space, bowl((13, 6))[0], mean, games=24, budget=60, seed=1)
    assert [c.values for c in again.candidates] == [c.values for c in result.candidates]


@pytest.mark.parametrize(("text", "parameter"), [
    ("scoring.variety_per_book=1:4", tune.Parameter("scoring.variety_per_book", low=1,
                                                     high=4, step=1)),
    ("a.b=0.5:1.5:0.5", tune.Parameter("a.b", low=0.5, high=1.5, step=0.5)),
    ("final_round.shelf_cards.3=12,14,16", tune.Parameter("final_round.shelf_cards.3",
                                                          values=(12, 14, 16))),
    ("rulings.deck_runs_out=reshuffle,no-reshuffle",
     tune.Parameter("rulings.deck_runs_out", values=("reshuffle", "no-reshuffle")))])
def test_a_parameter_is_a_list_or_a_range(text: str, parameter: tune.Parameter) -> None:
    assert tune.parse_param(text) == parameter
    assert tune.parse_param("x=1:4").grid() == [1, 2, 3, 4]
    assert tune.parse_param("x=0.5:1.5:0.5").grid() == [0.5, 1.0, 1.5]
    assert tune.overlay([tune.parse_param("final_round.shelf_cards.3=12")],
                        {"final_round.shelf_cards.3": 12}) == {
        "final_round": {"shelf_cards": {3: 12}}}


@pytest.mark.parametrize("text", ["variety", "x=", "x=4:1", "x=a:b", "x=1:2:0"])
def test_a_parameter_that_cannot_be_read_is_one_clear_error(text: str) -> None:
    with pytest.raises(tune.TuneError, match="--param"):
        tune.parse_param(text)


def test_the_objective_terms() -> None:
    objective = tune.Objective([tune.parse_term("seat:2"), tune.parse_term("balance*2"),
                                tune.parse_term("rounds:8"), tune.parse_term("library:x")], 2)
    game = [{"position": 1, "winner": 1.0, "rounds": 9, "library": "x"},
            {"position": 2, "winner": 0.0, "rounds": 9, "library": "y"}]
    values = objective.game_values(game)
    terms = objective.terms_of([values, values])
    assert terms == {"seat:2": 0.5, "balance*2": 1.0, "rounds:8": 1.0, "library:x": 0.5}
    assert objective.score([values]) == 0.5 + 2 * 1.0 + 1.0 + 0.5
    assert tune.parse_term("first-player") == tune.Term("seat", "1")
    for wrong in ("seat", "seat:0", "rounds", "total:lots", "balance*x", "fame"):
        with pytest.raises(tune.TuneError, match="--objective"):
            tune.parse_term(wrong)


def run_tune(folder: Path, *extra: str):  # type: ignore[no-untyped-def]
    games = [] if "--games" in extra else ["--games", "16"]
    return CliRunner().invoke(cli, [
        "simulate", "tune", "--param", "scoring.variety_per_book=1:4",
        "--objective", "total:max", "--players", "2", *games, "--seats", "random",
        "--dir", str(folder), "--json", *extra])


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("tune") / "t"
    result = run_tune(folder)
    assert result.exit_code == 0, result.output
    return folder, json.loads(result.stdout)


def test_tune_finds_the_best_value_of_a_scoring_setting(tuned) -> None:  # type: ignore[no-untyped-def]
    """Random seats play the same games whatever the scoring: the mean total rises
    with the points a variety book earns, so 4 is the best of 1..4 for total:max."""
    folder, summary = tuned
    assert summary["best"]["values"] == {"scoring.variety_per_book": 4}
    assert len(summary["candidates"]) == 4 and summary["method"] == "grid of 4"
    for c in summary["candidates"]:
        assert c["low"] <= c["objective"] <= c["high"]
    page = (folder / "tune.html").read_text()
    assert "scoring.variety_per_book" in page and "95% interval" in page
    assert page.count("data:image/png") >= 2  # the objective plot and the report's
    assert "The best against the variant" in page


def test_the_best_setting_is_a_variant_that_validates_and_plays(tuned) -> None:  # type: ignore[no-untyped-def]
    folder, summary = tuned
    best = folder / "standard-tuned.yaml"
    assert Path(summary["best_file"]) == best
    checked = CliRunner().invoke(cli, ["validate", str(best)])
    assert checked.exit_code == 0, checked.output
    played = CliRunner().invoke(cli, ["simulate", "--variant", str(best), "--games", "1",
                                      "--workers", "1", "--json"])
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["cells"][0]["variant"] == "standard-tuned"


def test_a_second_run_continues_and_another_search_is_refused(tuned) -> None:  # type: ignore[no-untyped-def]
    folder, summary = tuned
    rows = {p: p.stat().st_mtime_ns for p in (folder / "rows").glob("*.jsonl")}
    again = run_tune(folder)
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["candidates"] == summary["candidates"]
    assert {p: p.stat().st_mtime_ns for p in rows} == rows  # no game played again
    other = run_tune(folder, "--seed", "2")
    assert other.exit_code == 2 and "other settings" in other.output


def test_an_interrupted_tune_resumes_from_its_rows(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Interrupted inside the second stage (its journal holds games the rows file
    does not): the same command finishes that stage and the search."""
    from exlibris.simulate import runner

    real = runner.Journal.add_game
    calls = {"n": 0}

    def stop_in_stage_two(self, game):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 4 * 8 + 8 + 3:  # stage 1: 4 x 8 games; stage 2: 8 read back, 2 new
            raise KeyboardInterrupt
        return real(self, game)

    monkeypatch.setattr(runner.Journal, "add_game", stop_in_stage_two)
    args = ["--games", "32"]
    first = run_tune(tmp_path / "t", *args)
    assert first.exit_code == 130 and "run the same command again" in first.output
    assert list((tmp_path / "t" / "rows").glob("*.partial.jsonl"))  # mid-stage
    monkeypatch.undo()
    second = run_tune(tmp_path / "t", *args)
    assert second.exit_code == 0, second.output
    fresh = run_tune(tmp_path / "u", *args)
    assert json.loads(second.stdout)["candidates"] == json.loads(fresh.stdout)["candidates"]


def test_a_setting_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, [
        "simulate", "tune", "--param", "scoring.variety_per_bok=1,2", "--objective",
        "balance", "--games", "2", "--seats", "random", "--dir", str(tmp_path / "t")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "variety_per_bok" in result.output
    unknown = CliRunner().invoke(cli, [
        "simulate", "tune", "--param", "scoring.variety_per_book=1,2", "--objective",
        "location:mystery-shak", "--games", "2", "--dir", str(tmp_path / "u")])
    assert unknown.exit_code == 2 and "mystery-shack" in unknown.output


def test_a_space_file(tmp_path: Path) -> None:
    from exlibris.cli.simulate_tune import read_space

    space = tmp_path / "space.yaml"
    space.write_text("parameters:\n  scoring.variety_per_book: [2, 3]\n"
                     "  scoring.focus_per_book: {low: 1, high: 3}\n"
                     "objective: [seat:1, balance*0.5]\n")
    parameters, terms = read_space(space)
    assert [p.grid() for p in parameters] == [[2, 3], [1, 2, 3]]
    assert [t.label for t in terms] == ["seat:1", "balance*0.5"]
    space.write_text("parameters:\n  scoring.variety_per_book: 3\n")
    with pytest.raises(tune.TuneError, match=r"space.yaml:2:3"):
        read_space(space)


def test_a_search_stopped_by_a_mistake_before_any_game_can_be_corrected(tmp_path: Path
                                                                        ) -> None:
    folder = tmp_path / "t"
    wrong = CliRunner().invoke(cli, [
        "simulate", "tune", "--param", "scoring.variety_per_book=1.5:3", "--objective",
        "balance", "--games", "2", "--seats", "random", "--dir", str(folder)])
    assert wrong.exit_code == 2 and "should be a whole number" in wrong.output
    right = CliRunner().invoke(cli, [
        "simulate", "tune", "--param", "scoring.variety_per_book=2,3", "--objective",
        "balance", "--games", "2", "--seats", "random", "--dir", str(folder)])
    assert right.exit_code == 0, right.output
