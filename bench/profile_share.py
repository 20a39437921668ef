"""The share of the engine's time spent in some of its functions, for one source tree.

Not a test. Plays random games of the tree's exlibris under cProfile, timed in process
time, and adds up the own time of the functions named by ``--region`` patterns
(``FILE`` or ``FILE:FUNCTION``, the file by the end of its path) and of the builtins
they call; prints that share of all the time profiled and the functions by own time.
Run it on two trees to compare a region before and after a change:

    python bench/profile_share.py /work/main --region model/shelf.py --region engine/zones.py
    python bench/profile_share.py . --games 150 --region engine/game.py:ask --top 20

cProfile adds a cost to every call, so the share weighs many small calls more than
the plain run does; ``bench/ab_trees.py`` gives the speed itself.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Sequence


def matches(patterns: list[tuple[str, str | None]], file: str, function: str) -> bool:
    return any(file.endswith(path) and (name is None or name == function)
               for path, name in patterns)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", help="the checkout whose exlibris is profiled")
    parser.add_argument("--region", action="append", default=[],
                        help="FILE or FILE:FUNCTION (repeatable)")
    parser.add_argument("--games", type=int, default=150, help="games (default 150)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--top", type=int, default=0, help="region functions listed")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.tree)
    from exlibris.agents import RandomAgent
    from exlibris.agents.view import player_view
    from exlibris.catalog import load_catalog
    from exlibris.engine.flow import new_game, play
    from exlibris.validation import resolve_settings

    patterns = [(p.partition(":")[0], p.partition(":")[2] or None) for p in args.region]
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)

    def game(seed: int) -> None:
        agents = [RandomAgent(seed * 10 + i) for i in range(args.players)]
        play(new_game(catalog, settings, agents, seed=seed, views=player_view))

    game(-1)  # warm-up
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for seed in range(args.games):
        game(seed)
    profiler.disable()
    total = region = 0.0
    rows = []
    for (file, _, function), (_, calls, own, _, callers) in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        total += own
        if file == "~":  # a builtin: the part of its time spent for region callers
            region += sum(v[2] for (f, _, fn), v in callers.items() if matches(patterns, f, fn))
        elif matches(patterns, file, function):
            region += own
            where = "/".join(file.rsplit("/", 2)[-2:])  # generated code: "<effect x>"
            rows.append((own, f"{where}:{function}", calls))
    print(f"{args.tree}: region {region:.3f}s of {total:.3f}s profiled = "
          f"{region / total * 100:.1f}% ({args.games} games, {args.players} players)")
    for own, name, calls in sorted(rows, reverse=True)[:args.top]:
        print(f"  {own / total * 100:5.2f}%  {name} ({calls} calls)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
