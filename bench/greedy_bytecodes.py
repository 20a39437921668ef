"""Bytecodes a greedy decision: the greedy bot's ``decide`` and its view, traced.

Not a test. Counts the Python bytecodes the greedy bot executes a decision (its
``decide`` and the ``player_view`` built for it) with ``sys.settrace`` and
``f_trace_opcodes``, in greedy against random two-player games (seats alternating
by seed, as ``engine_bench.py``'s row), after two warm-up games. The count does
not depend on the machine's load, and needs no valgrind, so it judges a change
when ``instructions.py --greedy`` would take too long; it weighs every bytecode
alike (a dict copy in C counts as one), so it is a proxy, not the instructions.

    python bench/greedy_bytecodes.py              # 6 games
    python bench/greedy_bytecodes.py --games 20
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings


class Counter:
    """Counts the bytecodes run inside ``traced`` calls."""

    def __init__(self) -> None:
        self.bytecodes = 0

    def trace(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        if event == "opcode":
            self.bytecodes += 1
        return self.trace

    def traced(self, fn: Callable[..., Any], *args: Any) -> Any:
        sys.settrace(self.trace)
        try:
            return fn(*args)
        finally:
            sys.settrace(None)


class TracedGreedy:
    """The greedy bot, each decision traced."""

    needs_view = True

    def __init__(self, inner: GreedyAgent, counter: Counter) -> None:
        self.inner = inner
        self.counter = counter
        self.calls = 0

    def decide(self, view: Any, decision: Any) -> int:
        self.calls += 1
        return self.counter.traced(self.inner.decide, view, decision)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games counted (default 6)")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    for seed in range(-2, 0):
        play(new_game(catalog, settings, [GreedyAgent(seed), RandomAgent(seed + 7)],
                      seed=seed, views=player_view))
    counter = Counter()
    calls = 0
    for seed in range(args.games):
        bot = TracedGreedy(GreedyAgent(seed), counter)
        agents: list[Any] = [bot if i == seed % 2 else RandomAgent(seed + 7) for i in range(2)]
        play(new_game(catalog, settings, agents, seed=seed,
                      views=lambda game, seat: counter.traced(player_view, game, seat)))
        calls += bot.calls
    print(f"{args.games} greedy against random games: {calls:,} greedy decisions, "
          f"{counter.bytecodes:,} bytecodes, {counter.bytecodes / calls:,.0f} a decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
