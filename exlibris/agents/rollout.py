"""The search bot's rollout policy: the greedy bot's choices, made cheaper for rollouts.

A search plays thousands of short games from one decision, every seat as the greedy
bot. These make that cheaper without changing what a rollout is for:

* **one greedy agent a seat**, so each keeps the reading of its own shelf from one
  decision to the next (a single agent for all seats read every shelf afresh, its
  worth with it, at nearly every decision);
* **card worth remembered over one search** (``RememberingGreedy.card_value``): what
  a card is worth to a seat is read once, at the first position of the search that
  asks, and used again in every later rollout of the same search, as MAST keeps
  its move values (Finnsson and Björnsson 2008). The shelf moves on in a rollout,
  so a remembered worth is the worth near the root, which is what a rollout's
  choices need to be told apart, not exact;
* **the hand's best shelving remembered** (``hand_gain``) for the same hand and
  focus, likewise, and the card to shelve chosen by its remembered worth;
* **a card's cell remembered** (``position``): the cell the greedy bot chooses for a
  card, by the shelf it goes on (its cells, not the object), the cells offered and
  how the shelf is read (the scoring rules, focus, categories, rivals' tallies and
  final round). That is exactly the greedy bot's choice, not an approximation: the
  same reading gives the same worths; a cell chosen from a tie is not remembered, so
  the tie is drawn by the generator each time, as the greedy bot draws it. The
  play-outs of one search reach the same shelf again and again (in two-player
  searches about seven cells a card is given in ten were given before in it);
* **a shelf's moves remembered** (``known_moves``): what each shift and rework of a
  shelf is worth, by the shelf's cells and how it is read, exactly the greedy bot's
  worths, kept for the whole search (the greedy bot keeps them with a shelf's reading,
  which a play-out puts by before it meets the shelf again);
* **a rework of the shelf weighed on a sample** (``DecisionKind.REARRANGE``): the
  greedy bot weighs every swap and move of the shelf, hundreds of options and the
  costliest decision of all; in a rollout it weighs ``REWORK_SAMPLE`` of them,
  drawn by its own generator;
* **a fork's own options read**: a placement is scored on the engine's pairs of an
  assistant and a target (``place``) and a rework's sample is described alone, the
  same worths as the descriptors give (``tests/test_rollout_policy.py``), without
  describing the new objects of every fork at every decision.

In solo the search's rollouts are played by one greedy agent, ``SamplingGreedy``,
which weighs ``SOLO_SAMPLE`` options of a large rework or shift in the same way: the
greedy weighing of every option of those two took two thirds of level 4's slowest
solo decisions (``docs/bots.md``, "Two rounds ahead in solo").

``start`` begins a search: it seeds each seat's agent and forgets what the last
search remembered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from exlibris.agents.greedy import (
    SHELVED,
    GreedyAgent,
    Kept,
    _argmax,
    _one_best,
    best_flip_plan,
)
from exlibris.agents.view import PlayerView
from exlibris.engine.decisions import Decision, DecisionKind, Purpose
from exlibris.engine.public import public_list
from exlibris.model.cards import Card

REWORK_SAMPLE = 12  # the options of a shelf's rework a rollout weighs
SOLO_SAMPLE = 128  # the options of a rework or shift a solo rollout weighs
KEPT_MOST = 16384  # cells and worths a ``CellMemory`` keeps before it empties them
MOVES_KEPT_MOST = 512  # shelves whose moves' worths it keeps (each up to hundreds of moves)
SAMPLED = (DecisionKind.REARRANGE, DecisionKind.SHIFT)


class CellMemory(GreedyAgent):
    """The greedy bot with what it works out of a shelf kept by the shelf's cells (its
    ``key``, not the object) and how it is read (the scoring rules, focus, categories,
    rivals' tallies and final round): the cell it gives a card (``position``), a book
    card's or artifact's worth (``card_value``), a card's best gain
    (``best_position_gain``), the voluntary flips it plans (by every shelf of the
    table) and what its shifts and reworks are worth (``known_moves``). All are exactly
    the greedy bot's: the same reading gives the same worths; a cell chosen from a tie
    is not kept, so the tie is drawn by the generator each time, as the greedy bot
    draws it. A search's play-outs reach the same shelves again and again (see the
    module)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.cells: dict[Any, int] = {}
        self.worths: dict[Any, float] = {}
        self.gains: dict[Any, float] = {}
        self.plans: dict[Any, frozenset[str]] = {}
        self.moves: dict[Any, dict[tuple[Any, ...], float]] = {}

    def forget(self) -> None:
        """Forget the cells, worths, gains, plans and moves kept."""
        for kept in (self.cells, self.worths, self.gains, self.plans, self.moves):
            kept.clear()

    def known_moves(self, view: PlayerView, kept: Kept) -> dict[tuple[Any, ...], float]:
        """The moves' worths of ``kept`` (``GreedyAgent.known_moves``), kept by the
        shelf's cells and how it is read: the play-outs of a search shift or rework the
        same shelf again and again, and read it anew in between."""
        key = (kept.read, view.shelf.key())
        found = self.moves.get(key)
        if found is None:
            found = _kept(self.moves, key, kept.moves, MOVES_KEPT_MOST)
        return found

    def decide(self, view: PlayerView, decision: Decision) -> int:
        kind = decision.kind
        if kind is DecisionKind.POSITION and isinstance(decision.card, SHELVED):
            return self.position(view, decision)
        if kind is DecisionKind.FLIPS:
            return self.flips(view)
        return super().decide(view, decision)

    def flips(self, view: PlayerView) -> int:
        """The greedy bot's voluntary flips (its ``_flips``), its plan kept by the table's
        shelves as the view shows them."""
        key = (view.scoring, view.focus, view.prominent, view.banned, view.shelf.key(),
               tuple((o.seat, o.shelf.key(), o.hand_size) for o in view.opponents))
        found = self.plans.get(key)
        if found is None:
            found = _kept(self.plans, key, frozenset(best_flip_plan(view)))
        self._flip_plan = set(found)
        return 1 if found else 0

    def best_position_gain(self, view: PlayerView, card: Card) -> float:
        key = (self.read_of(view), view.shelf.key(), card)
        found = self.gains.get(key)
        if found is None:
            found = _kept(self.gains, key, super().best_position_gain(view, card))
        return found

    def position(self, view: PlayerView, decision: Decision) -> int:
        """The greedy bot's cell for the card of a ``position`` decision (its
        ``_position``), kept when it was the one best."""
        card = decision.card
        key = (self.read_of(view), view.shelf.key(), card, tuple(decision.handles))
        found = self.cells.get(key)
        if found is not None:
            return found
        scores = self.reading(view).gains(card, decision.values)
        found = _one_best(scores)
        if found is None:  # a tie: drawn each time
            return _argmax(scores, self.rng)
        return _kept(self.cells, key, found)

    def card_value(self, view: PlayerView, card: Card | None) -> float:
        if not isinstance(card, SHELVED):
            return super().card_value(view, card)
        key = (self.read_of(view), view.shelf.key(), card)
        found = self.worths.get(key)
        if found is None:
            found = _kept(self.worths, key, super().card_value(view, card))
        return found


def _kept(table: dict[Any, Any], key: Any, value: Any, most: int = KEPT_MOST) -> Any:
    """``value``, kept in ``table`` by ``key`` (the table emptied first once it holds
    ``most``)."""
    if len(table) >= most:
        table.clear()
    table[key] = value
    return value


class RememberingGreedy(CellMemory):
    """The greedy bot with card worth remembered over one search (see the module)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.worth_of: dict[Any, float] = {}
        self.hand_gains: dict[Any, float] = {}

    def forget(self) -> None:
        """Forget what the last search remembered."""
        super().forget()
        self.worth_of.clear()
        self.hand_gains.clear()

    def decide(self, view: PlayerView, decision: Decision) -> int:
        if decision.kind is DecisionKind.PICK and decision.purpose is Purpose.SHELVE:
            return _argmax((0.0 if card is None else self.card_value(view, card)
                            for card in decision.values), self.rng)
        return super().decide(view, decision)

    def hand_gain(self, view: PlayerView) -> float:
        key = (view.hand, view.focus)
        found = self.hand_gains.get(key)
        if found is None:
            found = self.hand_gains[key] = super().hand_gain(view)
        return found

    def card_value(self, view: PlayerView, card: Card | None) -> float:
        key = (card, view.focus)  # the seat's focus differs between determinizations
        found = self.worth_of.get(key)
        if found is None:
            found = self.worth_of[key] = super().card_value(view, card)
        return found


class RolloutPolicy:
    """Every seat's agent in a search's rollouts (see the module)."""

    needs_view = True

    __slots__ = ("agents",)

    def __init__(self, seed: int, seats: int) -> None:
        self.agents = [RememberingGreedy(seed + seat) for seat in range(seats)]

    def start(self, seed: int) -> None:
        """Begin a search: seed each seat's agent from ``seed``, forget the last one's."""
        for seat, agent in enumerate(self.agents):
            agent.rng.seed(seed + seat)
            agent.forget()

    def reseed(self, seed: int) -> None:
        """Seed each seat's agent from ``seed``, keeping what the search remembered."""
        for seat, agent in enumerate(self.agents):
            agent.rng.seed(seed + seat)

    def ranking(self, view: PlayerView, decision: Decision) -> list[int]:
        """The options best first, as this policy sees them: a placement's by its
        worth to the greedy bot (ties in the options' order); another decision's
        answer first, then the rest in order."""
        return ranking(self.agents[decision.seat], view, decision, self.decide)

    def decide(self, view: PlayerView, decision: Decision) -> int:
        agent = self.agents[decision.seat]
        kind = decision.kind
        if kind is DecisionKind.PLACE:
            return place(agent, view, decision)
        if kind is not DecisionKind.REARRANGE or len(decision) <= REWORK_SAMPLE:
            return agent.decide(view, decision)
        return weigh_sample(agent, view, decision, REWORK_SAMPLE)


class SamplingGreedy(CellMemory):
    """The solo search's rollout policy: the greedy bot (its cells and worths kept by the
    shelf's cells: ``CellMemory``), weighing ``sample`` options of a rework or shift that
    offers more (see the module; 0: all of them)."""

    def __init__(self, seed: int = 0, sample: int = SOLO_SAMPLE) -> None:
        super().__init__(seed)
        self.sample = sample

    def decide(self, view: PlayerView, decision: Decision) -> int:
        if decision.kind is DecisionKind.PLACE:
            return place(self, view, decision)
        if decision.kind in SAMPLED and 0 < self.sample < len(decision):
            return weigh_sample(self, view, decision, self.sample)
        return super().decide(view, decision)


def place(agent: GreedyAgent, view: PlayerView, decision: Decision) -> int:
    """``agent``'s placement, its options scored as the engine's own pairs (the fork's:
    the search plays its own copies of the game): the worths, and so the choice, are
    those of their descriptors (``GreedyAgent.placements_scored``), without making
    the descriptors of a fork's new objects at every placement of every rollout."""
    return _argmax(agent.placements_scored(view, decision.handles), agent.rng)


def weigh_sample(agent: GreedyAgent, view: PlayerView, decision: Decision,
                 size: int) -> int:
    """``agent``'s choice of a rework or shift among ``size`` of ``decision``'s
    options, drawn by its own generator."""
    chosen = sorted(agent.rng.sample(range(len(decision)), size))
    handles = decision.handles  # only the sample described
    sample = _Options(public_list([handles[i] for i in chosen]))
    weigh = agent._shift if decision.kind is DecisionKind.SHIFT else agent._rearrange
    return chosen[weigh(view, sample)]  # type: ignore[arg-type]


def ranking(agent: GreedyAgent, view: PlayerView, decision: Decision,
            decide: Callable[[PlayerView, Decision], int] | None = None) -> list[int]:
    """``decision``'s options best first by ``agent``: a placement's by its worth
    (``GreedyAgent.placements_scored`` of the engine's pairs, as ``place`` reads them;
    ties in the options' order); another decision's answer (``decide``, else the
    agent's) first, then the rest in order."""
    if decision.kind is DecisionKind.PLACE:
        scores = agent.placements_scored(view, decision.handles)
        return sorted(range(len(scores)), key=lambda i: -scores[i])
    first = (decide or agent.decide)(view, decision)
    return [first, *(i for i in range(decision.size) if i != first)]


class _Options:
    """A decision's options, a sample of them, as the greedy bot's weighing reads them."""

    __slots__ = ("values",)

    def __init__(self, values: list[Any]) -> None:
        self.values = values
