"""Find a variant's setting (``exlibris simulate tune``): a parameter space over
settings, an objective from the report's measures, and a search that evaluates
every candidate on the same deals.

* **Space.** A parameter is a dotted path into a variant's ``settings``
  (``scoring.variety_per_book``, ``final_round.shelf_cards.3``) with a list of
  values (``=2,3,5``) or a range (``=2:6``, ``=0.5:2:0.25``: low, high, step).
* **Objective.** Terms of the report's measures, each with a weight (``TERM*W``),
  summed and minimised: ``seat:K`` (position K's win rate toward the fair share),
  ``balance`` (the largest gap between positions' win rates), ``library:ID``,
  ``location:ID``, ``special:ID``, ``artifact:ID`` (the win rate of seats holding
  it, toward the fair share), and ``rounds``, ``decisions``, ``total``,
  ``lead-changes`` with ``:T`` (toward T), ``:min`` or ``:max``.
* **Search.** A grid when the space has at most ``budget`` points, else Optuna's
  TPE sampler (seeded) for ``budget`` trials. Every candidate plays the same game
  numbers (the same seeds and seats), so candidates are compared on paired deals.
  Games are played in stages (a quarter, a half, all); after each stage a candidate
  whose paired bootstrap interval of (its objective minus the best's) lies wholly
  above 0 is clearly worse and stops (a heuristic stopping rule, not a test
  corrected for the many comparisons). A grid plays every candidate a stage before
  the next (a race); Optuna's trials run one after another, each against the best
  of those before it at the same stage.

The search knows nothing of games: :func:`search` takes an ``evaluate`` function
(a candidate and a number of games -> one :data:`GameValues` a game, in game
order) and a ``score`` (games -> the objective), so it is tested with a synthetic
objective whose optimum is known.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

GameValues = Mapping[str, tuple[float, float]]  # name -> (numerator, denominator)
Evaluate = Callable[[dict[str, Any], int], Sequence[GameValues]]
Score = Callable[[Sequence[GameValues]], float]
BOOTSTRAP = 300  # resamples of the deals for intervals and for stopping
LEVEL = 0.95
MIN_STAGE = 8  # games of the first stage, at least


class TuneError(ValueError):
    """A space or objective that cannot be read; the message says what to write."""


# ------------------------------------------------------------------ the space

@dataclass(frozen=True)
class Parameter:
    """One setting searched: ``path`` into ``settings``, a list of ``values`` or a
    numeric range (``low``..``high`` by ``step``; no step: continuous, Optuna only)."""

    name: str
    values: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    step: float | None = None

    @property
    def path(self) -> tuple[str | int, ...]:
        return tuple(int(p) if p.isdigit() else p for p in self.name.split("."))

    @property
    def integer(self) -> bool:
        return all(isinstance(v, int) for v in (self.low, self.high, self.step)
                   if v is not None)

    def grid(self) -> list[Any] | None:
        """Every value, or None for a continuous range."""
        if self.values:
            return list(self.values)
        if self.step is None:
            return None
        assert self.low is not None and self.high is not None
        count = math.floor((self.high - self.low) / self.step + 1e-9) + 1
        values = [self.low + i * self.step for i in range(count)]
        return [int(v) if self.integer else round(v, 10) for v in values]

    def suggest(self, trial: Any) -> Any:
        """The value an Optuna trial proposes."""
        if self.values:
            return trial.suggest_categorical(self.name, list(self.values))
        if self.integer:
            return trial.suggest_int(self.name, self.low, self.high, step=self.step or 1)
        return trial.suggest_float(self.name, self.low, self.high, step=self.step)


def _scalar(text: str) -> Any:
    """A value as YAML reads it: a whole number, a number, true/false, or text."""
    word = text.strip()
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    for kind in (int, float):
        try:
            return kind(word)
        except ValueError:
            pass
    return word


def parse_param(text: str) -> Parameter:
    """``PATH=a,b,c`` (a list) or ``PATH=LOW:HIGH[:STEP]`` (a range)."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name or not spec.strip():
        raise TuneError(f"--param {text!r}: write SETTING=VALUES, e.g. "
                        "scoring.variety_per_book=2:6 or scoring.awards.0=12,15,18")
    if any(not part for part in name.split(".")):
        raise TuneError(f"--param {text!r}: {name!r} is not a dotted setting path")
    if ":" in spec and "," not in spec:
        bounds = [_scalar(p) for p in spec.split(":")]
        if len(bounds) not in (2, 3) or not all(
                isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds):
            raise TuneError(f"--param {text!r}: a range is LOW:HIGH or LOW:HIGH:STEP, "
                            "numbers")
        low, high = bounds[0], bounds[1]
        step = bounds[2] if len(bounds) == 3 else (1 if isinstance(low, int)
                                                  and isinstance(high, int) else None)
        if high < low or (step is not None and step <= 0):
            raise TuneError(f"--param {text!r}: the range needs LOW <= HIGH and a "
                            "positive STEP")
        return Parameter(name, low=low, high=high, step=step)
    values = tuple(dict.fromkeys(_scalar(v) for v in spec.split(",") if v.strip()))
    if not values:
        raise TuneError(f"--param {text!r}: no values")
    return Parameter(name, values=values)


def space_size(parameters: Sequence[Parameter]) -> int | None:
    """The number of points of the grid (None: a continuous range)."""
    size = 1
    for parameter in parameters:
        grid = parameter.grid()
        if grid is None:
            return None
        size *= len(grid)
    return size


def overlay(parameters: Sequence[Parameter], candidate: Mapping[str, Any]) -> dict[str, Any]:
    """The ``settings`` overlay of a variant file that sets ``candidate``."""
    result: dict[str, Any] = {}
    for parameter in parameters:
        node = result
        *heads, last = parameter.path
        for head in heads:
            node = node.setdefault(head, {})
        node[last] = candidate[parameter.name]
    return result


def candidate_key(candidate: Mapping[str, Any]) -> str:
    """A short stable name of a candidate (its values, hashed)."""
    text = json.dumps(sorted(candidate.items()), sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=5).hexdigest()


# ------------------------------------------------------------------ the objective

PER_SEAT_UNITS = {"library": "library", "location": "locations", "special": "specials",
                  "artifact": "held"}
PER_GAME = {"rounds": "rounds", "decisions": "decisions", "total": "total",
            "lead-changes": "lead_changes"}


@dataclass(frozen=True)
class Term:
    """One part of the objective: ``kind`` (seat, balance, a unit kind, a per-game
    measure), its argument, its weight."""

    kind: str
    argument: str = ""
    weight: float = 1.0

    @property
    def label(self) -> str:
        text = self.kind + (f":{self.argument}" if self.argument else "")
        return text + (f"*{self.weight:g}" if self.weight != 1 else "")


def parse_term(text: str) -> Term:
    """``seat:K``, ``first-player``, ``balance``, ``library:ID`` (and ``location``,
    ``special``, ``artifact``), ``rounds:T|min|max`` (and ``decisions``, ``total``,
    ``lead-changes``), each with an optional ``*WEIGHT``."""
    body, star, weight_text = text.strip().partition("*")
    weight = 1.0
    if star:
        try:
            weight = float(weight_text)
        except ValueError:
            raise TuneError(f"--objective {text!r}: the weight after * is a number") from None
    kind, _, argument = body.strip().partition(":")
    kind, argument = kind.strip(), argument.strip()
    if kind == "first-player":
        return Term("seat", "1", weight)
    if kind == "seat" and argument.isdigit() and int(argument) >= 1:
        return Term(kind, argument, weight)
    if kind == "balance" and not argument:
        return Term(kind, "", weight)
    if kind in PER_SEAT_UNITS and argument:
        return Term(kind, argument, weight)
    if kind in PER_GAME:
        if argument in ("min", "max"):
            return Term(kind, argument, weight)
        try:
            float(argument)
        except ValueError:
            pass
        else:
            return Term(kind, argument, weight)
    raise TuneError(
        f"--objective {text!r}: write seat:K, first-player, balance, library:ID, "
        "location:ID, special:ID, artifact:ID, or rounds, decisions, total, lead-changes "
        "with :TARGET, :min or :max; add *WEIGHT to weigh a term")


@dataclass
class Objective:
    """The weighted sum of :class:`Term` values, minimised, at ``players`` players."""

    terms: list[Term]
    players: int

    @property
    def share(self) -> float:
        return 1 / self.players if self.players > 1 else 0.5

    def game_values(self, game: Sequence[Mapping[str, Any]]) -> dict[str, tuple[float, float]]:
        """The numbers one game gives the objective (from its rows)."""
        values: dict[str, tuple[float, float]] = {}
        by_position = {int(r["position"]): float(r["winner"]) for r in game}
        for k in range(1, self.players + 1):
            values[f"position {k}"] = (by_position.get(k, 0.0), 1.0)
        for term in self.terms:
            if term.kind in PER_SEAT_UNITS:
                column = PER_SEAT_UNITS[term.kind]
                holding = [r for r in game if term.argument in _listed(r.get(column))]
                values[term.label] = (sum(float(r["winner"]) for r in holding),
                                      float(len(holding)))
            elif term.kind in PER_GAME:
                column = PER_GAME[term.kind]
                total = sum(float(r.get(column, 0)) for r in game) / max(1, len(game))
                values[term.kind] = (total, 1.0)
        return values

    def terms_of(self, games: Sequence[GameValues]) -> dict[str, float]:
        sums: dict[str, list[float]] = {}
        for game in games:
            for name, (num, den) in game.items():
                pair = sums.setdefault(name, [0.0, 0.0])
                pair[0] += num
                pair[1] += den

        def mean(name: str) -> float | None:
            num, den = sums.get(name, (0.0, 0.0))
            return num / den if den else None

        result = {}
        for term in self.terms:
            if term.kind == "seat":
                value = abs((mean(f"position {term.argument}") or 0.0) - self.share)
            elif term.kind == "balance":
                rates = [mean(f"position {k}") or 0.0 for k in range(1, self.players + 1)]
                value = max(rates) - min(rates)
            elif term.kind in PER_SEAT_UNITS:
                rate = mean(term.label)
                value = self.share if rate is None else abs(rate - self.share)
            else:
                measure = mean(term.kind) or 0.0
                value = (measure if term.argument == "min" else -measure
                         if term.argument == "max" else abs(measure - float(term.argument)))
            result[term.label] = value
        return result

    def score(self, games: Sequence[GameValues]) -> float:
        return sum(t.weight * v for t, v in zip(self.terms, self.terms_of(games).values(),
                                                 strict=True))


def _listed(value: Any) -> list[str]:
    if isinstance(value, str):
        return [v for v in value.split(";") if v]
    return list(value or [])


# ------------------------------------------------------------------ the search

def stages(games: int) -> list[int]:
    """The games after which candidates are compared: a quarter, a half, all."""
    if games < 2 * MIN_STAGE:
        return [games]
    return sorted({max(MIN_STAGE, math.ceil(games / 4)), max(MIN_STAGE, math.ceil(games / 2)),
                   games})


@dataclass
class Candidate:
    """One point of the space and what was learnt of it."""

    values: dict[str, Any]
    key: str
    games: int = 0
    score: float = math.nan
    low: float = math.nan
    high: float = math.nan
    terms: dict[str, float] = field(default_factory=dict)
    stopped: str = ""  # why it stopped early (empty: it played every stage)
    samples: list[GameValues] = field(default_factory=list, repr=False)

    def as_json(self) -> dict[str, Any]:
        return {"values": self.values, "key": self.key, "games": self.games,
                "objective": self.score, "low": self.low, "high": self.high,
                "terms": self.terms, "stopped": self.stopped}


@dataclass
class SearchResult:
    method: str
    candidates: list[Candidate]
    best: Candidate
    stages: list[int]


def _draws(games: int, seed: int) -> list[list[int]]:
    """The bootstrap's resamples of game indices: the same for every candidate at a
    stage (so differences are paired), fixed by the seed."""
    rng = random.Random(f"exlibris-tune:{seed}:{games}")
    return [[rng.randrange(games) for _ in range(games)] for _ in range(BOOTSTRAP)]


def _interval(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    tail = (1 - LEVEL) / 2
    return (ordered[int(tail * len(ordered))],
            ordered[min(len(ordered) - 1, int((1 - tail) * len(ordered)))])


class Search:
    """Candidates evaluated stage by stage on the same deals."""

    def __init__(self, evaluate: Evaluate, score: Score, terms: Callable[[Sequence[GameValues]],
                 dict[str, float]] | None, games: int, seed: int) -> None:
        self.evaluate = evaluate
        self.score = score
        self.terms = terms
        self.stages = stages(games)
        self.seed = seed
        self.draws = {g: _draws(g, seed) for g in self.stages}
        self.boot: dict[tuple[str, int], list[float]] = {}
        self.scores: dict[tuple[str, int], float] = {}
        self.seen: dict[str, Candidate] = {}

    def _measure(self, candidate: Candidate, games: int) -> None:
        samples = list(self.evaluate(candidate.values, games))[:games]
        if len(samples) < games:
            raise TuneError(f"candidate {candidate.values}: {len(samples)} of {games} games "
                            "finished (see the failures file)")
        candidate.samples = samples
        candidate.games = games
        candidate.score = self.score(samples)
        boot = [self.score([samples[i] for i in draw]) for draw in self.draws[games]]
        self.boot[(candidate.key, games)] = boot
        candidate.low, candidate.high = _interval(boot)
        if self.terms is not None:
            candidate.terms = self.terms(samples)

    def clearly_worse(self, candidate: Candidate, best: Candidate, games: int) -> bool:
        """Whether the paired bootstrap interval of candidate minus best lies above 0."""
        a, b = self.boot[(candidate.key, games)], self.boot[(best.key, games)]
        low, _ = _interval([x - y for x, y in zip(a, b, strict=True)])
        return low > 0

    def race(self, candidates: Sequence[Candidate]) -> None:
        """Every candidate plays a stage, then those clearly worse than the stage's
        best stop; the rest play the next stage (a grid's search)."""
        alive = list(candidates)
        for games in self.stages:
            for candidate in alive:
                self._measure(candidate, games)
                self.scores[(candidate.key, games)] = candidate.score
            if games == self.stages[-1]:
                break
            best = min(alive, key=lambda c: c.score)
            for candidate in alive:
                if candidate is not best and self.clearly_worse(candidate, best, games):
                    candidate.stopped = (f"clearly worse than {describe(best.values)} "
                                         f"after {games} games")
            alive = [c for c in alive if not c.stopped]

    def run(self, candidate: Candidate, rivals: Sequence[Candidate]) -> Candidate:
        """Play ``candidate`` stage by stage, stopping when it is clearly worse than the
        best rival measured at that stage (the lowest objective there)."""
        if candidate.key in self.seen:
            return self.seen[candidate.key]
        self.seen[candidate.key] = candidate
        for games in self.stages:
            self._measure(candidate, games)
            self.scores[(candidate.key, games)] = candidate.score
            at_stage = [r for r in rivals
                        if (r.key, games) in self.scores and r.key != candidate.key]
            if not at_stage or games == self.stages[-1]:
                continue
            best = min(at_stage, key=lambda r: self.scores[(r.key, games)])
            if self.clearly_worse(candidate, best, games):
                candidate.stopped = (f"clearly worse than {describe(best.values)} after "
                                     f"{games} games")
                break
        return candidate


def describe(values: Mapping[str, Any]) -> str:
    """``name=value, ...`` of a candidate."""
    return ", ".join(f"{k}={v}" for k, v in values.items())


def search(parameters: Sequence[Parameter], evaluate: Evaluate, score: Score, *,
           games: int, budget: int, seed: int,
           terms: Callable[[Sequence[GameValues]], dict[str, float]] | None = None
           ) -> SearchResult:
    """Search the space: every grid point when there are at most ``budget``, else
    ``budget`` trials of Optuna's TPE sampler seeded by ``seed``."""
    engine = Search(evaluate, score, terms, games, seed)
    size = space_size(parameters)
    done: list[Candidate] = []
    if size is not None and size <= budget:
        method = f"grid of {size}"
        grids = [p.grid() or [] for p in parameters]
        for combination in itertools.product(*grids):
            values = {p.name: v for p, v in zip(parameters, combination, strict=True)}
            done.append(Candidate(values, candidate_key(values)))
        engine.race(done)
    else:
        method = f"optuna TPE, {budget} trials (seed {seed})"
        done = _optuna(parameters, engine, budget, seed)
    finished = [c for c in done if c.games == engine.stages[-1]]
    best = min(finished, key=lambda c: c.score)
    unique = list({c.key: c for c in done}.values())
    return SearchResult(method, unique, best, engine.stages)


def _optuna(parameters: Sequence[Parameter], engine: Search, budget: int, seed: int
            ) -> list[Candidate]:
    try:
        import optuna
    except ImportError:
        raise TuneError(f"the space is larger than --budget {budget} (or continuous): its "
                        'search needs Optuna: pip install "exlibris[tune]", or give a '
                        "budget as large as the grid") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(10, budget // 3 or 1))
    study = optuna.create_study(direction="minimize", sampler=sampler)
    done: list[Candidate] = []
    for _ in range(budget):
        trial = study.ask()
        values = {p.name: p.suggest(trial) for p in parameters}
        candidate = engine.run(Candidate(values, candidate_key(values)), done)
        if all(c.key != candidate.key for c in done):  # TPE may propose a point again
            done.append(candidate)
        # a candidate stopped early is told its estimate at the stage it reached
        study.tell(trial, candidate.score)
    return done
