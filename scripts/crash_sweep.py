"""The crash sweep: many seeded bot games per mode family, the engine's invariants
checked as they go; reports games, errors and the seeds of any error.

    python scripts/crash_sweep.py --games 10000            # every family
    python scripts/crash_sweep.py --games 200 --family solo --family job-faire
    python scripts/crash_sweep.py --games 50 --json         # a JSON summary
    python scripts/crash_sweep.py --games 40 --mcts-every 4 # every 4th game an mcts seat

Each family cycles through its modes (rules file, player count, solo level) and
through its seats: every seat random, then a greedy seat among random ones (the
greedy seat moves round the table); with ``--mcts-every M`` every M-th game of a mode seats an
``mcts:8`` bot instead of the greedy one (a search is slow). ``--check-every K``
checks the invariants (``exlibris/engine/invariants.py: check_state``) before every
K-th decision and at the end of every game (default 1: every decision). An error is
any exception a game raises, the project's own included, and a broken invariant; its family, mode,
seed and seats are printed so ``exlibris play`` can replay it. Exit status 1 if
any game failed. ``tests/test_crash_sweep.py`` runs a bounded form.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.mcts import MctsAgent
from exlibris.agents.view import player_view
from exlibris.catalog import Catalog, load_catalog
from exlibris.engine.decisions import Decision
from exlibris.engine.flow import new_game, play
from exlibris.engine.invariants import check_state
from exlibris.validation import resolve_settings

# family -> its modes: (rules file, players, solo level or None)
FAMILIES: dict[str, list[tuple[str, int, int | None]]] = {
    "standard": [("standard", 2, None), ("standard", 3, None), ("standard", 4, None)],
    "five-player": [("five-player", 5, None)],
    "job-faire": [("job-faire", 2, None), ("job-faire", 3, None), ("job-faire", 4, None)],
    "artifactorium": [("artifactorium", 2, None), ("artifactorium", 3, None),
                      ("artifactorium", 4, None)],
    "expanded": [("expanded", 2, None), ("expanded", 3, None), ("expanded", 4, None)],
    "house-rules": [("beginner", 2, None), ("beginner-all-locations", 3, None),
                    ("friendlier", 2, None), ("longer", 3, None)],
    "solo": [("solo", 1, level) for level in range(1, 8)],
    "solo-modules": [("solo-job-faire", 1, None), ("solo-artifactorium", 1, None),
                     ("solo-expanded", 1, None)],
}


@dataclass
class Totals:
    """What a family's games came to."""

    games: int = 0
    decisions: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


class Checked:
    """Wraps a bot: checks the invariants before every ``every``-th decision."""

    def __init__(self, inner: Any, every: int, table: dict[str, Any]) -> None:
        self.inner = inner
        self.needs_view = getattr(inner, "needs_view", False)
        self.every = every
        self.table = table

    def sit_at(self, game: Any) -> None:
        self.table["game"] = game
        sit_at = getattr(self.inner, "sit_at", None)
        if sit_at is not None:
            sit_at(game)

    def decide(self, view: Any, decision: Decision) -> int:
        game = self.table["game"]
        if self.every and game.decisions % self.every == 0 and game.state.players:
            check_state(game, f"decision {game.decisions}")
        return self.inner.decide(view, decision)


def _settings(catalog: Catalog, variant: str, level: int | None, cache: dict[Any, Any]) -> Any:
    key = (variant, level)
    if key not in cache:
        settings = resolve_settings(variant, catalog.variants)
        if level is not None:
            solo = settings.solo.model_copy(update={"difficulty": level})
            settings = settings.model_copy(update={"solo": solo})
        cache[key] = settings
    return cache[key]


def seats_for(game_index: int, players: int, mcts_every: int = 0) -> tuple[str, ...]:
    """Every seat random on even games; on odd ones one greedy seat, moving round (an
    mcts seat instead on every ``mcts_every``-th game)."""
    if game_index % 2 == 0 and not (mcts_every and game_index % mcts_every == mcts_every - 1):
        return ("random",) * players
    bot = "mcts" if mcts_every and game_index % mcts_every == mcts_every - 1 else "greedy"
    chosen = (game_index // 2) % players
    return tuple(bot if i == chosen else "random" for i in range(players))


def _seat(kind: str, seed: int) -> Any:
    if kind == "mcts":
        return MctsAgent(seed, iterations=8)
    return GreedyAgent(seed) if kind == "greedy" else RandomAgent(seed)


def play_one(catalog: Catalog, family: str, index: int, seed: int, every: int,
             cache: dict[Any, Any], mcts_every: int = 0
             ) -> tuple[int, str, dict[str, Any] | None]:
    """(decisions, ending, error or None) of game ``index`` of ``family``."""
    variant, players, level = FAMILIES[family][index % len(FAMILIES[family])]
    seats = seats_for(index // len(FAMILIES[family]), players, mcts_every)
    table: dict[str, Any] = {}
    agents = [Checked(_seat(kind, seed + i), every, table) for i, kind in enumerate(seats)]
    where = {"family": family, "variant": variant, "players": players, "level": level,
             "seed": seed, "seats": ",".join(seats)}
    game = None
    try:
        game = new_game(catalog, _settings(catalog, variant, level, cache), agents,
                        seed=seed, views=player_view, variant=variant)
        outcome = play(game)
        check_state(game, "the end")
    except Exception as exc:  # what the sweep counts
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return (game.decisions if game is not None else 0, "error",
                {**where, "error": f"{type(exc).__name__}: {str(exc)[:300]}",
                 "at": f"{last.filename}:{last.lineno}"})
    return game.decisions, str(outcome.reason), None


def sweep(games: int, families: list[str], start: int = 0, every: int = 1,
          progress: bool = False, mcts_every: int = 0) -> dict[str, Totals]:
    catalog = load_catalog()
    cache: dict[Any, Any] = {}
    found: dict[str, Totals] = {}
    for family in families:
        totals = found[family] = Totals()
        began = time.perf_counter()
        for i in range(games):
            decisions, ending, error = play_one(catalog, family, i, start + i, every, cache,
                                                mcts_every)
            totals.games += 1
            totals.decisions += decisions
            totals.endings[ending] += 1
            if error is not None:
                totals.errors.append(error)
                print(f"ERROR {json.dumps(error)}", file=sys.stderr, flush=True)
            if progress and (i + 1) % 500 == 0:
                print(f"{family}: {i + 1} games, {len(totals.errors)} errors, "
                      f"{time.perf_counter() - began:.0f}s", file=sys.stderr, flush=True)
        totals.seconds = time.perf_counter() - began
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per family")
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES),
                        help="a family to sweep (repeatable; default: all)")
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("--check-every", type=int, default=1,
                        help="check the invariants before every K-th decision (0: at the end)")
    parser.add_argument("--mcts-every", type=int, default=0,
                        help="every M-th game seats an mcts bot (0: none)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.add_argument("--progress", action="store_true", help="a line every 500 games")
    args = parser.parse_args(argv)
    families = args.family or list(FAMILIES)
    found = sweep(args.games, families, args.start, args.check_every, args.progress,
                  args.mcts_every)
    if args.json:
        print(json.dumps({f: {"games": t.games, "decisions": t.decisions,
                              "errors": t.errors, "endings": dict(t.endings),
                              "seconds": round(t.seconds, 1)} for f, t in found.items()},
                         indent=2))
    else:
        print(f"{'family':<14} {'games':>7} {'errors':>6} {'decisions':>10} endings")
        for family, t in found.items():
            endings = ", ".join(f"{k} {v}" for k, v in sorted(t.endings.items()))
            print(f"{family:<14} {t.games:>7} {len(t.errors):>6} {t.decisions:>10} {endings}")
            for error in t.errors:
                print(f"  seed {error['seed']} {error['variant']} {error['players']}p "
                      f"seats {error['seats']}: {error['error']}")
    return 1 if any(t.errors for t in found.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
