"""Every row of issue 42's speed table, as ratios measured in one run. Not a test.

    python bench/speed_table.py                  # the whole table (a few minutes)
    python bench/speed_table.py --quick          # a smoke run: few games, few rounds
    python bench/speed_table.py --json
    python bench/speed_table.py --compiled-python /tmp/venv-compiled/bin/python
    python bench/speed_table.py --install        # also the compiled install (minutes)

Each figure is a ratio to a reference measured in the same run, as the other scripts
of ``bench/`` measure it (their functions are used, not copied):

* engine, random seats at 2, 3, 4 and 5 players: decisions a second over the floor's
  (``engine_bench.against_floor``: floor and engine in turns, on one core), for the
  engine this process imports (``PYTHONPATH=.``: the checkout's plain modules);
* greedy decision: the greedy bot's time a decision (its view included,
  ``engine_bench``'s greedy row) in decisions of the floor at two players;
* the same two rows for a compiled build, and compiled over pure (the engine's
  two-player ratio to the floor, compiled over this process's), when a compiled build is
  importable: ``--compiled-python`` names its interpreter; else this interpreter is
  asked, from outside the checkout and without ``PYTHONPATH``, and used if its
  installed exlibris is compiled ("not installed" otherwise);
* compiled install over pure install: ``bench/install_time.py`` (another script),
  only with ``--install`` as it takes minutes of both cores; "not measured" otherwise;
* a game's first question (warm cache; the full screen on a pseudo-terminal of 80x24
  and line mode) and ``validate`` with no cache (``EXLIBRIS_NO_CACHE=1``), as
  multiples of ``python -c pass``: medians of rounds taken in turn
  (``startup.py``'s functions);
* ``simulate``, 2 workers over 1: games a second (``simulate_bench.row``), with the
  cores each row obtained and its games a CPU-second, two workers over one;
* ``simulate --workers 1`` of random seats at 2 and 4 players: decisions a second over
  the whole command (a process of its own: start-up, rows and events files included)
  over the floor's, the floor run just before and just after; and the same by CPU
  time (the command's from ``RUSAGE_CHILDREN``, the floor's of this process), with
  the cores the command obtained: a loaded machine moves the CPU figures least.

The machine's load average is printed before and after, with each row's goal.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import engine_bench  # noqa: E402  (bench/ is not a package)
import simulate_bench  # noqa: E402
import startup  # noqa: E402

from exlibris.build_info import engine_build  # noqa: E402

PLAYERS = (2, 3, 4, 5)
GOALS = {"engine_pure": ">= 0.40 of the floor", "engine_compiled": ">= 0.60 of the floor",
         "greedy_pure": "<= 6 floor decisions", "greedy_compiled": "<= 4 floor decisions",
         "compiled_over_pure": ">= 2x", "install": "<= 4x the pure install",
         "first_question": "<= 10x python -c pass", "validate_no_cache": "<= 20x",
         "simulate_2_over_1": ">= 1.8x (quiet)", "simulate_floor": ">= 0.30 of the floor"}


def load() -> list[float] | None:
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None


# ---------------------------------------------------------------- engine and greedy


def engine_rows(games: int, warmup: int) -> dict[str, Any]:
    """Random seats at 2..5 players against the floor, and the greedy bot's decision in
    floor decisions, for the engine this process imports (on one core)."""
    from exlibris.catalog import load_catalog
    from exlibris.engine.shipped_sources import handlers
    from exlibris.validation import resolve_settings

    pinned = engine_bench.pin_one_core()
    catalog = load_catalog()
    floor = engine_bench.load_floor()
    settings = {n: resolve_settings("five-player" if n == 5 else "standard", catalog.variants)
                for n in PLAYERS}
    for _ in handlers(catalog):  # every effect compiled, as engine_bench's warm-up
        pass
    warm = range(-warmup, 0)
    for players in PLAYERS:
        engine_bench.run(catalog, settings[players], "warm-up", players, warm,
                         engine_bench.random_agents(players))
        floor.run(warmup, players, seed=-warmup)
    engine_bench.run(catalog, settings[2], "warm-up", 2, warm, engine_bench.greedy_vs_random)
    seeds = range(games)
    ratios, floors = {}, {}
    for players in PLAYERS:
        row = engine_bench.against_floor(catalog, settings[players], floor, players, seeds)
        ratios[players], floors[players] = row.ratio, row.floor_decisions_per_s
    greedy = engine_bench.run(
        catalog, settings[2], "greedy vs random", 2, seeds, engine_bench.greedy_vs_random,
        views=engine_bench.TimedViews(),
        timed=lambda agents: [a for a in agents if isinstance(a, engine_bench.Timed)])
    # the floor's two-player rate, measured right after the greedy row too
    seconds, decisions = floor.run(games, 2)
    floor_rate = (floors[2] + decisions / seconds) / 2
    greedy_s = (greedy.agent_us_per_decision or 0.0) / 1e6
    return {"engine": engine_build(), "cpu": pinned, "games": games,
            "random_over_floor": {str(n): round(r, 3) for n, r in ratios.items()},
            "greedy_us": round(greedy_s * 1e6, 1),
            "greedy_floor_decisions": round(greedy_s * floor_rate, 2)}


def compiled_python(given: str | None) -> tuple[str | None, str]:
    """The interpreter of a compiled build, and what it reports (or why there is none)."""
    python = given or sys.executable
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = subprocess.run(
        [python, "-c", "import exlibris.engine.flow, exlibris.build_info as b; "
                       "print(b.engine_build())"],
        cwd=tempfile.gettempdir(), env=env, capture_output=True, text=True, check=False)
    found = probe.stdout.strip()
    if probe.returncode != 0 or not found.startswith("compiled"):
        return None, "not installed" if not given else f"{python}: {found or 'no exlibris'}"
    return python, found


def engine_rows_of(python: str, games: int, warmup: int) -> dict[str, Any]:
    """``engine_rows`` run by another interpreter (its installed exlibris)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([python, __file__, "--engine-only", "--games", str(games),
                           "--warmup", str(warmup)], cwd=tempfile.gettempdir(), env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def install_ratio() -> dict[str, Any]:
    """``bench/install_time.py --json``: the compiled install over the pure one."""
    script = BENCH / "install_time.py"
    if not script.exists():
        return {"ratio": None, "note": "bench/install_time.py is not in this checkout"}
    done = subprocess.run([sys.executable, str(script), "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    text = done.stdout
    try:
        found = json.loads(text[text.index("{"):])
    except ValueError:
        return {"ratio": None, "note": f"install_time.py failed: {done.stderr[-300:]}"}
    return {"ratio": round(found["ratio"], 2), "detail": found}


# ---------------------------------------------------------------- start-up


def startup_rows(rounds: int) -> dict[str, Any]:
    """First question (full screen, line mode) with a warm cache and ``validate`` with
    no cache, as multiples of ``python -c pass``: medians of ``rounds`` rounds."""
    with tempfile.TemporaryDirectory() as home:
        base = {k: v for k, v in os.environ.items() if k != "EXLIBRIS_NO_CACHE"}
        base["XDG_STATE_HOME"] = os.path.join(home, "state")
        os.makedirs(base["XDG_STATE_HOME"])
        warm = {**base, "XDG_CACHE_HOME": os.path.join(home, "cache")}
        cold = {**warm, "EXLIBRIS_NO_CACHE": "1"}
        python = [sys.executable, "-c", "pass"]
        validate = [sys.executable, "-m", "exlibris", "validate"]
        startup.seconds(validate, warm, ROOT)  # the cache filled
        startup.first_screen(warm, home, ROOT)
        times: dict[str, list[float]] = {"pass": [], "full screen": [], "line mode": [],
                                         "validate": []}
        for _ in range(rounds):
            times["pass"].append(startup.seconds(python, base, ROOT))
            times["full screen"].append(startup.first_screen(warm, home, ROOT))
            times["line mode"].append(startup.first_question_line_mode(warm, home, ROOT))
            times["validate"].append(startup.seconds(validate, cold, ROOT))
    floor = statistics.median(times.pop("pass"))
    return {"python_c_pass_ms": round(floor * 1000, 1), "rounds": rounds,
            **{name: round(statistics.median(found) / floor, 1)
               for name, found in times.items()}}


# ---------------------------------------------------------------- simulate


def simulate_scaling(games: int) -> dict[str, Any]:
    """Games a second with two workers over one (``simulate_bench.row``), and the
    same per CPU-second (the cost of the second worker, the parent's share included,
    whatever cores the machine gave): on a loaded machine two workers may not get two
    cores (``cores_obtained``, CPU time over wall time)."""
    from exlibris.simulate.plan import Cell
    from exlibris.simulate.runner import RunConfig, simulate

    def config(workers: int) -> RunConfig:
        return RunConfig([Cell("standard", 2)], games, 1, ["greedy", "random"],
                         workers=workers)

    simulate(RunConfig([Cell("standard", 2)], 4, -1, ["random"]))  # catalog, caches
    one = simulate_bench.row("1 worker", config(1))
    two = simulate_bench.row("2 workers", config(2))
    return {"games": games, "ratio": round(two["games_per_s"] / one["games_per_s"], 2),
            "cores_obtained": [one["cores_obtained"], two["cores_obtained"]],
            "games_per_cpu_s": [one["games_per_cpu_s"], two["games_per_cpu_s"]],
            "cpu_ratio": round(two["games_per_cpu_s"] / one["games_per_cpu_s"], 3)
            if one["games_per_cpu_s"] and two["games_per_cpu_s"] else None,
            "load": load()}


def simulate_command(players: int, games: int) -> dict[str, Any]:
    """``exlibris simulate --workers 1`` of random seats, the whole command: its
    decisions (from its rows) a second of wall time, over the floor's; and the same
    by CPU time (the command's, from the kernel's account of the child; the floor's,
    of this process), which a loaded machine moves less."""
    import resource

    floor = engine_bench.load_floor()

    def floor_run(count: int) -> tuple[float, int, float]:
        cpu = time.process_time()
        seconds, decisions = floor.run(count, players)
        return seconds, decisions, time.process_time() - cpu
    with tempfile.TemporaryDirectory() as folder:
        rows = os.path.join(folder, "rows.jsonl")
        command = [sys.executable, "-m", "exlibris", "simulate", "--workers", "1",
                   "--seats", "random", "--players", str(players), "--games", str(games),
                   "--out", rows, "--events", os.path.join(folder, "events.jsonl"),
                   "--json"]
        floor.run(max(1, games // 4), players, seed=-games)  # warm
        before = floor_run(games)
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
        wall = time.perf_counter() - started
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
        after = floor_run(games)
        with open(rows, encoding="utf-8") as lines:
            per_game = {row["game"]: row["decisions"] for row in map(json.loads, lines)}
    decisions = sum(per_game.values())
    floor_rate = (before[1] + after[1]) / (before[0] + after[0])
    floor_cpu_rate = (before[1] + after[1]) / (before[2] + after[2])
    rate = decisions / wall
    return {"players": players, "games": games, "decisions_per_s": round(rate),
            "floor_decisions_per_s": round(floor_rate), "ratio": round(rate / floor_rate, 3),
            "command_cpu_s": round(cpu, 3), "cores_obtained": round(cpu / wall, 2),
            "cpu_ratio": round(decisions / cpu / floor_cpu_rate, 3), "load": load()}


# ---------------------------------------------------------------- the table


def table(results: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, goal) rows."""
    pure = results["pure"]
    compiled = results.get("compiled")
    rows = [("engine, random seats, " + pure["engine"],
             " / ".join(f"{pure['random_over_floor'][str(n)]:.2f}" for n in PLAYERS)
             + " of the floor at 2 / 3 / 4 / 5 players", GOALS["engine_pure"])]
    if compiled:
        rows.append(("engine, random seats, " + compiled["engine"],
                     " / ".join(f"{compiled['random_over_floor'][str(n)]:.2f}"
                                for n in PLAYERS) + " of the floor", GOALS["engine_compiled"]))
    else:
        rows.append(("engine, random seats, compiled", results["compiled_note"],
                     GOALS["engine_compiled"]))
    greedy = f"{pure['greedy_floor_decisions']:.1f} (pure)"
    if compiled:
        greedy += f" / {compiled['greedy_floor_decisions']:.1f} (compiled)"
    rows.append(("greedy decision, in floor decisions", greedy,
                 f"{GOALS['greedy_pure']} / {GOALS['greedy_compiled']}"))
    over = results.get("compiled_over_pure")
    rows.append(("compiled over pure (engine, random x2)",
                 f"{over:.2f}x" if over else results["compiled_note"],
                 GOALS["compiled_over_pure"]))
    install = results["install"]
    rows.append(("compiled install over pure install",
                 f"{install['ratio']:.1f}x" if install.get("ratio") else install["note"],
                 GOALS["install"]))
    start = results["startup"]
    rows.append(("a game's first question, warm cache",
                 f"{start['full screen']:.1f}x full screen, {start['line mode']:.1f}x line "
                 f"mode (python -c pass {start['python_c_pass_ms']:.0f} ms)",
                 GOALS["first_question"]))
    rows.append(("validate with no cache", f"{start['validate']:.1f}x python -c pass",
                 GOALS["validate_no_cache"]))
    scaling = results["simulate_scaling"]
    cores = scaling["cores_obtained"]
    rows.append(("simulate, 2 workers over 1", f"{scaling['ratio']:.2f}x (cores obtained "
                 f"{cores[0]} / {cores[1]}; games a CPU-second, 2 over 1: "
                 f"{scaling['cpu_ratio']})", GOALS["simulate_2_over_1"]))
    command = results["simulate_command"]
    rows.append(("simulate --workers 1, random seats, whole command",
                 " / ".join(f"{c['ratio']:.2f}" for c in command)
                 + " of the floor at " + " / ".join(str(c["players"]) for c in command)
                 + " players (by CPU time: "
                 + " / ".join(f"{c['cpu_ratio']:.2f}" for c in command) + "; cores obtained "
                 + " / ".join(f"{c['cores_obtained']}" for c in command) + ")",
                 GOALS["simulate_floor"]))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: few games and rounds (figures rough)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--compiled-python", help="the interpreter of a compiled install")
    parser.add_argument("--install", action="store_true",
                        help="also time the compiled install (bench/install_time.py)")
    parser.add_argument("--games", type=int, help="games a row of the engine")
    parser.add_argument("--warmup", type=int, help="warm-up games a row of the engine")
    parser.add_argument("--engine-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    games = args.games or (20 if args.quick else 200)
    warmup = args.warmup if args.warmup is not None else (5 if args.quick else 50)
    if args.engine_only:  # what another interpreter is asked (engine_rows_of)
        print(json.dumps(engine_rows(games, warmup)))
        return 0
    results: dict[str, Any] = {"load_before": load(), "quick": args.quick}
    results["pure"] = _engine_here(games, warmup)  # its own process: pinned to one core
    python, note = compiled_python(args.compiled_python)
    results["compiled_note"] = note
    if python is not None:
        results["compiled"] = engine_rows_of(python, games, warmup)
        results["compiled_over_pure"] = round(
            results["compiled"]["random_over_floor"]["2"]
            / results["pure"]["random_over_floor"]["2"], 2)
    results["install"] = install_ratio() if args.install else \
        {"ratio": None, "note": "not measured (--install runs bench/install_time.py)"}
    results["startup"] = startup_rows(3 if args.quick else 9)
    results["simulate_scaling"] = simulate_scaling(20 if args.quick else 300)
    results["simulate_command"] = [simulate_command(n, 10 if args.quick else 100)
                                   for n in (2, 4)]
    results["load_after"] = load()
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"issue 42's speed table, measured in one run{' (--quick: rough)' * args.quick}; "
          f"load average before {results['load_before']}, after {results['load_after']} "
          f"on {os.cpu_count()} cores")
    rows = table(results)
    width = max(len(r[0]) for r in rows)
    for figure, measured, goal in rows:
        print(f"{figure:<{width}}  {measured}  [goal {goal}]")
    return 0


def _engine_here(games: int, warmup: int) -> dict[str, Any]:
    """``engine_rows`` in a process of its own (pinned to one core, as the compiled
    build's), run by this interpreter with this process's ``PYTHONPATH``."""
    done = subprocess.run([sys.executable, __file__, "--engine-only", "--games", str(games),
                           "--warmup", str(warmup)], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


if __name__ == "__main__":
    raise SystemExit(main())
