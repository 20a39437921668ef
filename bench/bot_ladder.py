"""Head-to-head win rates of two bots, seats rotated, with Wilson 95% intervals and
each bot's seconds a decision (mean and slowest), and the search bot's iterations a
second as a ratio to the floor (``bench/floor.py``) measured in the same run.

    python bench/bot_ladder.py mcts greedy --games 100
    python bench/bot_ladder.py mcts:400 greedy --players 3 --games 100 --seed 1000

Game ``i`` plays seed ``seed + i``; the seats turn by one position each game, so
every bot sits at every position equally. A game's bots are seeded as
``exlibris play`` seeds them, so ``exlibris play --seats ... --seed S`` replays it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import floor
from bot_specs import make_spec, spec_problem

from exlibris.agents import bot_kind, make_bot
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.flow import new_game, play
from exlibris.interactive.session import bot_seed
from exlibris.validation import resolve_settings


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Timed:
    """A bot whose answers are timed: wall seconds, and CPU seconds if ``cpu`` is given
    (the steadier figure on a loaded machine)."""

    def __init__(self, inner: Any, times: list[float], searched: list[tuple[int, float]],
                 cpu: list[float] | None = None) -> None:
        self.inner = inner
        self.needs_view = getattr(inner, "needs_view", False)
        self.times = times
        self.cpu = cpu
        self.searched = searched  # (iterations, seconds) of each search

    def sit_at(self, game: Any) -> None:
        sit_at = getattr(self.inner, "sit_at", None)
        if sit_at is not None:
            sit_at(game)

    def decide(self, view: Any, decision: Any) -> int:
        started, cpu = time.perf_counter(), time.process_time()
        index = self.inner.decide(view, decision)
        spent = time.perf_counter() - started
        self.times.append(spent)
        if self.cpu is not None:
            self.cpu.append(time.process_time() - cpu)
        iterations = getattr(self.inner, "last_iterations", 0)
        if iterations:
            self.searched.append((iterations, spent))
        return index


def bot_problem(name: str) -> str | None:
    """What is wrong with a bot's name: a seat name (``mcts:25/classic``) or a spec of
    ``bench/bot_specs.py`` (``mcts:100/root=halving``); None when it names a bot."""
    return None if bot_kind(name) is None else spec_problem(name)


def made_bot(name: str, seed: int) -> Any:
    """The bot ``name`` gives (see :func:`bot_problem`), seeded."""
    return make_bot(name, seed) if bot_kind(name) is None else make_spec(name, seed)


def play_game(catalog: Any, settings: Any, seats: list[str], seed: int, variant: str,
              times: dict[str, list[float]], searched: dict[str, list[tuple[int, float]]],
              cpu: dict[str, list[float]] | None = None) -> tuple[Any, list[str]]:
    """Game ``seed`` with the bots ``seats`` (seat names), seeded as ``exlibris play``
    seeds them; each answer's seconds go to ``times[name]`` (its CPU seconds to
    ``cpu[name]`` if given), each search's iterations and seconds to
    ``searched[name]``. Returns the outcome and the players' names."""
    agents = [Timed(made_bot(kind, bot_seed(seed, s)), times.setdefault(kind, []),
                    searched.setdefault(kind, []),
                    cpu.setdefault(kind, []) if cpu is not None else None)
              for s, kind in enumerate(seats)]
    names = [f"{kind} {s + 1}" for s, kind in enumerate(seats)]
    game = new_game(catalog, settings, agents, seed=seed, names=names,
                    views=player_view, variant=variant)
    return play(game), names


def rotated(line: list[str], game: int) -> list[str]:
    """The seats of game ``game``: ``line`` turned by one position a game."""
    shift = game % len(line)
    return line[-shift:] + line[:-shift] if shift else list(line)


def _floor_rate() -> float:
    """The floor's decisions a second now, for speeds quoted as ratios to it."""
    seconds, decisions = floor.run(20, 2)
    return decisions / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for name in (args.first, args.second):
        if bot_problem(name) is not None:
            parser.error(str(bot_problem(name)))
    catalog = load_catalog()
    settings = resolve_settings(args.variant, catalog.variants)
    line = [args.first] + [args.second] * (args.players - 1)
    wins = 0.0
    times: dict[str, list[float]] = {args.first: [], args.second: []}
    cpu: dict[str, list[float]] = {args.first: [], args.second: []}
    searched: dict[str, list[tuple[int, float]]] = {args.first: [], args.second: []}
    seeds = []
    for i in range(args.games):
        seed = args.seed + i
        seats = rotated(line, i)
        mine = seats.index(args.first)
        outcome, names = play_game(catalog, settings, seats, seed, args.variant, times,
                                   searched, cpu)
        winners = outcome.inspection.winners
        share = 1 / len(winners) if names[mine] in winners else 0.0
        wins += share
        seeds.append(seed)
        totals = [f.total for f in outcome.inspection.forms]
        print(f"seed {seed}: {','.join(seats)} {totals} {args.first} "
              f"{'won' if share == 1 else 'tied' if share else 'lost'}", file=sys.stderr,
              flush=True)
    low, high = wilson(wins, args.games)
    result = {
        "first": args.first, "second": args.second, "players": args.players,
        "variant": args.variant, "games": args.games, "seeds": [seeds[0], seeds[-1]],
        "wins": wins, "win_rate": wins / args.games, "wilson95": [low, high],
        "fair_share": 1 / args.players,
        "seconds_a_decision": {k: {"mean": sum(v) / len(v), "slowest": max(v),
                                   "slowest_cpu": max(cpu[k]), "mean_cpu":
                                   sum(cpu[k]) / len(v), "decisions": len(v)}
                               for k, v in times.items() if v},
        "floor_decisions_a_second": _floor_rate(),
    }
    for kind, found in searched.items():
        if found:
            rate = sum(n for n, _ in found) / sum(t for _, t in found)
            result["seconds_a_decision"][kind]["iterations_a_second"] = rate
            result["seconds_a_decision"][kind]["iterations_to_floor"] = \
                rate / result["floor_decisions_a_second"]
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.first} against {args.second} ({args.players} players, {args.variant}), "
              f"seeds {seeds[0]}..{seeds[-1]}: won {wins:g} of {args.games} = "
              f"{wins / args.games:.0%} (Wilson 95% {low:.0%}..{high:.0%}; fair share "
              f"{1 / args.players:.0%})")
        for kind, spent in result["seconds_a_decision"].items():
            print(f"  {kind}: {spent['mean']:.4f} s a decision on average, slowest "
                  f"{spent['slowest']:.2f} s, {spent['decisions']} decisions; CPU seconds: "
                  f"{spent['mean_cpu']:.4f} on average, slowest {spent['slowest_cpu']:.2f}")
            if "iterations_a_second" in spent:
                print(f"  {kind}: {spent['iterations_a_second']:,.0f} search iterations a "
                      f"second = {spent['iterations_to_floor']:.4f} of the floor's decisions "
                      "a second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
