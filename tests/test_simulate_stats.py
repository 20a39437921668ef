"""Statistics that hold at any sample size: exact tests against published values,
Holm over every flag family, one test a table for sorting and flagging, every seat
compared across variants, availability, ratings, and the report's fixes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from exlibris.cli.main import cli
from exlibris.simulate import figures as fig
from exlibris.simulate import plan, stats
from exlibris.simulate.plan import Cell
from exlibris.simulate.ratings import fit
from exlibris.simulate.runner import RunConfig, simulate

# ------------------------------------------------------------------ exact tests


def test_exact_tests_match_published_values() -> None:
    # R: binom.test(3, 12)$p.value, binom.test(1, 6), binom.test(7, 20, 0.25)
    assert stats.binomial_p(3, 12) == pytest.approx(0.1459961, abs=1e-6)
    assert stats.sign_test([1, -1, -1, -1, -1, -1]) == pytest.approx(0.21875, abs=1e-9)
    assert stats.binomial_p(7, 20, 0.25) == pytest.approx(0.3054785, abs=1e-6)
    # R: fisher.test(matrix(c(3, 7, 7, 3), 2))$p.value
    assert stats.fisher_p(3, 10, 7, 10) == pytest.approx(0.1789, abs=1e-4)
    # R: qt(0.975, 11), 2 * pt(-2, 11)
    assert stats.t_quantile(11) == pytest.approx(2.200985, abs=1e-5)
    assert stats.t_p(2.0, 11) == pytest.approx(0.07080, abs=1e-5)
    # the exact multinomial test: all 3^4 outcomes of 4 wins over 3 seats enumerated
    p, test = stats.multinomial_uniform_p([4, 0, 0])
    assert test == "exact" and p == pytest.approx(3 / 81)
    assert stats.multinomial_uniform_p([400, 300, 300])[1] == "chi-squared"


@given(st.integers(1, 300), st.data(), st.floats(0.05, 0.95))
def test_the_walk_from_the_mode_sums_what_the_whole_sum_does(n: int, data: Any, p: float
                                                           ) -> None:
    k = data.draw(st.integers(0, n))
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
            + i * math.log(p) + (n - i) * math.log1p(-p) for i in range(n + 1)]
    whole = min(1.0, sum(math.exp(v) for v in logs if v <= logs[k] + math.log(1 + 1e-7)))
    assert stats.binomial_p(k, n, p) == pytest.approx(whole, rel=1e-9, abs=1e-300)


def test_a_shared_win_is_tested_conservatively() -> None:
    assert stats.binomial_p(3.5, 12) == max(stats.binomial_p(3, 12), stats.binomial_p(4, 12))


# ------------------------------------------------------------------ synthetic rows


def row(variant: str, game: int, seat: int, *, players: int = 2, winner: float = 0.0,
        total: int = 50, locations: tuple[str, ...] = (), board: tuple[str, ...] = (),
        library: str = "lib-a", dealt: tuple[str, ...] = (), agent: str = "greedy",
        ended: str = "final-round") -> dict[str, Any]:
    values: dict[str, Any] = {
        "variant": variant, "players": players, "game": game, "seed": 1000 + game,
        "seat": seat, "position": seat, "agent": agent, "library": library,
        "specials": [], "held": [], "locations": list(locations), "visits": len(locations),
        "hires": 0, "total": total, "rank": 1 if winner else 2, "winner": winner,
        "tiebreak": "total", "ended": ended, "rounds": 8, "decisions": 100,
        "board": list(board), "dealt": list(dealt)}
    for line in fig.FORM_LINES:
        values[line] = 0
    return values


def test_a_12_game_comparison_is_not_significant_where_the_exact_tests_are_not() -> None:
    """The issue's case: seat 1 wins 4 more of 12 deals under the house rule and loses
    none, and the mean total rises on most deals: a normal interval excludes 0, the
    sign test (p = 0.125) and the paired t-test do not."""
    rise = [10, 8, 6, 9, -2, 7, 12, -5, 3, 11, -4, 2]
    table = []
    for game in range(12):
        first_wins_a = game % 2 == 0
        first_wins_b = first_wins_a or game in (1, 3, 5, 7)
        for variant, wins, bonus in (("a", first_wins_a, 0), ("b", first_wins_b, rise[game])):
            table.append(row(variant, game, 1, winner=float(wins), total=50 + bonus))
            table.append(row(variant, game, 2, winner=float(not wins), total=50 + bonus))
    comparison = fig.figures(table, {"variants": ["a", "b"]})["comparisons"][0]
    seat1 = next(m for m in comparison["measures"]
                 if m["measure"] == "win rate, seat position 1")
    diffs = [1.0] * 4 + [0.0] * 8  # games 1, 3, 5, 7: b's seat 1 wins, a's does not
    assert stats.paired_difference(diffs).significant  # what the normal interval said
    assert seat1["p_sign"] == pytest.approx(0.125) and not seat1["significant"]
    total = next(m for m in comparison["measures"] if m["measure"] == "mean total")
    assert stats.paired_difference(rise).significant
    assert total["p_t"] < 0.05 and total["p_sign"] > 0.05 and not total["significant"]
    assert comparison["small_sample"] is True and comparison["correction"] == "holm"
    from exlibris.simulate.report import _comparison_html

    assert "A small sample: 12 deals" in _comparison_html(comparison)


def test_every_flag_family_is_corrected_by_holm() -> None:
    table = []
    for game in range(40):
        for seat in (1, 2):
            table.append(row("a", game, seat, winner=float(seat == 1 if game < 26 else seat == 2)))
    cell = fig.figures(table)["cells"][0]
    positions = cell["win_rate"]["position"]
    raw = [stats.binomial_p(e["wins"], e["n"], 0.5) for e in positions]
    assert [e["p"] for e in positions] == raw
    assert [e["p_holm"] for e in positions] == stats.holm(raw)
    assert all((e["flag"] is not None) == (e["p_holm"] < 0.05) for e in positions)


def test_the_per_location_table_sorts_and_flags_by_one_test_given_availability() -> None:
    """Visiting 'vault' wins; 'attic' is on the board in half the games only, and
    its 'without' counts only the seats of games where it was there."""
    table = []
    for game in range(60):
        board = ("vault", "attic", "cellar") if game % 2 else ("vault", "cellar")
        for seat in (1, 2):
            winner = seat == 1 + game % 2
            visits = ("vault",) if winner else ("cellar",)
            if game % 2 and seat == (1 if game % 4 == 1 else 2):
                visits += ("attic",)  # half by the loser, half by the winner
            table.append(row("a", game, seat, winner=float(winner), locations=visits,
                             board=board))
    from exlibris.simulate.report import _sorted

    cell = fig.figures(table)["cells"][0]
    entries = _sorted("location", cell["win_rate"]["location"])
    assert [e["key"] for e in entries] == ["vault", "attic", "cellar"]
    effects = [e["effect"] for e in entries]
    assert effects == sorted(effects, reverse=True)  # the report's order
    for e in entries:
        assert e["p"] == stats.fisher_p(e["wins"], e["n"], e["without"] * e["without_n"],
                                        e["without_n"])
        flagged = e["p_holm"] < 0.05
        assert (e["flag"] is not None) == flagged
        if flagged:
            assert e["flag"] == ("above" if e["effect"] > 0 else "below")
    attic = next(e for e in entries if e["key"] == "attic")
    assert attic["n"] + attic["without_n"] == 60  # the seats of the 30 games it was there
    assert "on the board" in cell["tests"]["location"]
    assert entries[0]["flag"] == "above" and entries[-1]["flag"] == "below"


def test_rows_record_the_board_and_the_libraries_dealt(tmp_path: Path) -> None:
    events = tmp_path / "e.jsonl"
    table = simulate(RunConfig([Cell("standard", 3)], 2, 4, ["greedy", "random"],
                               events=events)).rows
    board_events: dict[int, set[str]] = {}
    for line in events.read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "board":
            board_events.setdefault(event["game"], set()).add(event["what"])
    for r in table:
        assert set(r["locations"]) <= set(r["board"])
        assert r["library"] in r["dealt"] and len(r["dealt"]) == 2
        assert set(r["board"]) == board_events[r["game"]]
        assert len(r["decisions_by_round"]) == r["rounds"] == len(r["options_by_round"])
        assert sum(r["decisions_by_round"]) <= r["player_decisions"]
    dealt = [lib for r in table[:3] for lib in r["dealt"]]
    assert len(set(dealt)) == 6  # no tile dealt twice in a game


def test_every_seat_and_the_spread_are_compared_in_the_table_and_json(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    result = CliRunner().invoke(cli, [
        "simulate", "--games", "4", "--players", "3", "--seats", "random",
        "--variant", "standard", "--variant", "friendlier", "--workers", "1",
        "--report", str(page), "--json"])
    assert result.exit_code == 0, result.output
    comparison = json.loads(result.stdout)["comparisons"][0]
    names = [m["measure"] for m in comparison["measures"]]
    for k in (1, 2, 3):
        assert f"win rate, seat position {k}" in names
        assert f"win rate, seat position {k}" in page.read_text()
    assert fig.SPREAD in names
    assert all("p_holm" in m for m in comparison["measures"])


# ------------------------------------------------------------------ tournaments


def test_a_round_robin_seats_every_pair_at_every_position() -> None:
    agents = ["random", "greedy", "mcts:1"]
    games = [tuple(plan.seats_for(agents, 2, i)) for i in range(6)]
    assert sorted(games) == sorted([("random", "greedy"), ("greedy", "random"),
                                    ("random", "mcts:1"), ("mcts:1", "random"),
                                    ("greedy", "mcts:1"), ("mcts:1", "greedy")])
    assert plan.seats_for(["greedy", "random"], 3, 1) == ["random", "greedy", "greedy"]


def test_bradley_terry_recovers_the_order_and_its_intervals_shrink() -> None:
    wins = {("a", "b"): 30, ("b", "a"): 10, ("a", "c"): 35, ("c", "a"): 5,
            ("b", "c"): 25, ("c", "b"): 15}
    theta, ses = fit(["a", "b", "c"], wins)
    assert theta[0] > theta[1] > theta[2] and sum(theta) == pytest.approx(0, abs=1e-9)
    more = {k: 10 * v for k, v in wins.items()}
    assert all(b < a for a, b in zip(ses, fit(["a", "b", "c"], more)[1], strict=True))
    assert theta[0] - theta[1] == pytest.approx(math.log(3), abs=0.2)


def test_a_round_robin_of_three_agents_is_rated_in_the_report_and_json(tmp_path: Path
                                                                       ) -> None:
    page = tmp_path / "t.html"
    result = CliRunner().invoke(cli, [
        "simulate", "--games", "6", "--players", "2", "--seats", "random,greedy,mcts:1",
        "--workers", "1", "--report", str(page), "--json"])
    assert result.exit_code == 0, result.output
    ratings = json.loads(result.stdout)["cells"][0]["ratings"]
    assert {a["agent"] for a in ratings["agents"]} == {"random", "greedy", "mcts:1"}
    for agent in ratings["agents"]:
        assert agent["low"] < agent["elo"] < agent["high"] and agent["games"] == 4
    assert "Ratings" in page.read_text() and "Elo" in page.read_text()
    assert "ratings (Elo, 95%): " in result.stderr


# ------------------------------------------------------------------ the report


def test_the_stalled_count_is_the_stalled_games() -> None:
    table = [row("a", g, s, winner=float(s == 1), ended="stalled" if g < 3 else "final-round")
             for g in range(5) for s in (1, 2)]
    data = fig.figures(table, {"stalled_seeds": []})
    assert data["run"]["stalled"] == 3 == data["cells"][0]["measures"]["stalled"]
    assert data["run"]["stalled_seeds"] == [1000, 1001, 1002]


def test_plots_are_centred_on_the_fair_share_with_no_single_bar_panel() -> None:
    from exlibris.simulate.report import _bin_width, _panel, win_rate_plot

    table = [row("a", g, s, winner=float(s == 1 + (g % 3 == 0))) for g in range(30)
             for s in (1, 2)]
    cell = fig.figures(table)["cells"][0]
    entries, values, lows, highs, _ = _panel(cell, "position")
    assert values == [e["rate"] - 0.5 for e in entries]
    assert all(lo <= v <= hi for v, lo, hi in zip(values, lows, highs, strict=True))
    one_agent = {**cell, "win_rate": {g: (v if g == "agent" else [])
                                      for g, v in cell["win_rate"].items()}}
    assert win_rate_plot(one_agent) == ""  # a single bar says nothing
    assert _bin_width({0, 3, 6, 9, 15}, 0, 15) == 3  # variety by 3s: no comb
    assert _bin_width(set(range(0, 100)), 0, 99) == 4


def test_interrupting_before_the_first_game_names_no_missing_file(tmp_path: Path,
                                                                  monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from exlibris.cli.simulate import _kept
    from exlibris.simulate import backends, runner

    out = tmp_path / "r.jsonl"

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(backends, "run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        simulate(RunConfig([Cell("standard", 2)], 2, 1, ["random"], out=out))
    message = _kept(out)
    assert not runner.journal_path(out).exists() and ".partial.jsonl" not in message
    assert "run the same command again" in message
    monkeypatch.undo()
    again = simulate(RunConfig([Cell("standard", 2)], 2, 1, ["random"], out=out))
    assert again.games == 2
    runner.journal_path(out).write_text("")
    assert str(runner.journal_path(out)) in _kept(out) and "--resume" in _kept(out)


def test_rows_of_an_older_run_without_the_new_columns_resume(tmp_path: Path) -> None:
    from exlibris.simulate import rows

    out = tmp_path / "r.jsonl"
    simulate(RunConfig([Cell("standard", 2)], 2, 1, ["random"], out=out))
    old = [{k: v for k, v in r.items() if k not in rows.LATER} for r in rows.read(out)]
    out.write_text("".join(json.dumps(r) + "\n" for r in old))
    resumed = simulate(RunConfig([Cell("standard", 2)], 3, 1, ["random"], out=out,
                                 resume=True))
    assert (resumed.kept, resumed.played, resumed.notes) == (2, 1, [])
    table = rows.read(out)
    assert [r["board"] == [] for r in table] == [True] * 4 + [False] * 2
