"""Placement options, kept rather than rebuilt at every placement turn.

``flow.placement_options`` asks ``assistant_options`` for each assistant it offers:
``Game.placement_targets`` paired with the assistant, found the short way where
nothing can differ.

* Each location keeps each assistant's options there for when no placement rule
  speaks (``LocationState.options``), by which of its spaces are held; at an auction
  they are dropped when its spaces or its display change.
* Placement rules (``RuleMemo``): a rule's condition is compiled in parts, its
  conjuncts (``abilities.rule_parts``), each marked with what it reads. During one
  call the value of a part that reads only names fixed for the call (``placing``,
  ``this``, ``owner``...) or for the location (``target``) is kept and read instead
  of evaluated again: nothing changes during the call, and the parts are still
  evaluated in order, as ``and`` does. A location where every rule is silent before
  any part reads the space (``RuleMemo.silent_at``) has its open spaces as targets,
  as it would without rules.
"""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from exlibris.engine.abilities import LOCATION, SPACE, Source
from exlibris.engine.state import Assistant, LocationState, Space
from exlibris.engine.targets import Target, home_targets

if TYPE_CHECKING:
    from exlibris.engine.game import Game
    from exlibris.engine.runtime import EffectRuntime

Option = tuple[Assistant, Target]
# one rule that may speak, in priority order: its source, the source's owner, its
# kind, and its condition's parts as (level, handler, index of its kept value)
Check = tuple[Any, Any, str, tuple[tuple[int, Any, int], ...]]


class RuleMemo:
    """The placement rules that may speak about placing one assistant, in priority
    order (TIME-01), and the values of their condition parts kept during one call of
    ``Game.placement_targets`` or ``assistant_options``."""

    __slots__ = ("checks", "kept", "location", "location_slots", "names", "rt", "shares")

    def __init__(self, game: Game, placing: Assistant, ruled: list[Source]) -> None:
        state = game.state
        self.rt: EffectRuntime = game.rt
        self.names: dict[str, Any] = {
            "placing": placing, "players": state.players,
            "prominent": game.by_code.get(state.prominent),
            "banned": game.by_code.get(state.banned or "")}
        self.shares = any(source.shares for source in ruled)
        checks: list[Check] = []
        location_slots: list[int] = []
        slot = 0
        for source in ruled:
            owner = game.player(source.owner)
            for ability in source.abilities:
                for rule in ability.rules:
                    if rule.own_only and placing is not source.this:
                        continue  # ``placing == this and ...`` is false
                    parts = []
                    for level, handler in rule.parts:
                        parts.append((level, handler, slot))
                        if level == LOCATION:  # kept while the target is the same
                            location_slots.append(slot)
                        slot += 1
                    checks.append((source.this, owner, rule.kind, tuple(parts)))
        self.checks = checks
        self.location_slots = location_slots
        self.kept: list[Any] = [None] * slot  # None: not evaluated yet
        self.location: LocationState | None = None  # the target of the kept values

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
        (its parts all true, evaluated in order), or None."""
        self.at(loc)
        names = self.names
        names["occupant"] = occupants[0] if occupants else None
        space_named = False
        kept = self.kept
        rt = self.rt
        for this, owner, kind, parts in self.checks:
            names["this"] = this
            names["owner"] = owner
            for level, test, slot in parts:
                if level == SPACE:
                    if not space_named:
                        names["space"] = Space(loc, s)
                        space_named = True
                    if not test(rt, owner, names):
                        break
                    continue
                value = kept[slot]
                if value is None:
                    value = kept[slot] = bool(test(rt, owner, names))
                if not value:
                    break
            else:
                return kind
        return None

    def silent_at(self, loc: LocationState) -> bool:
        """Whether no rule speaks about any space of ``loc``: each has a part that is
        false there before any part that reads the space. The parts are evaluated as
        ``verdict`` would at the first space, and kept for it."""
        self.at(loc)
        names = self.names
        kept = self.kept
        rt = self.rt
        for this, owner, _kind, parts in self.checks:
            names["this"] = this
            names["owner"] = owner
            for level, test, slot in parts:
                if level == SPACE:
                    return False
                value = kept[slot]
                if value is None:
                    value = kept[slot] = bool(test(rt, owner, names))
                if not value:
                    break
            else:
                return False  # this rule speaks at every space here
        return True


def rules_about(game: Game, placing: Assistant) -> RuleMemo | None:
    """The placement rules that may speak about placing ``placing`` now (None: none)."""
    ruled = [source for source in game.sources() if source.rules_about(placing)]
    return RuleMemo(game, placing, ruled) if ruled else None


def considered(loc: LocationState, n: int, shares: bool) -> bool:
    """Whether the rules are asked about some space of ``loc``: one open to ``n``
    players, empty or (with a "share" rule) held."""
    return any((least <= n or n == 1) and (shares or not loc.spaces[s])
               for s, least in enumerate(loc.spec.spaces))


def open_targets(loc: LocationState, n: int) -> list[Target]:
    """The open spaces of a location without an auction, for ``n`` players, kept by
    which spaces are held (Targets are values: the same ones serve again)."""
    found = loc.open_targets.get(loc.held)
    if found is None:
        found = loc.open_targets[loc.held] = [
            Target(loc, s) for s, least in enumerate(loc.spec.spaces)
            if not loc.held[s] and (least <= n or n == 1)]
    return found


class OpenBoard:
    """The targets at the locations for an assistant about whom no placement rule
    speaks: the same for every such assistant of every seat (solo games aside). Kept
    while the locations in play, their spaces (``LocationState.version``), whether
    they are resolved, and the size of capacity auctions' displays stay the same."""

    __slots__ = ("capacity", "key", "targets")

    def __init__(self) -> None:
        self.key: Any = None
        self.targets: list[Target] = []
        self.capacity: list[LocationState] = []  # the capacity auctions not resolved

    def targets_of(self, game: Game) -> list[Target]:
        in_play = game.state.in_play
        key: Any = tuple(map(_VERSION, in_play))
        if self.capacity:
            key = (key, [len(loc.area) for loc in self.capacity])
        if key != self.key:
            self._rebuild(game, in_play)
        return self.targets

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
        self.targets = targets
        self.capacity = capacity
        key: Any = tuple(map(_VERSION, in_play))
        if capacity:
            key = (key, [len(loc.area) for loc in capacity])
        self.key = key


_VERSION = attrgetter("version", "resolved")


def placement_options(game: Game, seat: int) -> list[Option]:
    """``flow.placement_options``: for each assistant offered, ``(assistant, target)``
    for every target of ``game.placement_targets(seat, assistant)``, in its order.
    The free home spaces and ``OpenBoard``'s targets serve every assistant about
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
                shared = [t for t, held in zip(home_targets(len(player.home)), player.home)
                          if held is None]
                shared += game.open_board.targets_of(game)
            targets = shared
        options += zip(repeat(assistant), targets)
    return options
