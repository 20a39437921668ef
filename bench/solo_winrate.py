"""Solo benchmark: the greedy bot's win rate against the public library at each
difficulty, with a Wilson 95% interval.

Not a test. Plays seeded solo games in-process, exactly as
``exlibris play --players 1 --seats greedy --difficulty D --seed S`` does (the same
rules, the same bot seed), and counts wins (a tie is a loss, SOLO-02); beside them
the bot's CPU seconds a decision, mean and slowest (these hang on the machine's load).

    python bench/solo_winrate.py                    # 200 games per level, seeds 0..199
    python bench/solo_winrate.py --games 500 --levels 1,2,3
    python bench/solo_winrate.py --variant solo --json
    PYTHONPATH=. python bench/solo_winrate.py --bot mcts:300/sample=24 --levels 4 --each

``--bot`` takes a seat name or a benchmark's bot (``bench/bot_specs.py``: the search
with settings after slashes); ``--each`` prints a line a game, with the bot's CPU
seconds in the game, a decision and at its slowest (for pairing two runs' games seed
by seed).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_ladder import Timed
from bot_specs import make_spec, spec_problem

from exlibris.catalog import load_catalog
from exlibris.engine.flow import new_game, play
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import bot_seed, settings_for

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Level:
    """One difficulty's figures."""

    difficulty: int
    games: int
    wins: int
    rate: float
    low: float
    high: float
    mean_player: float
    mean_library: float
    mean_seconds: float  # the bot's CPU seconds a decision (``bot_ladder.Timed``)
    slowest_seconds: float


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def run_level(catalog: object, variant: str, difficulty: int, seeds: range,
              bot: str, each: bool = False) -> Level:
    wins = 0
    mine: list[int] = []
    theirs: list[int] = []
    seconds: list[float] = []
    for seed in seeds:
        record = SaveRecord(seed=seed, seats=[bot.partition("/")[0]], names=["Solo"],
                            variant=variant, difficulty=difficulty)
        settings = settings_for(record, catalog)  # type: ignore[arg-type]
        own: list[float] = []
        agent = Timed(make_spec(bot, bot_seed(seed, 0)), [], [], cpu=own)
        from exlibris.agents.view import player_view

        game = new_game(catalog, settings, [agent], seed=seed,  # type: ignore[arg-type]
                        names=record.names, views=player_view, variant=variant)
        inspection = play(game).inspection
        assert inspection.public_library is not None, f"{variant} is not a solo game"
        wins += bool(inspection.win)
        mine.append(inspection.forms[0].total)
        theirs.append(inspection.public_library.total)
        seconds.extend(own)
        if each:
            print(f"seed {seed}: {'won' if inspection.win else 'lost'}, {mine[-1]} against "
                  f"{theirs[-1]}; the bot's CPU seconds: {sum(own):.1f} in all, "
                  f"{statistics.fmean(own) if own else 0.0:.3f} a decision, slowest "
                  f"{max(own, default=0.0):.2f}", flush=True)
    games = len(seeds)
    low, high = wilson(wins, games)
    return Level(difficulty, games, wins, wins / games if games else 0.0, low, high,
                 statistics.fmean(mine), statistics.fmean(theirs),
                 statistics.fmean(seconds), max(seconds))


def _bot(name: str) -> str:
    wrong = spec_problem(name)
    if wrong is not None:
        raise argparse.ArgumentTypeError(wrong)
    return name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per level")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--levels", default="1,2,3,4,5,6,7", help="difficulties to play")
    parser.add_argument("--variant", default="solo", help="a solo rules id")
    parser.add_argument("--bot", default="greedy", type=_bot,
                        help="random, greedy, mcts or mcts:N, with settings as "
                             "bench/bot_specs.py reads them (mcts:300/sample=24)")
    parser.add_argument("--each", action="store_true", help="print a line a game")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    catalog = load_catalog()
    seeds = range(args.seed, args.seed + args.games)
    levels = []
    for text in args.levels.split(","):
        level = run_level(catalog, args.variant, int(text), seeds, args.bot,
                          args.each and not args.json)
        levels.append(level)
        if not args.json:
            print(f"difficulty {level.difficulty}: {level.wins}/{level.games} won = "
                  f"{level.rate:.1%} (95% CI {level.low:.1%}-{level.high:.1%}); mean "
                  f"{level.mean_player:.1f} against {level.mean_library:.1f}; the bot's "
                  f"CPU seconds a decision: mean {level.mean_seconds:.3f}, slowest "
                  f"{level.slowest_seconds:.2f}", flush=True)
    if args.json:
        print(json.dumps({"variant": args.variant, "bot": args.bot, "seeds":
                          [seeds.start, seeds.stop - 1],
                          "levels": [asdict(level) for level in levels]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
