"""A digest of many whole games, to check that a speed change plays the same games.

Not a test. Plays random games at two, three and four players and greedy
against random, each seed with the event log on (every event and every decision,
labels included) and again with it off (the outcome only), and prints one SHA-256
digest a row. Run it before and after a change: any difference in a game, in the
order the seeded generators are drawn from, or in an event, changes a digest.

    python bench/same_games.py                 # 40 seeds a row
    python bench/same_games.py --games 100 --seed 500
    python bench/same_games.py --search        # and rows with search seats (slower)
    python bench/same_games.py --artifacts     # and rows of the modes with artifacts

``--search`` adds games with ``mcts`` seats (two seeds of ``mcts:20`` against greedy,
one of three ``mcts:12``, two of the first search, ``mcts:20/classic``, against
greedy): the search's rollouts play the greedy bot's choices, so
a change to the greedy bot or its views that moves a rollout changes these.
``--artifacts`` adds games of the Expanded Archives (greedy against random at two
players, random at four), the Artifactorium (random at three) and solo with the
expansion (greedy): artifacts carry abilities and scores that the standard game's
rows never meet. ``--search`` also adds a solo game of ``mcts:12`` (every solo decision
is searched), and with ``--artifacts`` one of ``mcts:8`` in solo with the expansion.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.events import EventLog
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings


def digest(catalog: Any, settings: Any, seeds: Sequence[int],
           make_agents: Callable[[int], list[Any]], variant: str = "standard") -> str:
    """One digest of the event logs and outcomes of these games."""
    h = hashlib.sha256()
    for seed in seeds:
        for logged in (True, False):
            log = EventLog(enabled=logged)
            game = new_game(catalog, settings, make_agents(seed), seed=seed, log=log,
                            views=player_view, variant=variant)
            outcome = play(game)
            for record in log.records:
                h.update(json.dumps(record, sort_keys=True, default=str).encode())
            forms = [(f.name, f.total) for f in outcome.inspection.forms]
            h.update(repr((seed, outcome.rounds, outcome.decisions, str(outcome.reason),
                           forms, list(outcome.inspection.winners))).encode())
    return h.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeds a row (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--search", action="store_true",
                        help="add rows of games with search (mcts) seats")
    parser.add_argument("--artifacts", action="store_true",
                        help="add rows of the modes with artifacts")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    seeds = range(args.seed, args.seed + args.games)
    rows: list[tuple[str, Callable[[int], list[Any]]]] = [
        (f"random x{n}", lambda seed, n=n: [RandomAgent(seed * 10 + i) for i in range(n)])
        for n in (2, 3, 4)]
    rows.append(("greedy vs random", lambda seed: [
        GreedyAgent(seed) if i == seed % 2 else RandomAgent(seed + 7) for i in range(2)]))
    for name, make in rows:
        print(f"{name:<17}{digest(catalog, settings, seeds, make)}")
    if args.search:
        from exlibris.agents import SEARCHES
        from exlibris.agents.mcts import MctsAgent

        searched: list[tuple[str, range, Callable[[int], list[Any]]]] = [
            ("mcts:20 vs greedy", range(2), lambda seed: [
                MctsAgent(seed, iterations=20) if i == seed % 2 else GreedyAgent(seed + 3)
                for i in range(2)]),
            ("mcts:12 x3", range(1), lambda seed: [
                MctsAgent(seed + i, iterations=12) for i in range(3)]),
            ("classic vs greedy", range(2), lambda seed: [  # levels 2 and 3's search
                MctsAgent(seed, iterations=20, **SEARCHES["classic"]) if i == seed % 2
                else GreedyAgent(seed + 3) for i in range(2)])]
        for name, few, make in searched:
            print(f"{name:<17} {digest(catalog, settings, few, make)}")
        solo = resolve_settings("solo", catalog.variants)  # every solo decision searched
        print(f"{'mcts:12 solo':<17} "
              f"{digest(catalog, solo, range(1), lambda s: [MctsAgent(s, 12)], 'solo')}")
    if args.artifacts:
        moded: list[tuple[str, str, Callable[[int], list[Any]]]] = [
            ("expanded greedy", "expanded", lambda seed: [
                GreedyAgent(seed) if i == seed % 2 else RandomAgent(seed + 7)
                for i in range(2)]),
            ("expanded x4", "expanded", lambda seed: [
                RandomAgent(seed * 10 + i) for i in range(4)]),
            ("artifactorium x3", "artifactorium", lambda seed: [
                RandomAgent(seed * 10 + i) for i in range(3)]),
            ("solo-expanded", "solo-expanded", lambda seed: [GreedyAgent(seed)])]
        for name, variant, make in moded:
            moded_settings = resolve_settings(variant, catalog.variants)
            print(f"{name:<17}{digest(catalog, moded_settings, seeds, make, variant)}")
        if args.search:  # the search in solo with the expansion's artifacts
            from exlibris.agents.mcts import MctsAgent

            solo = resolve_settings("solo-expanded", catalog.variants)
            print(f"{'mcts:8 solo-exp':<17}" + digest(
                catalog, solo, range(1), lambda s: [MctsAgent(s, 8)], "solo-expanded"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
