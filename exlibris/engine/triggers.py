# cython: annotation_typing=True
"""Triggers: which abilities an event wakes, in priority order, and running them.

A game's special assistants and face-up artifacts carry abilities
(``abilities.py: Source``). ``Triggers`` (``game.triggers``) finds the ones an event
wakes (``after``, ``before``, ``instead``, ``modify``) in the rulebooks' order of
priority: assistants by arrival, longest present first, then artifacts (TIME-01),
and runs them with the effect runtime. What it keeps only to go faster (the
special assistants as carriers, sorted by arrival; the face-up artifacts of each
shelf as carriers, while the shelf's cells hold the same; the (event, mode) pairs
they, the house rules and any artifact of the game listen to) is built again from
the game's state when it is needed: a copy of the game (``copying.py``) starts with
none of it.
"""

from __future__ import annotations

from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

from exlibris.dsl.compiler import Env
from exlibris.engine.abilities import CompiledAbility, Source, abilities_of, subject_matches
from exlibris.engine.context import EffectContext
from exlibris.engine.events import EventKind
from exlibris.engine.house_rules import HOUSE_ORDER, house_rule
from exlibris.engine.state import Assistant, GameState, LocationState
from exlibris.model.cards import ArtifactCard

if TYPE_CHECKING:
    from exlibris.engine.game import Game

_AFTER_MODES = ("on", "after")  # the modes ``Triggers.after`` runs, in this order
_ORDER = attrgetter("order")  # of a Source: its priority


class Triggers:
    """The abilities of one game's carriers, woken by its events (``game.triggers``)."""

    __slots__ = ("_after_modes", "_carriers", "_house", "_listening", "_ruling", "_shelved",
                 "_sorted_at", "_specials", "_wakes", "ctx", "game", "state")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state: GameState = game.state
        self.ctx: EffectContext = game.ctx
        self._specials: list[Source] | None = None
        self._house: list[Source] = []  # the variant's abilities, one carrier a seat
        self._ruling: list[Source] = []  # the specials with placement rules
        self._wakes: frozenset[tuple[str, str]] = frozenset()  # and (event, mode) pairs
        self._after_modes: dict[str, tuple[str, ...]] = {}  # by event: on / after, if any
        self._sorted_at = -1
        # by (event, mode): the carriers that listen to it, in the order of ``sources``
        # as it last returned them
        self._listening: dict[tuple[str, str], list[Source]] = {}
        # by seat: the face-up artifacts on its shelf as carriers, with the shelf's key
        # (``Shelf.key``, made anew whenever a cell changes) they were read from
        self._shelved: dict[int, tuple[Any, list[Source]]] = {}
        # with artifacts in the game: every carrier in order, with each seat's shelf key
        # it was made from (None: not made since the last sort)
        self._carriers: tuple[list[Any], list[Source]] | None = None

    def specials(self) -> list[Source]:
        """The special assistants of every player (built once; see ``assistants_changed``)."""
        if self._specials is None:
            self._specials = [
                Source.of(player.seat, assistant,
                          abilities_of(f"{assistant.spec.id}@{assistant.spec.edition}",
                                       assistant.spec.abilities), 0)
                for player in self.state.players for assistant in player.assistants
                if assistant.spec is not None]
            self._house = self._house_rules()
            self._wakes = frozenset(key for source in (*self._specials, *self._house)
                                    for key in source.wakes) | self._artifact_wakes()
            self._after_modes = {event: modes for event, _ in self._wakes if (modes := tuple(
                mode for mode in _AFTER_MODES if (event, mode) in self._wakes))}
            self._ruling = [source for source in (*self._specials, *self._house)
                            if source.has_rules]
            self._sorted_at = -1
        return self._specials

    def _artifact_wakes(self) -> frozenset[tuple[str, str]]:
        """The (event, mode) pairs an ability of some artifact of the game listens to:
        any of them may come to a shelf."""
        game = self.game
        if not game.has_artifacts:
            return frozenset()
        return frozenset((ability.trigger.event, ability.trigger.mode)
                         for spec in game.artifact_specs.values()
                         for ability in abilities_of(spec.id, spec.abilities)
                         if ability.trigger is not None)

    def _house_rules(self) -> list[Source]:
        """The variant's own abilities, carried by every seat (``house_rules.py``)."""
        abilities = self.game.settings.abilities
        if not abilities:
            return []
        variant = self.game.variant
        compiled = abilities_of(f"{variant}@rules", abilities)
        return [Source.of(player.seat, house_rule(variant, player.seat), compiled,
                          HOUSE_ORDER + player.seat) for player in self.state.players]

    def assistants_changed(self) -> None:
        """A player's assistants changed (hired, borrowed, retired)."""
        self._specials = None

    def sources(self) -> list[Source]:
        """Every ability carrier in priority order: assistants by arrival, then artifacts."""
        found = self._specials if self._specials is not None else self.specials()
        assistant: Assistant
        source: Source
        if self._sorted_at != self.state.placement_counter + self.state.returns:
            for source in found:  # ``Assistant.available``, inlined: a loop a turn
                assistant = source.this
                source.order = 10**9 if assistant.location is None \
                    and assistant.home_index is None else assistant.placed_at
            found.sort(key=_ORDER)
            self._sorted_at = self.state.placement_counter + self.state.returns
            self._listening = {}  # its lists follow the order before this sort
            self._carriers = None
        if not self.game.has_artifacts:
            return found + self._house if self._house else found
        players = self.state.players
        keys = [player.shelf.key() for player in players]
        kept = self._carriers
        if kept is not None and all(map(is_, keys, kept[0])):
            return kept[1]
        found = list(found)
        for player, key in zip(players, keys, strict=True):
            found += self._shelved_by(player.seat, player.shelf, key)
        if self._house:
            found += self._house
        self._carriers = (keys, found)
        self._listening = {}  # its lists follow the carriers before this change
        return found

    def _shelved_by(self, seat: int, shelf: Any, key: Any) -> list[Source]:
        """The face-up artifacts on ``seat``'s shelf as carriers, in reading order (kept
        while the shelf's cells hold the same: its ``key``, ``shelf.key()``, is the
        same object)."""
        kept = self._shelved.get(seat)
        if kept is not None and kept[0] is key:
            return kept[1]
        found = []
        for pos in shelf.positions():
            slot = shelf.at(pos)
            if slot is not None and isinstance(slot.card, ArtifactCard) and not slot.face_down:
                spec = self.game.artifact_specs.get(slot.card.artifact_id)
                if spec is not None:
                    found.append(Source.of(seat, slot.card,
                                           abilities_of(spec.id, spec.abilities), 10**9 + 1))
        self._shelved[seat] = (key, found)
        return found

    def listeners(self, event: str, mode: str, *, actor: int | None,
                  location: LocationState | None = None, names: dict[str, Any] | None = None
                  ) -> list[tuple[CompiledAbility, Source]]:
        """Abilities that this event wakes, in priority order (the callers have asked
        ``heard`` or ``_after_modes`` whether any may)."""
        key = (event, mode)
        woken: list[tuple[CompiledAbility, Source]] = []
        source: Source
        ability: CompiledAbility
        found = self.sources()  # as of now (which may forget ``_listening``)
        carriers = self._listening.get(key)
        if carriers is None:
            carriers = self._listening[key] = [source for source in found
                                               if key in source.wakes]
        for source in carriers:
            for ability in source.wakes[key]:
                if self._fits(ability, source, actor=actor, location=location, names=names):
                    woken.append((ability, source))
        return woken

    def _fits(self, ability: CompiledAbility, source: Source, *, actor: int | None,
              location: LocationState | None, names: dict[str, Any] | None) -> bool:
        trig = ability.trigger
        assert trig is not None
        this = source.this
        ctx: EffectContext = self.ctx
        # the checks up to the condition only read: the commonest refusals come first
        event = trig.event
        if event == "placed" and this is not ctx.cause:
            return False
        if event == "arrival" and (not isinstance(this, Assistant) or this is ctx.cause
                                   or this.location is None or this.location is not location):
            return False
        key = (ability.key, id(this))
        if key in ctx.running:
            return False  # an ability never wakes itself (no chaining)
        if not subject_matches(trig.subject, owner=source.owner, actor=actor,
                               cause=ctx.cause, this=this):
            return False
        if trig.place is not None and not self._at_place(trig.place, this, location):
            return False
        if trig.during is not None and trig.during != self.state.phase:
            return False
        if trig.once_per is not None and key in ctx.used_for(trig.once_per):
            return False
        if ability.condition is not None:
            env_names = self.game.names(source.owner, this=this, extra=names or {},
                                   location=location)
            if not ability.condition(self.game.rt, self.game.player(source.owner), env_names):
                return False
        return True

    def _at_place(self, place: str, this: Any, location: LocationState | None) -> bool:
        if place == "home":
            return isinstance(this, Assistant) and this.home_index is not None
        if place == "location":
            return location is not None or (isinstance(this, Assistant)
                                             and this.location is not None)
        if place == "here":
            return isinstance(this, Assistant) and location is not None \
                and this.location is location
        target = location or (this.location if isinstance(this, Assistant) else None)
        return target is not None and target.id == place.removeprefix("@")

    def run_ability(self, ability: CompiledAbility, source: Source,
                    names: dict[str, Any] | None = None,
                    location: LocationState | None = None) -> Env | None:
        if ability.effect is None:
            return None
        key = (ability.key, id(source.this))
        this = source.this
        ctx = self.ctx
        ctx.running.add(key)
        if ability.trigger is not None and ability.trigger.once_per is not None:
            ctx.used_for(ability.trigger.once_per).add(key)
        log = self.game.log  # the event's fields take some working out: only when logged
        if log.enabled and log.wants(EventKind.ABILITY):
            self.game.event(EventKind.ABILITY, seat=source.owner, ability=ability.keyword or "",
                       source=getattr(this, "id", None) or getattr(this, "name", str(this)),
                       index=int(ability.key.rsplit("#", 1)[-1]))
        saved = ctx.cause  # ``with CausedBy(...)`` written out: this runs per ability
        if isinstance(this, Assistant):
            ctx.cause = this
        try:
            env_names = self.game.names(source.owner, this=this, extra=names or {},
                                   location=location)
            return ability.effect(self.game.rt, self.game.player(source.owner), env_names)
        finally:
            ctx.cause = saved
            ctx.running.discard(key)

    def after(self, event: str, *, actor: int | None, location: LocationState | None = None,
              **names: Any) -> None:
        """Run every ability woken by ``after EVENT`` (and plain reactions to it)."""
        if self._specials is None:
            self.specials()
        # the modes of this event some ability listens to (or, an artifact's, may)
        modes = self._after_modes.get(event)
        if not modes:  # nothing listens to it
            return
        for mode in modes:
            for ability, source in self.listeners(event, mode, actor=actor, location=location,
                                                  names=names):
                self.run_ability(ability, source, names, location)

    def heard(self, event: str, mode: str) -> bool:
        """Whether some ability may wake on ``event`` in ``mode`` (a carrier's, or an
        artifact's of the game, which may come to a shelf); ``listeners`` then says
        which do."""
        if self._specials is None:
            self.specials()
        return (event, mode) in self._wakes

    def before(self, event: str, *, actor: int | None, location: LocationState | None = None,
               **names: Any) -> None:
        if not self.heard(event, "before"):
            return
        for ability, source in self.listeners(event, "before", actor=actor, location=location,
                                              names=names):
            self.run_ability(ability, source, names, location)

    def instead(self, event: str, *, actor: int | None, names: dict[str, Any],
                location: LocationState | None = None) -> list[tuple[CompiledAbility, Source]]:
        if not self.heard(event, "instead"):
            return []
        return self.listeners(event, "instead", actor=actor, location=location, names=names)

    def modify(self, event: str, value: int, *, actor: int | None,
               location: LocationState | None = None) -> int:
        if not self.heard(event, "modify"):
            return value
        for ability, source in self.listeners(event, "modify", actor=actor, location=location,
                                              names={"value": value}):
            env = self.run_ability(ability, source, {"value": value}, location)
            if env is not None and "value" in env.vars:
                value = int(env.vars["value"])
        return value

    def rules_apply(self, assistant: Assistant) -> bool:
        """Whether a special assistant's placement rule may speak about placing
        ``assistant`` now."""
        if self._specials is None:
            self.specials()
        return bool(self._ruling) and any(
            source.rules_about(assistant) for source in self._ruling)
