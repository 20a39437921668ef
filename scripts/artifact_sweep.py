"""Play many seeded games with artifacts and report what the artifacts did.

For each game: greedy and random seats alternate (the first seat's kind alternates
with the seed), the engine's invariants are checked before every decision (every card
in exactly one place and where the zone index says; all book cards and all artifacts
present; every shelf legal), and the event log (the records `exlibris play --log`
writes) is read for artifacts taken into a hand, artifacts shelved, and the abilities
of shelved artifacts that fired.

    python scripts/artifact_sweep.py --variant expanded --players 4 --games 200

Exit status 1 when an artifact was never taken or shelved, or a triggered artifact
ability never fired.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision
from exlibris.engine.events import EventLog
from exlibris.engine.flow import new_game, play
from exlibris.engine.invariants import check_state
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.validation import resolve_settings


class Checker:
    """Checks the invariants before every decision of one game (an agent wrapper)."""

    needs_view = True

    def __init__(self, inner: Any, sweep: Sweep) -> None:
        self.inner = inner
        self.sweep = sweep

    def decide(self, view: Any, decision: Decision) -> int:
        self.sweep.check()
        if getattr(self.inner, "needs_view", False):
            view = player_view(self.sweep.game, decision.seat)
        return self.inner.decide(view, decision)


class Sweep:
    def __init__(self, books: int, artifacts: int) -> None:
        self.books = books
        self.artifacts = artifacts
        self.game: Any = None
        self.checks = 0

    def views(self, game: Any, seat: int) -> None:
        self.game = game

    def check(self) -> None:
        """The engine's invariants (``engine/invariants.py``), and every book card and
        every artifact present once the deck is dealt."""
        state = self.game.state
        check_state(self.game, f"round {state.round}, {state.phase}")
        if state.phase != "setup":
            found = Counter(type(c) for c in state.card_census())
            assert found[BookCard] == self.books, f"{found[BookCard]} book cards"
            assert found[ArtifactCard] == self.artifacts, f"{found[ArtifactCard]} artifacts"
        self.checks += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="expanded")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()

    catalog = load_catalog()
    settings = resolve_settings(args.variant, catalog.variants)
    artifact_ids = sorted(catalog.artifacts)
    triggered = {(aid, i) for aid, art in catalog.artifacts.items()
                 for i, ability in enumerate(art.abilities) if ability.when}
    taken: Counter[str] = Counter()
    shelved: Counter[str] = Counter()
    fired: Counter[tuple[str, int]] = Counter()
    checks = decisions = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        sweep = Sweep(len(catalog.deck.cards), len(artifact_ids))  # type: ignore[union-attr]
        agents = [Checker(GreedyAgent(seed * 10 + i) if (i + seed) % 2 else
                          RandomAgent(seed * 10 + i), sweep) for i in range(args.players)]
        log = EventLog(enabled=True)
        game = new_game(catalog, settings, agents, seed=seed, views=sweep.views, log=log,
                        variant=args.variant)
        sweep.game = game
        outcome = play(game)
        sweep.check()
        checks += sweep.checks
        decisions += outcome.decisions
        for record in log.records:
            kind = record["event"]
            if kind == "gain" and record["card"] in catalog.artifacts:
                taken[record["card"]] += 1
            elif kind == "shelve" and record["card"] in catalog.artifacts:
                shelved[record["card"]] += 1
            elif kind == "ability" and record["source"] in catalog.artifacts:
                fired[(record["source"], record["index"])] += 1

    print(f"{args.games} games, {args.variant}, {args.players} players, seeds "
          f"{args.first_seed}..{args.first_seed + args.games - 1}: {decisions} decisions, "
          f"invariants checked {checks} times, all held")
    print(f"{'artifact':34} {'taken':>6} {'shelved':>8}  abilities fired (index: count)")
    for aid in artifact_ids:
        abilities = ", ".join(f"{i}: {fired[(a, i)]}" for a, i in sorted(triggered)
                              if a == aid)
        print(f"{aid:34} {taken[aid]:6} {shelved[aid]:8}  {abilities}")
    missing = [a for a in artifact_ids if not taken[a] or not shelved[a]]
    silent = sorted(t for t in triggered if not fired[t])
    print(f"never taken or never shelved: {missing or 'none'}")
    print(f"triggered abilities that never fired: {silent or 'none'}")
    return 1 if missing or silent else 0


if __name__ == "__main__":
    sys.exit(main())
