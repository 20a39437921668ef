"""A/B the engine of two source trees against the floor, in process time, alternating.

Not a test. Each run is a fresh process that imports exlibris from one tree, plays
the floor (``bench/floor.py`` of that tree) and then random games, and reports the
engine's decisions/s over the floor's, both in ``time.process_time`` (CPU time of the
process: what other processes on a shared machine do counts much less). Runs
alternate between the trees (A B, B A, ...) so that both see the same machine; the
medians are compared.

    python bench/ab_trees.py /work/main .               # 5 rounds of 200 games
    python bench/ab_trees.py OLD NEW --rounds 7 --games 300 --players 3
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence


def one(root: str, games: int, players: int) -> dict[str, float]:
    """One measurement with the exlibris of ``root`` (run in its own process)."""
    sys.path.insert(0, root)
    from exlibris.agents import RandomAgent
    from exlibris.agents.view import player_view
    from exlibris.catalog import load_catalog
    from exlibris.engine.flow import new_game, play
    from exlibris.validation import resolve_settings

    spec = importlib.util.spec_from_file_location("ab_floor", os.path.join(root, "bench",
                                                                           "floor.py"))
    assert spec is not None and spec.loader is not None
    floor = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = floor  # dataclasses look their module up while it loads
    spec.loader.exec_module(floor)
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)

    def engine(seeds: range) -> tuple[float, int]:
        decisions = 0
        t = time.process_time()
        for seed in seeds:
            agents = [RandomAgent(seed * 10 + i) for i in range(players)]
            decisions += play(new_game(catalog, settings, agents, seed=seed,
                                       views=player_view)).decisions
        return time.process_time() - t, decisions

    engine(range(-5, 0))  # warm-up: content compiled, caches filled
    floor.run(5, players, seed=-5)
    t = time.process_time()
    _, floor_decisions = floor.run(games, players)
    floor_s = time.process_time() - t
    engine_s, engine_decisions = engine(range(games))
    floor_rate, engine_rate = floor_decisions / floor_s, engine_decisions / engine_s
    return {"ratio": engine_rate / floor_rate, "us_per_decision": engine_s / engine_decisions * 1e6}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the reference tree (a checkout's root)")
    parser.add_argument("b", help="the tree compared with it")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each tree (default 5)")
    parser.add_argument("--games", type=int, default=200, help="games a run (default 200)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.a, args.games, args.players)))
        return 0
    trees = [os.path.abspath(args.a), os.path.abspath(args.b)]
    found: dict[str, list[dict[str, float]]] = {tree: [] for tree in trees}
    for n in range(args.rounds):
        for tree in (trees if n % 2 == 0 else trees[::-1]):
            run = subprocess.run(
                [sys.executable, os.path.abspath(__file__), tree, tree, "--one",
                 "--games", str(args.games), "--players", str(args.players)],
                capture_output=True, text=True, cwd=tree, check=True)
            found[tree].append(json.loads(run.stdout))
    medians = []
    for tree in trees:
        ratios = [r["ratio"] for r in found[tree]]
        us = statistics.median(r["us_per_decision"] for r in found[tree])
        medians.append(statistics.median(ratios))
        print(f"{tree}: engine/floor {medians[-1]:.3f} (runs "
              f"{', '.join(f'{r:.3f}' for r in ratios)}), {us:.1f} us of CPU a decision")
    print(f"b over a: {medians[1] / medians[0]:.3f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
