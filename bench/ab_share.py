"""A/B of two checkouts: one engine function's share of a game's time, by process time.

(``bench/ab_trees.py`` compares engine/floor ratios alone, at any player count.)

Not a test. Runs each tree in turn, alternating, each run a fresh process whose
working directory is the tree (so its ``exlibris`` is imported). A run plays warm-up
games, then times with ``time.process_time`` the tree's ``bench/floor.py`` run
(``run(GAMES, 2)``) and GAMES random two-player games; the ratio is the engine's
decisions per second over the floor's. A second pass of the same games times one
function of ``exlibris.engine.flow`` (by default ``placement_options``) to give its
share of the games' process time.

    python bench/ab_share.py /work/main .              # 3 rounds of 100 games
    python bench/ab_share.py A B --rounds 5 --games 200 --function resolve
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Sequence

CHILD = r'''
import importlib.util, json, os, sys, time
sys.path.insert(0, os.getcwd())
from exlibris.agents import RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine import flow
from exlibris.validation import resolve_settings
spec = importlib.util.spec_from_file_location("ab_floor", "bench/floor.py")
floor = importlib.util.module_from_spec(spec); sys.modules["ab_floor"] = floor
spec.loader.exec_module(floor)
games, name = int(sys.argv[1]), sys.argv[2]
catalog = load_catalog(); settings = resolve_settings("standard", catalog.variants)
def play(seeds):
    decisions = 0
    for seed in seeds:
        game = flow.new_game(catalog, settings, [RandomAgent(seed * 10 + i) for i in range(2)],
                             seed=seed, views=player_view)
        decisions += flow.play(game).decisions
    return decisions
play(range(-10, 0)); floor.run(10, 2, seed=-10)
t = time.process_time(); _, floor_decisions = floor.run(games, 2, seed=0)
floor_s = time.process_time() - t
t = time.process_time(); decisions = play(range(games)); engine_s = time.process_time() - t
inner, spent = getattr(flow, name), [0.0]
def timed(*args, **kw):
    t0 = time.process_time()
    try:
        return inner(*args, **kw)
    finally:
        spent[0] += time.process_time() - t0
setattr(flow, name, timed)
t = time.process_time(); play(range(games)); again_s = time.process_time() - t
print(json.dumps({"ratio": (decisions / engine_s) / (floor_decisions / floor_s),
                  "us_per_decision": engine_s / decisions * 1e6, "share": spent[0] / again_s}))
'''


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs=2, help="two checkouts (A, B)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--function", default="placement_options",
                        help="a function of exlibris.engine.flow whose share is given")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, float]]] = {tree: [] for tree in args.trees}
    for _ in range(args.rounds):
        for tree in args.trees:
            done = subprocess.run([sys.executable, "-c", CHILD, str(args.games), args.function],
                                  cwd=tree, capture_output=True, text=True, check=False)
            if done.returncode:
                print(done.stderr, file=sys.stderr)
                return 1
            runs[tree].append(json.loads(done.stdout))
            print(tree, {k: round(v, 3) for k, v in runs[tree][-1].items()}, flush=True)
    medians = {tree: {k: statistics.median(r[k] for r in rows) for k in rows[0]}
               for tree, rows in runs.items()}
    for tree, m in medians.items():
        print(f"{tree}: engine/floor {m['ratio']:.3f}, {m['us_per_decision']:.1f} us a "
              f"decision, {args.function} {m['share']:.1%} of the games' time (medians)")
    a, b = (medians[tree]["ratio"] for tree in args.trees)
    print(f"ratio B/A: {b / a:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
