"""Profile the engine: N random two-player games under cProfile.

Prints the top functions by cumulative time and by total (own) time.

    python bench/profile_engine.py                  # 100 games, seeds 0..99
    python bench/profile_engine.py --games 300 --seed 1000 --top 40
    python bench/profile_engine.py --out engine.prof   # also save for snakeviz etc.

The catalog is loaded and one game is played before profiling starts, so the
figures are the games alone.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Sequence

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--greedy", action="store_true",
                        help="seat 0 is the greedy bot instead of a random one")
    parser.add_argument("--top", type=int, default=25, help="rows a table (default 25)")
    parser.add_argument("--out", help="also write the raw profile to this file")
    args = parser.parse_args(argv)

    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)

    def agents(seed: int) -> list[object]:
        seats: list[object] = [RandomAgent(seed * 10 + i) for i in range(args.players)]
        if args.greedy:
            seats[0] = GreedyAgent(seed)
        return seats

    play(new_game(catalog, settings, agents(-1), seed=-1, views=player_view))  # warm-up

    seeds = range(args.seed, args.seed + args.games)
    decisions = 0
    profiler = cProfile.Profile()
    t = time.perf_counter()
    profiler.enable()
    for seed in seeds:
        decisions += play(new_game(catalog, settings, agents(seed), seed=seed,
                                   views=player_view)).decisions
    profiler.disable()
    elapsed = time.perf_counter() - t

    print(f"{args.games} games ({args.players} players{', greedy seat 0' if args.greedy else ''}"
          f"), seeds {args.seed}..{args.seed + args.games - 1}: {elapsed:.2f}s under the "
          f"profiler, {decisions:,} decisions (Python {sys.version.split()[0]})")
    if args.out:
        profiler.dump_stats(args.out)
        print(f"profile written to {args.out}")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs()
    for key, title in (("cumulative", "cumulative time"), ("tottime", "total (own) time")):
        print(f"\n=== top {args.top} by {title} ===")
        stats.sort_stats(key).print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
