"""A search bot: single-observer information-set MCTS (Cowling, Powley, Whitehouse 2012).

It searches the decisions where search pays (``SEARCHED``: the placements and bids)
and makes the others as the greedy bot does. Each iteration forks the game at the
decision asked (``engine/forward.py``), deals again everything this seat cannot see
(a determinization), and plays the fork on: down the tree while its nodes have been
tried, choosing by UCB with availability counts (an option counts as available in
the iterations whose determinization offered it), then one new node, then a rollout
to the end of the round's resolution, in which every seat plays as the greedy bot
does (``agents/rollout.py``: one greedy agent a seat, remembering card worth over
the search). A placement shows its worth only when the locations resolve, so a
rollout valued earlier (``round_end=False``: after ``HORIZON`` decisions, the first
search's) mostly measures noise, and more iterations bought no strength
(``docs/bots.md``). ``rollout="greedy"`` plays the rollouts with one plain greedy
agent for every seat, ``rollout="random"`` uniformly at random (cheaper and much
weaker). The position reached is valued by the Official Library Inspection Form
under the game's own rules and settings (``game.scoring``: a house rule's scoring
changes what the search wants), as each seat's margin over its best opponent (in
solo, over the public library), squashed into 0..1. The option chosen is the one
visited most. That is the tree search (``root="ucb"``: the first search, as
``mcts:N/classic``); by default the root instead compares its options by sequential
halving on common deals (``_halve``: each option played out from the same
determinizations, the better half kept), at every table size, solo included.

Solo differs in four ways (five under UCB), and its rollouts are played by one greedy
agent that weighs a sample of a large rework or shift (``SamplingGreedy``, ``sample``;
the first search, ``classic``, keeps the plain greedy agent its solo figures were
measured with). It searches every decision of more than one option before the
inspection (``SOLO_SEARCHED``), not only the placements: with one player there are few
decisions, and which card is taken, kept or shelved where decides what feeds the
public library. Its rollouts go on to the end of the next round (``SOLO_ROUNDS``
rounds' ends, at most ``SOLO_HORIZON`` decisions a round; from the cleanup's
eliminations, to the end of the round after the next; the game's end stops them
sooner): only at a round's end has the resolution discarded what the tiles kept, and
the public library's growth counts, and a card taken this round is mostly shelved in
the next. Its values are the margin's change from the position searched (read in each
play-out's own determinization: the true game's would tell the public library's hidden
cards), not the margin itself: the player is mostly behind the public library in
mid-game, where the squashed margin is flat and tells the options apart poorly. A
small decision gets at least half the budget (``SOLO_MIN_SHARE``): a solo game has few
decisions. And a UCB search (``root="ucb"``, as ``mcts:N/classic``) explores more
(``SOLO_EXPLORATION``), those changes lying close together; the halving root, the
default at every table size, has no such constant.

Two settings of the benchmarks were measured and are not the default (``docs/bots.md``,
"The search, third pass"): ``below="tree"``, a tree of the seat's own later placements
of the round below each option of the halving root, and ``hand``, points a card in
hand adds to a total where a play-out stops before the inspection (``held``, a share
of each card's best gain on its seat's shelf as the greedy bot reads it, was measured
in "The search, sixth pass"). A third,
``deepen`` ("The search, fifth pass"), lets a larger budget buy longer play-outs at
two or more players: one round more each fourfold budget over ``DEEPEN_BASE``, up to
``DEEPEST`` (``deepened_rounds``: two rounds from 100 iterations), with the cap on
play (below) growing in step. A fourth, ``artifact_work`` ("A cap counted in cost"),
counts a rollout decision against that cap for more where its seat's shelf shows
artifacts (the greedy policy scores each of them at every cell it weighs): it bounds
a late solo decision with the Artifactorium in time, and cost the solo search most of
its strength there.

The tree is the observer's: every seat's decisions below the root are nodes, found
by the option's label (so options that name cards the observer cannot see make nodes
of their own, each tried where it is available). The budget is counted in
iterations, not seconds, so a seed gives the same game on any machine; a decision of
few options gets a smaller share of it (in solo, at least half: ``iterations_for``).
Sequential halving also caps the play a decision: at most ``WORK_PER_ITERATION``
rollout decisions an iteration of the budget, on average (``work``), counted, not
timed; a round's deals are cut to what its share affords at the play-outs' length so
far. At two players it seldom binds; from early in a round of four players, whose
play-outs are two to three times as long, it halves the iterations.
Before its first checkpoint (the library draft) a game cannot be forked, and the bot
chooses as the greedy bot does.
"""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from exlibris.agents.greedy import SHELVED, GreedyAgent
from exlibris.agents.rollout import SOLO_SAMPLE, RolloutPolicy, SamplingGreedy, ranking
from exlibris.agents.view import player_view
from exlibris.draws import below
from exlibris.engine import forward
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.flow import table_of
from exlibris.engine.game import Game
from exlibris.model.cards import ArtifactCard
from exlibris.model.shelf import Shelf
from exlibris.scoring.inspection import Inspection, Table, inspect_table, table_key

DEFAULT_ITERATIONS = 150  # the default budget of one decision (see ``iterations_for``)
MIN_ITERATIONS = 24  # what the smallest decision (two options) gets
SOLO_MIN_SHARE = 0.5  # in solo, the smallest decision gets this share of the budget
HORIZON = 10  # rollout decisions before the position is valued (with ``round_end=False``)
ROUND_HORIZON = 200  # a rollout to the round's end stops here all the same
SOLO_HORIZON = 40  # in solo: at most this many rollout decisions a round played to
# in solo, rollouts play to the end of this many rounds (the one under way first):
# with two, level 4 won 32 of 50 solo games at difficulty 4 where one round won 25
# (docs/bots.md, "Two rounds ahead in solo")
SOLO_ROUNDS = 2
EXPLORATION = 0.2  # UCB's constant, for values in 0..1 (0.7 spread visits evenly)
SOLO_EXPLORATION = 0.4  # in solo, whose values (a margin's change) lie closer together
MARGIN_SCALE = 12.0  # points of margin that make a value of about 0.88
# sequential halving's cap on play: this many rollout decisions an iteration of the
# budget (a two-player play-out averages about 17; a four-player one from early in a
# round 40 to 55, which made its slowest decisions twice as slow)
WORK_PER_ITERATION = 30
# ``artifact_work``: the face-up artifacts of a seat's shelf that make its rollout
# decisions count for more, at most (a solo game with the Artifactorium, seed 8, CPU ms
# a rollout decision by the artifacts on the shelf at the decision searched: 0.11 with
# none, 0.19 with one, 0.27 with two, 0.28 and 0.31 with three and four)
ARTIFACTS_COUNTED = 3
# ``deepen``: a budget of this many iterations sees one round; each fourfold budget
# over it, one round more (``deepened_rounds``), up to ``DEEPEST`` rounds: against two
# rounds at 100 iterations, three at 400 won 16 of 39 games, two at 400 won 56 of 100
# (docs/bots.md, "The search, fifth pass")
DEEPEN_BASE = 25
DEEPEST = 2
# the tables whose totals one search keeps (``position_totals``): about half of a
# two-player search's play-outs end at a table an earlier one of it reached
TOTALS_KEPT = 4096


# The decisions searched by default: the placements (and bids), where the greedy bot's
# heuristic is weakest and a choice shapes the whole round; the bot's other choices
# (shelving, picks, flips) are the greedy bot's, which reads them well and at once.
SEARCHED = frozenset({DecisionKind.PLACE})
# Solo: every kind but the inspection's voluntary flips (the greedy bot's bounded
# search reads them exactly; the game ends there) and the library draft (not
# forkable). Over seeds 0-29 at level 3 this won 11 games against 6 for the
# placements alone (docs/bots.md).
SOLO_SEARCHED = frozenset(DecisionKind) - {DecisionKind.FLIPS, DecisionKind.LIBRARY}


class Horizon(BaseException):
    """Ends a rollout (a BaseException, so that no effect's handler catches it)."""


class Node:
    """Statistics of one option in the observer's tree."""

    __slots__ = ("available", "children", "value", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.value = 0.0  # the sum of the values, for the seat that chose this option
        self.available = 1  # iterations in which this option could have been chosen


class MctsAgent:
    """Information-set MCTS with ``iterations`` a decision (``mcts:N`` on the CLI)."""

    needs_view = True  # for the greedy choices it makes where it does not search

    def __init__(self, seed: int = 0, iterations: int = DEFAULT_ITERATIONS,
                 horizon: int = HORIZON, rollout: str = "remembering",
                 searched: frozenset[str] | None = SEARCHED, round_end: bool = True,
                 root: str = "halving", rounds: int | None = None, below: str = "rollout",
                 hand: float = 0.0, work: int = WORK_PER_ITERATION, deepen: bool = False,
                 sample: int = SOLO_SAMPLE, held: float = 0.0,
                 artifact_work: float = 0.0) -> None:
        self.seed = seed
        # halving: a rollout decision counts this much more against the cap for each
        # face-up artifact on its seat's shelf, up to ``ARTIFACTS_COUNTED`` (0: every
        # decision alike; 0.5 was measured in solo, docs/bots.md, "A cap counted in cost")
        self.artifact_work = float(artifact_work)
        # solo rollouts weigh at most this many options of a rework or shift (0: all)
        self.sample = sample
        # at two or more players, play-outs see more rounds the larger the budget
        # (``deepened_rounds``), the cap on play growing with them; solo keeps its own
        self.deepen = bool(deepen)
        # halving: at most ``work`` rollout decisions an iteration of the budget, so a
        # decision's play is bounded at any table size (0: iterations alone count)
        self.work = work
        self.played = 0  # rollout decisions of the search under way
        self.spent = 0.0  # and their cost, in rollout decisions without artifacts
        self._costed = 0.0  # the search under way's ``artifact_work`` (0: not counted)
        # points a card in hand adds to a seat's total where a play-out stops before the
        # inspection (halving only; 0: the table alone is valued)
        self.hand = hand
        # the share of each card in hand's best gain on its seat's shelf (the greedy
        # bot's reading) added to the seat's total where a play-out stops before the
        # inspection (halving only; 0: none)
        self.held = float(held)
        self.root = root
        # below the halving root: "rollout" (the policy plays on at once) or "tree"
        # (a tree an option of the seat's own later searched decisions of the round,
        # grown by progressive widening, ``_Walker._widen``; the rollout after its
        # first new node)
        self.below = below
        # the rounds whose ends a rollout plays to (with round_end; in solo always);
        # None: the table's own, ``SOLO_ROUNDS`` in solo and one at two or more players
        self.rounds = rounds
        self.round_end = round_end  # rollouts to the end of the round, not ``horizon``
        self.iterations = iterations
        self.horizon = horizon
        self.rollout = rollout
        self.searched = searched  # the decision kinds searched (None: all); greedy for others
        self.fallback = GreedyAgent(seed)
        # the rollouts' policy: one greedy agent for every seat (``rollout="greedy"``,
        # and always in solo), or one a seat remembering card worth over a search; the
        # greedy one scores a placement on the fork's own pairs (``rollout.place``: the
        # worths of their descriptors, so the same choices) and weighs every option
        self.policy: Any = SamplingGreedy(seed + 1, sample=0)
        self.game: Game | None = None
        self.last_iterations = 0  # of the last decision
        # (iterations done, budget) of the search under way, read by the terminal's
        # live line from another thread; never read by the search itself
        self.progress = (0, 0)
        # the totals of the tables the search under way reached, by what they hold
        self.totals: dict[Any, Totals] = {}

    def sit_at(self, game: Game) -> None:
        self.game = game
        if self.rollout == "remembering" and game.solo is None:
            self.policy = RolloutPolicy(self.seed + 1, len(game.state.players))
        elif self.rollout == "remembering":  # solo: large reworks and shifts sampled
            self.policy = SamplingGreedy(self.seed + 1, self.sample)
        forward.record(game)

    # ------------------------------------------------------------------ deciding
    def decide(self, view: Any, decision: Decision) -> int:
        game = self.game
        # generators seeded afresh at each decision, from the seed and the game's count
        # of decisions: a resumed game, whose searches are not run again, goes on as
        # the game did
        seed = self.seed * 1_000_003 + (game.decisions if game is not None else 0)
        self.fallback.rng.seed(seed)
        if game is None or not self.searches(game, decision):
            self.last_iterations, self.progress = 0, (0, 0)
            return self.fallback.decide(view, decision)
        with heap_set_aside():
            return self._search(view, decision, game, seed)

    def _search(self, view: Any, decision: Decision, game: Game, seed: int) -> int:
        """The search of ``decision`` (``decide``, once it is one the bot searches)."""
        self._seed_policy(seed + 1, search=True)
        self.totals.clear()
        budget = self.iterations_for(decision.size, solo=game.solo is not None)
        if self.root == "halving":
            self.progress = (0, budget)
            return self._halve(game, decision, budget, seed,
                               self._shortlist(view, decision, budget, seed, game))
        rng = random.Random(seed)
        root = Node()
        for done in range(budget):
            self.progress = (done, budget)
            self._iterate(game, decision, root, rng)
        self.progress = (budget, budget)
        self.last_iterations = budget
        visits = [(child.visits, child.value, -i) for i, child in root.children.items()]
        return -max(visits)[2]

    def _shortlist(self, view: Any, decision: Decision, budget: int, seed: int,
                   game: Game) -> list[int]:
        """The options a halving search compares. In solo, where every decision is
        searched, a rework of the shelf may offer hundreds, more than the budget plays
        once each in a round of the halving (``fits``; playing all 280 of one took
        level 4 to 420 play-outs and 4 s); such a decision is searched over the greedy
        bot's choice and a seeded sample of the other options, as many as fit. Elsewhere
        (the placements at two or more players) every option is compared, as
        measured."""
        options = list(range(decision.size))
        if game.solo is None or decision.size <= (most := fits(budget)):
            return options
        chosen = self.fallback.decide(view, decision)
        others = [o for o in options if o != chosen]
        return sorted([chosen, *random.Random(seed).sample(others, most - 1)])

    def _halve(self, game: Game, decision: Decision, budget: int, seed: int,
               options: list[int]) -> int:
        """Sequential halving over ``options`` (Karnin, Koren and Somekh 2013): in each
        of its rounds every option left is played out from the same determinizations
        (common random numbers: the options are compared on the same deals), and the
        better half by mean value goes on."""
        options = list(options)
        rounds = max(1, math.ceil(math.log2(len(options))))
        sums = [0.0] * decision.size
        trees = [Node() for _ in range(decision.size)] if self.below == "tree" else None
        deal = 0
        used = 0
        self.played = 0
        self.spent = 0.0
        # rollout decisions (0: no cap), each counted by its cost (``_Walker.extra``)
        cap = budget * self.work * self._deepened(game)
        self._costed = self._artifact_work(game)
        while len(options) > 1 and used < budget:
            each = max(1, (budget // rounds) // len(options))
            # this round's share of the play left, counted in decisions (deterministic)
            share = (cap - self.spent) / max(1, math.ceil(math.log2(len(options))))
            dealt = 0
            while dealt < each:
                deal += 1
                dealt += 1
                for option in options:
                    sums[option] += self._play_out(game, decision, option, seed * 7919 + deal,
                                                   trees[option] if trees else None)
                    used += 1
                    self.progress = (used, budget)
                if cap and self.spent:  # the deals this round can afford, at the
                    # play-outs' cost so far
                    each = min(each, max(1, int(share * used / self.spent / len(options))))
            options.sort(key=lambda o: -sums[o])  # the same count each: sums order means
            options = options[:max(1, (len(options) + 1) // 2)]
        self.last_iterations = used  # the last round may go past the budget by a little
        return options[0]

    def _play_out(self, game: Game, decision: Decision, option: int, deal: int,
                  tree: Node | None = None) -> float:
        """The value to ``decision``'s seat of ``option``, played out from the deal
        ``deal`` (a determinization and the rollout's draws) to the round's end: down
        ``tree`` first if given (the seat's own later searched decisions), then the
        rollout."""
        seat = decision.seat
        branch = forward.fork(game)
        rng = random.Random(deal)
        self._seed_policy(deal)
        horizon, last = self._rollout_end(game, decision)
        walker = _Walker(Node(), rng, horizon, self._rollout_policy(), last_round=last,
                         owner=(seat, self.searched) if tree is not None else None,
                         costed=self._costed)
        walker.node = tree  # None: straight to the rollout once the option is taken

        solo = game.solo is not None
        baseline: list[list[float]] = []  # solo: the margins at the decision, as dealt

        def arrived(fork: Game, _: Decision) -> None:
            forward.determinize(fork, seat, rng)
            walker.game = fork
            if solo:  # as ``_iterate`` reads it
                baseline.append(margins_of(position_totals(fork, self.totals)))

        players = len(game.state.players)
        opening = _Opening(branch.game, option, walker)
        try:
            outcome = branch.play([opening] * players, arrived=arrived)
            inspection = outcome.inspection
        except Horizon:
            found = margins_of(position_totals(branch.game, self.totals),
                               credit=self._credit(branch.game))
            value = squashed(found, baseline[0] if baseline else None)[seat]
        else:
            value = seat_values(inspection, baseline[0] if baseline else None)[seat]
        self.played += horizon - walker.horizon
        self.spent += horizon - walker.horizon + walker.extra
        for node, _ in walker.path:
            node.visits += 1
            node.value += value
        return value

    def _credit(self, game: Game) -> list[float] | None:
        """Points each seat's hand adds to its total where a play-out stops before the
        inspection: ``hand`` a card, and ``held`` of each card's best gain on the
        seat's shelf as the greedy bot reads it (None: neither is set)."""
        if not (self.hand or self.held):
            return None
        credit = []
        for player in game.state.players:
            cards = player.hand.cards
            points = self.hand * len(cards)
            if self.held and cards:
                reader = self._reader(player.seat)
                reading = reader.reading(player_view(game, player.seat))
                points += self.held * sum(max(0.0, reading.best_gain(card))
                                          for card in cards if isinstance(card, SHELVED))
            credit.append(points)
        return credit

    def _reader(self, seat: int) -> GreedyAgent:
        """The greedy agent whose readings of ``seat``'s shelf value its hand."""
        policy = self.policy
        return policy.agents[seat] if isinstance(policy, RolloutPolicy) else policy

    def searches(self, game: Game, decision: Decision) -> bool:
        """Whether ``decision`` is searched (else the greedy bot's choice is made)."""
        if not forward.forkable(game):
            return False
        if game.solo is not None and self.searched is SEARCHED:
            return (decision.kind in SOLO_SEARCHED and decision.size > 1
                    and game.state.cursor.step != "inspection")
        return self.searched is None or decision.kind in self.searched

    def recheck(self, view: Any, decision: Decision) -> int | None:
        """A recorded decision replayed (a resumed save): the answer again where it is
        quick (the greedy choices, which also keep that bot's state in step), None
        where it would be searched."""
        game = self.game
        if game is not None and self.searches(game, decision):
            return None
        return self.decide(view, decision)

    def iterations_for(self, options: int, *, solo: bool = False) -> int:
        """The budget of a decision of ``options`` options: a small choice needs less.
        In solo it gets at least ``SOLO_MIN_SHARE`` of the budget: a solo game has
        few decisions, and its small ones (keep this card or not, draw or shelve)
        decide what feeds the public library."""
        floor = max(MIN_ITERATIONS, round(self.iterations * SOLO_MIN_SHARE)) if solo \
            else MIN_ITERATIONS
        return max(floor, min(self.iterations, self.iterations * (options - 1) // 8))

    def _seed_policy(self, seed: int, *, search: bool = False) -> None:
        """Seed the rollouts' policy; at a new ``search``, a remembering policy also
        forgets what the last search remembered."""
        policy = self.policy
        if isinstance(policy, RolloutPolicy) and search:
            policy.start(seed)
        elif isinstance(policy, RolloutPolicy):
            policy.reseed(seed)
        else:
            policy.rng.seed(seed)

    def _rollout_policy(self) -> GreedyAgent | RolloutPolicy | None:
        """The rollouts' policy (None: uniformly random)."""
        return None if self.rollout == "random" else self.policy

    def _rollout_end(self, game: Game, decision: Decision) -> tuple[int, int | None]:
        """How far a rollout from ``decision`` goes: at most so many decisions, and no
        further than the end of which round (None: the decisions alone count)."""
        if game.solo is not None:
            rounds = self.rounds or SOLO_ROUNDS
            return SOLO_HORIZON * rounds, last_round(game, decision) + rounds - 1
        if self.round_end:
            rounds = self.rounds or self._deepened(game)
            return ROUND_HORIZON, last_round(game, decision) + rounds - 1
        return self.horizon, None

    def _artifact_work(self, game: Game) -> float:
        """What a rollout decision counts more against the cap for each artifact its seat
        shows, in this game's searches (0 in a game without artifacts)."""
        work = self.artifact_work
        return work if work and holds_artifacts(game) else 0.0

    def _deepened(self, game: Game) -> int:
        """The rounds a play-out sees by ``deepen`` (one unless it deepens: at two or
        more players, with no ``rounds`` given)."""
        if not self.deepen or self.rounds or game.solo is not None:
            return 1
        return deepened_rounds(self.iterations)

    def _iterate(self, game: Game, decision: Decision, root: Node,
                 rng: random.Random) -> None:
        seat = decision.seat
        branch = forward.fork(game)
        solo = game.solo is not None
        horizon, last = self._rollout_end(game, decision)
        walker = _Walker(root, rng, horizon, self._rollout_policy(), last_round=last,
                         exploration=SOLO_EXPLORATION if solo else EXPLORATION)
        players = len(game.state.players)
        baseline: list[list[float]] = []  # solo: the margins at the decision, as dealt

        def arrived(fork: Game, _: Decision) -> None:
            forward.determinize(fork, seat, rng)
            walker.game = fork
            if solo:  # read in the determinization: the true game's would tell the
                # public library's hidden cards (SOLO-11)
                baseline.append(margins_of(position_totals(fork, self.totals)))

        try:
            outcome = branch.play([walker] * players, arrived=arrived)
            values = seat_values(outcome.inspection, baseline[0] if baseline else None)
        except Horizon:
            values = squashed(margins_of(position_totals(branch.game, self.totals)),
                              baseline[0] if baseline else None)
        for node, chooser in walker.path:
            node.visits += 1
            node.value += values[chooser]


class _Opening:
    """The fork's agent at the decision searched: it answers with the option played
    out, then hands every seat's decisions to ``then`` (the rollout)."""

    needs_view = False

    __slots__ = ("game", "option", "then")

    def __init__(self, game: Game, option: int, then: Any) -> None:
        self.game = game
        self.option = option
        self.then = then

    def decide(self, view: Any, decision: Decision) -> int:
        self.game.agents = [self.then] * len(self.game.state.players)
        return self.option


class _Walker:
    """Every seat's agent inside one iteration's fork: the tree, then the rollout."""

    needs_view = False

    __slots__ = ("costed", "exploration", "extra", "game", "horizon", "last_round", "node",
                 "owner", "path", "policy", "rng", "root")

    def __init__(self, root: Node, rng: random.Random, horizon: int,
                 policy: GreedyAgent | RolloutPolicy | None, *, last_round: int | None = None,
                 exploration: float = EXPLORATION,
                 owner: tuple[int, frozenset[str] | None] | None = None,
                 costed: float = 0.0) -> None:
        self.root = root
        # what a rollout decision costs more for each artifact its seat shows (0: not
        # counted, ``MctsAgent.artifact_work``); ``extra``: what the rollout's decisions
        # cost more than as many without artifacts
        self.costed = costed
        self.extra = 0.0
        # (seat, kinds): the tree holds only this seat's decisions of these kinds
        # (None: all); the others are the policy's, and end the tree at the round's end
        self.owner = owner
        self.exploration = exploration  # UCB's constant
        self.last_round = last_round  # the rollout also ends after this round's resolution
        self.policy = policy
        self.game: Any = None  # the fork, once it reaches the decision searched
        self.node: Node | None = root  # None once the rollout has begun
        self.rng = rng
        self.horizon = horizon
        self.path: list[tuple[Node, int]] = []

    def decide(self, view: Any, decision: Decision) -> int:
        node = self.node
        owner = self.owner
        if node is None or (owner is not None and (decision.seat != owner[0] or (
                owner[1] is not None and decision.kind not in owner[1]))):
            return self._roll(decision)
        if owner is not None:
            return self._widen(node, decision)
        keys: Any = range(decision.size) if node is self.root else decision.labels
        children = node.children
        fresh = [i for i, key in enumerate(keys) if key not in children]
        if fresh:  # a new node, then the rollout
            index = fresh[below(self.rng, len(fresh))] if len(fresh) > 1 else fresh[0]
            child = children[keys[index]] = Node()
            for key in keys:
                if key in children and children[key] is not child:
                    children[key].available += 1
            self.path.append((child, decision.seat))
            self.node = None
            return index
        return self._choose(children, keys, range(len(keys)), decision.seat)

    def _choose(self, children: dict[Any, Node], keys: Any, among: Any, seat: int) -> int:
        """UCB with availability counts among the options ``among`` (indices into
        ``keys``, every one a child): the chosen child goes on the path."""
        best, best_score = among[0], -1.0
        exploration = self.exploration
        for i in among:
            child = children[keys[i]]
            child.available += 1
            score = child.value / child.visits + exploration * math.sqrt(
                math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = i, score
        chosen = children[keys[best]]
        self.path.append((chosen, seat))
        self.node = chosen
        return best

    def _widen(self, node: Node, decision: Decision) -> int:
        """A step down the tree of the seat's own decisions, by progressive widening
        with the policy's ranking (Coulom 2007; Chaslot et al. 2008): a node of ``n``
        play-outs has at most ``1 + sqrt(n)`` children, added in the order the rollout
        policy ranks the options, so its first child is the option the rollout would
        have played but for ties (a small budget searches as the rollouts play), and
        UCB chooses among the children this deal offers."""
        if self.last_round is not None and _round_over(self.game, decision, self.last_round):
            raise Horizon  # the tree ends where the rollout would
        keys = decision.labels
        children = node.children
        present = [i for i, key in enumerate(keys) if key in children]
        played = sum(child.visits for child in children.values())
        if not present or len(children) < 1 + math.isqrt(played):
            fresh = [i for i in self._ranking(decision) if keys[i] not in children]
            if fresh:  # a new node, then the rollout
                for i in present:
                    children[keys[i]].available += 1
                child = children[keys[fresh[0]]] = Node()
                self.path.append((child, decision.seat))
                self.node = None
                return fresh[0]
        return self._choose(children, keys, present, decision.seat)

    def _ranking(self, decision: Decision) -> list[int]:
        """The options best first by the rollout policy (random without one)."""
        policy = self.policy
        if policy is None:
            order = list(range(decision.size))
            self.rng.shuffle(order)
            return order
        view = player_view(self.game, decision.seat)
        if isinstance(policy, RolloutPolicy):
            return policy.ranking(view, decision)
        return ranking(policy, view, decision)

    def _roll(self, decision: Decision) -> int:
        """The rollout's choice (the policy's, or uniformly random), until the horizon
        or the end of ``last_round``."""
        self.horizon -= 1
        if self.horizon < 0 or (self.last_round is not None
                                and _round_over(self.game, decision, self.last_round)):
            raise Horizon
        policy = self.policy
        if policy is None:
            return below(self.rng, decision.size)
        if self.costed:
            self.extra += self.costed * min(ARTIFACTS_COUNTED, artifacts_shown(
                self.game.state.players[decision.seat].shelf))
        return policy.decide(player_view(self.game, decision.seat), decision)


@contextmanager
def heap_set_aside() -> Iterator[None]:
    """A search with every object made before it set aside from the cyclic garbage
    collector (``gc.freeze``), and put back after (``gc.unfreeze``; both move whole lists,
    whatever the heap's size). A search makes and drops a fork's worth of objects each
    play-out; the collections that this sets off, its oldest generation's among them,
    walk only what the search made, not the catalog, the game and the screens. What
    is collected, and when, changes nothing a search computes (its caches keep what
    they name alive): the same games (``bench/same_games.py --search``). Nothing else in
    exlibris freezes the heap; objects frozen by a program that embeds it would be
    unfrozen by a search."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def holds_artifacts(game: Game) -> bool:
    """Whether any artifact card is in the game (its rollouts' decisions are then
    counted by their cost: ``_Walker.extra``)."""
    state = game.state
    return (any(isinstance(card, ArtifactCard) for zone in state.all_zones() for card in zone)
            or any(artifacts_shown(player.shelf) for player in state.players))


def artifacts_shown(shelf: Shelf) -> int:
    """The face-up artifacts on ``shelf`` (what is seen of it: the same on any machine,
    and in every determinization)."""
    return sum(1 for _, slot in shelf.items()
               if not slot.face_down and isinstance(slot.card, ArtifactCard))


def deepened_rounds(iterations: int) -> int:
    """The rounds a deepening search's play-outs see at a budget of ``iterations``: one
    below ``DEEPEN_BASE`` times four, then one more each fourfold budget, at most
    ``DEEPEST`` (25 and 99: one; 100 and more: two)."""
    rounds = 1
    while rounds < DEEPEST and iterations >= DEEPEN_BASE * 4 ** rounds:
        rounds += 1
    return rounds


def fits(budget: int) -> int:
    """The most options sequential halving plays once each in each of its rounds
    within ``budget``: the largest n with n * ceil(log2 n) <= budget (at least 2)."""
    n = 2
    while (n + 1) * math.ceil(math.log2(n + 1)) <= budget:
        n += 1
    return n


def position_value(game: Game, table: Table | None = None) -> Inspection:
    """The inspection of the table as it stands (``table``: ``table_of(game)`` if
    made already), under the game's rules (no voluntary flips: the form's own steps
    only)."""
    return inspect_table(table_of(game) if table is None else table, game.scoring)


# each seat's total and the public library's (solo; else None)
Totals = tuple[tuple[int, ...], int | None]


def totals_of(inspection: Inspection) -> Totals:
    """An inspection's ``Totals``."""
    library = inspection.public_library
    return (tuple(form.total for form in inspection.forms),
            None if library is None else library.total)


def position_totals(game: Game, kept: dict[Any, Totals]) -> Totals:
    """The totals of ``position_value``, kept in ``kept`` by what the table holds
    (``table_key``; at most ``TOTALS_KEPT`` tables): the inspection is the same for a
    table that holds the same, and play-outs of one search often end at one."""
    table = table_of(game)
    key = table_key(table)
    found = kept.get(key)
    if found is None:
        if len(kept) >= TOTALS_KEPT:
            kept.clear()
        found = kept[key] = totals_of(position_value(game, table))
    return found


def margins(inspection: Inspection, credit: list[float] | None = None) -> list[float]:
    """Each seat's total less the best other total (in solo, the public library's),
    each total with its ``credit`` added if given."""
    return margins_of(totals_of(inspection), credit)


def margins_of(totals: Totals, credit: list[float] | None = None) -> list[float]:
    """``margins`` from the totals alone."""
    seats, library = totals
    if credit is not None:
        seats = tuple(t + c for t, c in zip(seats, credit, strict=True))
    found = []
    for seat, total in enumerate(seats):
        if library is not None:
            best = library
        else:
            best = max((t for i, t in enumerate(seats) if i != seat), default=total)
        found.append(float(total - best))
    return found


def seat_values(inspection: Inspection, baseline: list[float] | None = None,
                credit: list[float] | None = None) -> list[float]:
    """Each seat's value in 0..1: its margin (``margins``, with ``credit``), less its
    margin in ``baseline`` if given, squashed by ``tanh``."""
    return squashed(margins(inspection, credit), baseline)


def squashed(found: list[float], baseline: list[float] | None = None) -> list[float]:
    """Margins as values in 0..1 (``seat_values``), each less its margin in
    ``baseline`` if given."""
    if baseline is not None:
        found = [m - b for m, b in zip(found, baseline, strict=True)]
    return [0.5 + 0.5 * math.tanh(m / MARGIN_SCALE) for m in found]


def last_round(game: Game, decision: Decision) -> int:
    """Solo: the round whose end ends a rollout from ``decision``: this one, or the
    next from the cleanup (whose eliminations show their worth only in the round
    they shape)."""
    state = game.state
    return state.round + 1 if _past_resolution(game, decision) else state.round


def _round_over(game: Any, decision: Decision, last: int) -> bool:
    """Whether the rollout has come past round ``last``'s resolution (its cleanup's
    eliminations, a later round, or the inspection)."""
    if game is None:
        return False
    round_ = game.state.round
    return round_ > last or (round_ == last and _past_resolution(game, decision))


def _past_resolution(game: Game, decision: Decision) -> bool:
    """Whether the game stands past its round's resolution: the cleanup (the solo
    eliminations) or the inspection."""
    return (decision.kind is DecisionKind.ELIMINATE
            or game.state.cursor.step in ("cleanup", "inspection"))
