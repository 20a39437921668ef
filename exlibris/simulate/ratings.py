"""Ratings of the agents that played (a tournament): a Bradley-Terry fit of every
pair of seats with different agents in a game, on the Elo scale, with intervals.

Each game gives, for each pair of its seats held by different agents, one result:
the better-ranked seat wins, equal ranks draw (half a win each). Bradley-Terry
strengths are fitted by Hunter's MM algorithm (Hunter, "MM algorithms for
generalized Bradley-Terry models", Annals of Statistics 32, 2004, eq. 3); each
pair of agents starts with one drawn game, a weak prior that keeps the rating of
an agent that never won (or never lost) finite. The intervals are 95% Wald
intervals from the observed information (the pseudo-inverse of the Laplacian of
the fit, for ratings centred on 0). Pairs from one game of three or more players
are not independent, so there the intervals are somewhat too narrow; at two
players they are the usual ones. Elo = 400 log10(strength), centred so the mean
agent is 0: a 100-point gap is a 64% expected score. Given an ``anchor`` agent, the
ratings are differences from it instead (the anchor is 0), each interval that of
the difference (from the covariance of the two ratings).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from exlibris.simulate.stats import Z95

ELO = 400 / math.log(10)
PRIOR = 0.5  # wins each way: one drawn game a pair
ITERATIONS = 2000


class Pairwise:
    """Results between agents, fed one game's rows at a time."""

    def __init__(self) -> None:
        self.wins: dict[tuple[str, str], float] = defaultdict(float)  # (a, b): a beat b
        self.games: dict[str, int] = defaultdict(int)

    def add(self, game: Sequence[dict[str, Any]]) -> None:
        for row in game:
            self.games[str(row["agent"])] += 1
        for i, a in enumerate(game):
            for b in game[i + 1:]:
                x, y = str(a["agent"]), str(b["agent"])
                if x == y:
                    continue
                ra, rb = int(a["rank"]), int(b["rank"])
                self.wins[(x, y)] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
                self.wins[(y, x)] += 1.0 if rb < ra else 0.5 if ra == rb else 0.0

    def result(self, anchor: str | None = None) -> dict[str, Any] | None:
        """Each agent's Elo rating with its interval (centred on 0, or less the rating
        of ``anchor``, one of the agents), and the pairwise table."""
        agents = sorted(self.games)
        if len(agents) < 2:
            return None
        if anchor is None:
            ratings, ses = fit(agents, self.wins)
        else:
            theta, cov = fit_covariance(agents, self.wins)
            a = agents.index(anchor)
            ratings = [t - theta[a] for t in theta]
            ses = [math.sqrt(max(0.0, cov[i][i] + cov[a][a] - 2 * cov[i][a]))
                   for i in range(len(agents))]
        table = [{"agent": a, "opponent": b, "score": self.wins[(a, b)],
                  "of": self.wins[(a, b)] + self.wins[(b, a)]}
                 for a in agents for b in agents if a != b and (a, b) in self.wins]
        centre = "centred on 0" if anchor is None else f"{anchor} at 0"
        return {"method": f"bradley-terry (MM), Elo scale, {centre}; 95% Wald "
                          "intervals",
                "agents": [{"agent": a, "elo": ELO * r, "low": ELO * (r - Z95 * se),
                            "high": ELO * (r + Z95 * se), "se": ELO * se,
                            "games": self.games[a]}
                           for a, r, se in sorted(zip(agents, ratings, ses, strict=True),
                                                  key=lambda t: -t[1])],
                "pairs": table}


def fit(agents: Sequence[str], wins: dict[tuple[str, str], float]
        ) -> tuple[list[float], list[float]]:
    """Log-strengths (centred on 0) and their standard errors."""
    theta, cov = fit_covariance(agents, wins)
    return theta, [math.sqrt(max(0.0, cov[i][i])) for i in range(len(agents))]


def fit_covariance(agents: Sequence[str], wins: dict[tuple[str, str], float]
                   ) -> tuple[list[float], list[list[float]]]:
    """Log-strengths (centred on 0) and their covariance matrix."""
    k = len(agents)
    w = [[(wins.get((a, b), 0.0) + PRIOR) if a != b else 0.0 for b in agents]
         for a in agents]
    n = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    strength = [1.0] * k
    for _ in range(ITERATIONS):
        new = []
        for i in range(k):
            denominator = sum(n[i][j] / (strength[i] + strength[j])
                              for j in range(k) if j != i and n[i][j])
            new.append(sum(w[i]) / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / scale for s in new]
        done = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-12
        strength = new
        if done:
            break
    theta = [math.log(s) for s in strength]
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and n[i][j]:
                p = strength[i] / (strength[i] + strength[j])
                info[i][j] -= n[i][j] * p * (1 - p)
                info[i][i] += n[i][j] * p * (1 - p)
    # the pseudo-inverse of the Laplacian: (J + 11'/k)^-1 - 11'/k
    shifted = [[info[i][j] + 1 / k for j in range(k)] for i in range(k)]
    inverse = _invert(shifted)
    return theta, [[inverse[i][j] - 1 / k for j in range(k)] for i in range(k)]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inversion with partial pivoting (a small positive-definite matrix)."""
    k = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[k:] for row in a]
