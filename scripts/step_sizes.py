"""The largest step a person is asked, over seeded greedy-vs-random games.

Every decision of every seat is grouped as the terminal asks it (see
``exlibris/interactive/steps.py``) and every branch of its steps is walked.
Usage: ``python scripts/step_sizes.py [GAMES] [PLAYERS] [VARIANT]`` (default 100 games
of two, standard rules).
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision
from exlibris.engine.flow import new_game, play
from exlibris.interactive.steps import levels, walk
from exlibris.validation import resolve_settings


class Measured:
    """Wraps a bot; records the widest step of each decision it is asked."""

    needs_view = True

    def __init__(self, inner: Any, widest: Counter[str], flat: Counter[str]) -> None:
        self.inner = inner
        self.widest = widest
        self.flat = flat
        self.game: Any = None

    def decide(self, view: Any, decision: Decision) -> int:
        width = walk(decision, levels(self.game, decision))
        self.widest[decision.kind] = max(self.widest[decision.kind], width)
        self.flat[decision.kind] = max(self.flat[decision.kind], len(decision))
        return self.inner.decide(view, decision)


class Views:
    """The engine's view hook: hands each measured seat the game, then its view."""

    def __init__(self, agents: list[Measured]) -> None:
        self.agents = agents

    def __call__(self, game: Any, seat: int) -> Any:
        self.agents[seat].game = game
        return player_view(game, seat)


def measure(games: int, players: int = 2, variant: str = "standard"
            ) -> tuple[Counter[str], Counter[str]]:
    """The widest step and the longest flat list per decision kind."""
    catalog = load_catalog()
    settings = resolve_settings(variant, catalog.variants)
    widest: Counter[str] = Counter()
    flat: Counter[str] = Counter()
    for seed in range(games):
        bots = [GreedyAgent(seed * 31), *[RandomAgent(seed * 31 + i) for i in range(1, players)]]
        agents = [Measured(bot, widest, flat) for bot in bots]
        play(new_game(catalog, settings, agents, seed=seed, views=Views(agents),
                      variant=variant))
    return widest, flat


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    variant = sys.argv[3] if len(sys.argv) > 3 else "standard"
    widest, flat = measure(games, players, variant)
    for kind in sorted(flat, key=lambda k: -flat[k]):
        print(f"{kind:12} flat {flat[kind]:4}  largest step {widest[kind]:3}")
    print(f"largest step over {games} {variant} games of {players}: "
          f"{max(widest.values())}")


if __name__ == "__main__":
    main()
