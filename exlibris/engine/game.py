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

from exlibris.dsl.compiler import Env
from exlibris.dsl.errors import EffectError
from exlibris.dsl.scoring import CategoryValue
from exlibris.engine import hiring
from exlibris.engine.abilities import (
    Source,
    location_effect,
)
from exlibris.engine.card_moves import CardMoves
from exlibris.engine.context import EffectContext
from exlibris.engine.decisions import Agent, Decision, DecisionKind
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
from exlibris.engine.zones import Zone
from exlibris.limits import MAX_ACTIVATE_DEPTH
from exlibris.model.content import Artifact, AssistantCard, Location
from exlibris.model.rules import Settings
from exlibris.scoring.settings import ScoringRules

__all__ = ["Game", "RulesError", "Source", "Target"]  # the last three: for importers


class Game:
    """One game of Ex Libris; call :meth:`play` (see ``flow.py``) to run it."""

    __slots__ = ("_artifact_rules", "_fixed_names", "agents",
                 "artifact_specs", "assistant_cards", "by_code", "categories", "ctx",
                 "decisions", "forward", "has_artifacts", "location_specs", "log", "moves",
                 "rt", "scoring", "seed", "settings", "solo", "state", "triggers", "variant",
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
        self.moves = CardMoves(self)  # draw, deal, give, discard, shelve, home actions
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
                    self.moves.home_action(seat)
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

    def bring_into_play(self, spec: Location) -> LocationState:
        loc = LocationState(spec, location_effect(spec))
        self.state.in_play.append(loc)
        self.state.in_play.sort(key=lambda loc: loc.number)
        return loc

# the labels of the game's own decisions (functions made once, not once an ask)
def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _hand(env: Env) -> Zone:
    return env.me.hand


def _shelf(env: Env) -> Zone:
    return env.me.shelf_zone


def _opponents(env: Env) -> list[PlayerState]:
    players = env.globals["players"]
    me = env.me
    n = len(players)
    return [players[(me.seat + i) % n] for i in range(1, n)]


