"""Play many seeded Job Faire games and report what was hired, checking the engine's
invariants (``exlibris/engine/invariants.py``) before every decision.

    python scripts/job_faire_survey.py --games 200 --players 4

Seats alternate greedy and random bots (greedy first). Prints, per special assistant
card, how many games hired it, and exits 1 if an invariant broke, a game failed, or a
card was never hired.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision
from exlibris.engine.events import EventLog
from exlibris.engine.flow import new_game, play
from exlibris.engine.invariants import check_state
from exlibris.validation import resolve_settings


class Checked:
    """Checks the invariants, then lets the wrapped bot decide from its own view."""

    needs_view = True

    def __init__(self, inner: Any, watch: dict[str, Any]) -> None:
        self.inner = inner
        self.watch = watch

    def decide(self, view: Any, decision: Decision) -> int:
        game = self.watch["game"]
        state = game.state
        check_state(game, f"round {state.round}, {state.phase}, {decision.kind!r}")
        self.watch["checks"] += 1
        if getattr(self.inner, "needs_view", False):
            view = player_view(game, decision.seat)
        return self.inner.decide(view, decision)


def survey_game(catalog: Any, settings: Any, players: int, seed: int,
                variant: str = "job-faire") -> tuple[Counter[str], int, Any]:
    """One checked game: the cards hired, the decisions checked and the outcome."""
    watch: dict[str, Any] = {"game": None, "checks": 0}
    bots = [GreedyAgent(seed * 10 + i) if i % 2 == 0 else RandomAgent(seed * 10 + i)
            for i in range(players)]
    log = EventLog(enabled=True)

    def views(game: Any, seat: int) -> None:
        watch["game"] = game

    game = new_game(catalog, settings, [Checked(b, watch) for b in bots], seed=seed,
                    views=views, log=log, variant=variant)
    watch["game"] = game
    outcome = play(game)
    check_state(game, "after the game")
    hired = Counter(r["assistant"] for r in log.records if r["event"] == "hire")
    return hired, watch["checks"], outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--variant", default="job-faire")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    settings = resolve_settings(args.variant, catalog.variants)
    in_games: Counter[str] = Counter()
    hires: Counter[str] = Counter()
    checks = 0
    failures = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        try:
            hired, n, _ = survey_game(catalog, settings, args.players, seed, args.variant)
        except Exception as exc:
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
            continue
        checks += n
        hires.update(hired)
        in_games.update(set(hired))
    print(f"{args.games} games of {args.players} players ({args.variant}), "
          f"{checks} decisions checked, {len(failures)} failed")
    for aid in sorted(catalog.assistants):
        print(f"  {aid:18} hired {hires[aid]:4} times, in {in_games[aid]:3} games")
    never = [aid for aid in catalog.assistants if hires[aid] == 0
             and "job-faire" in settings.modules
             and args.players not in catalog.assistants[aid].not_with_players
             and set(catalog.assistants[aid].requires) <= set(settings.modules)]
    for failure in failures:
        print("FAIL", failure)
    if never:
        print("never hired:", ", ".join(sorted(never)))
    return 1 if failures or never else 0


if __name__ == "__main__":
    sys.exit(main())
