"""The search bot's iterations a second as a ratio to the floor's decisions a second,
for several settings of the search measured in one run on the same positions.

    python bench/search_speed.py                      # today's default against the first search
    python bench/search_speed.py --games 5 --iterations 100 --json

The positions: every third decision of seat 0 that is a placement, in two-player
greedy games of seeds 0..games-1. At each, every setting searches the position
with the same budget (CPU time, ``time.process_time``), in turn; the floor
(``bench/floor.py``) plays 20 two-player games after each game's searches, so
both sides of the ratio see the same load. Settings are ``MctsAgent`` keyword
arguments; ``first`` is the search as it was first built (``mcts:N/classic``: UCB at the
root, greedy rollouts of 10 decisions, one greedy agent for every seat),
``default`` today's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import floor

from exlibris.agents import SEARCHES
from exlibris.agents.greedy import GreedyAgent
from exlibris.agents.mcts import MctsAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings

SETTINGS: dict[str, dict[str, Any]] = {
    "first": SEARCHES["classic"],  # UCB at the root, 10-decision greedy rollouts
    "default": {},
}


class Prober:
    """Seat 0: the greedy bot's play, with every setting's search timed at the positions."""

    needs_view = True

    def __init__(self, searchers: dict[str, MctsAgent], spent: dict[str, list[float]]) -> None:
        self.greedy = GreedyAgent(0)
        self.searchers = searchers
        self.spent = spent  # setting -> [iterations, seconds]
        self.game: Any = None

    def sit_at(self, game: Any) -> None:
        self.game = game
        for searcher in self.searchers.values():
            searcher.sit_at(game)

    def decide(self, view: Any, decision: Any) -> int:
        game = self.game
        if decision.kind is DecisionKind.PLACE and game.decisions % 3 == 0:
            for name, searcher in self.searchers.items():
                if not searcher.searches(game, decision):
                    break
                started = time.process_time()
                searcher.decide(view, decision)
                self.spent[name][1] += time.process_time() - started
                self.spent[name][0] += searcher.last_iterations
        return self.greedy.decide(view, decision)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    spent = {name: [0.0, 0.0] for name in SETTINGS}
    floor_decisions = floor_seconds = 0.0
    for seed in range(args.games):
        searchers = {name: MctsAgent(7, iterations=args.iterations, **kwargs)
                     for name, kwargs in SETTINGS.items()}
        game = new_game(catalog, settings, [Prober(searchers, spent), GreedyAgent(9)],
                        seed=seed, names=["a", "b"], views=player_view, variant="standard")
        play(game)
        started = time.process_time()
        _, decisions = floor.run(20, 2)
        floor_seconds += time.process_time() - started
        floor_decisions += decisions
    floor_rate = floor_decisions / floor_seconds
    result = {name: {"iterations": n, "iterations_a_second": n / t,
                     "iterations_to_floor": n / t / floor_rate}
              for name, (n, t) in spent.items()}
    first = result["first"]["iterations_to_floor"]
    for found in result.values():
        found["over_first"] = found["iterations_to_floor"] / first
    if args.json:
        print(json.dumps({"floor_decisions_a_second": floor_rate, "settings": result},
                         indent=2))
        return 0
    print(f"floor: {floor_rate:,.0f} decisions a second (CPU time)")
    for name, found in result.items():
        print(f"{name:8s} {found['iterations']:6.0f} iterations, "
              f"{found['iterations_to_floor']:.5f} of the floor's decisions a second, "
              f"{found['over_first']:.2f}x the first search")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
