"""What a fork and a determinization cost, as ratios to the floor measured in the same run.

    python bench/forward_bench.py                 # 10 two-player random games
    python bench/forward_bench.py --games 20 --players 3 --variant standard

At every decision of seeded random games past the first checkpoint the game is
forked (``forward.fork``: the copy of the checkpoint's copy) and the fork is
replayed to the decision and determinized for the deciding seat. The floor
(``bench/floor.py``) runs in turn with the engine, a game at a time, so both see
the same load; each figure is operations a second over floor decisions a second.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

import floor

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.engine import forward
from exlibris.engine.decisions import Decision
from exlibris.engine.flow import new_game, play
from exlibris.engine.game import Game
from exlibris.validation import resolve_settings


class Reached(BaseException):
    """Stops a fork once it stands at the decision."""


class Timer:
    """A random seat that, at each forkable decision, times a fork and a determinization."""

    needs_view = False

    def __init__(self, seed: int, spent: dict[str, float]) -> None:
        self.random = RandomAgent(seed)
        self.rng = random.Random(seed)
        self.spent = spent
        self.game: Game | None = None

    def sit_at(self, game: Game) -> None:
        self.game = game
        forward.record(game)

    def decide(self, view: Any, decision: Decision) -> int:
        game = self.game
        if game is not None and forward.forkable(game):
            spent = self.spent
            started = time.perf_counter()
            branch = forward.fork(game)
            forked = time.perf_counter()
            times: list[float] = []

            def arrived(fork: Game, _: Decision) -> None:
                times.append(time.perf_counter())
                forward.determinize(fork, decision.seat, self.rng)
                times.append(time.perf_counter())
                raise Reached

            with contextlib.suppress(Reached):
                branch.play([], arrived=arrived)
            spent["fork"] += forked - started
            spent["replay"] += times[0] - forked
            spent["determinize"] += times[1] - times[0]
            spent["count"] += 1
        return self.random.decide(view, decision)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    settings = resolve_settings(args.variant, catalog.variants)
    spent = dict.fromkeys(("fork", "replay", "determinize", "count"), 0.0)
    floor_seconds = floor_decisions = 0.0
    for i in range(args.games):
        seed = args.seed + i
        gc.collect()
        seconds, decisions = floor.run(1, args.players, seed)
        floor_seconds += seconds
        floor_decisions += decisions
        agents = [Timer(seed * 10 + s, spent) for s in range(args.players)]
        play(new_game(catalog, settings, agents, seed=seed, variant=args.variant))
    floor_rate = floor_decisions / floor_seconds
    count = spent["count"]
    result = {"forks": int(count), "floor_decisions_a_second": floor_rate}
    for part in ("fork", "replay", "determinize"):
        rate = count / spent[part]
        result[part] = {"a_second": rate, "ratio_to_floor": rate / floor_rate}
    whole = count / (spent["fork"] + spent["replay"] + spent["determinize"])
    result["fork_replay_determinize"] = {"a_second": whole, "ratio_to_floor": whole / floor_rate}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{int(count)} forks of {args.games} {args.variant} games, {args.players} players; "
              f"floor {floor_rate:,.0f} decisions a second")
        for part in ("fork", "replay", "determinize", "fork_replay_determinize"):
            figures = result[part]
            print(f"  {part:24} {figures['a_second']:>10,.0f} a second = "
                  f"{figures['ratio_to_floor']:.4f} of the floor")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
