"""Compare two source trees of exlibris: engine/floor ratios by process time, alternating.

Not a test. Each measurement is a fresh process on one tree: it warms up, then
times ``bench/floor.py``'s ``run(N, players)`` and N random games of the engine,
both with ``time.process_time`` (CPU time: other processes on a shared machine
count less than in wall time), and prints decisions/s of each and their ratio.
The trees take turns (A B, B A, A B...), so both see the same load; the medians
are printed, and B's median ratio over A's. With ``--function NAME`` a second pass
of the same games times one function of ``exlibris.engine.flow`` (say
``placement_options``) and gives its share of the games' process time.

    python bench/ab_trees.py /path/to/main /path/to/branch
    python bench/ab_trees.py A B --rounds 4 --games 150 --players 3
    python bench/ab_trees.py A B --function placement_options
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


def measure(tree: str, games: int, players: int, warmup: int, function: str | None = None
            ) -> dict[str, float]:
    """One measurement, in this process, of the package in ``tree``."""
    sys.path.insert(0, tree)
    from exlibris.agents import RandomAgent
    from exlibris.catalog import load_catalog
    from exlibris.engine import flow
    from exlibris.validation import resolve_settings

    spec = importlib.util.spec_from_file_location("ab_floor", os.path.join(tree, "bench",
                                                                           "floor.py"))
    assert spec is not None and spec.loader is not None
    floor = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = floor
    spec.loader.exec_module(floor)
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)

    def engine(seeds: range) -> int:
        return sum(flow.play(flow.new_game(
            catalog, settings, [RandomAgent(s * 10 + i) for i in range(players)], seed=s)
        ).decisions for s in seeds)

    engine(range(-warmup, 0))
    floor.run(warmup, players, seed=-warmup)
    t = time.process_time()
    _, floor_decisions = floor.run(games, players)
    floor_s = time.process_time() - t
    t = time.process_time()
    decisions = engine(range(games))
    engine_s = time.process_time() - t
    found = {"ratio": (decisions / engine_s) / (floor_decisions / floor_s),
             "engine_us": engine_s / decisions * 1e6}
    if function is not None:  # the same games again, the function timed
        inner, spent = getattr(flow, function), [0.0]

        def timed(*args: object, **kw: object) -> object:
            start = time.process_time()
            try:
                return inner(*args, **kw)
            finally:
                spent[0] += time.process_time() - start

        setattr(flow, function, timed)
        t = time.process_time()
        engine(range(games))
        found["share"] = spent[0] / (time.process_time() - t)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="tree A (e.g. a checkout of main)")
    parser.add_argument("b", help="tree B")
    parser.add_argument("--rounds", type=int, default=3, help="measurements a tree (3)")
    parser.add_argument("--games", type=int, default=100, help="games a measurement (100)")
    parser.add_argument("--players", type=int, default=2, help="seats (2)")
    parser.add_argument("--warmup", type=int, default=20, help="warm-up games (20)")
    parser.add_argument("--function", help="a function of exlibris.engine.flow: its share "
                        "of the games' time too")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:  # a child process: measure tree A once
        print(json.dumps(measure(os.path.abspath(args.a), args.games, args.players,
                                 args.warmup, args.function)))
        return 0
    found: dict[str, list[dict[str, float]]] = {args.a: [], args.b: []}
    for i in range(args.rounds):
        for tree in (args.a, args.b) if i % 2 == 0 else (args.b, args.a):
            out = subprocess.run(
                [sys.executable, os.path.abspath(__file__), tree, tree, "--one",
                 "--games", str(args.games), "--players", str(args.players),
                 "--warmup", str(args.warmup),
                 *(["--function", args.function] if args.function else [])],
                capture_output=True, text=True, check=True, cwd=os.path.dirname(
                    os.path.abspath(tree)), env={k: v for k, v in os.environ.items()
                                                 if k != "PYTHONPATH"})
            row = json.loads(out.stdout)
            found[tree].append(row)
            share = f"  {args.function} {row['share']:.1%}" if args.function else ""
            print(f"{tree:40} ratio {row['ratio']:.3f}  {row['engine_us']:.1f} us a decision"
                  f"{share}", flush=True)
    medians = {tree: statistics.median(r["ratio"] for r in rows) for tree, rows in found.items()}
    for tree, rows in found.items():
        share = f"  {args.function} {statistics.median(r['share'] for r in rows):.1%}" \
            if args.function else ""
        print(f"{tree:40} median ratio {medians[tree]:.3f}  median "
              f"{statistics.median(r['engine_us'] for r in rows):.1f} us a decision{share}")
    print(f"B/A: {medians[args.b] / medians[args.a]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
