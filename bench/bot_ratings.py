"""Ratings of bots from a round robin of two-player games: Bradley-Terry on the Elo
scale with 95% intervals, each bot's wins and seconds a decision, and every pair's
score with its Wilson interval, as Markdown tables for ``docs/bots.md`` (or JSON).

    python bench/bot_ratings.py greedy mcts:25 mcts:100 mcts:400 --games 100 --workers 2
    python bench/bot_ratings.py random greedy --games 2 --json
    python bench/bot_ratings.py mcts:100/classic mcts:100/root=halving --games 50
    python bench/bot_ratings.py --levels --games 50 --workers 2   # the levels' table

A bot is a seat name as for ``--seats`` or a spec of ``bench/bot_specs.py``;
``--levels`` names the seats of ``exlibris play --level`` (``agents/levels.py``), the
table of ``docs/bots.md``, "Levels".

Every pair of bots plays ``--games`` games on seeds ``--seed`` onward (game i of a
pair plays seed + i, so every pair meets on the same deals), the seats turning by
one position each game, each game played by ``bench/bot_ladder.py``'s loop (its
bots seeded as ``exlibris play`` seeds them). The ratings are differences from the
first bot named (``--anchor`` to choose another), fitted by
``exlibris/simulate/ratings.py``; a shared first place is half a win each way. The
games, wins and ratings do not depend on ``--workers``: each game is played from its
seed alone and the results are taken in order; only the seconds do (they are wall
seconds of each answer, with ``--workers`` games thinking at once on the machine).

A run longer than a sitting can be played in parts: ``--record FILE`` appends each
game to FILE as a JSON line as it ends, and a later run with the same FILE plays only
the games of its schedule that FILE does not hold, then rates them all (a game is
known by its seats, seed and variant; its result comes from its seed alone, so the
parts give the games one run would):

    python bench/bot_ratings.py mcts:1600/deepen=1 mcts:400/deepen=1 --games 100 \
        --seed 42000 --record ladder-1600.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import shlex
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_ladder import bot_problem, play_game, rotated, wilson

from exlibris.agents.levels import LEVELS
from exlibris.simulate.ratings import Pairwise

_LOADED: dict[str, Any] = {}  # variant -> (catalog, settings), once a process


def schedule(bots: Sequence[str], games: int, seed: int) -> list[tuple[list[str], int]]:
    """The round robin's games in order: (seats, seed) for each pair and game."""
    return [(rotated([a, b], i), seed + i)
            for a, b in itertools.combinations(bots, 2) for i in range(games)]


def play_one(job: tuple[list[str], int, str]) -> dict[str, Any]:
    """One game of the round robin: each seat's rank and share of the win, and each
    bot's seconds of thought (total, slowest, decisions)."""
    from exlibris.catalog import load_catalog
    from exlibris.validation import resolve_settings

    seats, seed, variant = job
    if variant not in _LOADED:
        catalog = load_catalog()
        _LOADED[variant] = (catalog, resolve_settings(variant, catalog.variants))
    catalog, settings = _LOADED[variant]
    times: dict[str, list[float]] = {}
    outcome, names = play_game(catalog, settings, seats, seed, variant, times, {})
    inspection = outcome.inspection
    ranking = list(inspection.ranking)
    winners = inspection.winners
    return {"seats": seats, "seed": seed, "variant": variant,
            "ranks": [ranking.index(name) + 1 for name in names],
            "won": [1 / len(winners) if name in winners else 0.0 for name in names],
            "totals": [form.total for form in inspection.forms],
            "thought": {kind: [sum(spent), max(spent), len(spent)]
                        for kind, spent in times.items() if spent}}


def results(bots: Sequence[str], games: int, seed: int, variant: str, workers: int,
            known: dict[tuple[Any, ...], dict[str, Any]] | None = None
            ) -> Iterator[dict[str, Any]]:
    """Every game's result, in the order of :func:`schedule` whatever ``workers``; a
    game in ``known`` (by :func:`game_key`) is taken from there, not played."""
    known = known or {}
    jobs = [(seats, game_seed, variant) for seats, game_seed in schedule(bots, games, seed)]
    wanted = [job for job in jobs if game_key(*job) not in known]
    if workers <= 1 or len(wanted) <= 1:
        played: Iterator[dict[str, Any]] = map(play_one, wanted)
        yield from _in_order(jobs, known, played)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from _in_order(jobs, known, pool.imap(play_one, wanted))


def _in_order(jobs: list[tuple[list[str], int, str]],
              known: dict[tuple[Any, ...], dict[str, Any]],
              played: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for job in jobs:
        found = known.get(game_key(*job))
        yield found if found is not None else next(played)


def game_key(seats: Sequence[str], seed: int, variant: str) -> tuple[Any, ...]:
    """What names a game of a round robin: its seats in order, its seed, its variant."""
    return (*seats, seed, variant)


def read_record(path: Path) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The games a ``--record`` file holds, by :func:`game_key` (none if it does not
    exist). A line that is not such a game is a ValueError naming the line."""
    known: dict[tuple[Any, ...], dict[str, Any]] = {}
    if not path.exists():
        return known
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                game = json.loads(line)
                key = game_key(game["seats"], game["seed"], game["variant"])
                if not (isinstance(game["ranks"], list) and isinstance(game["won"], list)
                        and isinstance(game["thought"], dict)):
                    raise TypeError("ranks, won and thought")
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a game of a round robin ({exc})"
                                 ) from None
            known[key] = game
    return known


def summary(bots: Sequence[str], played: Iterable[dict[str, Any]], anchor: str
            ) -> dict[str, Any]:
    """Each bot's games, wins, rating and seconds a decision; each pair's score."""
    pairwise = Pairwise()
    wins: dict[str, float] = defaultdict(float)
    thought: dict[str, list[float]] = {bot: [0.0, 0.0, 0] for bot in bots}
    pairs: dict[tuple[str, str], list[float]] = {
        pair: [0.0, 0] for pair in itertools.combinations(bots, 2)}
    games = 0
    for game in played:
        games += 1
        seats = game["seats"]
        pairwise.add([{"agent": kind, "rank": rank}
                      for kind, rank in zip(seats, game["ranks"], strict=True)])
        for kind, share in zip(seats, game["won"], strict=True):
            wins[kind] += share
        for kind, (seconds, slowest, decisions) in game["thought"].items():
            mine = thought[kind]
            mine[0] += seconds
            mine[1] = max(mine[1], slowest)
            mine[2] += decisions
        pair = (seats[0], seats[1]) if (seats[0], seats[1]) in pairs else (seats[1], seats[0])
        pairs[pair][0] += game["won"][seats.index(pair[0])]
        pairs[pair][1] += 1
    rated = pairwise.result(anchor)
    if rated is None:
        raise ValueError("a round robin needs two bots and a game")
    by_bot = {r["agent"]: r for r in rated["agents"]}
    table = []
    for bot in sorted(bots, key=lambda b: -by_bot[b]["elo"]):
        seconds, slowest, decisions = thought[bot]
        rating = by_bot[bot]
        table.append({"bot": bot, "games": pairwise.games[bot], "wins": wins[bot],
                      "elo": rating["elo"], "low": rating["low"], "high": rating["high"],
                      "mean_seconds": seconds / decisions if decisions else None,
                      "slowest_seconds": slowest if decisions else None,
                      "decisions": decisions})
    return {"games": games, "anchor": anchor, "method": rated["method"], "bots": table,
            "pairs": [{"first": a, "second": b, "games": int(n), "first_wins": w,
                       "first_rate": w / n if n else None,
                       "wilson95": list(wilson(w, int(n))) if n else None}
                      for (a, b), (w, n) in pairs.items()]}


def markdown(found: dict[str, Any], command: str, games: int, seed: int, variant: str
             ) -> str:
    """The tables for ``docs/bots.md``, with the command that gives them."""
    lines = [f"`{command}`: every pair of bots played {games} two-player games "
             f"({variant}, seeds {seed}..{seed + games - 1}, seats rotated); "
             f"Bradley-Terry ratings on the Elo scale, {found['anchor']} at 0, with 95% "
             "intervals; seconds a decision on this machine, every decision of the bot.",
             "",
             "| bot | games | wins | rating (95%) | seconds a decision: mean | slowest |",
             "|---|---|---|---|---|---|"]
    for row in found["bots"]:
        rating = f"{row['elo']:+.0f} [{row['low']:+.0f}, {row['high']:+.0f}]"
        if row["bot"] == found["anchor"]:
            rating = "0 (anchor)"
        mean, slowest = row["mean_seconds"], row["slowest_seconds"]
        lines.append(f"| {row['bot']} | {row['games']} | {row['wins']:g} | {rating} | "
                     f"{'-' if mean is None else f'{mean:.4f}'} | "
                     f"{'-' if slowest is None else f'{slowest:.2f}'} |")
    lines += ["", "| pair | games | first won | Wilson 95% |", "|---|---|---|---|"]
    for pair in found["pairs"]:
        if not pair["games"]:
            continue
        low, high = pair["wilson95"]
        lines.append(f"| {pair['first']} against {pair['second']} | {pair['games']} | "
                     f"{pair['first_wins']:g} ({pair['first_rate']:.0%}) | "
                     f"{low:.0%}..{high:.0%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", help="seat names, as for --seats (mcts:N ...), "
                        "or specs of bench/bot_specs.py (mcts:100/root=halving)")
    parser.add_argument("--levels", action="store_true",
                        help="rate the seats of exlibris play --level 1..4 (after any named)")
    parser.add_argument("--games", type=int, default=20, help="games a pair (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games")
    parser.add_argument("--anchor", help="the bot rated 0 (default: the first named)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--record", type=Path, help="append each game to this file (JSON "
                        "lines) and play only the games it does not hold")
    args = parser.parse_args(argv)
    if args.levels:
        args.bots += [level.seat for level in LEVELS if level.seat not in args.bots]
    for name in args.bots:
        if bot_problem(name) is not None:
            parser.error(str(bot_problem(name)))
    if len(set(args.bots)) != len(args.bots) or len(args.bots) < 2:
        parser.error("name two or more different bots")
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers take a whole number from 1")
    anchor = args.anchor or args.bots[0]
    if anchor not in args.bots:
        parser.error(f"--anchor {anchor!r} is not one of the bots")

    try:
        known = read_record(args.record) if args.record else {}
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    # one write a game, appended: a run stopped between games leaves whole lines
    record = os.open(args.record, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) \
        if args.record else None

    def told(played: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for game in played:
            new = game_key(game["seats"], game["seed"], game["variant"]) not in known
            if record is not None and new:
                os.write(record, (json.dumps(game) + "\n").encode())
            print(f"seed {game['seed']}: {','.join(game['seats'])} {game['totals']}"
                  f"{'' if new else ' (recorded)'}", file=sys.stderr, flush=True)
            yield game

    try:
        found = summary(args.bots, told(results(args.bots, args.games, args.seed,
                                                args.variant, args.workers, known)), anchor)
    finally:
        if record is not None:
            os.close(record)
    command = shlex.join(["python", "bench/bot_ratings.py",
                          *(sys.argv[1:] if argv is None else argv)])
    if args.json:
        print(json.dumps({"command": command, "variant": args.variant, "seed": args.seed,
                          "games_a_pair": args.games, **found}, indent=2))
    else:
        print(markdown(found, command, args.games, args.seed, args.variant))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
