"""The numbers of a report, as one JSON-ready document computed from the rows.

The rows are read once, game by game (a rows file is sorted by game), into small
counters a cell: memory grows with the number of distinct values and with a few
numbers a game (for pairing), never with the rows.

Per cell (variant at a player count): win rates by seat position, library, special
assistant, number of specials held and agent, each with its Wilson interval; one
test a table, which both orders it and flags it (Holm-corrected over the table):
the exact binomial test against the fair share for seat positions and agents,
Fisher's exact test of the seats with a unit against those without it (for
libraries and locations, among the seats it was dealt to or the games it was on the
board) for the rest; score distributions per line of the form; game length; the
measures of game-design research (balance, completion and stalls, ties,
first-player advantage with an exact test over every seat, decisiveness, drama,
decisions and options per turn, and round by round); ratings of the agents. Per
player count with several variants: each variant against the first (``standard``
when it is in the run), paired over the deals both played, every seat position and
the spread between them included, Holm-corrected over the comparison.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from exlibris.simulate.ratings import Pairwise
from exlibris.simulate.rows import FORM_LINES
from exlibris.simulate.stats import (
    SMALL_SAMPLE,
    Rate,
    binomial_p,
    chi2_uniform,
    fisher_p,
    holm,
    mean_difference,
    multinomial_uniform_p,
    paired_test,
    rate_difference,
    summary,
    wilson,
)

Row = dict[str, Any]
LINES = (*FORM_LINES, "total")
GROUPS = {"position": "seat position (1 plays first)", "library": "library",
          "special": "special assistant held", "specials_held": "special assistants held",
          "location": "location visited", "artifact": "artifact held", "agent": "agent"}
# per-unit rows: the rate without the unit beside it, flags corrected (Holm)
CORRECTED = ("library", "special", "specials_held", "location", "artifact")
# units whose availability the rows record: the seats that could have taken one
AVAILABLE = {"location": "board", "library": "dealt"}
MAX_STALLED_SEEDS = 50
ALPHA = 0.05


_LISTED = {"special": "specials", "location": "locations", "artifact": "held"}


def _keys(row: Row, group: str) -> list[str]:
    column = _LISTED.get(group)
    if column is not None:
        values = row.get(column, [])
        if isinstance(values, str):  # rows of an older run: ;-joined
            values = [v for v in values.split(";") if v]
        return list(values)
    if group == "specials_held":
        return [str(len(_keys(row, "special")))]
    return [str(row[group])]


def rate_json(key: str, rate: Rate, share: float | None, without: Rate | None = None,
              p: float | None = None, raw_p: float | None = None) -> dict[str, Any]:
    """One unit's win rate. ``p`` is the Holm-corrected p-value of the unit's test
    (``raw_p`` before correction): for a seat position or an agent, the exact binomial
    test against the fair share; for a unit with ``without``, Fisher's exact test of
    the rate with it against the rate without. ``flag`` (``above`` or ``below``) says
    the test finds a difference (p < 0.05) and its direction."""
    flag = None
    entry: dict[str, Any] = {"key": key, "wins": round(rate.wins, 4), "n": rate.n,
                             "rate": rate.rate, "low": rate.low, "high": rate.high,
                             "flag": None}
    if without is not None:  # every seat held it: nothing to compare with
        entry.update({"without": without.rate if without.n else None,
                      "without_n": without.n, "effect": None, "effect_low": None,
                      "effect_high": None})
        if without.n and rate.n:
            diff = rate_difference(without, rate)
            entry.update({"effect": diff.value, "effect_low": diff.low,
                          "effect_high": diff.high})
            if p is not None and p < ALPHA:
                flag = "above" if diff.value > 0 else "below"
    elif share is not None and (p < ALPHA if p is not None else rate.excludes(share)):
        flag = "above" if rate.rate > share else "below"
    entry["flag"] = flag
    if p is not None:
        entry["p_holm"] = p
        entry["p"] = raw_p if raw_p is not None else p
    return entry


def distribution(counts: Counter[float]) -> dict[str, Any]:
    """Mean, spread, quantiles and counts of values given as a counter."""
    n = sum(counts.values())
    if n == 0:
        return {"n": 0, "mean": math.nan, "sd": math.nan,
                "quantiles": dict.fromkeys(("p5", "p25", "p50", "p75", "p95"), math.nan),
                "counts": {}}
    mean = sum(v * c for v, c in counts.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1) if n > 1 else 0.0
    ordered = sorted(counts)
    return {"n": n, "mean": mean, "sd": math.sqrt(var),
            "quantiles": dict(zip(("p5", "p25", "p50", "p75", "p95"),
                                  _counted_quantiles(ordered, counts, n), strict=True)),
            "counts": {_num(k): counts[k] for k in ordered}}


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _counted_quantiles(ordered: list[float], counts: Counter[float], n: int
                       ) -> list[float]:
    def at(position: int) -> float:
        seen = 0
        for value in ordered:
            seen += counts[value]
            if position < seen:
                return value
        return ordered[-1]

    result = []
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        pos = q * (n - 1)
        lo = math.floor(pos)
        a, b = at(lo), at(min(lo + 1, n - 1))
        result.append(a + (b - a) * (pos - lo))
    return result


# ------------------------------------------------------------------ one cell

class CellFigures:
    """A cell's counters, fed one game at a time."""

    def __init__(self, variant: str, players: int) -> None:
        self.variant = variant
        self.players = players
        self.games = 0
        self.wins: dict[str, dict[str, float]] = {g: defaultdict(float) for g in GROUPS}
        self.seen: dict[str, Counter[str]] = {g: Counter() for g in GROUPS}
        self.lines: dict[str, Counter[float]] = {line: Counter() for line in LINES}
        self.rounds: Counter[float] = Counter()
        self.decisions: Counter[float] = Counter()
        self.tiebreak: Counter[str] = Counter()
        self.ended: Counter[str] = Counter()
        self.stalled: list[int] = []
        self.margin: Counter[float] = Counter()
        self.lead_changes: Counter[float] = Counter()
        self.winner_behind: Counter[float] = Counter()
        self.agent_decisions: Counter[str] = Counter()
        self.agent_options: Counter[str] = Counter()
        self.agent_thinking: dict[str, float] = defaultdict(float)
        self.agent_slowest: dict[str, float] = defaultdict(float)
        self.turns = 0
        self.rows = 0
        self.total_wins = 0.0
        # per game, for pairing: game index -> measures (see MEASURES) and who won
        self.paired: dict[int, array[float]] = {}
        self.agents: set[str] = set()
        self.library_assistants: dict[str, set[tuple[str, ...]]] = defaultdict(set)
        # availability (rows with ``board`` and ``dealt``): seats that could take a unit
        self.offered: dict[str, Counter[str]] = {g: Counter() for g in AVAILABLE}
        self.offered_wins: dict[str, dict[str, float]] = {g: defaultdict(float)
                                                          for g in AVAILABLE}
        self.knows_available: dict[str, bool] = dict.fromkeys(AVAILABLE, False)
        self.by_round: dict[int, Counter[str]] = defaultdict(Counter)
        self.ratings = Pairwise()

    def add(self, game: list[Row]) -> None:
        game = sorted(game, key=lambda r: r["seat"])
        first = game[0]
        self.games += 1
        self.rows += len(game)
        for row in game:
            self.total_wins += float(row["winner"])
            for group in GROUPS:
                for key in _keys(row, group):
                    self.wins[group][key] += float(row["winner"])
                    self.seen[group][key] += 1
            for line in LINES:
                self.lines[line][row[line]] += 1
            agent = str(row["agent"])
            self.agents.add(agent)
            if len(self.library_assistants) < 1000:
                self.library_assistants[str(row["library"])].add(
                    tuple(_keys(row, "special")))
            self.agent_decisions[agent] += int(row.get("player_decisions", 0))
            self.agent_options[agent] += int(row.get("options", 0))
            self.agent_thinking[agent] += float(row.get("thinking", 0.0))
            self.agent_slowest[agent] = max(self.agent_slowest[agent],
                                            float(row.get("slowest", 0.0)))
            for group, column in AVAILABLE.items():
                offered = row.get(column) or []
                if offered:
                    self.knows_available[group] = True
                for key in offered:
                    self.offered[group][str(key)] += 1
                    self.offered_wins[group][str(key)] += float(row["winner"])
            for r, (d, o) in enumerate(zip(row.get("decisions_by_round") or [],
                                           row.get("options_by_round") or [], strict=False)):
                counts = self.by_round[r + 1]
                counts["seat_turns"] += 1
                counts["decisions"] += int(d)
                counts["options"] += int(o)
        self.rounds[first["rounds"]] += 1
        self.decisions[first["decisions"]] += 1
        self.turns += int(first["rounds"]) * len(game)
        self.tiebreak[str(first["tiebreak"])] += 1
        self.ended[str(first["ended"])] += 1
        if first["ended"] != "final-round" and len(self.stalled) < MAX_STALLED_SEEDS:
            self.stalled.append(int(first["seed"]))
        if "lead_changes" in first:
            self.lead_changes[int(first["lead_changes"])] += 1
            for row in game:
                if float(row["winner"]) == 1.0:
                    self.winner_behind[int(row["behind"])] += 1
        totals = sorted((int(r["total"]) for r in game), reverse=True)
        if len(totals) > 1:
            self.margin[totals[0] - totals[1]] += 1
        self._add_rounds(game)
        self.ratings.add(game)
        self.paired[int(first["game"])] = _game_measures(game)

    def _add_rounds(self, game: list[Row]) -> None:
        """Drama and lead changes round by round, from the score by round: the sole
        winner's points behind the leader at each round's end, and whether the sole
        leader changed then."""
        scores = [r.get("score_by_round") or [] for r in game]
        winners = [i for i, r in enumerate(game) if float(r["winner"]) == 1.0]
        rounds = min((len(s) for s in scores), default=0)
        leader = None
        for r in range(rounds):
            totals = [s[r] for s in scores]
            counts = self.by_round[r + 1]
            counts["games"] += 1
            if winners:
                counts["winner_behind"] += max(totals) - totals[winners[0]]
                counts["winner_trailing"] += totals[winners[0]] < max(totals)
            best = max(totals)
            leaders = [i for i, t in enumerate(totals) if t == best]
            if len(leaders) == 1 and leaders[0] != leader:
                counts["lead_changes"] += leader is not None
                leader = leaders[0]

    def result(self) -> dict[str, Any]:
        share = 1 / self.players if self.players > 1 else None
        win_rate = {}
        tests = {}
        for group in GROUPS:
            win_rate[group], tests[group] = self._group(group, share)
        return {
            "variant": self.variant, "players": self.players, "games": self.games,
            "fair_share": share,
            "small_sample": self.games < SMALL_SAMPLE,
            "win_rate": win_rate,
            "tests": tests,
            "tiebreak": dict(self.tiebreak.most_common()),
            "ended": dict(self.ended.most_common()),
            "lines": {line: distribution(self.lines[line]) for line in LINES},
            "rounds": distribution(self.rounds),
            "decisions": distribution(self.decisions),
            "measures": self.measures(share, win_rate["position"]),
            "by_round": self.round_measures(),
            "ratings": self.ratings.result() if len(self.agents) > 1 else None,
            # each library brought its own one special assistant: the library and
            # special assistant rows then measure one thing twice
            "library_is_assistant": bool(self.library_assistants) and all(
                len(kinds) == 1 and len(next(iter(kinds))) == 1
                for kinds in self.library_assistants.values()),
        }

    def _group(self, group: str, share: float | None) -> tuple[list[dict[str, Any]], str]:
        """One table's entries and what its one test is: the test both sorts (by the
        difference it measures) and flags (Holm-corrected over the table)."""
        keys = sorted(self.seen[group], key=lambda k: (int(k) if k.isdigit() else 0, k))
        rates = {k: wilson(self.wins[group][k], self.seen[group][k]) for k in keys}
        withouts: dict[str, Rate] = {}
        if group in CORRECTED:
            available = group in AVAILABLE and self.knows_available[group]
            for key in keys:
                rate = rates[key]
                if available:  # the seats that could have taken it and did not
                    n = max(0, self.offered[group][key] - rate.n)
                    wins = max(0.0, self.offered_wins[group][key] - rate.wins)
                else:  # every seat not holding it
                    n = max(0, self.rows - rate.n)
                    wins = max(0.0, self.total_wins - rate.wins)
                # rows that disagree with each other (a damaged file) never give more
                # wins than seats
                withouts[key] = wilson(min(wins, float(n)), n)
            raw = [fisher_p(rates[k].wins, rates[k].n, withouts[k].wins, withouts[k].n)
                   for k in keys]
            test = ("fisher, with against without where it was "
                    + ("dealt" if group == "library" else "on the board")
                    if available else "fisher, with against every seat without")
        elif share is not None:
            raw = [binomial_p(rates[k].wins, rates[k].n, share) for k in keys]
            test = "binomial, against the fair share"
        else:
            raw, test = [], "none (solo: no fair share)"
        corrected = holm(raw) if raw else []
        entries = []
        for i, key in enumerate(keys):
            rate = rates[key]
            entry = rate_json(key, rate, share, withouts.get(key),
                              corrected[i] if corrected else None, raw[i] if raw else None)
            entry["share_of_seats"] = rate.n / self.rows if self.rows else 0.0
            entries.append(entry)
        return entries, test

    def round_measures(self) -> list[dict[str, Any]]:
        """Game quality round by round (Ludii's drama, lead changes, branching)."""
        result = []
        for r in sorted(self.by_round):
            c = self.by_round[r]
            games = c["games"]
            result.append({
                "round": r, "games": games,
                "winner_behind": c["winner_behind"] / games if games else None,
                "winner_trailing": c["winner_trailing"] / games if games else None,
                "lead_changes": c["lead_changes"] / games if games else None,
                "decisions_per_turn": (c["decisions"] / c["seat_turns"]
                                       if c["seat_turns"] else None),
                "options_per_decision": (c["options"] / c["decisions"]
                                         if c["decisions"] else None)})
        return result

    def measures(self, share: float | None, positions: list[dict[str, Any]]
                 ) -> dict[str, Any]:
        """Ludii's and TAG's game metrics for this cell."""
        games = self.games or 1
        result: dict[str, Any] = {
            "completion": self.ended.get("final-round", 0) / games,
            "stalled": self.games - self.ended.get("final-round", 0),
            "stalled_seeds": list(self.stalled),
            "ties_shared": self.tiebreak.get("shared", 0) / games,
            "settled_by_tiebreaker": sum(v for k, v in self.tiebreak.items()
                                         if k not in ("total", "shared")) / games,
            "decisiveness": distribution(self.margin),
            "lead_changes": distribution(self.lead_changes),
            "winner_behind": distribution(self.winner_behind),
            "won_from_behind": (sum(c for v, c in self.winner_behind.items() if v > 0)
                                / max(1, sum(self.winner_behind.values()))),
            "decisions_per_turn": sum(self.agent_decisions.values()) / max(1, self.turns),
            "options_per_decision": (sum(self.agent_options.values())
                                     / max(1, sum(self.agent_decisions.values()))),
            "per_agent": {a: {
                "decisions": self.agent_decisions[a],
                "options_per_decision": self.agent_options[a] / max(1, self.agent_decisions[a]),
                "thinking_per_decision": (self.agent_thinking[a]
                                          / max(1, self.agent_decisions[a])),
                "slowest_decision": self.agent_slowest[a]}
                for a in sorted(self.agents)},
        }
        trailing = [c["winner_behind"] / c["games"] for c in self.by_round.values()
                    if c["games"]]
        if trailing:
            result["drama"] = sum(trailing) / len(trailing)
        if share is not None and positions:
            rates = [e["rate"] for e in positions]
            chi2, df, _ = chi2_uniform([e["wins"] for e in positions])
            p, test = multinomial_uniform_p([e["wins"] for e in positions])
            result.update({"balance": 1 - (max(rates) - min(rates)),
                           "seat_chi2": chi2, "seat_df": df, "seat_p": p, "seat_test": test,
                           "first_player_advantage": rates[0] - share})
        return result


MEASURES = (*(f"mean {line}" for line in LINES), "rounds")
SPREAD = "seat spread (largest minus smallest position win rate)"
BOOTSTRAP = 500  # resamples of the deals for the seat spread's interval
BOOTSTRAP_SEED = 40  # a fixed seed: the same rows give the same report
BOOTSTRAP_DEALS = 2000  # above this many deals, the spread's interval by the delta method


def _game_measures(game: list[Row]) -> array[float]:
    """One game's values of MEASURES, then the winning seat (-1: shared), the seat
    that played first, each seat's win share (for the agents' win rates) and each
    seat position's win share (position 1 first)."""
    n = len(game)
    values = [sum(float(r[line]) for r in game) / n for line in LINES]
    values.append(float(game[0]["rounds"]))
    winners = [r["seat"] for r in game if float(r["winner"]) == 1.0]
    values.append(float(winners[0]) if winners else -1.0)
    values.append(float(next((r["seat"] for r in game if int(r["position"]) == 1), 0)))
    values += [float(r["winner"]) for r in game]
    by_position = sorted(game, key=lambda r: int(r["position"]))
    values += [float(r["winner"]) for r in by_position]
    return array("d", values)


# ------------------------------------------------------------------ comparisons

def _agent_rate(values: array[float], seats: Sequence[str], agent: str) -> float | None:
    base = len(MEASURES) + 2
    held = [values[base + i] for i, a in enumerate(seats) if a == agent]
    return sum(held) / len(held) if held else None


def compare(first: CellFigures, other: CellFigures,
            seats: dict[int, Sequence[str]]) -> dict[str, Any]:
    """Every measure of ``other`` against ``first``, paired over the deals both
    played (the same game index: the same seed, the same seats): the mean of the
    per-deal differences with Student's t interval, the paired t-test and the sign
    test; a measure is significant where the larger of the two p-values, corrected
    by Holm over every measure of the comparison, is below 0.05. Every seat
    position's win rate is compared, and the spread between seat positions (its
    interval by a paired bootstrap of the deals). The unpaired interval is beside
    each; and the share of deals whose winner changed."""
    common = sorted(set(first.paired) & set(other.paired))
    players = first.players
    result: dict[str, Any] = {"paired_games": len(common),
                              "small_sample": len(common) < SMALL_SAMPLE,
                              "correction": "holm"}
    entries = []
    names = [*MEASURES, *(f"win rate, seat position {k}" for k in range(1, players + 1))]
    agents = sorted(first.agents | other.agents)
    if len(agents) > 1:
        names += [f"win rate, {a}" for a in agents]
    for i, name in enumerate(names):
        a_all, b_all, diffs = [], [], []
        for cell, bucket in ((first, a_all), (other, b_all)):
            for index, values in cell.paired.items():
                value = _measure(values, i, name, seats.get(index, ()), players)
                if value is not None:
                    bucket.append(value)
        for index in common:
            x = _measure(first.paired[index], i, name, seats.get(index, ()), players)
            y = _measure(other.paired[index], i, name, seats.get(index, ()), players)
            if x is not None and y is not None:
                diffs.append(y - x)
        unpaired = mean_difference(summary(a_all), summary(b_all))
        a_mean = sum(a_all) / len(a_all) if a_all else math.nan
        b_mean = sum(b_all) / len(b_all) if b_all else math.nan
        entry = {"measure": name, "kind": "rate" if name.startswith("win rate") else "mean",
                 "first": a_mean, "value": b_mean,
                 "unpaired_low": unpaired.low, "unpaired_high": unpaired.high}
        if len(diffs) >= 2:
            test = paired_test(diffs)
            entry.update({"difference": test.value, "low": test.low, "high": test.high,
                          "paired": True, "p_t": test.t_p, "p_sign": test.sign_p,
                          "p": test.p})
        else:  # no deal played under both: say so, give the unpaired interval
            entry.update({"difference": unpaired.value, "low": unpaired.low,
                          "high": unpaired.high, "paired": False,
                          "p": 0.0 if unpaired.significant else 1.0})
        entries.append(entry)
    if players > 1 and len(common) >= 2:
        entries.append(_spread(first, other, common, players))
    for entry, p in zip(entries, holm([e["p"] for e in entries]), strict=True):
        entry["p_holm"] = p
        entry["significant"] = p < ALPHA
    result["measures"] = entries
    if common:
        winner = len(MEASURES)
        changed = sum(1 for i in common if first.paired[i][winner] != other.paired[i][winner])
        same_first = sum(1 for i in common
                         if first.paired[i][winner + 1] == other.paired[i][winner + 1])
        result["winner_changed"] = changed / len(common)
        result["same_first_player"] = same_first / len(common)
    else:
        result["winner_changed"] = None
        result["same_first_player"] = None
    return result


def _positions(values: array[float], players: int) -> list[float]:
    base = len(MEASURES) + 2 + players
    return list(values[base:base + players])


def _spread_of(columns: Sequence[Sequence[float]], picks: Sequence[int]) -> float:
    """The spread of seat positions' win rates over the deals ``picks``."""
    rates = [sum(map(column.__getitem__, picks)) for column in columns]
    return (max(rates) - min(rates)) / len(picks)


def _spread(first: CellFigures, other: CellFigures, common: Sequence[int], players: int
            ) -> dict[str, Any]:
    """The spread between seat positions' win rates under each rule, its difference,
    and a percentile interval and p-value from a paired bootstrap of the deals."""
    import random

    a = list(zip(*(_positions(first.paired[i], players) for i in common), strict=True))
    b = list(zip(*(_positions(other.paired[i], players) for i in common), strict=True))
    every = range(len(common))
    value_a, value_b = _spread_of(a, every), _spread_of(b, every)
    if len(common) > BOOTSTRAP_DEALS:  # the delta method: the extremes' seats held fixed
        ends = []
        for columns in (a, b):
            rates = [sum(column) for column in columns]
            ends.append((rates.index(max(rates)), rates.index(min(rates))))
        (hi_a, lo_a), (hi_b, lo_b) = ends
        test = paired_test([(b[hi_b][j] - b[lo_b][j]) - (a[hi_a][j] - a[lo_a][j])
                            for j in every])
        return {"measure": SPREAD, "kind": "rate", "first": value_a, "value": value_b,
                "difference": value_b - value_a, "low": test.low, "high": test.high,
                "paired": True, "unpaired_low": math.nan, "unpaired_high": math.nan,
                "p": test.t_p, "test": "paired t (delta method)"}
    rng = random.Random(BOOTSTRAP_SEED)
    draws = []
    for _ in range(BOOTSTRAP):
        picks = rng.choices(every, k=len(common))
        draws.append(_spread_of(b, picks) - _spread_of(a, picks))
    draws.sort()
    low, high = draws[int(0.025 * BOOTSTRAP)], draws[int(0.975 * BOOTSTRAP) - 1]
    below = sum(1 for d in draws if d <= 0) / BOOTSTRAP
    above = sum(1 for d in draws if d >= 0) / BOOTSTRAP
    return {"measure": SPREAD, "kind": "rate", "first": value_a, "value": value_b,
            "difference": value_b - value_a, "low": low, "high": high, "paired": True,
            "unpaired_low": math.nan, "unpaired_high": math.nan,
            "p": min(1.0, 2 * min(below, above)), "test": "paired bootstrap"}


def _measure(values: array[float], i: int, name: str, seats: Sequence[str],
             players: int) -> float | None:
    if i < len(MEASURES):
        return values[i]
    if name.startswith("win rate, seat position "):
        found = _positions(values, players)
        position = int(name.rsplit(" ", 1)[1]) - 1
        # a game with fewer rows than seats (a damaged rows file) has no such seat
        return found[position] if position < len(found) else None
    return _agent_rate(values, seats, name.removeprefix("win rate, "))


# ------------------------------------------------------------------ the whole report

def games_of(table: Iterable[Row]) -> Iterator[list[Row]]:
    """The rows grouped by game (rows of one game are consecutive in a rows file;
    rows in memory may come in any order)."""
    open_games: dict[tuple[str, int, int], list[Row]] = {}
    for row in table:
        key = (row["variant"], int(row["players"]), int(row["game"]))
        game = open_games.setdefault(key, [])
        game.append(row)
        if len(game) == int(row["players"]):
            yield open_games.pop(key)
    yield from open_games.values()  # games missing a seat's row: counted as they are


def figures(table: Iterable[Row], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole report's numbers. Variants keep the order of ``meta['variants']``
    (the run's plan), else their order in the rows; ``standard``, when present, is
    the one the others are compared against."""
    cells: dict[tuple[str, int], CellFigures] = {}
    seats: dict[tuple[int, int], list[str]] = {}
    for game in games_of(table):
        first = game[0]
        key = (first["variant"], int(first["players"]))
        cell = cells.get(key)
        if cell is None:
            cell = cells[key] = CellFigures(*key)
        cell.add(game)
        seating = (int(first["players"]), int(first["game"]))
        if seating not in seats:
            seats[seating] = [r["agent"] for r in sorted(game, key=lambda r: r["seat"])]
    order = list((meta or {}).get("variants") or [])
    order += [v for v, _ in cells if v not in order]
    if "standard" in order:
        order.remove("standard")
        order.insert(0, "standard")
    keys = sorted(cells, key=lambda c: (c[1], order.index(c[0])))
    result: dict[str, Any] = {
        "run": dict(meta or {}),
        "cells": [cells[k].result() for k in keys],
        "comparisons": [],
    }
    # the stalled games are counted from the rows, never taken from the caller
    result["run"]["stalled"] = sum(c["measures"]["stalled"] for c in result["cells"])
    result["run"]["stalled_seeds"] = [s for c in result["cells"]
                                      for s in c["measures"]["stalled_seeds"]]
    for players in sorted({p for _, p in keys}):
        variants = [v for v, p in keys if p == players]
        by_index = {i: s for (p, i), s in seats.items() if p == players}
        for other in variants[1:]:
            comparison = compare(cells[(variants[0], players)], cells[(other, players)],
                                 by_index)
            result["comparisons"].append({"players": players, "first": variants[0],
                                          "variant": other, **comparison})
    return result
