# cython: annotation_typing=True
"""The game: one generic interpreter of phases, placements and triggers.

``Game`` owns the state, asks agents for every decision and records every
change as an event. Location effects and abilities come from content, compiled
by the effect language; the engine only knows general operations (draw, move,
shelve, place, return) and the rulebooks' order of priority:

1. a location's effect (its own moves override assistants' restrictions);
2. abilities of special assistants already present, longest present first;
3. the newly placed assistant's own ability.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from exlibris.draws import shuffle
from exlibris.dsl.compiler import Env
from exlibris.dsl.errors import EffectError
from exlibris.dsl.scoring import CategoryValue
from exlibris.engine import hiring
from exlibris.engine.abilities import (
    CompiledAbility,
    Source,
    location_effect,
)
from exlibris.engine.context import EffectContext
from exlibris.engine.decisions import Agent, Decision, DecisionKind, HomeAction, Purpose
from exlibris.engine.errors import RulesError
from exlibris.engine.events import EventKind, EventLog
from exlibris.engine.placement import (
    DENIED,
    SILENT,
    RuleMemo,
    considered,
    rules_about,
    targets_at,
)
from exlibris.engine.runtime import EffectRuntime
from exlibris.engine.solo import SoloState
from exlibris.engine.solo import blocked as solo_blocked_bid
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState
from exlibris.engine.targets import Target, free_home_targets
from exlibris.engine.triggers import Triggers
from exlibris.engine.zones import ShelfZone, Zone
from exlibris.limits import MAX_ACTIVATE_DEPTH
from exlibris.model.cards import BookCard, Card
from exlibris.model.content import Artifact, AssistantCard, Location
from exlibris.model.rules import Settings
from exlibris.model.shelf_errors import ShelfError
from exlibris.scoring.settings import ScoringRules

__all__ = ["Game", "RulesError", "Source", "Target"]  # the last three: for importers


# Enum members read at every turn, bound to names once: on Python 3.11 reading a
# member from its class goes through the slow hook of EnumType.__getattr__.
_DRAW, _SHELVE = HomeAction.DRAW, HomeAction.SHELVE
_HOME_ACTION, _PICK = DecisionKind.HOME_ACTION, DecisionKind.PICK
_POSITION = DecisionKind.POSITION
_SHELVING = Purpose.SHELVE


class Game:
    """One game of Ex Libris; call :meth:`play` (see ``flow.py``) to run it."""

    __slots__ = ("_artifact_rules", "_fixed_names", "agents",
                 "artifact_specs", "assistant_cards", "by_code", "categories", "ctx",
                 "decisions", "forward", "has_artifacts", "location_specs", "log", "rt",
                 "scoring", "seed", "settings", "solo", "state", "triggers", "variant",
                 "views")

    def __init__(self, state: GameState, settings: Settings, agents: Sequence[Agent],
                 categories: dict[str, CategoryValue], *, views: Any = None,
                 log: EventLog | None = None) -> None:
        self.state = state
        self.settings = settings
        self.agents = list(agents)
        self.categories = categories
        self.by_code = {c.code: c for c in categories.values()}
        self.log = log or EventLog()
        # effect-scoped state: cause, abilities running and used, skips, step budget
        self.ctx = EffectContext(settings.max_steps)
        self.rt = EffectRuntime(self)
        self.views = views
        self.decisions = 0
        self.artifact_specs: dict[str, Artifact] = {}
        self.assistant_cards: dict[str, AssistantCard] = {}  # the special assistant cards by id
        self.has_artifacts = False  # set when artifact cards are in the game
        self._artifact_rules: bool | None = None  # see artifacts_rule()
        # the abilities events wake, and what is kept to find them fast
        self.triggers = Triggers(self)
        self._fixed_names: dict[str, Any] | None = None  # see names()
        # set by flow.new_game
        self.variant = "standard"
        self.seed = 0
        self.location_specs: dict[str, Location] = {}
        self.scoring: ScoringRules | None = None  # of this table
        self.solo: SoloState | None = None  # of a solo game (engine/solo.py)
        # while an agent forks this game: the copy at its last checkpoint and the
        # answers given since (``engine/forward.py: Recorder``)
        self.forward: Any = None

    # ------------------------------------------------------------------ plumbing
    @property
    def rng(self) -> random.Random:
        return self.state.rng

    @property
    def n_players(self) -> int:
        return len(self.state.players)

    def player(self, seat: int) -> PlayerState:
        return self.state.players[seat]

    def ask(self, seat: int, kind: DecisionKind, prompt: str, values: Sequence[Any],
            labeller: Callable[[Any], str] = str, /, **data: Any) -> int:
        """Ask ``seat``'s agent to pick one of ``values``; a single option is not asked."""
        n = len(values)
        if n == 1:
            return 0
        if not n:
            raise RulesError(f"no options for {prompt!r}")
        decision = Decision(seat, kind, prompt, values, labeller, data)
        agent = self.agents[seat]
        views = self.views
        view = views(self, seat) if views and getattr(agent, "needs_view", False) else None
        index = agent.decide(view, decision)
        if not 0 <= index < n:
            raise RulesError(f"agent for seat {seat} answered {index} to {prompt!r}")
        self.decisions += 1
        if self.forward is not None:
            self.forward.answers.append(index)
        if self.log.enabled:
            self.log.add(EventKind.DECISION, seat=seat, kind=kind, prompt=prompt,
                         choice=decision.labels[index], index=index)
        return index

    def checkpoint(self) -> None:
        """The flow stands where its cursor alone says how to go on (no game data on
        the call stack): a recorder, if any, keeps a copy (``engine/forward.py``)."""
        if self.forward is not None:
            self.forward.checkpoint(self)

    def ask_yes(self, seat: int, prompt: str) -> bool:
        return self.ask(seat, DecisionKind.MAY, prompt, (True, False), _yes_no) == 0

    def event(self, kind: EventKind, /, **data: Any) -> None:
        """Log an event (a no-op while the log is off); its fields: ``event_records.py``."""
        if self.log.enabled:
            self.log.add(kind, **data)

    def category(self, code: str) -> CategoryValue:
        return self.by_code[code]

    # ------------------------------------------------------------------ card moves
    def draw(self, seat: int, n: int) -> list[Card]:
        """Draw ``n`` cards (fewer when the deck runs out: ruling SETUP-14)."""
        n = self.triggers.modify("draw", n, actor=seat)
        drawn = self.deal_to(self.player(seat).hand, n)
        if self.log.enabled:
            self.log.add(EventKind.DRAW, seat=seat, cards=[c.name for c in drawn])
        for card in drawn:
            self.triggers.after("acquire", actor=seat, card=card)
        if drawn:
            self.triggers.after("draw", actor=seat, drawn=drawn, value=len(drawn))
        return drawn

    def refill_deck(self) -> None:
        """Shuffle the discard pile into the deck if the rules say so (never in solo,
        where the discard pile is the public library: SOLO-17)."""
        if self.settings.rulings.get("deck_runs_out") != "reshuffle" or self.n_players == 1:
            return
        # discarded artifacts stay in the pile: they are gained only at the
        # Artifactorium and the Black Market (EXP-ARTF-05)
        cards = [c for c in self.state.discard.cards if isinstance(c, BookCard)]
        shuffle(self.rng, cards)
        for card in cards:
            self.state.cards.move(card, self.state.deck)
        self.state.cards.forget(cards)
        self.event(EventKind.RESHUFFLE, cards=len(cards))

    def deal_to(self, zone: Zone, n: int) -> list[Card]:
        """Deal cards from the deck into a zone (card areas, reveals)."""
        state = self.state
        deck = state.deck
        dealt = state.cards.deal(deck, zone, n)
        while len(dealt) < n:  # the deck ran out
            self.refill_deck()
            if not deck.cards:
                break
            dealt += state.cards.deal(deck, zone, n - len(dealt))
        return dealt

    def discard(self, card: Card, to: Zone | None = None) -> None:
        zone = self.state.cards.zone_of(card)
        dst = self.state.discard if to is None else to  # an empty zone is falsy: no `or`
        if isinstance(zone, ShelfZone):
            self.remove_from_shelf(zone, card, dst)
        else:
            self.state.cards.move(card, dst)
        if self.log.enabled:
            self.log.add(EventKind.DISCARD, card=card.name, to=dst.name)

    def remove_from_shelf(self, zone: ShelfZone, card: Card, dst: Zone) -> None:
        """Take a card off a shelf; a card beneath it stays, face down (LIB-MUMMY-5)."""
        pos = zone.position_of(card)
        if pos is None:
            raise RulesError(f"{card} is not on shelf {zone.name}")
        self.state.cards.take_off_shelf(zone, pos, dst, tucked_to=self.state.discard)

    def give(self, card: Card, seat: int) -> None:
        """Move a card into a player's hand, as an acquisition."""
        cards = self.state.cards
        src = cards.zone_of(card)
        cards.move(card, self.state.players[seat].hand)
        if self.log.enabled:
            self.log.add(EventKind.GAIN, seat=seat, card=card.name,
                         source=src.name if src else "",
                         hidden=src is None or src.face_down
                         or src.name.startswith(("hand:", "deck")))
        self.triggers.after("acquire", actor=seat, card=card)

    # ------------------------------------------------------------------ shelving
    def removable(self, seat: int) -> frozenset[Card]:
        """Shelf cards that may be taken off without splitting the shelf (kept by the
        shelf until it changes)."""
        return self.state.players[seat].shelf.removable_cards()

    def shelve(self, seat: int, card: Card, *, face_down: bool = False) -> bool:
        """Shelve ``card`` for ``seat``: offer replacement abilities, then a position."""
        player: PlayerState = self.state.players[seat]
        src = self.state.cards.zone_of(card)
        acquired = src is not player.hand
        names = {"card": card}
        if not face_down:
            options = self.triggers.instead("shelve", actor=seat, names=names)
            if options:
                values: list[Any] = [None, *options]
                index = self.ask(seat, DecisionKind.SHELVE_HOW, f"how to shelve {card.name}?",
                                 values, _shelve_how)
                if index > 0:
                    ability, source = values[index]
                    before = self.state.cards.zone_of(card)
                    self.triggers.run_ability(ability, source, names)
                    if self.state.cards.zone_of(card) is not before:
                        self.after_shelving(seat, card, acquired)
                        return True
        positions = player.shelf.legal_cells()  # kept by the shelf, in reading order
        if not positions:
            return False
        index = self.ask(seat, _POSITION, f"where to shelve {card.name}?", positions,
                         lambda p: f"shelve {card.name} at row {p[0]}, column {p[1]}",
                         card=card)
        self.state.cards.shelve(card, player.shelf_zone, positions[index], face_down=face_down)
        if self.log.enabled:
            self.log.add(EventKind.SHELVE, seat=seat, card=card.name,
                         pos=list(positions[index]), face_down=face_down)
        self.after_shelving(seat, card, acquired)
        return True

    def after_shelving(self, seat: int, card: Card, acquired: bool) -> None:
        if acquired:
            self.triggers.after("acquire", actor=seat, card=card)
        self.triggers.after("shelve", actor=seat, card=card)

    def place_on_shelf(self, seat: int, card: Card, operation: Callable[[], None]) -> None:
        """Put ``card`` on ``seat``'s shelf by a special shelf operation (entomb, levitate)."""
        src = self.state.cards.zone_of(card)
        if src is None:
            raise RulesError(f"{card} is nowhere")
        if isinstance(src, ShelfZone):
            raise RulesError("cannot entomb or levitate a card from a shelf")
        # the operation may raise ShelfError, before anything moved
        self.state.cards.shelve_by(card, self.player(seat).shelf_zone, operation)

    # ------------------------------------------------------------------ home actions
    def home_action(self, seat: int, kinds: Sequence[HomeAction] = tuple(HomeAction)
                    ) -> HomeAction | None:
        """One home action: draw a card, or shelve one from hand."""
        player = self.player(seat)
        options = [k for k in kinds
                   if k is _DRAW or (k is _SHELVE and player.hand.cards)]
        if not options:
            return None
        index = self.ask(seat, _HOME_ACTION, "which home action?", options,
                         _home_action)
        kind = options[index]
        if kind is _DRAW:
            self.draw(seat, 1)
        else:
            cards = list(player.hand.cards)
            pick = self.ask(seat, _PICK, "which card to shelve?", cards,
                            _shelve_card, verb="shelve", purpose=_SHELVING)
            self.shelve(seat, cards[pick])
        self.triggers.after("home_action", actor=seat)
        return kind

    # ------------------------------------------------------------------ names
    def names(self, seat: int, *, this: Any = None, extra: dict[str, Any] | None = None,
              location: LocationState | None = None, assistant: Assistant | None = None,
              visitor: int | None = None) -> dict[str, Any]:
        """The names an effect sees (``hand`` and ``shelf`` follow the acting player)."""
        state = self.state
        here = location
        if here is None and isinstance(this, Assistant):
            here = this.location
        if here is None and isinstance(this, LocationState):
            here = this
        players = state.players
        fixed = self._fixed_names
        if fixed is None:  # the names that never change in a game, gathered once
            fixed = self._fixed_names = {
                "hand": _hand,
                "shelf": _shelf,
                "deck": state.deck,
                "discard_pile": state.discard,
                "assistant_deck": getattr(state, "assistant_deck", None),
                "artifact_deck": getattr(state, "artifact_deck", None),
                "players": players,
                "opponents": _opponents,
                "home": "home",
            }
        names = fixed.copy()
        names["owner"] = players[seat]
        names["visitor"] = players[visitor if visitor is not None else seat]
        names["this"] = this
        names["here"] = here
        names["area"] = here.area if here is not None else None
        names["prominent"] = self.by_code.get(state.prominent)
        names["banned"] = self.by_code.get(state.banned) if state.banned else None
        names["assistant"] = assistant
        names["location"] = location
        if extra:
            names.update(extra)
        return names

    # ------------------------------------------------------------------ assistants
    def placement_targets(self, seat: int, assistant: Assistant, *, forced: bool = False,
                          only_locations: bool = False,
                          pool: Sequence[LocationState] | None = None) -> list[Target]:
        """Every legal place for ``assistant`` now (``forced``: a location's own move)."""
        # placement rules in priority order: assistants present (longest first), then the
        # assistant being placed (TIME-01)
        return self.targets_under(None if forced else rules_about(self, assistant), seat,
                                  assistant, forced=forced, only_locations=only_locations,
                                  pool=pool)

    def targets_under(self, rules: RuleMemo | None, seat: int, assistant: Assistant, *,
                      forced: bool = False, only_locations: bool = False,
                      pool: Sequence[LocationState] | None = None) -> list[Target]:
        """``placement_targets`` under these placement rules (None: none speaks)."""
        player = self.player(seat)
        targets: list[Target] = []
        if not only_locations:
            targets += free_home_targets(player.home)
        n = len(self.state.players)
        for loc in pool if pool is not None else self.state.in_play:
            if loc.resolved:
                continue
            if n == 1 and self._solo_blocked(seat, assistant, loc):
                continue
            if forced:
                found = self._location_targets(loc, forced=True, rules=None)
            else:
                found = self._ruled_targets(loc, n, rules)
            if self.solo is not None:
                found = [t for t in found if not solo_blocked_bid(self, loc, t.bid)]
            targets += found
        return targets

    def _ruled_targets(self, loc: LocationState, n: int, rules: RuleMemo | None
                       ) -> list[Target]:
        """The targets at ``loc`` under these placement rules (None: none speaks)."""
        found = targets_at(self, loc, n)  # the targets if no rule speaks
        if rules is None or rules.mute or not (found or considered(loc, n, found, rules.shares)):
            return found
        said = rules.at_location(loc)
        if said == SILENT:
            return found
        return [] if said == DENIED else self._location_targets(loc, forced=False, rules=rules)

    def artifacts_rule(self) -> bool:
        """Whether an artifact in this game carries a placement rule (found once)."""
        if self._artifact_rules is None:
            self._artifact_rules = self.has_artifacts and any(
                ability.placement for spec in self.artifact_specs.values()
                for ability in spec.abilities)
        return self._artifact_rules

    def _solo_blocked(self, seat: int, assistant: Assistant, loc: LocationState) -> bool:
        if self.n_players != 1:
            return False
        return any(a.owner == seat and a is not assistant for a in loc.assistants())

    def _location_targets(self, loc: LocationState, *, forced: bool,
                          rules: RuleMemo | None) -> list[Target]:
        n = len(self.state.players)
        auction = loc.auction
        if auction is None:
            return self._plain_targets(loc, forced, rules)
        # an auction: a bid space is open only while empty
        found: list[Target] = []
        present = loc.assistants()
        leader = max(present, key=lambda a: a.bid) if present else None
        lowest = min(present, key=lambda a: a.bid) if present else None
        full = len(present) >= len(loc.area)  # capacity: bidders never outnumber cards
        for s, least in enumerate(loc.opens_at):
            if (least > n and n != 1) or loc.spaces[s]:
                continue
            bid = auction.bids[s] if s < len(auction.bids) else 0
            displaces = None
            if auction.style == "outbid":
                if leader is not None and bid <= leader.bid:
                    continue
                displaces = leader
            elif full:
                if lowest is None or bid <= lowest.bid:
                    continue
                displaces = lowest
            if rules is not None and rules.verdict(loc, s, []) == "deny":
                continue
            found.append(Target(loc, s, bid, False, displaces))
        return found

    def _plain_targets(self, loc: LocationState, forced: bool,
                       rules: RuleMemo | None) -> list[Target]:
        """``_location_targets`` at a location without an auction: an open space, or a
        held one that a "share" rule opens (or a location's own move displaces)."""
        n = len(self.state.players)
        shares = forced or (rules is not None and rules.shares)
        found: list[Target] = []
        for s, least in enumerate(loc.opens_at):
            if least > n and n != 1:
                continue
            occupants = loc.spaces[s]
            if occupants and not shares:
                continue  # only a "share" rule opens a held space: none is in play
            # the first rule that speaks about this space, in priority order (TIME-01)
            verdict = rules.verdict(loc, s, occupants) if rules is not None else None
            if verdict == "deny":
                continue
            if not occupants:
                found.append(Target(loc, s))
            elif forced:
                found.append(Target(loc, s, 0, False, occupants[0]))
            elif verdict == "share":
                found.append(Target(loc, s, 0, True))
        return found

    def target_label(self, assistant: Assistant, target: Target) -> str:
        who = assistant.name
        if assistant.kind == "standard" and assistant.id in self.player(
                assistant.owner).placed_this_round:
            who += " (placed again)"
        if target.location is None:
            return f"place {who} on home space {target.space + 1}"
        loc = target.location.spec
        text = f"place {who} at {loc.name} (#{loc.number})"
        if loc.auction is not None:
            text += f" bidding {target.bid}"
        else:
            text += f" space {target.space + 1}"
        if target.share:
            text += ", sharing"
        return text

    def place(self, seat: int, assistant: Assistant, target: Target, *,
              visit: bool = True, activate: bool = True) -> None:
        """Put an assistant on a space and carry out the visit, in priority order."""
        state = self.state
        player: PlayerState = state.players[seat]
        state.placement_counter += 1
        assistant.placed_at = state.placement_counter
        player.placed_this_round.add(assistant.id)
        if target.displaces is not None:
            self.return_assistant(target.displaces)
        loc: LocationState | None = target.location
        space = target.space
        logged = self.log.enabled  # the event's fields are gathered only for a log
        if loc is None:
            player.home[space] = assistant
            assistant.home_index = space
            if logged:
                self.event(EventKind.PLACE, seat=seat, assistant=assistant.id, home=space + 1)
        else:
            assistant.sharing_with = list(loc.spaces[space])
            loc.occupy(assistant, space)
            assistant.location = loc
            assistant.space = space
            assistant.bid = target.bid
            if logged:
                self.event(EventKind.PLACE, seat=seat, assistant=assistant.id,
                           location=loc.id, space=space + 1, bid=target.bid)
        if not visit:
            return
        ctx = self.ctx
        saved = ctx.cause  # ``with CausedBy(ctx, assistant)`` written out: a turn each
        ctx.cause = assistant
        try:
            if loc is not None:
                self.triggers.after("arrival", actor=seat, location=loc,
                           arriving=assistant, visitor=player)
                self.triggers.after("visit", actor=seat, location=loc, assistant=assistant)
            if not assistant.available:
                self.triggers.after("placed", actor=seat, location=loc)
            still_here = (assistant.location is loc) if loc is not None else (
                assistant.home_index is not None)
            if activate and still_here and id(assistant) not in ctx.skip:
                if loc is None:
                    self.home_action(seat)
                elif loc.instant:
                    self.activate(seat, loc, assistant)
        finally:
            ctx.cause = saved

    def activate(self, seat: int, loc: LocationState, assistant: Assistant | None) -> None:
        """Carry out a location's effect for ``seat`` now."""
        if self.triggers.heard("activate", "instead"):  # the names built only if someone listens
            alternatives = self.triggers.instead("activate", actor=seat, location=loc,
                                        names={"location": loc, "assistant": assistant})
            if alternatives:
                ability, source = alternatives[0]
                self.triggers.run_ability(ability, source,
                                          {"location": loc, "assistant": assistant}, loc)
                return
        ctx = self.ctx
        if ctx.activating >= MAX_ACTIVATE_DEPTH:
            raise EffectError(f"activates {loc.spec.name} inside {MAX_ACTIVATE_DEPTH} "
                              "activations already; an effect may not activate without end")
        if self.log.enabled:
            self.event(EventKind.ACTIVATE, seat=seat, location=loc.id)
        names = self.names(seat, this=loc, location=loc, assistant=assistant, visitor=seat)
        saved = ctx.cause  # ``with CausedBy(ctx, assistant)`` written out
        ctx.cause = assistant
        ctx.activating += 1
        try:
            loc.effect(self.rt, self.player(seat), names)
        finally:
            ctx.activating -= 1
            ctx.cause = saved

    def return_assistant(self, assistant: Assistant) -> None:
        """Send an assistant back to its owner, free to be placed again this round."""
        loc: LocationState | None = assistant.location
        self.lift_assistant(assistant)
        assistant.bid = 0
        assistant.sharing_with = []
        self.ctx.skip.discard(id(assistant))
        if self.log.enabled:
            self.log.add(EventKind.RETURN, seat=assistant.owner, assistant=assistant.id)
        self.triggers.after("returned", actor=assistant.owner, location=loc, assistant=assistant)

    def lift_assistant(self, assistant: Assistant) -> None:
        """Take an assistant off its space without returning it (it is being moved)."""
        loc: LocationState | None = assistant.location
        if loc is not None:
            loc.vacate(assistant)
        if assistant.home_index is not None:
            self.player(assistant.owner).home[assistant.home_index] = None
        assistant.location = None
        assistant.space = None
        assistant.home_index = None
        self.state.returns += 1

    def retire_assistant(self, assistant: Assistant) -> None:
        """Send an assistant to the supply for good."""
        self.lift_assistant(assistant)
        player = self.player(assistant.owner)
        if assistant in player.assistants:
            player.assistants.remove(assistant)
            self.triggers.assistants_changed()
        hiring.release_card(self, assistant)
        self.event(EventKind.RETIRE, seat=assistant.owner, assistant=assistant.id)

    def limbo_zone(self, name: str = "limbo") -> Zone:
        """A zone for cards set apart during an effect (revealed from the deck...)."""
        zone = Zone(f"{name}:{len(self.state.limbo)}")
        self.state.limbo.append(zone)
        return zone

    def sweep_limbo(self) -> None:
        """Cards still set apart when an effect ends go to the discard pile."""
        if not self.state.limbo:
            return
        for zone in self.state.limbo:
            for card in list(zone.cards):
                self.state.cards.move(card, self.state.discard)
                self.event(EventKind.DISCARD, card=card.name, to="discard", why="set apart")
        self.state.limbo.clear()

    def bring_into_play(self, spec: Location) -> LocationState:
        loc = LocationState(spec, location_effect(spec))
        self.state.in_play.append(loc)
        self.state.in_play.sort(key=lambda loc: loc.number)
        return loc

    def try_shelf(self, operation: Callable[[], None]) -> bool:
        try:
            operation()
        except ShelfError:
            return False
        return True


# the labels of the game's own decisions (functions made once, not once an ask)
def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _shelve_how(option: tuple[CompiledAbility, Source] | None) -> str:
    return "shelve it normally" if option is None else f"use {option[0].label}"


def _home_action(kind: HomeAction) -> str:
    return ("home action: draw a card" if kind is HomeAction.DRAW
            else "home action: shelve a card from hand")


def _shelve_card(card: Card) -> str:
    return f"shelve {card.name}"


def _hand(env: Env) -> Zone:
    return env.me.hand


def _shelf(env: Env) -> Zone:
    return env.me.shelf_zone


def _opponents(env: Env) -> list[PlayerState]:
    players = env.globals["players"]
    me = env.me
    n = len(players)
    return [players[(me.seat + i) % n] for i in range(1, n)]


