"""Engine benchmark: full games per second and decisions per second, on one core.

Not a test. Runs whole games in-process, one after another, after a warm-up
(content compiled, caches filled), and times them with ``time.perf_counter``:

* random seats at two and at four players: games/s, decisions/s, mean decisions a game;
* greedy against random at two players (seats alternate): games/s, and the greedy
  bot's own mean time per decision (time spent inside ``GreedyAgent.decide``,
  its view included).

    python bench/engine_bench.py                 # 200 games a row, seeds 0..199
    python bench/engine_bench.py --games 500 --seed 1000
    python bench/engine_bench.py --json
    python bench/engine_bench.py --variant expanded   # games of that variant (the floor's as ever)

See bench/README.md for what the figures mean and the targets.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.build_info import engine_build
from exlibris.catalog import load_catalog
from exlibris.engine.errors import RulesError
from exlibris.engine.flow import check_playable, new_game, play
from exlibris.engine.shipped_sources import handlers
from exlibris.validation import resolve_settings

TARGET_RATIO = 0.40  # engine decisions/s over the floor's, random two-player games
WARMUP = 50  # warm-up games of each row before anything is timed
BLOCK = 20  # seeds the floor and the engine play in turn within a random row


def load_floor() -> Any:
    """``bench/floor.py``, the pure-Python floor the engine is measured against."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floor.py")
    spec = importlib.util.spec_from_file_location("exlibris_bench_floor", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


@dataclass
class Row:
    name: str
    players: int
    games: int
    seconds: float
    decisions: int
    rounds: int
    games_per_s: float
    decisions_per_s: float
    decisions_per_game: float
    agent_us_per_decision: float | None = None  # the timed agent's own cost
    agent_decisions: int | None = None
    floor_decisions_per_s: float | None = None  # bench/floor.py, same players, same run
    ratio: float | None = None  # decisions/s over the floor's


class Timed:
    """Wraps an agent and adds up the time spent in its ``decide`` (view building
    is done by the engine before the call, so it is timed separately)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.needs_view = getattr(inner, "needs_view", False)
        self.seconds = 0.0
        self.calls = 0

    def decide(self, view: Any, decision: Any) -> int:
        t = time.perf_counter()
        index = self.inner.decide(view, decision)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        return index


class TimedViews:
    """The view function, timed: part of what a bot with ``needs_view`` costs."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self, game: Any, seat: int) -> Any:
        t = time.perf_counter()
        view = player_view(game, seat)
        self.seconds += time.perf_counter() - t
        return view


def run(catalog: Any, settings: Any, name: str, players: int, seeds: Sequence[int],
        make_agents: Callable[[int], list[Any]], views: Any = player_view,
        timed: Callable[[list[Any]], list[Timed]] | None = None,
        variant: str = "standard") -> Row:
    decisions = rounds = 0
    timers: list[Timed] = []
    elapsed = 0.0
    gc.collect()  # every timed row starts from the same heap (the floor's too)
    for seed in seeds:
        agents = make_agents(seed)
        if timed is not None:
            timers += timed(agents)
        t = time.perf_counter()
        game = new_game(catalog, settings, agents, seed=seed, views=views, variant=variant)
        outcome = play(game)
        elapsed += time.perf_counter() - t
        decisions += outcome.decisions
        rounds += outcome.rounds
    games = len(seeds)
    row = Row(name, players, games, elapsed, decisions, rounds,
              games / elapsed, decisions / elapsed, decisions / games)
    if timers:
        calls = sum(t.calls for t in timers)
        spent = sum(t.seconds for t in timers)
        if isinstance(views, TimedViews):
            spent += views.seconds
        row.agent_decisions = calls
        row.agent_us_per_decision = spent / calls * 1e6 if calls else 0.0
    return row


def against_floor(catalog: Any, settings: Any, floor: Any, players: int, seeds: range,
                  variant: str = "standard") -> Row:
    """A ``random xN`` row with its ratio: the floor's games and the engine's taken in
    turns, ``BLOCK`` seeds at a time, so both see the same machine load even when it
    changes within the row; each side's times and decisions are added up."""
    blocks = [seeds[i:i + BLOCK] for i in range(0, len(seeds), BLOCK)]
    floor_s = 0.0
    floor_decisions = 0
    parts = []
    for block in blocks:
        gc.collect()
        seconds, decisions = floor.run(len(block), players, seed=block.start)
        floor_s += seconds
        floor_decisions += decisions
        parts.append(run(catalog, settings, f"random x{players}", players, block,
                         random_agents(players), variant=variant))
    elapsed = sum(p.seconds for p in parts)
    decisions = sum(p.decisions for p in parts)
    row = Row(f"random x{players}", players, len(seeds), elapsed, decisions,
              sum(p.rounds for p in parts), len(seeds) / elapsed, decisions / elapsed,
              decisions / len(seeds))
    row.floor_decisions_per_s = floor_decisions / floor_s
    row.ratio = row.decisions_per_s / row.floor_decisions_per_s
    return row


def random_agents(players: int) -> Callable[[int], list[Any]]:
    return lambda seed: [RandomAgent(seed * 10 + i) for i in range(players)]


def greedy_vs_random(seed: int) -> list[Any]:
    greedy_seat = seed % 2
    return [Timed(GreedyAgent(seed)) if i == greedy_seat else RandomAgent(seed + 7)
            for i in range(2)]


def pin_one_core() -> str:
    """Keep the process on one CPU where the OS allows it (the figures are per core)."""
    if hasattr(os, "sched_setaffinity"):
        try:
            cpu = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpu})
            return f"pinned to CPU {cpu}"
        except OSError:
            pass
    return "not pinned"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a row (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--warmup", type=int, default=WARMUP,
                        help=f"warm-up games a row (default {WARMUP})")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    parser.add_argument("--variant", default="standard",
                        help="the games' variant (default standard; the floor is the "
                             "standard game's shape whatever it is)")
    args = parser.parse_args(argv)
    variant = args.variant

    pinned = "not pinned" if args.no_pin else pin_one_core()
    t = time.perf_counter()
    catalog = load_catalog()
    try:
        settings = resolve_settings(variant, catalog.variants)
    except ValueError as exc:
        parser.error(f"--variant: {exc}")
    try:
        for players in (2, 3, 4):  # the rows' tables
            check_playable(settings, players, variant)
    except RulesError as exc:
        parser.error(f"--variant {variant}: {exc} (the rows are two to four players)")
    load_s = time.perf_counter() - t

    floor = load_floor()
    # warm-up: every effect and condition of the content compiled (as a long run of
    # games has them), then games on seeds outside the measured range, long enough that
    # the effects that run often have become Python source (compiler.PYTHON_AFTER)
    for _ in handlers(catalog):
        pass
    warm = range(-args.warmup, 0)
    for players in (2, 3, 4):
        run(catalog, settings, "warm-up", players, warm, random_agents(players),
            variant=variant)
        floor.run(args.warmup, players, seed=-args.warmup)
    run(catalog, settings, "warm-up", 2, warm, greedy_vs_random, variant=variant)

    seeds = range(args.seed, args.seed + args.games)
    rows = []
    for players in (2, 3, 4):
        rows.append(against_floor(catalog, settings, floor, players, seeds, variant))
    views = TimedViews()
    rows.append(run(catalog, settings, "greedy vs random", 2, seeds, greedy_vs_random,
                    views=views,
                    timed=lambda agents: [a for a in agents if isinstance(a, Timed)],
                    variant=variant))

    meta = {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": pinned,
        "engine": engine_build(),  # C extensions (hatch_build.py) or plain Python
        "variant": variant,
        "seeds": [args.seed, args.seed + args.games - 1],
        "games": args.games,
        "warmup_games": args.warmup,
        "catalog_load_s": round(load_s, 3),
        "target_ratio": TARGET_RATIO,
    }
    if args.json:
        print(json.dumps({"meta": meta, "rows": [asdict(r) for r in rows]}, indent=2))
        return 0

    print(f"exlibris engine bench: {meta['implementation']} {meta['python']} "
          f"on {meta['platform']} ({pinned}); engine {meta['engine']}")
    print(f"{variant} games, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"{args.games} games a row, "
          f"{args.warmup} warm-up games; catalog loaded in {load_s:.2f}s")
    print()
    head = f"{'row':<17}{'games':>6}{'seconds':>9}{'games/s':>9}{'decisions/s':>13}" \
           f"{'dec/game':>10}{'floor dec/s':>13}{'ratio':>7}"
    print(head)
    print("-" * len(head))
    for r in rows:
        floor_s = f"{r.floor_decisions_per_s:>13,.0f}" if r.floor_decisions_per_s else " " * 13
        ratio = f"{r.ratio:>7.2f}" if r.ratio is not None else ""
        print(f"{r.name:<17}{r.games:>6}{r.seconds:>9.2f}{r.games_per_s:>9.1f}"
              f"{r.decisions_per_s:>13,.0f}{r.decisions_per_game:>10.1f}{floor_s}{ratio}")
    greedy = rows[-1]
    print()
    print(f"greedy bot: {greedy.agent_us_per_decision:,.0f} us a decision "
          f"(view included; {greedy.agent_decisions:,} decisions)")
    two = rows[0].ratio or 0.0
    verdict = "meets" if two >= TARGET_RATIO else "below"
    print(f"engine/floor ratio, random x2: {two:.2f} ({verdict} the target of {TARGET_RATIO:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
