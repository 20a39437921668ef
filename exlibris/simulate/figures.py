"""The numbers of a report, as one JSON-ready document computed from the rows.

Per cell (variant at a player count): win rates by seat position, library, special
assistant and agent, each with its Wilson interval and a flag where the interval
excludes the fair share (1 / players); score distributions per line of the form;
game length. Per player count with several variants: each variant against the
first, the difference and its interval for every measure.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from exlibris.simulate.rows import FORM_LINES
from exlibris.simulate.stats import (
    Rate,
    Summary,
    mean_difference,
    quantiles,
    rate_difference,
    summary,
    wilson,
)

Row = dict[str, Any]
LINES = (*FORM_LINES, "total")
GROUPS = {"position": "seat position (1 plays first)", "library": "library",
          "special": "special assistant", "agent": "agent"}


def _keys(row: Row, group: str) -> Iterable[str]:
    if group == "special":
        return [s for s in str(row["specials"]).split(";") if s]
    return [str(row[group])]


def rate_json(key: str, rate: Rate, share: float) -> dict[str, Any]:
    flag = None
    if rate.excludes(share):
        flag = "above" if rate.low > share else "below"
    return {"key": key, "wins": round(rate.wins, 4), "n": rate.n, "rate": rate.rate,
            "low": rate.low, "high": rate.high, "flag": flag}


def win_rates(table: Sequence[Row], group: str, share: float) -> list[dict[str, Any]]:
    """One entry per value of ``group``: its win share over the rows holding it."""
    wins: dict[str, float] = defaultdict(float)
    seen: Counter[str] = Counter()
    for row in table:
        for key in _keys(row, group):
            wins[key] += float(row["winner"])
            seen[key] += 1
    order = sorted(seen, key=lambda k: (int(k) if k.isdigit() else 0, k))
    return [rate_json(k, wilson(wins[k], seen[k]), share) for k in order]


def distribution(values: Sequence[float]) -> dict[str, Any]:
    s = summary(values)
    q = quantiles(values)
    counts = Counter(values)
    return {"n": s.n, "mean": s.mean, "sd": s.sd, "quantiles": dict(zip(
        ("p5", "p25", "p50", "p75", "p95"), q, strict=True)),
            "counts": {str(k): counts[k] for k in sorted(counts)}}


def by_game(table: Sequence[Row]) -> dict[int, list[Row]]:
    games: dict[int, list[Row]] = defaultdict(list)
    for row in table:
        games[int(row["game"])].append(row)
    return games


def cell_figures(variant: str, players: int, table: Sequence[Row]) -> dict[str, Any]:
    share = 1 / players
    games = by_game(table)
    first = [rows[0] for rows in games.values()]
    return {
        "variant": variant, "players": players, "games": len(games), "fair_share": share,
        "win_rate": {g: win_rates(table, g, share) for g in GROUPS},
        "tiebreak": dict(Counter(r["tiebreak"] for r in first).most_common()),
        "ended": dict(Counter(r["ended"] for r in first).most_common()),
        "lines": {line: distribution([r[line] for r in table]) for line in LINES},
        "rounds": distribution([r["rounds"] for r in first]),
        "decisions": distribution([r["decisions"] for r in first]),
    }


# ------------------------------------------------------------------ comparisons

Measure = tuple[str, str, Callable[[Sequence[Row]], Any]]


def _game_mean(line: str) -> Callable[[Sequence[Row]], Summary]:
    """A line's mean per game (the players of one game are not independent)."""
    def measure(table: Sequence[Row]) -> Summary:
        return summary([sum(r[line] for r in rows) / len(rows)
                        for rows in by_game(table).values()])
    return measure


def _rounds(table: Sequence[Row]) -> Summary:
    return summary([rows[0]["rounds"] for rows in by_game(table).values()])


def _win_rate(group: str, key: str) -> Callable[[Sequence[Row]], Rate]:
    def measure(table: Sequence[Row]) -> Rate:
        held = [r for r in table if key in _keys(r, group)]
        return wilson(sum(float(r["winner"]) for r in held), len(held))
    return measure


def measures(table: Sequence[Row]) -> list[Measure]:
    """What a variant is compared on: the mean of every form line and of the total
    (per player), game length, the first seat's win rate, each agent's win rate."""
    result: list[Measure] = [(f"mean {line}", "mean", _game_mean(line)) for line in LINES]
    result.append(("rounds", "mean", _rounds))
    result.append(("win rate, seat position 1", "rate", _win_rate("position", "1")))
    agents = sorted({r["agent"] for r in table})
    if len(agents) > 1:
        result += [(f"win rate, {a}", "rate", _win_rate("agent", a)) for a in agents]
    return result


def compare(first: Sequence[Row], other: Sequence[Row]) -> list[dict[str, Any]]:
    """Every measure of ``other`` against ``first``: values, difference, interval."""
    result = []
    for name, kind, measure in measures(first):
        a, b = measure(first), measure(other)
        if kind == "rate":
            diff = rate_difference(a, b)
            values = (a.rate, b.rate)
        else:
            diff = mean_difference(a, b)
            values = (a.mean, b.mean)
        result.append({"measure": name, "first": values[0], "value": values[1],
                       "difference": diff.value, "low": diff.low, "high": diff.high,
                       "significant": diff.significant})
    return result


def figures(table: Sequence[Row], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole report's numbers. Variants keep the order they first appear in
    ``meta['variants']`` (the command line's), else their order in the rows."""
    cells: dict[tuple[str, int], list[Row]] = defaultdict(list)
    for row in table:
        cells[(row["variant"], int(row["players"]))].append(row)
    order = list((meta or {}).get("variants") or [])
    order += [v for v, _ in cells if v not in order]
    keys = sorted(cells, key=lambda c: (c[1], order.index(c[0])))
    result: dict[str, Any] = {
        "run": dict(meta or {}),
        "cells": [cell_figures(v, p, cells[(v, p)]) for v, p in keys],
        "comparisons": [],
    }
    for players in sorted({p for _, p in keys}):
        variants = [v for v, p in keys if p == players]
        for other in variants[1:]:
            result["comparisons"].append({
                "players": players, "first": variants[0], "variant": other,
                "measures": compare(cells[(variants[0], players)], cells[(other, players)])})
    return result
