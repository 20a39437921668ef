"""An independent copy of a game's data: the state, the effect context, solo's form.

What a game shares with its copy is what never changes in play: the cards
(interned values), the content's models and compiled effects, the settings, the
scoring rules. Everything that changes is copied, each object once, and every
reference between copied objects (a card's zone, an assistant's location, a
space's occupants, the cursor's resolution order) points into the copy. What the
engine keeps only to go faster (placement targets, the sorted ability carriers,
the names of effects) is not copied: the copy works it out again.

A copy is a game that goes on from where the original stands only at a
checkpoint (``Game.checkpoint``), where no game data is on the flow's call stack;
``engine/forward.py`` builds forks at any decision on it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import count
from typing import Any

from exlibris.engine.context import AbilityUse, EffectContext
from exlibris.engine.decisions import Agent
from exlibris.engine.events import EventLog
from exlibris.engine.game import Game
from exlibris.engine.solo import SoloState
from exlibris.engine.state import (
    Assistant,
    FlowCursor,
    GameState,
    LocationState,
    PlayerState,
)
from exlibris.engine.zones import ShelfZone, Zone, copy_zone

_VERSIONS = count(-1, -1)  # copied locations' ``version``: never one a process used before


def _new_random() -> random.Random:
    """A generator for ``setstate`` to fill: ``random.Random()`` would first seed itself
    from the system's entropy (a system call, about 8 µs), for nothing."""
    return random.Random.__new__(random.Random)


class _Copier:
    """Copies of one game's objects, made once each and found again by identity."""

    __slots__ = ("assistants", "locations", "zones")

    def __init__(self) -> None:
        self.assistants: dict[int, Assistant] = {}
        self.locations: dict[int, LocationState] = {}
        self.zones: dict[int, Zone] = {}

    def zone(self, old: Zone) -> Zone:
        found = self.zones.get(id(old))
        if found is None:
            found = self.zones[id(old)] = copy_zone(old)
        return found

    def shelf_zone(self, old: ShelfZone) -> ShelfZone:
        new = ShelfZone(old.name, old.owner, old.shelf.copy())
        self.zones[id(old)] = new
        return new

    def assistant(self, old: Assistant | None) -> Assistant | None:
        if old is None:
            return None
        found = self.assistants.get(id(old))
        if found is None:
            found = Assistant.__new__(Assistant)
            self.assistants[id(old)] = found
            found.id, found.owner, found.spec, found.kind = old.id, old.owner, old.spec, old.kind
            found.space, found.home_index = old.space, old.home_index
            found.placed_at, found.bid = old.placed_at, old.bid
            found.location = self.location(old.location)
            found.sharing_with = [self.assistant(a) for a in old.sharing_with]
        return found

    def location(self, old: LocationState | None) -> LocationState | None:
        if old is None:
            return None
        found = self.locations.get(id(old))
        if found is None:
            found = LocationState.__new__(LocationState)
            self.locations[id(old)] = found
            for name in ("spec", "id", "number", "instant", "auction", "preparation",
                         "opens_at", "effect", "held", "permanent", "resolved"):
                setattr(found, name, getattr(old, name))
            found.area = self.zone(old.area)
            found.spaces = [[self.assistant(a) for a in space] for space in old.spaces]
            found.open_targets = {}
            found.visitors = list(old.visitors)
            found.version = next(_VERSIONS)
            found.bids = None
        return found

    def player(self, old: PlayerState) -> PlayerState:
        new = PlayerState.__new__(PlayerState)
        new.seat, new.name, new.focus, new.library = old.seat, old.name, old.focus, old.library
        new.hired, new.placements_this_round = old.hired, old.placements_this_round
        new.hand = self.zone(old.hand)
        new.hires = self.zone(old.hires)
        new.shelf_zone = self.shelf_zone(old.shelf_zone)
        new.shelf = new.shelf_zone.shelf
        new.assistants = [self.assistant(a) for a in old.assistants]
        new.home = [self.assistant(a) for a in old.home]
        new.placed_this_round = set(old.placed_this_round)
        return new

    def carrier(self, key: int) -> int:
        """An ability carrier's ``id()`` in the copy (an assistant's changes; a card,
        an interned value, is the same object in both)."""
        new = self.assistants.get(key)
        return key if new is None else id(new)

    def uses(self, found: set[AbilityUse]) -> set[AbilityUse]:
        return {(key, self.carrier(carrier)) for key, carrier in found}


def copy_state(state: GameState, copier: _Copier,
               rng_state: tuple[Any, ...] | None = None) -> GameState:
    """A copy of ``state`` whose objects are ``copier``'s; ``rng_state``, if given, is
    ``state.rng.getstate()`` already read (a snapshot copied again and again)."""
    rng = _new_random()
    rng.setstate(state.rng.getstate() if rng_state is None else rng_state)
    new = GameState([copier.player(p) for p in state.players], rng)
    for name in ("deck", "discard", "assistant_deck", "artifact_deck"):
        setattr(new, name, copier.zone(getattr(state, name)))
    new.in_play = [copier.location(loc) for loc in state.in_play]
    new.limbo = [copier.zone(z) for z in state.limbo]
    new.temps = [copier.assistant(a) for a in state.temps]
    new.location_stack = list(state.location_stack)
    new.location_discard = list(state.location_discard)
    new.visits = {lid: list(seats) for lid, seats in state.visits.items()}
    new.counters = dict(state.counters)
    for name in ("prominent", "also_prominent", "banned", "first_player", "next_first_player",
                 "round", "phase", "final_round", "placement_counter", "returns", "turn_counter"):
        setattr(new, name, getattr(state, name))
    new.cards.copy_from(state.cards, copier.zones)
    new.cursor = copy_cursor(state.cursor, copier)
    return new


def copy_cursor(old: FlowCursor, copier: _Copier) -> FlowCursor:
    new = FlowCursor()
    new.step, new.entered, new.stalled, new.reason = old.step, old.entered, old.stalled, \
        old.reason
    new.highest = None if old.highest is None else list(old.highest)
    new.sweep, new.at, new.placed_any, new.turns = list(old.sweep), old.at, old.placed_any, \
        old.turns
    new.order = [copier.location(loc) for loc in old.order]
    new.resolving, new.inspecting = old.resolving, old.inspecting
    return new


def copy_context(old: EffectContext, new: EffectContext, copier: _Copier) -> None:
    """Fill ``new`` (a fresh context, which the copy's runtime already holds) as ``old``."""
    new.cause = copier.assistant(old.cause)
    new.last_moved = copier.assistant(old.last_moved)
    new.running = copier.uses(old.running)
    new.used_this_turn = copier.uses(old.used_this_turn)
    new.used_this_round = copier.uses(old.used_this_round)
    new.used_this_game = copier.uses(old.used_this_game)
    new.skip = {copier.carrier(key) for key in old.skip}
    new.activating, new.steps = old.activating, old.steps
    new.stand_ins = dict(old.stand_ins)


def copy_game(game: Game, agents: Sequence[Agent],
              rng_state: tuple[Any, ...] | None = None) -> Game:
    """An independent copy of ``game`` played by ``agents``, with its event log off
    (``rng_state``: as ``copy_state`` takes it).

    Playing on the copy never changes the original, nor the original the copy."""
    copier = _Copier()
    state = copy_state(game.state, copier, rng_state)
    new = Game(state, game.settings, agents, game.categories, views=game.views,
               log=EventLog())
    copy_context(game.ctx, new.ctx, copier)
    new.decisions = game.decisions
    new.artifact_specs = game.artifact_specs
    new.assistant_cards = game.assistant_cards
    new.has_artifacts = game.has_artifacts
    new.variant, new.seed, new.scoring = game.variant, game.seed, game.scoring
    new.location_specs = game.location_specs
    solo = game.solo
    if solo is not None:
        new.solo = SoloState(solo.difficulty, solo.public_focus, list(solo.form),
                             list(solo.boxed), list(solo.eliminated))
    return new
