"""A greedy bot: each decision takes the option that most improves its projected score.

It sees only its own view (hand, focus, public zones). Cards are valued by
their books for this player (focus, prominent, banned, the categories it lacks);
shelf positions by the projected inspection of the shelf with the card in it;
placements by a heuristic of what the location can give.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache
from typing import Any

from exlibris.agents.view import PlayerView
from exlibris.agents.worth import assistant_worth
from exlibris.dsl import ast
from exlibris.dsl.errors import DslError
from exlibris.dsl.parser import parse_program
from exlibris.engine.decisions import Decision, DecisionKind, HomeAction, Purpose
from exlibris.engine.invariants import MAX_HIRES
from exlibris.model.cards import CATEGORY_CODES, ArtifactCard, BookCard, Card, ResumeCard
from exlibris.model.shelf import Shelf
from exlibris.scoring import steps
from exlibris.scoring.artifacts import artifact_points, has_end_of_game_score
from exlibris.scoring.flips import best_flips
from exlibris.scoring.inspection import PlayerTable, Table, inspect_table
from exlibris.scoring.settings import ScoringRules

_RULES = ScoringRules()
_CACHE_SIZE = 20_000  # remembered gains a bot keeps (then it starts afresh)
ONGOING_WORTH = 3.0  # an ongoing artifact's ability, in points, while rounds remain


class GreedyAgent:
    """Greedy choices from the player's own view."""

    needs_view = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        # best-position gains already worked out, by what they depend on (the shelf's
        # cells, the card, the weights, the banned category): the same hand and shelf
        # come back decision after decision
        self._scores: dict[tuple[Any, ...], float] = {}

    def decide(self, view: PlayerView, decision: Decision) -> int:
        handler = _HANDLERS.get(decision.kind)
        if handler is None:
            return 0
        return handler(self, view, decision)

    # ------------------------------------------------------------------ valuation
    def weights(self, view: PlayerView) -> dict[str, float]:
        tally = steps.a2_tally(view.shelf)
        low = min((tally.get(c, 0) for c in "CFHMRS" if c != view.banned), default=0)
        weights = {}
        for code in "CFHMRS":
            w = 1.0
            if code == view.focus:
                w += 2.0
            if code == view.prominent:
                w += 1.0
            if code == view.banned:
                w -= 2.0
            elif tally.get(code, 0) == low:
                w += 1.0
            weights[code] = w
        return weights

    def card_value(self, view: PlayerView, card: Card | None, weights: dict[str, float]) -> float:
        if isinstance(card, ResumeCard):
            return self.hire_value(view, card)
        if isinstance(card, ArtifactCard):
            return self.artifact_value(view, card, weights)
        if not isinstance(card, BookCard):
            return 1.0 if card is not None else 0.0
        return sum(weights[b] for b in card.books)

    def _remember(self, key: tuple[Any, ...], value: float) -> None:
        if len(self._scores) >= _CACHE_SIZE:
            self._scores.clear()
        self._scores[key] = value

    def artifact_value(self, view: PlayerView, card: ArtifactCard,
                       weights: dict[str, float]) -> float:
        """An artifact's worth from its content: its ``score:`` on the best cell of the
        projected shelf (``shelf_score`` counts it), or its ongoing ability."""
        gain = self.best_position_gain(view, card, weights)
        value = max(gain, 0.0) if gain != float("-inf") else 0.0
        if not has_end_of_game_score(card.artifact_id) and not view.final_round:
            value += ONGOING_WORTH
        return value

    def shelf_score(self, view: PlayerView, shelf: Shelf, weights: dict[str, float]) -> float:
        # A2 of the shelf as the inspector leaves it, without building that shelf: the
        # A1 flips only turn cards face down, and B1 counts face-down cards alike
        flips = set(steps.a1_alphabetical(shelf))
        tally = dict.fromkeys(CATEGORY_CODES, 0)
        for pos, slot in shelf.items():
            card = slot.face_up_book
            if card is not None and pos not in flips:
                for code in card.books:
                    tally[code] = tally.get(code, 0) + 1
        books = sum(weights[c] * n for c, n in tally.items())
        variety = 3 * min((tally.get(c, 0) for c in "CFHMRS" if c != view.banned), default=0)
        relics = 0
        artifacts = [(pos, slot.card) for pos, slot in shelf.items()
                     if isinstance(slot.card, ArtifactCard)]
        if artifacts:  # scored on the shelf as the inspector leaves it
            shown = steps.with_flips(shelf, sorted(flips)) if flips else shelf
            relics = sum(artifact_points(shown, pos, card.artifact_id) for pos, card in artifacts)
        return books + variety + steps.b1_stability(shelf, _RULES) + relics

    def best_position_gain(self, view: PlayerView, card: Card, weights: dict[str, float]
                           ) -> float:
        key = ("gain", tuple(view.shelf.items()), card, tuple(weights.values()), view.banned)
        found = self._scores.get(key)
        if found is None:
            found = self._best_position_gain(view, card, weights)
            self._remember(key, found)
        return found

    def _best_position_gain(self, view: PlayerView, card: Card, weights: dict[str, float]
                            ) -> float:
        base = self.shelf_score(view, view.shelf, weights)
        best = float("-inf")
        for pos in view.shelf.legal_positions():
            trial = view.shelf.copy()
            trial.shelve(card, pos)
            best = max(best, self.shelf_score(view, trial, weights) - base)
        return best

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
        shelved = decision.card
        card = next((c for c in view.hand if shelved is not None and c.name == shelved.name),
                    None)
        if card is None:
            return self._first_position(decision)
        weights = self.weights(view)
        scores = []
        for pos in decision.values:
            trial = view.shelf.copy()
            trial.shelve(card, pos)
            scores.append(self.shelf_score(view, trial, weights))
        return _argmax(scores, self.rng)

    def _first_position(self, decision: Decision) -> int:
        return len(decision) // 2

    def _pick(self, view: PlayerView, decision: Decision) -> int:
        purpose = decision.purpose
        if purpose is Purpose.FLIP:
            plan = getattr(self, "_flip_plan", set())
            for i, value in enumerate(decision.values):
                if value is not None and value.name in plan:
                    plan.discard(value.name)
                    return i
            return decision.values.index(None)
        values = decision.values
        if not any(isinstance(v, BookCard | ArtifactCard) for v in values):
            return 0
        weights = self.weights(view)
        giving = purpose is not None and purpose.giving
        feeding = giving and view.solo is not None and purpose is Purpose.DISCARD
        scores = []
        for value in values:
            if value is None:
                scores.append(-1.5 if giving else 0.5)
            else:
                v = self.card_value(view, value, weights)
                if feeding:  # a discard joins the public library: do not feed it
                    v += feed_value(view, value)
                scores.append(-v if giving else v)
        return _argmax(scores, self.rng)

    def _home_action(self, view: PlayerView, decision: Decision) -> int:
        if HomeAction.SHELVE not in decision.values:
            return 0
        weights = self.weights(view)
        gain = max((self.best_position_gain(view, c, weights) for c in view.hand),
                   default=0.0)
        if view.solo is not None and view.final_round:
            gain = max(gain, 2.0)  # the hand left at the end feeds the public library
        chosen = HomeAction.SHELVE if gain >= 2.0 else HomeAction.DRAW
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

    def _place(self, view: PlayerView, decision: Decision) -> int:
        weights = self.weights(view)
        hand_gain = max((self.best_position_gain(view, c, weights) for c in view.hand),
                        default=0.0)
        scores = [self.place_value(view, option, weights, hand_gain)
                  for option in decision.values]
        return _argmax(scores, self.rng)

    def place_value(self, view: PlayerView, option: Any, weights: dict[str, float],
                    hand_gain: float) -> float:
        _assistant, target = option
        loc = target.location
        if loc is None:
            return 1.0 + max(0.0, hand_gain) * 0.5
        area = view.areas.get(loc.id, ())
        if any(isinstance(c, ResumeCard) for c in area):  # a hiring auction (Job Faire)
            best = max(self.card_value(view, c, weights) for c in area)
            return 0.5 + 1.2 * best - 0.8 * target.bid if best > 0 else 0.0
        if any(isinstance(c, ArtifactCard) for c in area):  # the Artifactorium
            return self.bid_value(view, target, area, weights)
        if _gives_artifacts(loc.spec):  # the Black Market: an unseen artifact
            return 1.2 + (ONGOING_WORTH if view.artifact_deck_size else -1.0)
        visible = sorted((self.card_value(view, c, weights) for c in area if c is not None),
                         reverse=True)
        hidden = sum(1 for c in area if c is None)
        value = 1.2 + sum(visible[:2]) * 0.6 + hidden * 0.8
        value -= 0.8 * target.bid
        if target.share:
            value += 0.5
        return value

    def bid_value(self, view: PlayerView, target: Any, area: tuple[Card | None, ...],
                  weights: dict[str, float]) -> float:
        """A bid at an auction of cards on display: the best card, less the cards paid
        (a bid the hand cannot pay wins nothing)."""
        if target.bid > len(view.hand) or not area:
            return -1.0
        best = max(self.card_value(view, c, weights) for c in area if c is not None)
        cost = sum(sorted(self.card_value(view, c, weights) for c in view.hand)[:target.bid])
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
    prominent books, its likely focus books, less its banned books."""
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
    """The cards whose voluntary flip maximises this player's own total, seen from its view.

    Opponents' focuses are secret, but this player's own total does not depend on them.
    """
    players = [PlayerTable("me", view.focus, view.shelf)]
    players += [PlayerTable(f"seat {o.seat}", view.focus, o.shelf, o.hand_size)
                for o in view.opponents]
    rules = ScoringRules.for_players(len(players))
    inspection = inspect_table(Table(tuple(players), view.prominent, view.banned), rules)
    return set(best_flips(inspection, 0).cards)


def _argmax(scores: Iterable[float], rng: random.Random) -> int:
    scores = list(scores)
    best = max(scores)
    ties = [i for i, s in enumerate(scores) if s == best]
    return ties[0] if len(ties) == 1 else rng.choice(ties)
