"""How the search bot's choice settles as its budget grows. Not a test.

At placements of two-player greedy games (seat 0's, every fourth decision of the
game, of more than two options), the search bot at each budget chooses, seeded
twice (bot seeds 7 and 8: other determinizations and rollout draws), and the
greedy bot chooses too; the game goes on by the greedy bot's choice. Printed for
each budget: how often its two seeds agree, how often it agrees with the largest
budget (its first seed, against the largest budget's first), and with the greedy
bot. A search whose choice still moves with the seed is averaging noise; one whose
choice has settled gains nothing from more iterations unless its values improve.

    python bench/search_agreement.py                          # 25,100,400,1600; 3 games
    python bench/search_agreement.py --budgets 25,100 --games 1 --setting below=tree

``--setting KEY=VALUE`` (repeatable) sets a keyword of ``MctsAgent``, as
``bench/bot_specs.py`` spells it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_specs import make_spec, spec_problem

from exlibris.agents.greedy import GreedyAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings

BOT_SEEDS = (7, 8)


class Prober:
    """Seat 0: the greedy bot's play, every budget's choices taken at the positions."""

    needs_view = True

    def __init__(self, specs: dict[int, str]) -> None:
        self.greedy = GreedyAgent(0)
        self.game: Any = None
        self.rows: list[dict[str, Any]] = []
        self.searchers = {budget: [make_spec(spec, seed) for seed in BOT_SEEDS]
                          for budget, spec in specs.items()}

    def sit_at(self, game: Any) -> None:
        self.game = game
        for searchers in self.searchers.values():
            for searcher in searchers:
                searcher.sit_at(game)

    def decide(self, view: Any, decision: Any) -> int:
        game = self.game
        greedy = self.greedy.decide(view, decision)
        first = next(iter(self.searchers.values()))[0]
        if (decision.kind is DecisionKind.PLACE and game.decisions % 4 == 0
                and decision.size > 2 and first.searches(game, decision)):
            row: dict[str, Any] = {"options": decision.size, "greedy": greedy}
            for budget, searchers in self.searchers.items():
                row[budget] = [searcher.decide(view, decision) for searcher in searchers]
            self.rows.append(row)
        return greedy


def agreement(rows: list[dict[str, Any]], budgets: list[int]) -> list[dict[str, Any]]:
    """Each budget's shares of agreement (see the module)."""
    top = budgets[-1]
    n = len(rows)
    return [{"budget": budget, "positions": n,
             "seeds_agree": sum(r[budget][0] == r[budget][1] for r in rows) / n,
             "agrees_with_largest": sum(r[budget][0] == r[top][0] for r in rows) / n,
             "agrees_with_greedy": sum(r[budget][0] == r["greedy"] for r in rows) / n}
            for budget in budgets]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="25,100,400,1600")
    parser.add_argument("--games", type=int, default=3, help="greedy games, seeds 100 on")
    parser.add_argument("--setting", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    budgets = sorted(int(b) for b in args.budgets.split(","))
    specs = {b: "/".join([f"mcts:{b}", *args.setting]) for b in budgets}
    for spec in specs.values():
        if spec_problem(spec) is not None:
            parser.error(str(spec_problem(spec)))
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    rows: list[dict[str, Any]] = []
    for seed in range(100, 100 + args.games):
        prober = Prober(specs)
        game = new_game(catalog, settings, [prober, GreedyAgent(9)], seed=seed,
                        names=["a", "b"], views=player_view, variant="standard")
        play(game)
        rows += prober.rows
    if not rows:
        parser.error("no position was searched: play more --games")
    found = agreement(rows, budgets)
    if args.json:
        print(json.dumps({"settings": args.setting, "budgets": found}, indent=2))
        return 0
    for row in found:
        print(f"budget {row['budget']:5d}: its two seeds agree {row['seeds_agree']:.0%}, "
              f"it agrees with {budgets[-1]} {row['agrees_with_largest']:.0%}, "
              f"with greedy {row['agrees_with_greedy']:.0%} ({row['positions']} positions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
