"""How much a position at a round's end tells of the game's final margin: what the
search bot's play-outs value (``agents/mcts.py``: the inspection form of the table
where a rollout stops), against what the game then came to.

    PYTHONPATH=. python bench/value_signal.py                  # 1000 greedy games, 2 players
    PYTHONPATH=. python bench/value_signal.py --games 3000 --players 3 --seed 100000

Greedy games (every seat the greedy bot). At the first decision of each new round
the inspection form of the table is read, as a play-out ending there reads it; at the
end, the final totals. For each seat and position: the margin then (its total less the
best other total) and the final margin. Printed: their correlation, by how far the game
had come (the largest shelf against the shelf size that starts the final round). With
numpy installed (the ``simulate`` extra brings it), also a linear fit of each seat's
final total on the form's lines, its shelf's cards and its hand, each also weighted by
the part of the game left, fitted on four games of five and scored on the fifth.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from typing import Any

from exlibris.agents.greedy import GreedyAgent
from exlibris.agents.mcts import position_value
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings

BANDS = ((0.5, 1.0, "first half"), (0.25, 0.5, "third quarter"), (0.0, 0.25, "last quarter"),
         (None, None, "final round"))


class RoundReader(GreedyAgent):
    """A greedy seat that reads the table at the first decision of each new round."""

    def __init__(self, seed: int, rows: list[dict[str, Any]]) -> None:
        super().__init__(seed)
        self.rows = rows
        self.game: Any = None
        self.round: int | None = None

    def sit_at(self, game: Any) -> None:
        self.game = game

    def decide(self, view: Any, decision: Any) -> int:
        state = self.game.state
        if self.round is not None and state.round != self.round \
                and state.cursor.step != "inspection":
            forms = position_value(self.game).forms
            threshold = self.game.settings.final_round.shelf_cards.get(len(state.players))
            shelves = [p.shelf.card_count() for p in state.players]
            left = 0.0 if state.final_round or not threshold else \
                max(0.0, 1.0 - max(shelves) / threshold)
            self.rows.append({
                "left": left,
                "totals": [f.total for f in forms],
                "lines": [[f.total, f.books, f.stability, f.prominent, f.banned, f.variety,
                           f.focus, len(f.flipped), shelf, len(p.hand.cards)]
                          for f, shelf, p in zip(forms, shelves, state.players, strict=True)],
            })
        self.round = state.round
        return super().decide(view, decision)


def margins(totals: Sequence[float]) -> list[float]:
    return [t - max(o for j, o in enumerate(totals) if j != i) for i, t in enumerate(totals)]


def collect(players: int, games: int, seed: int) -> list[tuple[dict[str, Any], list[int]]]:
    """(position, final totals) for every round's end of every game."""
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    found = []
    for s in range(seed, seed + games):
        rows: list[dict[str, Any]] = []
        seats: list[Any] = [RoundReader(s * 10, rows)]
        seats += [GreedyAgent(s * 10 + i) for i in range(1, players)]
        outcome = play(new_game(catalog, settings, seats, seed=s, views=player_view))
        finals = [f.total for f in outcome.inspection.forms]
        found += [(row, finals) for row in rows]
    return found


def band_of(left: float) -> str:
    for lo, hi, name in BANDS:
        if lo is None:
            if left == 0.0:
                return name
        elif lo < left <= hi:
            return name
    return BANDS[0][2]


def fitted_margins(data: list[tuple[dict[str, Any], list[int]]]) -> list[float] | None:
    """Each position's margins from a linear fit of the final totals (held-out fifths),
    or None without numpy."""
    try:
        import numpy as np
    except ImportError:
        return None
    xs, ys = [], []
    for row, finals in data:
        for lines, final in zip(row["lines"], finals, strict=True):
            base = [1.0, *lines]
            xs.append(base + [x * row["left"] for x in base])
            ys.append(final)
    x, y = np.array(xs), np.array(ys, dtype=float)
    seats = len(data[0][1])
    fold = np.repeat(np.arange(len(data)) % 5, seats)
    predicted = np.zeros(len(y))
    for k in range(5):
        weights, *_ = np.linalg.lstsq(x[fold != k], y[fold != k], rcond=None)
        predicted[fold == k] = x[fold == k] @ weights
    found: list[float] = []
    for i in range(len(data)):
        found += margins(list(predicted[i * seats:(i + 1) * seats]))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100000)
    args = parser.parse_args(argv)
    data = collect(args.players, args.games, args.seed)
    now: dict[str, list[float]] = {}
    final: dict[str, list[float]] = {}
    bands: list[str] = []
    for row, finals in data:
        band = band_of(row["left"])
        now.setdefault(band, []).extend(margins(row["totals"]))
        final.setdefault(band, []).extend(margins(finals))
        bands += [band] * len(finals)
    fitted = fitted_margins(data)
    print(f"{args.games} greedy games, {args.players} players, seeds {args.seed}.."
          f"{args.seed + args.games - 1}: {len(data)} round ends")
    print("part of the game left | positions | margin then ~ final margin | linear fit ~ final")
    for _, _, band in BANDS:
        if band not in now or len(now[band]) < 3:
            continue
        r_now = statistics.correlation(now[band], final[band])
        fit = "numpy not installed"
        if fitted is not None:
            mine = [m for m, b in zip(fitted, bands, strict=True) if b == band]
            fit = f"{statistics.correlation(mine, final[band]):.3f}"
        print(f"{band:21s} | {len(now[band]) // args.players:9d} | {r_now:25.3f} | {fit}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
