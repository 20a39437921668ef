# cython: annotation_typing=True
"""The board: where an assistant may go, and putting it there, returning and retiring it.

``Board`` (``game.board``) works out the legal places for an assistant
(``placement_targets``: home spaces, open spaces and bids at locations in play,
under the placement rules of the assistants present, ``placement.py``), places
it and carries out the visit in the rulebooks' order of priority (a location's
effect, then abilities of assistants already present, longest present first,
then the newly placed assistant's own: ``game.triggers``), and lifts, returns and
retires assistants. Every assistant's and location's place is in the game's
state; the board keeps only whether an artifact carries a placement rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from exlibris.engine import hiring
from exlibris.engine.abilities import location_effect
from exlibris.engine.card_moves import CardMoves
from exlibris.engine.context import EffectContext
from exlibris.engine.events import EventKind, EventLog
from exlibris.engine.placement import (
    DENIED,
    SILENT,
    RuleMemo,
    considered,
    rules_about,
    targets_at,
)
from exlibris.engine.solo import blocked as solo_blocked_bid
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState
from exlibris.engine.targets import Target, free_home_targets
from exlibris.engine.triggers import Triggers
from exlibris.limits import MAX_ACTIVATE_DEPTH
from exlibris.model.content import Location

if TYPE_CHECKING:
    from exlibris.engine.game import Game


class Board:
    """One game's placements of assistants (``game.board``)."""

    __slots__ = ("_artifact_rules", "ctx", "game", "log", "moves", "state", "triggers")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state: GameState = game.state
        self.ctx: EffectContext = game.ctx
        self.log: EventLog = game.log
        self.triggers: Triggers = game.triggers
        self.moves: CardMoves = game.moves
        self._artifact_rules: bool | None = None  # see artifacts_rule()

    # ------------------------------------------------------------------ placement targets
    def placement_targets(self, seat: int, assistant: Assistant, *, forced: bool = False,
                          only_locations: bool = False,
                          pool: Sequence[LocationState] | None = None) -> list[Target]:
        """Every legal place for ``assistant`` now (``forced``: a location's own move)."""
        # placement rules in priority order: assistants present (longest first), then the
        # assistant being placed (TIME-01)
        return self.targets_under(None if forced else rules_about(self.game, assistant), seat,
                                  assistant, forced=forced, only_locations=only_locations,
                                  pool=pool)

    def targets_under(self, rules: RuleMemo | None, seat: int, assistant: Assistant, *,
                      forced: bool = False, only_locations: bool = False,
                      pool: Sequence[LocationState] | None = None) -> list[Target]:
        """``placement_targets`` under these placement rules (None: none speaks)."""
        player = self.game.player(seat)
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
            if self.game.solo is not None:
                found = [t for t in found if not solo_blocked_bid(self.game, loc, t.bid)]
            targets += found
        return targets

    def _ruled_targets(self, loc: LocationState, n: int, rules: RuleMemo | None
                       ) -> list[Target]:
        """The targets at ``loc`` under these placement rules (None: none speaks)."""
        found = targets_at(self.game, loc, n)  # the targets if no rule speaks
        if rules is None or rules.mute or not (found or considered(loc, n, found, rules.shares)):
            return found
        said = rules.at_location(loc)
        if said == SILENT:
            return found
        return [] if said == DENIED else self._location_targets(loc, forced=False, rules=rules)

    def artifacts_rule(self) -> bool:
        """Whether an artifact in this game carries a placement rule (found once)."""
        if self._artifact_rules is None:
            self._artifact_rules = self.game.has_artifacts and any(
                ability.placement for spec in self.game.artifact_specs.values()
                for ability in spec.abilities)
        return self._artifact_rules

    def _solo_blocked(self, seat: int, assistant: Assistant, loc: LocationState) -> bool:
        if self.game.n_players != 1:
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
            if least > n or loc.spaces[s]:
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
            if least > n:  # marked for more players (PLACE-06, solo too)
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

    # ------------------------------------------------------------------ placing and returning
    def target_label(self, assistant: Assistant, target: Target) -> str:
        who = assistant.name
        if assistant.kind == "standard" and assistant.id in self.game.player(
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

    def option_label(self, option: tuple[Assistant, Target]) -> str:
        """``target_label`` of a placement option (an assistant and its target)."""
        return self.target_label(option[0], option[1])

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
        # the event's fields, gathered only for a log (moved by an effect: no visit)
        moved = ({} if visit else {"moved": True}) if self.log.enabled else None
        if loc is None:
            player.home[space] = assistant
            assistant.home_index = space
            if moved is not None:
                self.game.event(EventKind.PLACE, seat=seat, assistant=assistant.id, home=space + 1,
                                **moved)
        else:
            assistant.sharing_with = list(loc.spaces[space])
            loc.occupy(assistant, space)
            assistant.location = loc
            assistant.space = space
            assistant.bid = target.bid
            if moved is not None:
                self.game.event(EventKind.PLACE, seat=seat, assistant=assistant.id,
                           location=loc.id, space=space + 1, bid=target.bid, **moved)
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
        if ctx.activating >= MAX_ACTIVATE_DEPTH:  # nested past the limit: it does nothing,
            return  # so that an effect activating itself ends (docs/limits.md)
        if self.log.enabled:
            self.game.event(EventKind.ACTIVATE, seat=seat, location=loc.id)
        names = self.game.names(seat, this=loc, location=loc, assistant=assistant, visitor=seat)
        saved = ctx.cause  # ``with CausedBy(ctx, assistant)`` written out
        ctx.cause = assistant
        ctx.activating += 1
        try:
            loc.effect(self.game.rt, self.game.player(seat), names)
        finally:
            ctx.activating -= 1
            ctx.cause = saved
        loc.visitors.append(seat)  # remembered for the round (``visitors_this_round``)
        self.state.visits.setdefault(loc.id, []).append(seat)  # and for the game

    def return_assistant(self, assistant: Assistant) -> None:
        """Send an assistant back to its owner, free to be placed again this round."""
        loc: LocationState | None = assistant.location
        home = assistant.home_index
        self.lift_assistant(assistant)
        assistant.bid = 0
        assistant.sharing_with = []
        self.ctx.skip.discard(id(assistant))
        if self.log.enabled and self.log.wants(EventKind.RETURN):
            where = {"location": loc.id} if loc is not None else \
                {"home": home + 1} if home is not None else {}
            self.log.add(EventKind.RETURN, seat=assistant.owner, assistant=assistant.id, **where)
        self.triggers.after("returned", actor=assistant.owner, location=loc, assistant=assistant)

    def lift_assistant(self, assistant: Assistant) -> None:
        """Take an assistant off its space without returning it (it is being moved)."""
        loc: LocationState | None = assistant.location
        if loc is not None:
            loc.vacate(assistant)
        if assistant.home_index is not None:
            self.game.player(assistant.owner).home[assistant.home_index] = None
        assistant.location = None
        assistant.space = None
        assistant.home_index = None
        self.state.returns += 1

    def retire_assistant(self, assistant: Assistant) -> None:
        """Send an assistant to the supply for good."""
        self.lift_assistant(assistant)
        player = self.game.player(assistant.owner)
        if assistant in player.assistants:
            player.assistants.remove(assistant)
            self.triggers.assistants_changed()
        hiring.release_card(self.game, assistant)
        self.game.event(EventKind.RETIRE, seat=assistant.owner, assistant=assistant.id)

    # ------------------------------------------------------------------ locations
    def bring_into_play(self, spec: Location) -> LocationState:
        loc = LocationState(spec, location_effect(spec))
        self.state.in_play.append(loc)
        self.state.in_play.sort(key=lambda loc: loc.number)
        return loc
