"""``bench/bot_ratings.py``: the round robin of bots and its Bradley-Terry ratings
(``exlibris/simulate/ratings.py``), on a synthetic table with a known answer and on
two real games."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from exlibris.simulate.ratings import ELO, PRIOR, Pairwise, fit, fit_covariance

BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench_module() -> Any:
    """``bench/bot_ratings.py``, imported by name (its pool's workers import it so)."""
    if "bot_ratings" not in sys.modules:
        spec = importlib.util.spec_from_file_location("bot_ratings", BENCH / "bot_ratings.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["bot_ratings"] = module
        spec.loader.exec_module(module)
    return sys.modules["bot_ratings"]


def test_the_fit_finds_the_strengths_that_made_the_table() -> None:
    """Wins (with the prior's drawn game) exactly as strengths 4, 2, 1 expect: the fit
    is those strengths, centred."""
    strengths = {"a": 4.0, "b": 2.0, "c": 1.0}
    played = 60
    wins = {(x, y): played * sx / (sx + sy) - PRIOR
            for x, sx in strengths.items() for y, sy in strengths.items() if x != y}
    theta, ses = fit(list(strengths), wins)
    mean = sum(math.log(s) for s in strengths.values()) / 3
    assert theta == pytest.approx([math.log(s) - mean for s in strengths.values()], abs=1e-9)
    assert all(0 < se < 1 for se in ses)


def test_ratings_from_an_anchor_have_the_interval_of_the_difference() -> None:
    """Two agents: the difference is the log odds of the wins (prior included), its
    standard error 1 / sqrt(n p (1 - p)), as the textbook gives for one proportion."""
    table = Pairwise()
    for _ in range(30):
        table.add([{"agent": "strong", "rank": 1}, {"agent": "weak", "rank": 2}])
    for _ in range(10):
        table.add([{"agent": "strong", "rank": 2}, {"agent": "weak", "rank": 1}])
    table.add([{"agent": "strong", "rank": 1}, {"agent": "weak", "rank": 1}])  # a draw
    result = table.result(anchor="weak")
    assert result is not None and "weak at 0" in result["method"]
    rated = {r["agent"]: r for r in result["agents"]}
    won, lost = 30.5 + PRIOR, 10.5 + PRIOR
    n, p = won + lost, won / (won + lost)
    assert rated["weak"]["elo"] == 0 and rated["weak"]["se"] == pytest.approx(0, abs=1e-6)
    assert rated["strong"]["elo"] == pytest.approx(ELO * math.log(won / lost), abs=1e-6)
    assert rated["strong"]["se"] == pytest.approx(ELO / math.sqrt(n * p * (1 - p)), rel=1e-6)
    low, high = rated["strong"]["low"], rated["strong"]["high"]
    assert low < rated["strong"]["elo"] < high
    # centred, each rating is half the difference, with half its interval
    centred = {r["agent"]: r for r in table.result()["agents"]}  # type: ignore[index]
    assert centred["strong"]["elo"] == pytest.approx(rated["strong"]["elo"] / 2)
    assert centred["strong"]["se"] == pytest.approx(rated["strong"]["se"] / 2)
    theta, cov = fit_covariance(["strong", "weak"], table.wins)
    assert cov[0][1] == pytest.approx(-cov[0][0]) and sum(theta) == pytest.approx(0)


def test_a_round_robin_of_two_games_rates_greedy_over_random(capsys: Any) -> None:
    ratings = bench_module()
    assert ratings.schedule(["random", "greedy"], 2, 5) == [
        (["random", "greedy"], 5), (["greedy", "random"], 6)]  # seats turn, seeds go on
    played = list(ratings.results(["random", "greedy"], 2, 5, "standard", 1))
    assert [g["seats"] for g in played] == [["random", "greedy"], ["greedy", "random"]]
    assert all(sorted(g["ranks"]) == [1, 2] and sum(g["won"]) == 1 for g in played)
    found = ratings.summary(["random", "greedy"], played, "random")
    by_bot = {row["bot"]: row for row in found["bots"]}
    assert found["games"] == 2 and {r["games"] for r in found["bots"]} == {2}
    assert by_bot["random"]["wins"] + by_bot["greedy"]["wins"] == 2
    assert by_bot["greedy"]["wins"] == 2  # greedy beats random on these seeds
    assert by_bot["greedy"]["elo"] > 0 == by_bot["random"]["elo"]
    assert by_bot["greedy"]["decisions"] > 20 and by_bot["greedy"]["mean_seconds"] > 0
    assert found["pairs"] == [{"first": "random", "second": "greedy", "games": 2,
                               "first_wins": 0.0, "first_rate": 0.0,
                               "wilson95": found["pairs"][0]["wilson95"]}]
    assert ratings.main(["random", "greedy", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "| greedy | 2 | 2 | +" in out and "| random | 2 | 0 | 0 (anchor) |" in out
    assert "`python bench/bot_ratings.py random greedy --games 2 --seed 5`" in out
    assert "| random against greedy | 2 | 0 (0%) |" in out


def test_the_round_robin_is_the_same_on_two_workers() -> None:
    ratings = bench_module()

    def same(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in g.items() if k != "thought"} for g in games]

    one = list(ratings.results(["random", "greedy"], 2, 5, "standard", 1))
    two = list(ratings.results(["random", "greedy"], 2, 5, "standard", 2))
    assert same(one) == same(two) and len(one) == 2


def test_the_script_refuses_bad_bots(capsys: Any) -> None:
    ratings = bench_module()
    for argv in (["greedy"], ["greedy", "greedy"], ["greedy", "alphazero"],
                 ["greedy", "random", "--anchor", "mcts"], ["greedy", "random", "--games", "0"],
                 ["greedy", "mcts:5/bogus=1"], ["greedy", "mcts:5/nonsense"]):
        with pytest.raises(SystemExit) as stopped:
            ratings.main(argv)
        assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "unknown agent" in err and "unknown setting 'bogus=1'" in err


def test_bots_are_made_from_seat_names_and_from_benchmark_specs() -> None:
    bench_module()  # puts bench/ on the path
    from bot_ladder import bot_problem, made_bot

    assert bot_problem("mcts:7/classic") is None and bot_problem("mcts:7/root=halving") is None
    assert made_bot("mcts:7/classic", 1).round_end is False  # the seat name's settings
    halving = made_bot("mcts:7/root=halving", 1)
    assert halving.iterations == 7 and halving.root == "halving"


def test_the_json_has_every_bot(capsys: Any) -> None:
    ratings = bench_module()
    assert ratings.main(["greedy", "random", "--games", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["anchor"] == "greedy" and {b["bot"] for b in found["bots"]} == {"greedy",
                                                                                  "random"}


def test_levels_rates_the_seats_of_the_play_levels(capsys: Any, monkeypatch: Any) -> None:
    ratings = bench_module()
    from exlibris.agents.levels import LEVELS

    def played(bots: list[str], games: int, seed: int, variant: str, workers: int,
               known: object = None) -> Any:
        for seats, game_seed in ratings.schedule(bots, games, seed):
            stronger = bots.index(seats[0]) > bots.index(seats[1])  # later levels win
            yield {"seats": seats, "seed": game_seed, "variant": variant,
                   "ranks": [1, 2] if stronger else [2, 1],
                   "won": [1.0, 0.0] if stronger else [0.0, 1.0], "totals": [1, 0],
                   "thought": {}}

    monkeypatch.setattr(ratings, "results", played)
    assert ratings.main(["--levels", "--games", "2", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    seats = [level.seat for level in LEVELS]
    assert [b["bot"] for b in found["bots"]] == seats[::-1]  # rated strongest first
    assert found["anchor"] == seats[0]


def test_a_recorded_run_plays_only_the_games_its_record_lacks(
        tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--record``: a run in two parts plays each game once and rates the games one
    run would; a record line that is not a game stops the run with its line named."""
    ratings = bench_module()
    record = tmp_path / "games.jsonl"
    argv = ["random", "greedy", "--seed", "5", "--json", "--record", str(record)]
    played: list[int] = []
    play_one = ratings.play_one

    def counted(job: Any) -> dict[str, Any]:
        played.append(job[1])
        return play_one(job)  # type: ignore[no-any-return]

    monkeypatch.setattr(ratings, "play_one", counted)
    assert ratings.main([*argv, "--games", "2"]) == 0
    assert played == [5, 6] and len(record.read_text().splitlines()) == 2
    capsys.readouterr()
    assert ratings.main([*argv, "--games", "3"]) == 0
    out, err = capsys.readouterr()
    assert played == [5, 6, 7] and len(record.read_text().splitlines()) == 3
    assert err.count("(recorded)") == 2
    whole = json.loads(out)
    assert ratings.main(["random", "greedy", "--seed", "5", "--json", "--games", "3"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    assert [(b["bot"], b["wins"], b["elo"]) for b in whole["bots"]] == \
        [(b["bot"], b["wins"], b["elo"]) for b in fresh["bots"]]
    assert whole["pairs"] == fresh["pairs"]
    with record.open("a") as more:
        more.write('{"seats": ["random"]}\n')
    with pytest.raises(SystemExit) as stopped:
        ratings.main([*argv, "--games", "3"])
    assert stopped.value.code == 2 and f"{record}:4:" in capsys.readouterr().err
