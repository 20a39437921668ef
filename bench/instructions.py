"""Instructions a decision: random two-player games (or the greedy bot) under callgrind.

Not a test. On this shared machine a timed run swings by 10% from one minute to the
next; the number of instructions a game executes does not (within about 0.5%, from
where objects land in memory). So a change meant only for speed can be judged by
this count, one tree against another, before the timed ratio of
``engine_bench.py`` (the figure the issue asks for) is measured.

The script runs itself under ``valgrind --tool=callgrind`` with collection on only
inside the measured games (a ``functools.reduce`` over them, which nothing else in
the run calls): first the content's effects compiled and warm-up games played,
as ``engine_bench.py`` does, then ``--games`` games, whose instructions are
reported with the decisions they took. ``PYTHONHASHSEED`` is fixed.

With ``--greedy`` the games are greedy against random at two players (seats
alternating by seed, as ``engine_bench.py``'s row) and only the greedy bot is
counted: each of its decisions and the view built for it, each inside a ``reduce``
of its own, so the count is the bot's instructions a decision (what
``engine_bench.py`` times as the greedy bot's microseconds a decision).

    python bench/instructions.py                       # this environment's exlibris
    python bench/instructions.py --greedy              # the greedy bot's decisions
    python bench/instructions.py --tree /path/to/tree  # that tree first on the path
    python bench/instructions.py --games 60 --keep cg.out   # callgrind_annotate cg.out

Needs valgrind (``apt-get install valgrind``). Under callgrind a game runs about
fifty times slower: 40 games take about half a minute.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from functools import reduce
from operator import add
from typing import Any


def play_counted(games: int) -> None:
    """The run callgrind watches: warm-up, then ``games`` games inside one ``reduce``."""
    from engine_bench import WARMUP  # its warm-up games (bench/ is first on the path)

    from exlibris.agents import RandomAgent
    from exlibris.catalog import load_catalog
    from exlibris.engine.flow import new_game, play
    from exlibris.engine.shipped_sources import handlers
    from exlibris.validation import resolve_settings

    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    for _ in handlers(catalog):
        pass

    def one(seed: int) -> int:
        agents = [RandomAgent(seed * 10 + i) for i in range(2)]
        return play(new_game(catalog, settings, agents, seed=seed)).decisions

    for seed in range(-WARMUP, 0):
        one(seed)
    gc.collect()
    print(f"decisions {reduce(add, map(one, range(games)), 0)}")


class CountedGreedy:
    """The greedy bot, each decision inside a ``reduce`` (callgrind counts only those)."""

    needs_view = True

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def decide(self, view: Any, decision: Any) -> int:
        self.calls += 1
        return reduce(lambda _, __: self.inner.decide(view, decision), ONE, 0)


ONE = (None,)  # a ``reduce`` over one item calls its function once


def counted_view(game: Any, seat: int) -> Any:
    """The greedy bot's view (the only seat that asks for one), counted as its decide."""
    from exlibris.agents.view import player_view

    return reduce(lambda _, __: player_view(game, seat), ONE, 0)


def play_greedy_counted(games: int) -> None:
    """Warm-up as ``play_counted``'s and greedy games, then ``games`` greedy against
    random games with only the greedy bot's decisions and views counted."""
    from engine_bench import WARMUP

    from exlibris.agents import GreedyAgent, RandomAgent
    from exlibris.agents.view import player_view
    from exlibris.catalog import load_catalog
    from exlibris.engine.flow import new_game, play
    from exlibris.engine.shipped_sources import handlers
    from exlibris.validation import resolve_settings

    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    for _ in handlers(catalog):
        pass

    def one(seed: int, greedy: Callable[[Any], Any], views: Any) -> Any:
        bot = greedy(GreedyAgent(seed))
        agents = [bot if i == seed % 2 else RandomAgent(seed + 7) for i in range(2)]
        play(new_game(catalog, settings, agents, seed=seed, views=views))
        return bot

    for seed in range(-WARMUP, 0):
        play(new_game(catalog, settings, [RandomAgent(seed * 10 + i) for i in range(2)],
                      seed=seed))
        one(seed, lambda bot: bot, player_view)
    gc.collect()
    calls = sum(one(seed, CountedGreedy, counted_view).calls for seed in range(games))
    print(f"decisions {calls}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games counted (default 40)")
    parser.add_argument("--tree", help="a source tree to import exlibris from")
    parser.add_argument("--keep", help="keep callgrind's output in this file")
    parser.add_argument("--greedy", action="store_true",
                        help="count the greedy bot's decisions in greedy against random games")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:
        (play_greedy_counted if args.greedy else play_counted)(args.games)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if args.tree:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.abspath(args.tree),
                                                          env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as work:
        out = args.keep or os.path.join(work, "callgrind.out")
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             "--toggle-collect=functools_reduce", sys.executable, os.path.abspath(__file__),
             "--inside", "--games", str(args.games), *(["--greedy"] if args.greedy else [])],
            cwd=work, env=env, capture_output=True, text=True, check=False)
        decisions = re.search(r"decisions (\d+)", done.stdout)
        refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode != 0 or decisions is None or refs is None:
            print(done.stderr[-2000:], file=sys.stderr)
            return 1
    n, ir = int(decisions.group(1)), int(refs.group(1).replace(",", ""))
    what = ("greedy against random games: the greedy bot's" if args.greedy
            else "random two-player games:")
    print(f"{args.games} {what} {n:,} decisions, {ir:,} instructions, "
          f"{ir / n:,.0f} a decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
