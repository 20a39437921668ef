"""`exlibris simulate`: seeds, seats, rows, resume, failures, figures, the report."""

from __future__ import annotations

import io
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.simulate import figures as fig
from exlibris.simulate import plan, rows, runner, stats
from exlibris.simulate.plan import Cell
from exlibris.simulate.runner import RunConfig, simulate

STANDARD2 = Cell("standard", 2)


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["simulate", *args])


def same(table: list[dict]) -> list[dict]:
    """Rows without the machine-dependent columns."""
    return [{k: v for k, v in r.items() if k not in rows.TIMING} for r in table]


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return load_catalog()


# ------------------------------------------------------------------ plan


def test_a_games_seed_depends_on_the_run_seed_and_its_number_only() -> None:
    seeds = [plan.game_seed(7, i) for i in range(200)]
    assert seeds == [plan.game_seed(7, i) for i in range(200)]
    assert len(set(seeds)) == 200
    assert plan.game_seed(8, 0) != seeds[0]
    assert all(0 <= s < 2 ** plan.SEED_BITS for s in seeds)


def test_rotation_seats_every_agent_at_every_position_equally() -> None:
    games = [plan.seats_for(["greedy", "random", "random"], 3, i) for i in range(30)]
    for position in range(3):
        assert Counter(g[position] for g in games) == {"greedy": 10, "random": 20}
    assert plan.seats_for(["greedy", "random"], 4, 1, rotate=False) == \
        ["greedy", "random", "greedy", "random"]


def test_playable_cells_are_what_the_engine_accepts(catalog) -> None:  # type: ignore[no-untyped-def]
    from exlibris.engine.flow import check_playable
    from exlibris.validation import resolve_settings

    cells, skipped = plan.cells(catalog, ["all"], None)
    assert Cell("standard", 2) in cells and Cell("standard", 4) in cells
    for cell in cells:
        check_playable(resolve_settings(cell.variant, catalog.variants), cell.players,
                       cell.variant)
    for variant in catalog.variants:
        for players in plan.player_counts(catalog, variant):
            reason = plan.playable(catalog, variant, players)
            assert (Cell(variant, players) in cells) == (reason is None)
            if reason is not None:
                assert f"{variant} at {players} players: {reason}" in skipped


def test_a_cell_named_on_purpose_that_the_engine_refuses_is_an_error(catalog) -> None:  # type: ignore[no-untyped-def]
    refused = [(v, p) for v in sorted(catalog.variants) for p in range(1, 8)
               if plan.playable(catalog, v, p)]
    variant, players = refused[0]
    result = invoke("--games", "1", "--variant", variant, "--players", str(players))
    assert result.exit_code == 2
    assert plan.playable(catalog, variant, players) in result.output
    assert "Traceback" not in result.output


def test_an_authors_variant_file_is_simulated_and_replays_with_its_content(
        tmp_path: Path) -> None:
    mine = tmp_path / "tiny-hands.yaml"
    mine.write_text("kind: variant\nid: tiny-hands\nname: Tiny hands\nextends: standard\n"
                    "text: Two cards fewer in hand.\nsettings:\n  setup:\n    hand_size: 4\n")
    out = tmp_path / "r.jsonl"
    failures = tmp_path / "f.jsonl"
    result = invoke("--games", "2", "--seats", "random", "--variant", str(mine), "--workers",
                    "2", "--out", str(out), "--failures", str(failures))
    assert result.exit_code == 0, result.output
    table = rows.read(out)
    assert {r["variant"] for r in table} == {"tiny-hands"} and len(table) == 4
    spec = plan.GameSpec(Cell("tiny-hands", 2), 1, plan.game_seed(1, 1), ("random", "random"),
                         (str(mine.resolve()),))
    assert f"--content {mine.resolve()}" in spec.replay_command()
    played = CliRunner().invoke(cli, [*spec.replay_command().split()[1:], "--json"])
    data = json.loads(played.output)
    assert [p["total"] for p in data["players"]] == [r["total"] for r in table
                                                     if r["game"] == 1]


# ------------------------------------------------------------------ rows


def test_rows_are_the_same_with_one_and_two_workers() -> None:
    config = RunConfig([STANDARD2, Cell("standard", 3)], 5, 11, ["greedy", "random"])
    one = simulate(config).rows
    config.workers = 2
    two = simulate(config).rows
    assert len(one) == 5 * 2 + 5 * 3
    assert same(one) == same(two)


def test_the_files_are_the_same_with_one_and_two_workers(tmp_path: Path) -> None:
    """The games and their events reach the files in the plan's order whatever the
    number of workers: the events files are the same bytes, the rows files the same
    but for the timing columns."""
    made: dict[tuple[int, str], tuple[list[dict], bytes]] = {}
    for workers in (1, 2):
        for form in ("jsonl", "csv"):
            out, events = tmp_path / f"r{workers}.{form}", tmp_path / f"e{workers}.{form}"
            simulate(RunConfig([STANDARD2, Cell("standard", 3)], 9, 3, ["random", "greedy"],
                               workers=workers, out=out, events=events))
            made[workers, form] = same(rows.read(out)), events.read_bytes()
    for form in ("jsonl", "csv"):
        assert made[1, form] == made[2, form]
        assert made[1, form][1].count(b"\n") > 9 * 5 * 10  # every game's events are there


def test_results_are_handed_on_in_the_order_of_their_batches() -> None:
    from exlibris.simulate.backends import InOrder
    from exlibris.simulate.play import BatchResult

    handed: list[int] = []
    order = InOrder(lambda result: handed.append(result.games))
    for number, now, held in ((2, [], 1), (0, [0], 1), (3, [0], 2), (1, [0, 1, 2, 3], 0),
                              (4, [0, 1, 2, 3, 4], 0)):
        order.put(number, BatchResult(games=number))
        assert (handed, len(order)) == (now, held)


class Term(Exception):
    """What a test's SIGTERM handler raises."""


def _on_main_thread() -> None:
    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are handled on the main thread only")


def test_a_signal_during_a_pools_step_is_acted_on_after_it() -> None:
    """SIGTERM landing while the pool hands a result on (it could as well land inside
    concurrent.futures' locks) waits for the step to end: the result is handed on
    whole, then the handler before raises, out of the run."""
    import os
    import signal

    from exlibris.cli.sigterm import sigterm_raises
    from exlibris.simulate import backends

    _on_main_thread()
    config = RunConfig([STANDARD2], 40, 5, ["random"])
    handed: list[str] = []

    def done(result) -> None:  # type: ignore[no-untyped-def]
        handed.append("begun")
        if len(handed) == 1:
            os.kill(os.getpid(), signal.SIGTERM)
        handed.append("ended")

    before = signal.getsignal(signal.SIGINT)
    with sigterm_raises(lambda number: Term(number)), pytest.raises(Term):
        backends.run_pool(backends.batches(config.specs(), 40, lambda left: 4), done, 2)
    steps = len(handed) // 2  # the results that came in with the first are handed on too
    assert handed == ["begun", "ended"] * steps and steps < 10
    assert signal.getsignal(signal.SIGINT) is before


def test_a_second_signal_is_acted_on_at_once() -> None:
    import os
    import signal

    from exlibris.cli.sigterm import sigterm_raises
    from exlibris.simulate.backends import DeferredSignals

    _on_main_thread()
    reached: list[int] = []
    with sigterm_raises(lambda number: Term(number)), pytest.raises(Term), DeferredSignals():
        os.kill(os.getpid(), signal.SIGTERM)
        reached.append(1)
        os.kill(os.getpid(), signal.SIGTERM)
        reached.append(2)
    assert reached == [1]


_POOL: list = []  # the pool a forked worker of the next test writes into, and a file


def _half_a_result() -> None:
    """In a forked worker: the start of a result in the pool's result pipe (a header
    promising 1000 bytes, then one), as a worker ended while writing leaves it; then
    the file that says it is written."""
    import os
    import struct
    import time

    os.write(_POOL[0]._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x")
    _POOL[1].touch()
    time.sleep(60)


def test_a_worker_ended_while_writing_its_result_does_not_hang_the_pool(tmp_path: Path
                                                                       ) -> None:
    import multiprocessing
    import os
    import threading
    import time
    from concurrent.futures import ProcessPoolExecutor

    from exlibris.simulate import backends

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker reaches the pool's pipe through fork")
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    written = tmp_path / "written"
    _POOL[:] = [pool, written]
    writer = pool._result_queue._writer  # type: ignore[attr-defined]
    pool.submit(_half_a_result)
    deadline = time.monotonic() + 60
    while not written.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert written.exists()
    time.sleep(0.2)  # the manager thread is reading the half result by now
    backends._end_workers(pool)
    shutdown = threading.Thread(target=pool.shutdown, kwargs={"wait": True}, daemon=True)
    shutdown.start()
    shutdown.join(15)
    hung = shutdown.is_alive()
    if hung:  # free the manager thread, or this process could not exit
        os.write(writer.fileno(), b"x" * 999)
        shutdown.join(15)
    _POOL.clear()
    assert not hung


def test_batches_shrink_toward_the_end_and_keep_the_plan_order() -> None:
    from exlibris.simulate import backends

    config = RunConfig([STANDARD2], 300, 1, ["random"])
    made = list(backends.batches(config.specs(), 300,
                                 lambda left: backends.batch_size("local", left, 2)))
    assert [s.index for batch in made for s in batch] == list(range(300))
    sizes = [len(b) for b in made]
    assert sizes[0] == 16 and sizes[-1] == 1 and sizes == sorted(sizes, reverse=True)


def test_events_text_is_what_json_and_csv_write() -> None:
    import csv

    from exlibris.simulate.observe import event_dicts, events_text

    key = ("hou\u00dfe-\"rules\"", 3, 7)
    events = [(1, 1, "place", "home"), (2, 1, "gain", 'a "quoted", comma\u00e9'),
              (0, 2, "board", "wishing-well"), (3, 12, "hire", "\\back\nslash")]
    assert events_text(key, events, "jsonl") == "".join(
        json.dumps(e) + "\n" for e in event_dicts(key, events))
    written = io.StringIO()
    csv.writer(written).writerows(list(e.values()) for e in event_dicts(key, events))
    assert events_text(key, events, "csv") == written.getvalue()


def test_rows_and_a_tune_are_the_same_on_ray(tmp_path: Path) -> None:
    """One local Ray (2 CPUs, no dashboard; started once for both, as it is slow to
    start): a run's rows, then a tune's candidates through the command, are the local
    pool's."""
    ray = pytest.importorskip("ray")
    from exlibris.simulate import backends

    config = RunConfig([STANDARD2], 6, 5, ["random", "greedy"])
    local = simulate(config).rows
    tune = ["simulate", "tune", "--param", "scoring.variety_per_book=2,4",
            "--objective", "total:max", "--games", "8", "--seats", "random", "--json"]
    tuned = [CliRunner().invoke(cli, [*tune, "--dir", str(tmp_path / "l")])]
    backends.start_ray(None, 2)
    try:
        config.backend, config.workers = "ray", 2
        on_ray = simulate(config).rows
        tuned.append(CliRunner().invoke(  # the command finds Ray started and uses it
            cli, [*tune, "--dir", str(tmp_path / "r"), "--backend", "ray"]))
    finally:
        ray.shutdown()
    assert same(on_ray) == same(local)
    assert all(result.exit_code == 0 for result in tuned), tuned[-1].output
    found = [json.loads(result.stdout)["candidates"] for result in tuned]
    assert found[0] == found[1]


def test_a_row_replays_with_exlibris_play() -> None:
    result = simulate(RunConfig([Cell("standard", 3)], 2, 4, ["greedy", "random"]))
    last = [r for r in result.rows if r["game"] == 1]
    spec = RunConfig([Cell("standard", 3)], 2, 4, ["greedy", "random"]).spec(
        Cell("standard", 3), 1)
    assert [r["agent"] for r in last] == list(spec.seats)
    played = CliRunner().invoke(cli, [*spec.replay_command().split()[1:], "--json"])
    data = json.loads(played.output)
    assert [p["total"] for p in data["players"]] == [r["total"] for r in last]
    assert data["rounds"] == last[0]["rounds"] and data["decisions"] == last[0]["decisions"]
    assert data["ended"] == last[0]["ended"]


def test_a_rows_form_lines_add_up_to_its_total_and_ranks_agree() -> None:
    table = simulate(RunConfig([Cell("standard", 4)], 3, 2, ["random"])).rows
    for row in table:
        assert row["total"] == sum(row[line] for line in rows.FORM_LINES[2:])
    for game in range(3):
        players = sorted((r for r in table if r["game"] == game), key=lambda r: r["rank"])
        assert [r["rank"] for r in players] == [1, 2, 3, 4]
        assert math.isclose(sum(r["winner"] for r in players), 1)
        assert players[0]["total"] >= players[1]["total"]
        assert sorted(r["position"] for r in players) == [1, 2, 3, 4]


@pytest.mark.parametrize("suffix", rows.FORMATS)
def test_every_rows_format_reads_back_as_written(tmp_path: Path, suffix: str) -> None:
    table = simulate(RunConfig([STANDARD2], 2, 3, ["random"])).rows
    path = tmp_path / f"r{suffix}"
    rows.write(path, table)
    assert rows.read(path) == table


# ------------------------------------------------------------------ resume, failures


class Stop(KeyboardInterrupt):
    pass


def test_an_interrupted_run_keeps_its_games_and_resume_finishes_it(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    config = RunConfig([STANDARD2], 8, 9, ["random"], out=out)
    seen = []

    def progress(done: int, failed: int) -> None:
        seen.append(done)
        if sum(seen) >= 3:
            raise Stop

    with pytest.raises(Stop):
        simulate(config, progress=progress)
    journal = runner.journal_path(out)
    assert len(list(rows.read_jsonl(journal))) == sum(seen)
    with pytest.raises(runner.RunError, match="--resume"):
        simulate(config)
    config.resume = True
    resumed = simulate(config)
    assert resumed.kept == sum(seen) and resumed.played == 8 - sum(seen)
    assert not journal.exists()
    straight = simulate(RunConfig([STANDARD2], 8, 9, ["random"]))
    assert same(rows.read(out)) == same(straight.rows)


def test_resume_refuses_rows_of_another_seed(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert invoke("--games", "2", "--seats", "random", "--seed", "1", "--out", str(out)) \
        .exit_code == 0
    result = invoke("--games", "3", "--seats", "random", "--seed", "2", "--out", str(out),
                    "--resume")
    assert result.exit_code == 2 and "use the --seed" in result.output


def test_a_failing_game_is_recorded_and_the_run_goes_on(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from exlibris.simulate import play

    real = play.play_game

    def flaky(spec):  # type: ignore[no-untyped-def]
        if spec.index == 1:
            raise RuntimeError("boom")
        return real(spec)

    monkeypatch.setattr(play, "play_game", flaky)
    out = tmp_path / "r.parquet"
    result = invoke("--games", "3", "--seats", "random", "--workers", "1", "--out", str(out))
    assert result.exit_code == 1
    assert "exlibris play --seed" in result.output and "boom" in result.output
    failures = [json.loads(line) for line in
                (tmp_path / "r.failures.jsonl").read_text().splitlines()]
    assert [f["index"] for f in failures] == [1]
    assert failures[0]["seed"] == plan.game_seed(1, 1)
    assert "RuntimeError: boom" in failures[0]["traceback"]
    assert sorted({r["game"] for r in rows.read(out)}) == [0, 2]
    monkeypatch.setattr(play, "play_game", real)  # fixed: --resume plays it again
    again = invoke("--games", "3", "--seats", "random", "--workers", "1", "--out", str(out),
                   "--resume")
    assert again.exit_code == 0 and "2 kept from before" in again.output
    assert sorted({r["game"] for r in rows.read(out)}) == [0, 1, 2]
    assert not (tmp_path / "r.failures.jsonl").exists()


# ------------------------------------------------------------------ figures


def test_wilson_and_newcombe_match_published_values() -> None:
    rate = stats.wilson(5, 10)
    assert (round(rate.low, 4), round(rate.high, 4)) == (0.2366, 0.7634)
    assert stats.wilson(0, 10).low == 0 and round(stats.wilson(0, 10).high, 4) == 0.2775
    # Newcombe (1998), Table II, example (a): 56/70 - 48/80, method 10
    diff = stats.rate_difference(stats.wilson(48, 80), stats.wilson(56, 70))
    assert (round(diff.low, 4), round(diff.high, 4)) == (0.0524, 0.3339)


@given(st.integers(0, 500), st.integers(1, 500), st.integers(0, 500), st.integers(1, 500))
def test_intervals_hold_their_estimate_and_stay_in_bounds(a: int, n: int, b: int, m: int
                                                          ) -> None:
    first, second = stats.wilson(min(a, n), n), stats.wilson(min(b, m), m)
    for rate in (first, second):
        assert 0 <= rate.low <= rate.rate <= rate.high <= 1
    wider = stats.wilson(min(a, n), n, z=2.58)
    assert wider.low <= first.low and wider.high >= first.high
    diff = stats.rate_difference(first, second)
    assert -1 <= diff.low <= diff.value <= diff.high <= 1


def _row(game: int, seat: int, agent: str, winner: float, total: int) -> dict:
    base = {line: 0 for line in rows.FORM_LINES}
    return {**base, "variant": "v", "players": 2, "game": game, "seed": game, "seat": seat,
            "position": seat, "agent": agent, "library": f"lib{seat}", "specials": "x",
            "total": total, "rank": 1 if winner else 2, "winner": winner,
            "tiebreak": "total", "ended": "final-round", "rounds": 5, "decisions": 10,
            "seconds": 0.0}


def test_win_rates_flag_intervals_that_exclude_the_fair_share() -> None:
    table = [r for g in range(40) for r in (_row(g, 1, "a", 1.0, 20), _row(g, 2, "b", 0.0, 9))]
    cell = fig.figures(table)["cells"][0]
    agents = {e["key"]: e for e in cell["win_rate"]["agent"]}
    assert agents["a"]["rate"] == 1 and agents["a"]["flag"] == "above"
    assert agents["b"]["flag"] == "below"
    (special,) = cell["win_rate"]["special"]
    expected = fig.rate_json("x", stats.wilson(40, 80), 0.5)
    assert {k: special[k] for k in expected} == expected
    assert special["flag"] is None and special["p_holm"] == 1.0


def test_a_variant_is_compared_with_the_first() -> None:
    first = [r for g in range(30) for r in (_row(g, 1, "a", 1.0, 20), _row(g, 2, "b", 0, 10))]
    other = [{**r, "variant": "w", "total": r["total"] + 3 + r["game"] % 2} for r in first]
    data = fig.figures(other + first, {"variants": ["v", "w"]})
    (comparison,) = data["comparisons"]
    assert (comparison["first"], comparison["variant"]) == ("v", "w")
    total = next(m for m in comparison["measures"] if m["measure"] == "mean total")
    assert total["low"] < total["difference"] < total["high"]
    assert math.isclose(total["difference"], 3.5) and total["significant"]


# ------------------------------------------------------------------ the command


def test_the_command_writes_rows_and_a_report(tmp_path: Path) -> None:
    out, report = tmp_path / "r.csv", tmp_path / "r.html"
    result = invoke("--games", "6", "--seats", "greedy,random", "--variant", "standard",
                    "--variant", "friendlier", "--workers", "1", "--out", str(out),
                    "--report", str(report), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [c["variant"] for c in data["cells"]] == ["standard", "friendlier"]
    greedy = next(e for e in data["cells"][0]["win_rate"]["agent"] if e["key"] == "greedy")
    assert greedy["low"] <= greedy["rate"] <= greedy["high"] and greedy["n"] == 6
    assert data["comparisons"][0]["variant"] == "friendlier"
    assert json.loads(report.with_suffix(".json").read_text()) == data
    page = report.read_text()
    assert page.count("data:image/png;base64,") >= 4
    assert "friendlier against standard" in page and "greedy" in page
    assert len(rows.read(out)) == 2 * 6 * 2


def test_a_report_names_the_cells_the_engine_refused(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    _, skipped = plan.cells(catalog, ["all"], [2])
    report = tmp_path / "r.html"
    result = invoke("--games", "1", "--seats", "random", "--variant", "all", "--players", "2",
                    "--workers", "1", "--report", str(report))
    assert result.exit_code == 0, result.output
    for note in skipped:
        assert f"skipped: {note}" in result.output
        assert note.split(":")[0] in report.read_text()


def test_the_progress_bar_shows_games_per_second_and_failures() -> None:
    from rich.console import Console

    from exlibris.cli.simulate import _run

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=120)
    result = _run(RunConfig([STANDARD2], 3, 1, ["random"]), console)
    assert len(result.rows) == 6
    text = buffer.getvalue()
    assert "3/3" in text and "games/s" in text and "0 failed" in text


def test_the_progress_bar_starts_after_the_workers_so_they_can_fork(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The bar's refreshing thread starts once the pool is up: a pool made beside a
    running thread is spawned (each worker loading the catalog) instead of forked."""
    import sys
    import threading

    from rich.console import Console
    from rich.progress import Progress

    from exlibris.cli.simulate import _run
    from exlibris.simulate import backends

    happened: list[str] = []
    pool_context, start = backends.pool_context, Progress.start

    def made() -> object:
        context = pool_context()
        happened.append(context.get_start_method())
        return context

    def started(self: Progress) -> None:
        happened.append("bar")
        start(self)

    monkeypatch.setattr(backends, "pool_context", made)
    monkeypatch.setattr(Progress, "start", started)
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    result = _run(RunConfig([STANDARD2], 4, 1, ["random"], workers=2), console)
    assert len(result.rows) == 8
    assert happened[1:] == ["bar"] and happened[0] in ("fork", "spawn")
    if sys.platform == "linux" and threading.active_count() == 1:  # not under xdist
        assert happened[0] == "fork"


@pytest.mark.parametrize(("args", "message"), [
    (["--out", "r.txt"], ".parquet, .csv, .jsonl"),
    (["--seats", "human"], "unknown agent"),
    (["--players", "two"], "a player count"),
    (["--variant", "nope"], "unknown variant"),
    (["--report", "r.pdf"], ".html"),
    (["--resume"], "--resume needs --out"),
    (["--address", "auto"], "--backend ray"),
])
def test_usage_mistakes_exit_2_without_a_traceback(args: list[str], message: str) -> None:
    result = invoke("--games", "1", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_missing_optional_library_is_named_before_any_game(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    result = invoke("--games", "1", "--report", "r.html")
    assert result.exit_code == 2 and 'exlibris[simulate]' in result.output
