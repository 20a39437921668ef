"""Placement options, kept rather than rebuilt at every placement turn.

``placement_options`` (what ``flow.placement_options`` offers) is, for each assistant
offered, ``Game.placement_targets`` paired with the assistant. Most of it is kept:

* ``PlacementCache.board``: the targets at the locations of an assistant about whom
  no placement rule speaks, the same for every such assistant, kept until a
  location's spaces change (``LocationState.version``), it is resolved, the
  locations in play change, or a capacity auction's display changes size; the
  targets of each location's open spaces are kept by which spaces are held
  (``open_targets``);
* ``RuleMemo``: while one placement turn's targets are worked out, the value of each
  part of a rule's condition (``engine/rule_parts.py``) that reads only names fixed
  for the turn, or for the location; and, for the rest of the game, the value of a
  LOCATION part known by its inputs (``PlacementCache.parts``). The parts are still
  asked in order, as ``and`` does, and a kept value is the one evaluating would give:
  nothing changes while targets are worked out. A location where every rule is
  silent before a part reads the space has its open spaces as targets
  (``RuleMemo.silent_at``); once every rule is silent for a reason of the turn, every
  location has them (``RuleMemo.mute``).
"""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from exlibris.engine.abilities import Source
from exlibris.engine.rule_parts import LOCATION, SPACE, TURN
from exlibris.engine.state import Assistant, LocationState, Space
from exlibris.engine.targets import Target, home_targets

if TYPE_CHECKING:
    from exlibris.dsl.compiler import ExprHandler
    from exlibris.engine.game import Game

Option = tuple[Assistant, Target]
# a part of a rule in RuleMemo: its level, its handler, the index of its kept value,
# and for a part known by its inputs, each input's handler and the index of its value
Part = tuple[int, "ExprHandler", int, "tuple[tuple[ExprHandler, int], ...] | None"]
# a rule that may speak, in priority order: its source, the source's owner, its kind,
# its parts
Check = tuple[Any, Any, str, tuple[Part, ...]]
_UNSET = object()


class PlacementCache:
    """What placement keeps in one game (see the module)."""

    __slots__ = ("board", "board_key", "capacity", "parts")

    def __init__(self) -> None:
        self.board: list[Target] = []
        self.board_key: Any = None
        self.capacity: list[LocationState] = []  # the capacity auctions not resolved
        # values of LOCATION parts known by their inputs, by (handler, location, inputs)
        self.parts: dict[tuple[Any, ...], bool] = {}

    def board_targets(self, game: Game) -> list[Target]:
        """The targets at the locations when no placement rule speaks (not solo)."""
        in_play = game.state.in_play
        key: Any = tuple(map(_VERSION, in_play))
        if self.capacity:
            key = (key, [len(loc.area) for loc in self.capacity])
        if key != self.board_key:
            self._rebuild(game, in_play)
        return self.board

    def _rebuild(self, game: Game, in_play: list[LocationState]) -> None:
        n = game.n_players
        targets: list[Target] = []
        capacity: list[LocationState] = []
        for loc in in_play:
            if loc.resolved:
                continue
            auction = loc.spec.auction
            if auction is None:
                found = loc.open_targets.get(loc.held)
                targets += found if found is not None else open_targets(loc, n)
            else:
                if auction.style != "outbid":
                    capacity.append(loc)
                targets += game._location_targets(loc, forced=False, rules=None)
        self.board = targets
        self.capacity = capacity
        key: Any = tuple(map(_VERSION, in_play))
        if capacity:
            key = (key, [len(loc.area) for loc in capacity])
        self.board_key = key


_VERSION = attrgetter("version", "resolved")


class RuleMemo:
    """The placement rules that may speak about placing one assistant, in priority
    order (TIME-01), with the values of their parts kept while one placement's
    targets are worked out (see the module)."""

    __slots__ = ("checks", "inputs", "kept", "known", "location", "location_slots", "mute",
                 "names", "rt", "shares")

    def __init__(self, game: Game, placing: Assistant, ruled: list[Source]) -> None:
        state = game.state
        self.rt = game.rt
        self.known = game.placement_cache.parts
        self.names: dict[str, Any] = {
            "placing": placing, "players": state.players,
            "prominent": game.by_code.get(state.prominent),
            "banned": game.by_code.get(state.banned or "")}
        self.shares = any(source.shares for source in ruled)
        checks: list[Check] = []
        location_slots: list[int] = []
        slots = inputs = 0
        for source in ruled:
            owner = game.player(source.owner)
            for ability in source.abilities:
                for rule in ability.rules:
                    if rule.own_only and placing is not source.this:
                        continue  # ``placing == this and ...`` is false
                    parts: list[Part] = []
                    for part in rule.parts:
                        hoisted = None
                        if part.hoisted is not None:
                            hoisted = tuple((h, inputs + i) for i, h in enumerate(part.hoisted))
                            inputs += len(hoisted)
                        parts.append((part.level, part.handler, slots, hoisted))
                        if part.level == LOCATION:  # kept while the target is the same
                            location_slots.append(slots)
                        slots += 1
                    checks.append((source.this, owner, rule.kind, tuple(parts)))
        self.checks = checks
        self.location_slots = location_slots
        self.kept: list[bool | None] = [None] * slots  # None: not evaluated yet
        self.inputs: list[Any] = [_UNSET] * inputs  # the values of hoisted inputs
        self.location: LocationState | None = None  # the target of the kept values
        self.mute = False  # every rule is silent: a TURN part is false

    def at(self, loc: LocationState) -> None:
        """The rules are asked about a space of ``loc`` next."""
        if loc is not self.location:
            self.location = loc
            self.names["target"] = loc
            kept = self.kept
            for slot in self.location_slots:
                kept[slot] = None

    def verdict(self, loc: LocationState, s: int, occupants: list[Assistant]) -> str | None:
        """The kind of the first rule whose condition holds for space ``s`` of ``loc``
        (its parts all true, asked in order), or None."""
        self.at(loc)
        names = self.names
        names["occupant"] = occupants[0] if occupants else None
        space_named = False
        kept = self.kept
        for this, owner, kind, parts in self.checks:
            names["this"] = this
            names["owner"] = owner
            for level, test, slot, hoisted in parts:
                if level == SPACE:
                    if not space_named:
                        names["space"] = Space(loc, s)
                        space_named = True
                    if not test(self.rt, owner, names):
                        break
                    continue
                value = kept[slot]
                if value is None:
                    value = kept[slot] = self._value(test, hoisted, owner)
                if not value:
                    break
            else:
                return kind
        return None

    def silent_at(self, loc: LocationState) -> bool:
        """Whether no rule speaks about any space of ``loc``: each has a part that is
        false there before any part that reads the space. The parts are asked as
        ``verdict`` would at the first space, and kept for it."""
        self.at(loc)
        names = self.names
        kept = self.kept
        turn_only = True  # every rule silent for a reason of the turn
        for this, owner, _kind, parts in self.checks:
            names["this"] = this
            names["owner"] = owner
            for level, test, slot, hoisted in parts:
                if level == SPACE:
                    return False
                value = kept[slot]
                if value is None:
                    value = kept[slot] = self._value(test, hoisted, owner)
                if not value:
                    turn_only = turn_only and level == TURN
                    break
            else:
                return False  # this rule speaks at every space here
        self.mute = turn_only
        return True

    def _value(self, test: ExprHandler, hoisted: tuple[tuple[ExprHandler, int], ...] | None,
               owner: Any) -> bool:
        """A part's value (not kept for this location yet): evaluated, or for a part
        known by its inputs, as it was for this location and the same inputs."""
        names = self.names
        if hoisted is None:
            return bool(test(self.rt, owner, names))
        inputs = self.inputs
        key: list[Any] = [test, self.location]
        for handler, i in hoisted:
            value = inputs[i]
            if value is _UNSET:
                value = inputs[i] = handler(self.rt, owner, names)
            key.append(value)
        try:
            return self.known[tuple(key)]
        except KeyError:
            value = self.known[tuple(key)] = bool(test(self.rt, owner, names))
            return value
        except TypeError:  # an input that is not hashable (a list): evaluated each time
            return bool(test(self.rt, owner, names))


def rules_about(game: Game, placing: Assistant) -> RuleMemo | None:
    """The placement rules that may speak about placing ``placing`` now (None: none)."""
    ruled = [source for source in game.sources() if source.rules_about(placing)]
    return RuleMemo(game, placing, ruled) if ruled else None


def considered(loc: LocationState, n: int, empty: list[Target], shares: bool) -> bool:
    """Whether the rules are asked about some space of ``loc`` (``empty``: its open
    spaces): one open to ``n`` players, empty or, with a "share" rule, held."""
    return bool(empty) or (shares and any(least <= n or n == 1 for least in loc.spec.spaces))


def open_targets(loc: LocationState, n: int) -> list[Target]:
    """The open spaces of a location without an auction, for ``n`` players, kept by
    which spaces are held (Targets are values: the same ones serve again)."""
    found = loc.open_targets.get(loc.held)
    if found is None:
        found = loc.open_targets[loc.held] = [
            Target(loc, s) for s, least in enumerate(loc.spec.spaces)
            if not loc.held[s] and (least <= n or n == 1)]
    return found


def placement_options(game: Game, seat: int) -> list[Option]:
    """``flow.placement_options``: for each assistant offered, ``(assistant, target)``
    for every target of ``game.placement_targets(seat, assistant)``, in its order.
    The free home spaces and ``PlacementCache.board`` serve every assistant about
    whom no placement rule speaks (not in solo games: ``placement_targets`` then)."""
    player = game.state.players[seat]
    options: list[Option] = []
    general = None  # whether placement_targets is asked for every assistant
    shared: list[Target] | None = None  # the targets when no rule speaks
    seen = 0  # standard assistants offered: 1 not placed this round, 2 placed again
    for assistant in player.assistants:
        if assistant.location is not None or assistant.home_index is not None:
            continue  # not available
        if general is None:
            game.sources()  # the priority order as of this turn (sorts are stable)
            general = game.n_players == 1 or game.artifacts_rule()
        if assistant.kind == "standard":
            # standard assistants are alike, except that one placed earlier this round
            # (and sent back) does not count again at the Diviner's Hut (LOC-01-5)
            flag = 2 if assistant.id in player.placed_this_round else 1
            if seen & flag:
                continue
            seen |= flag
        if general or game.rules_apply(assistant):
            targets = game.placement_targets(seat, assistant)
        else:
            if shared is None:
                shared = [t for t, held in zip(home_targets(len(player.home)), player.home,
                                               strict=True) if held is None]
                shared += game.placement_cache.board_targets(game)
            targets = shared
        options += zip(repeat(assistant), targets)
    return options
