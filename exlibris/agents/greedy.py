"""A greedy bot: each decision takes the option that most improves its projected score.

It sees only its own view (hand, focus, public zones, the table's scoring rules).
Shelves are valued by the inspection form read ahead with the game's own
``ScoringRules`` (``worth.py``: ``Worth``, ``ShelfReading``), so a house rule that
changes a number of the form changes its play: a book card by the best cell it
finds on the shelf, a cell by the shelf with the card in it, after A1's flips,
less what the layout costs later (cards A1 flips; cards kept far from where their
letters belong in a three-row shelf, which leaves no room for the letters between).
Placements are weighed by a heuristic of what the location can give.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from exlibris.agents.view import PlayerView
from exlibris.agents.worth import (
    HELD,
    Foresight,
    ShelfReading,
    Worth,
    assistant_worth,
    prominent_count,
)
from exlibris.dsl import ast
from exlibris.dsl.errors import DslError
from exlibris.dsl.parser import parse_program
from exlibris.engine.decisions import Decision, DecisionKind, HomeAction, Purpose
from exlibris.engine.invariants import MAX_HIRES
from exlibris.model.cards import ArtifactCard, BookCard, Card, ResumeCard
from exlibris.model.shelf import Shelf
from exlibris.scoring import steps
from exlibris.scoring.artifacts import has_end_of_game_score
from exlibris.scoring.flips import bounded_flips
from exlibris.scoring.inspection import PlayerTable, Table, inspect_table

ONGOING_WORTH = 3.0  # an ongoing artifact's ability, in points, while rounds remain
SHELVE_OVER_DRAW = 2.0  # the gain a shelving must bring to be taken over a draw
EARLY = Foresight()  # while rounds remain
LATE = Foresight(layout=0.5, flipped_stability=1.0)  # the final round: few cards to come
SHELVED = (BookCard, ArtifactCard)  # the cards a shelf reading values (a tuple: no union
# is built at each ``isinstance``)
READINGS_KEPT = 8  # shelves kept read (a search's rollout policy plays every seat in turn)


class Kept:
    """A shelf read for a player (``read``: the scoring rules, focus, prominent and
    banned categories, rivals' tallies and final round it was read for), with what the
    bot worked out from it: cards' worth, the best gain of a hand, the moves' worth."""

    __slots__ = ("hand", "hand_gain", "moves", "offers", "read", "reading", "values")

    def __init__(self, read: tuple[Any, ...], reading: ShelfReading) -> None:
        self.read = read
        self.reading = reading
        self.values: dict[Card, float] = {}  # book cards' and artifacts'
        self.hand: tuple[Card, ...] | None = None
        self.hand_gain = 0.0
        # by location: its card area and what the view said of hires and the artifact
        # deck when its offer was weighed, and the offer
        self.offers: dict[str, tuple[Any, tuple[str, float]]] = {}
        # what each move of the shelf's cards is worth, by the option: a shift of part of
        # a row (the Shelfmasons Guild's), a rework (swaps and moves): a search's
        # rollouts weigh the same shelf's moves again and again
        self.moves: dict[tuple[Any, ...], float] = {}


class GreedyAgent:
    """Greedy choices from the player's own view."""

    needs_view = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._flip_plan: set[str] = set()
        # the readings of the shelves the last decisions saw, the last first: the same
        # shelf comes back decision after decision, and its gains with it; a ``Worth``
        # (with what it has worked out) serves the next shelf read for the same
        self._kept: list[Kept] = []
        self._rivals: dict[int, tuple[Shelf, str, int]] = {}  # views' shelves: never changed
        self._viewed: PlayerView | None = None  # the view the reading was last checked for

    def decide(self, view: PlayerView, decision: Decision) -> int:
        handler = _HANDLERS.get(decision.kind)
        if handler is None:
            return 0
        return handler(self, view, decision)

    # ------------------------------------------------------------------ valuation
    def reading(self, view: PlayerView) -> ShelfReading:
        """This player's shelf read with the game's scoring rules (kept while it holds)."""
        return self.kept(view).reading

    def kept(self, view: PlayerView) -> Kept:
        """The reading of this view's shelf, and what was worked out from it (kept for
        ``READINGS_KEPT`` shelves)."""
        kept = self._kept
        if view is self._viewed:
            return kept[0]
        shelf = view.shelf
        read = self.read_of(view)
        worth = None
        same: ShelfReading | None = None  # a reading of this shelf for another read
        for i, found in enumerate(kept):
            if found.read == read:
                other = found.reading.shelf
                if shelf is other or shelf == other:
                    if i:
                        kept.insert(0, kept.pop(i))
                    self._viewed = view
                    return found
            elif same is None and found.read[0] is read[0]:
                other = found.reading.shelf
                if shelf is other or shelf == other:
                    same = found.reading
            if worth is None and found.read[:5] == read[:5]:
                worth = found.reading.worth  # only the shelf or the foresight differ
        if worth is None:
            worth = Worth(view.scoring, view.focus, view.prominent, view.banned, read[4])
        foresight = LATE if view.final_round else EARLY
        if same is not None:  # the same shelf: its pass again
            reading = same.reread(worth, foresight)
        elif kept:  # the last shelf read, changed (by a move, say): the pass from the change
            reading = kept[0].reading.changed(shelf, worth, foresight)
        else:
            reading = ShelfReading(shelf, worth, foresight)
        found = Kept(read, reading)
        kept.insert(0, found)
        del kept[READINGS_KEPT:]
        self._viewed = view
        return found

    def known_moves(self, view: PlayerView, kept: Kept) -> dict[tuple[Any, ...], float]:
        """What the moves of this view's shelf (``kept``, its reading) are worth, as far
        as weighed: ``kept.moves``."""
        return kept.moves

    def read_of(self, view: PlayerView) -> tuple[Any, ...]:
        """How this view's shelf is read: the scoring rules, focus, prominent and banned
        categories, rivals' tallies and final round (a ``Kept``'s ``read``)."""
        return (view.scoring, view.focus, view.prominent, view.banned, self.rivals(view),
                view.final_round)

    def rivals(self, view: PlayerView) -> tuple[int, ...]:
        """The others' prominent tallies as B2 would count them now."""
        counts = []
        for other in view.opponents:
            shelf = other.shelf
            kept = self._rivals.get(other.seat)
            if (kept is None or kept[1] != view.prominent
                    or (kept[0] is not shelf and kept[0] != shelf)):
                kept = (shelf, view.prominent, prominent_count(shelf, view.prominent))
                self._rivals[other.seat] = kept
            counts.append(kept[2])
        return tuple(counts)

    def card_value(self, view: PlayerView, card: Card | None) -> float:
        """What a card is worth to this player: a book card by its best cell on the shelf
        (or, held for later, a share of its books), others by what they bring."""
        if isinstance(card, ResumeCard):
            return self.hire_value(view, card)
        if not isinstance(card, SHELVED):
            return 1.0 if card is not None else 0.0
        kept = self.kept(view)
        reading = kept.reading
        found = kept.values.get(card)
        if found is None:
            if reading.holds(card):  # on the shelf: what it holds up
                found = reading.loss(card)
            elif isinstance(card, ArtifactCard):
                found = self.artifact_value(view, card)
            else:
                found = max(reading.best_gain(card), HELD * reading.book_gain(card))
            kept.values[card] = found
        return found

    def artifact_value(self, view: PlayerView, card: ArtifactCard) -> float:
        """An artifact's worth from its content: its ``score:`` on the best cell of the
        projected shelf (the reading counts it), or its ongoing ability."""
        gain = self.reading(view).best_gain(card)
        value = max(gain, 0.0) if gain != float("-inf") else 0.0
        if not has_end_of_game_score(card.artifact_id) and not view.final_round:
            value += ONGOING_WORTH
        return value

    def best_position_gain(self, view: PlayerView, card: Card) -> float:
        """What ``card`` adds to the shelf's worth in its best legal cell."""
        return self.reading(view).best_gain(card)

    def hand_gain(self, view: PlayerView) -> float:
        """The best gain of shelving a card from hand now (0 with an empty hand)."""
        kept = self.kept(view)
        hand = view.hand
        if hand != kept.hand:
            best = self.best_position_gain
            kept.hand_gain = max((best(view, c) for c in hand), default=0.0)
            kept.hand = hand
        return kept.hand_gain

    def hire_value(self, view: PlayerView, card: ResumeCard) -> float:
        """A special assistant card: what its abilities can bring (``worth.py``)."""
        spec = view.assistant_cards.get(card.assistant_id)
        if spec is None or view.hired >= MAX_HIRES:
            return 0.0
        return assistant_worth(spec)

    # ------------------------------------------------------------------ decisions
    def _hire(self, view: PlayerView, decision: Decision) -> int:
        return _argmax((self.hire_value(view, c) for c in decision.values), self.rng)

    def _position(self, view: PlayerView, decision: Decision) -> int:
        card = decision.card
        if not isinstance(card, SHELVED):
            return len(decision) // 2
        return _argmax(self.reading(view).gains(card, decision.values), self.rng)

    def _pick(self, view: PlayerView, decision: Decision) -> int:
        purpose = decision.purpose
        if purpose is Purpose.FLIP:
            plan = self._flip_plan
            for i, value in enumerate(decision.values):
                if value is not None and value.name in plan:
                    plan.discard(value.name)
                    return i
            return decision.values.index(None)
        values = decision.values
        if not any(isinstance(v, SHELVED) for v in values):
            return 0
        if purpose is Purpose.SHELVE:  # the card that fits the shelf best, if any does
            best = self.best_position_gain
            return _argmax((0.0 if v is None else best(view, v) for v in values), self.rng)
        giving = purpose is not None and purpose.giving
        feeding = giving and view.solo is not None and purpose is Purpose.DISCARD
        scores = []
        for value in values:
            if value is None:
                scores.append(-1.5 if giving else 0.5)
            else:
                v = self.card_value(view, value)
                if feeding:  # a discard joins the public library: do not feed it
                    v += feed_value(view, value)
                scores.append(-v if giving else v)
        return _argmax(scores, self.rng)

    def _home_action(self, view: PlayerView, decision: Decision) -> int:
        if HomeAction.SHELVE not in decision.values:
            return 0
        if view.solo is not None:
            # five short rounds: a card drawn is seldom shelved in time, and the hand
            # left at the end feeds the public library (bench/solo_winrate.py: 28% won
            # at level 1 against 20% when it drew as in a multiplayer game)
            chosen = HomeAction.SHELVE
        elif view.final_round:  # the hand left scores nothing
            chosen = HomeAction.SHELVE if self.hand_gain(view) > 0 else HomeAction.DRAW
        else:
            gain = self.hand_gain(view)
            chosen = HomeAction.SHELVE if gain >= SHELVE_OVER_DRAW else HomeAction.DRAW
        return decision.values.index(chosen)

    def _eliminate(self, view: PlayerView, decision: Decision) -> int:
        """Solo cleanup: eliminate the tile that deals the most cards, since what is
        left in card areas feeds the public library."""
        scores = [tile_feeds(loc.spec) + self.rng.random() * 0.1 for loc in decision.values]
        return _argmax(scores, self.rng)

    def _category(self, view: PlayerView, decision: Decision) -> int:
        codes = [getattr(v, "code", None) for v in decision.values]
        for wanted in (view.focus, view.prominent):
            if wanted in codes:
                return codes.index(wanted)
        return 0

    def _flips(self, view: PlayerView, decision: Decision) -> int:
        """Search the best voluntary flips from this player's view; flip them if any."""
        self._flip_plan = best_flip_plan(view)
        return 1 if self._flip_plan else 0

    def _rearrange(self, view: PlayerView, decision: Decision) -> int:
        """Rework the shelf (a swap with the hand, of two cards, or a move) into the
        shelf worth most. A card goes up in a cell by its gain on the shelf without the
        cell's card; swaps of two cards are weighed only where one of them is out of
        order (A1 flips it), which keeps the search short."""
        kept = self.kept(view)
        known = self.known_moves(view, kept)
        options = decision.values
        scores = [known.get(option) for option in options]
        if None in scores:  # weighed once a shelf (the same for the same shelf and hand)
            for option, score in zip(options, self._reworks(view, kept.reading, options),
                                     strict=True):
                known[option] = score
            scores = [known[option] for option in options]
        return _argmax(scores, self.rng)

    def _reworks(self, view: PlayerView, reading: ShelfReading,
                 options: list[Any]) -> list[float]:
        """``_rearrange``'s score of each option: the shelf's worth after it, less now."""
        flipped = {pos for pos, key, kept in zip(reading.order, reading.keys, reading.kept,
                                                 strict=True) if key is not None and not kept}
        scores = []
        for kind, a, b in options:
            if kind == "swap":
                if a not in flipped and b not in flipped:
                    scores.append(float("-inf"))
                    continue
                shelf = view.shelf.copy()
                shelf.swap(a, b)
                trial = ShelfReading(shelf, reading.worth, reading.foresight,
                                     stability=reading.stability)  # the same cells
                scores.append(trial.value - reading.value)
                continue
            slot = view.shelf.at(a)
            card = slot.card  # type: ignore[union-attr]
            if kind == "hand":  # the hand's card goes up, the shelf's card comes to hand
                held = HELD * (_books(reading, card) - _books(reading, b))
                if slot.beneath is not None:  # type: ignore[union-attr]
                    # an entombed card stays in the cell, under the new one (LIB-MUMMY-5)
                    shelf = view.shelf.copy()
                    shelf.swap_with_hand(a, b)
                    trial = ShelfReading(shelf, reading.worth, reading.foresight,
                                         stability=reading.stability)  # the same cells
                    scores.append(trial.value - reading.value + held)
                    continue
                lifted = reading.lifted(a)
                scores.append(lifted.value + lifted.gain(b, a) - reading.value + held)
            else:
                lifted = reading.lifted(a)
                scores.append(lifted.value + lifted.gain(card, b) - reading.value)
        return scores

    def _shift(self, view: PlayerView, decision: Decision) -> int:
        """Shift part of a row where the shelf is worth most afterwards."""
        kept = self.kept(view)
        reading, known = kept.reading, self.known_moves(view, kept)
        scores = []
        for move in decision.values:  # the engine's legal shifts: not walked again
            value = known.get(move)
            if value is None:
                shelf = view.shelf.copy()
                shelf.shift_run(*move, legal=True)
                # read from the first cell the shift changed (the same value as afresh)
                value = known[move] = reading.changed(shelf, reading.worth,
                                                      reading.foresight).value
            scores.append(value)
        return _argmax(scores, self.rng)

    def _place(self, view: PlayerView, decision: Decision) -> int:
        return _argmax(self.place_scores(view, decision), self.rng)

    def place_scores(self, view: PlayerView, decision: Decision) -> list[float]:
        """Each placement's worth (``place_value``), in the decision's order."""
        return self.placements_scored(view, decision.values)

    def placements_scored(self, view: PlayerView, options: Sequence[Any]) -> list[float]:
        """``place_scores`` of these placements: pairs of an assistant and a target, read
        for the target's ``location`` (its ``id`` and ``spec``), ``bid`` and ``share``
        alone, so the engine's own pairs give the same worths as their descriptors
        (``rollout.py`` scores a fork's placements so)."""
        hand_gain = self.hand_gain(view)
        offers: dict[str, tuple[str, float]] = {}
        return [self.place_value(view, option, hand_gain, offers) for option in options]

    def place_value(self, view: PlayerView, option: Any, hand_gain: float,
                    offers: dict[str, tuple[str, float]] | None = None) -> float:
        """A placement's worth: what its location offers (``offer``; ``offers`` keeps
        each location's for the other options of one decision), less its bid; a home
        space by the best shelving from hand."""
        _assistant, target = option
        loc = target.location
        if loc is None:
            return 1.0 + max(0.0, hand_gain) * 0.5
        found = offers.get(loc.id) if offers is not None else None
        if found is None:
            found = self.kept_offer(view, loc)
            if offers is not None:
                offers[loc.id] = found
        kind, value = found
        if kind == "hire":  # a hiring auction (Job Faire): the best card's worth
            return 0.5 + 1.2 * value - 0.8 * target.bid if value > 0 else 0.0
        if kind == "auction":  # the Artifactorium: the best card, less the cards paid
            return self.bid_value(view, target, value)
        if kind == "market":
            return value
        value -= 0.8 * target.bid
        if target.share:
            value += 0.5
        return value

    def kept_offer(self, view: PlayerView, loc: Any) -> tuple[str, float]:
        """``offer``, kept with the reading while the location (its tile and card area),
        the hires and the artifact deck's size are the same."""
        kept = self.kept(view)
        seen = (view.areas.get(loc.id, ()), loc.spec, view.hired, view.artifact_deck_size,
                view.assistant_cards)
        found = kept.offers.get(loc.id)
        if found is None or found[0] != seen:
            found = kept.offers[loc.id] = (seen, self.offer(view, loc))
        return found[1]

    def offer(self, view: PlayerView, loc: Any) -> tuple[str, float]:
        """What a location's card area offers: a hiring auction's best card, an auction
        of cards on display's best card, an unseen artifact (the Black Market), or its
        best two visible cards and its face-down ones."""
        area = view.areas.get(loc.id, ())
        if any(isinstance(c, ResumeCard) for c in area):
            return "hire", max(self.card_value(view, c) for c in area)
        if any(isinstance(c, ArtifactCard) for c in area):
            return "auction", max(self.card_value(view, c) for c in area if c is not None)
        if _gives_artifacts(loc.spec):
            return "market", 1.2 + (ONGOING_WORTH if view.artifact_deck_size else -1.0)
        visible = []
        hidden = 0
        for c in area:
            if c is None:
                hidden += 1
            else:
                visible.append(self.card_value(view, c))
        visible.sort(reverse=True)
        return "cards", 1.2 + sum(visible[:2]) * 0.6 + hidden * 0.8

    def bid_value(self, view: PlayerView, target: Any, best: float) -> float:
        """A bid for a card worth ``best``: less the cheapest cards of the hand that pay
        it (a bid the hand cannot pay wins nothing)."""
        if target.bid > len(view.hand):
            return -1.0
        cost = sum(sorted(self.card_value(view, c) for c in view.hand)[:target.bid])
        return 1.2 + best - cost - 0.3 * target.bid


_HANDLERS = {
    DecisionKind.HIRE: GreedyAgent._hire,
    DecisionKind.POSITION: GreedyAgent._position,
    DecisionKind.PICK: GreedyAgent._pick,
    DecisionKind.HOME_ACTION: GreedyAgent._home_action,
    DecisionKind.ELIMINATE: GreedyAgent._eliminate,
    DecisionKind.CATEGORY: GreedyAgent._category,
    DecisionKind.FLIPS: GreedyAgent._flips,
    DecisionKind.PLACE: GreedyAgent._place,
    DecisionKind.REARRANGE: GreedyAgent._rearrange,
    DecisionKind.SHIFT: GreedyAgent._shift,
}  # the kinds the bot weighs; any other takes its first option


def _gives_artifacts(spec: Any) -> bool:
    """Whether a location's effect reads the artifact deck (the Black Market's does)."""
    return "artifact_deck" in _names_read(spec.effect)


@cache
def _names_read(effect: str) -> frozenset[str]:
    """The names an effect reads (from its parsed text; content that does not parse
    was refused long before a bot sees it)."""
    try:
        return ast.names_read(parse_program(effect))
    except DslError:
        return frozenset()


def public_focus_candidates(view: PlayerView) -> list[str]:
    """Solo: the categories that may still be the public library's hidden focus."""
    assert view.solo is not None
    known = {view.prominent, view.banned, view.focus, *view.solo.boxed}
    return [c for c in "CFHMRS" if c not in known]


def feed_value(view: PlayerView, card: Card) -> float:
    """Solo: what a card in the discard pile is worth to the public library: its
    prominent books, its likely focus books, less its banned books; a special assistant
    card volunteers (B6) and an artifact is donated (B7), each at the level."""
    assert view.solo is not None
    level = view.solo.difficulty
    if isinstance(card, ResumeCard):
        return float(steps.solo_volunteers(1, level))
    if isinstance(card, ArtifactCard):
        return float(steps.solo_donations(1, level))
    if not isinstance(card, BookCard):
        return 0.0
    candidates = public_focus_candidates(view)
    value = 0.0
    for book in card.books:
        if book == view.prominent:
            value += 1.5
        elif book == view.banned:
            value -= 1.0
        elif book in candidates:
            value += 2.0 / len(candidates)
    return value


def tile_feeds(spec: Any) -> float:
    """Cards a tile deals to its area each round (in solo, leftovers feed the library)."""
    prep = getattr(spec, "preparation", None)
    if prep is None or prep.source != "books":
        return 0.0
    return float(prep.deal_by_players.get(1, prep.deal) if prep.deal_by_players else prep.deal)


def best_flip_plan(view: PlayerView) -> set[str]:
    """The cards whose voluntary flip raises this player's own total, seen from its view
    (a bounded search: ``flips.bounded_flips``).

    Opponents' focuses are secret, but this player's own total does not depend on them.
    """
    players = [PlayerTable("me", view.focus, view.shelf)]
    players += [PlayerTable(f"seat {o.seat}", view.focus, o.shelf, o.hand_size)
                for o in view.opponents]
    inspection = inspect_table(Table(tuple(players), view.prominent, view.banned),
                               view.scoring)
    return set(bounded_flips(inspection, 0).cards)


def _books(reading: ShelfReading, card: Card) -> float:
    """What a card's books would add to the shelf's tally (0 for other cards)."""
    return reading.book_gain(card) if isinstance(card, BookCard) else 0.0


def _argmax(scores: Iterable[float], rng: random.Random) -> int:
    scores = list(scores)
    found = _one_best(scores)
    if found is not None:
        return found
    best = max(scores)
    return rng.choice([i for i, s in enumerate(scores) if s == best])


def _one_best(scores: list[float]) -> int | None:
    """The index of the best score when no other is as good (found in C), else None."""
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else None
