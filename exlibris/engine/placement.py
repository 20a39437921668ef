"""Placement options, kept rather than rebuilt at every placement turn.

``placement_options`` (what ``flow.placement_options`` offers) is, for each assistant
offered, ``Game.placement_targets`` paired with the assistant, found the short way
wherever the answer cannot differ:

* without placement rules: the free home spaces, and at each location its open
  spaces, kept by which spaces are held (``open_targets``), or at an auction its open
  bids, kept while its spaces (``LocationState.version``) and its display stay the
  same (``targets_at``); found once a turn for every assistant no rule speaks about;
* with placement rules (``RuleMemo``): each rule's condition is in parts, marked with
  what they read (``engine/rule_parts.py``). The parts are asked in order, as ``and``
  does; while one placement's targets are worked out, a part that reads only the
  turn's names, or the location's, is asked once, and a part known by its inputs is
  kept for the game by them (``PlacementCache.parts``). A location where every rule
  is silent before a part reads the space offers its targets without rules
  (``RuleMemo.silent_at``); rules silent for a reason of the turn are not asked again
  (``RuleMemo.mute``); when every part is known by its inputs, the targets at each
  location under the rules are kept too (``RuleMemo.outlook``). Rules that say the
  same of every assistant give their targets once a turn (``RuleMemo.signature``).

A kept value is the one asking again would give: conditions change nothing (they
take no effect steps either), nothing changes while targets are worked out, and the
inputs a value is kept by decide it. Parts asked ahead of where ``and`` would ask
them (``silent_for_turn``, ``outlook``) are only asked so when nothing can tell: one
that raises is left to be asked where it would be.
"""

from __future__ import annotations

from contextlib import suppress
from itertools import repeat
from typing import TYPE_CHECKING, Any

from exlibris.dsl.errors import EffectError
from exlibris.engine.abilities import CompiledRule, Source
from exlibris.engine.rule_parts import SPACE, TURN, RulePart
from exlibris.engine.state import Assistant, LocationState, Space
from exlibris.engine.targets import Target, home_targets

if TYPE_CHECKING:
    from exlibris.engine.game import Game

Option = tuple[Assistant, Target]


class PlacementCache:
    """What placement keeps in one game beyond the locations' own (see the module)."""

    __slots__ = ("all_general", "outlooks", "parts")

    def __init__(self) -> None:
        # RuleMemo.outlook: the targets at each location, by the rules' turn values
        self.outlooks: dict[tuple[Any, ...], dict[Any, list[Target]]] = {}
        # values of rule parts known by their inputs: by (part, the inputs fixed for a
        # turn), a table by the other inputs (the location's, the space's)
        self.parts: dict[tuple[Any, ...], dict[Any, bool]] = {}
        self.all_general: bool | None = None

    def general(self, game: Game) -> bool:
        """Whether every assistant's targets are asked of ``Game.placement_targets``:
        in solo games, and where artifacts carry placement rules (found once)."""
        if self.all_general is None:
            self.all_general = game.n_players == 1 or game.artifacts_rule()
        return self.all_general


_UNKEPT: dict[Any, bool] = {}  # the table of a part whose inputs cannot be kept: none


class _Check:
    """One rule that may speak, with the values of its parts kept for one call."""

    __slots__ = ("at", "inputs", "kind", "owner", "parts", "rule", "this", "values")

    def __init__(self, this: Any, owner: Any, rule: CompiledRule) -> None:
        self.rule = rule
        self.this = this
        self.owner = owner
        self.kind = rule.kind
        self.parts = rule.parts
        self.values: list[Any] = [None] * len(rule.parts)  # None: not evaluated yet
        self.at: list[LocationState | None] = [None] * len(rule.parts)  # of LOCATION values
        # by part known by its inputs, its values by the inputs not fixed for the turn
        self.inputs: dict[RulePart, dict[Any, bool]] = {}


class RuleMemo:
    """The placement rules that may speak about placing one assistant, in priority
    order (TIME-01), with the values of their parts kept while one placement's
    targets are worked out (see the module)."""

    __slots__ = (
        "cache",
        "checks",
        "known",
        "mute",
        "names",
        "rt",
        "seen",
        "shares",
        "signature",
    )

    def __init__(self, game: Game, placing: Assistant, ruled: list[Source]) -> None:
        state = game.state
        self.rt = game.rt
        self.cache = game.placement_cache
        self.known = game.placement_cache.parts
        self.seen: dict[Any, list[Target]] | bool | None = False  # see outlook()
        self.names: dict[str, Any] = {
            "placing": placing, "players": state.players,
            "prominent": game.by_code.get(state.prominent),
            "banned": game.by_code.get(state.banned or "")}
        self.shares = any(source.shares for source in ruled)
        checks: list[_Check] = []
        for source in ruled:
            owner = state.players[source.owner]
            for rule in source.rules:
                if rule.own_only and placing is not source.this:
                    continue  # ``placing == this and ...`` is false
                checks.append(_Check(source.this, owner, rule))
        self.checks = checks
        self.mute = False  # every rule is silent for a reason of the turn
        # rules that say the same of every assistant: their targets serve each
        self.signature: tuple[int, ...] | None = None if any(
            rule.reads_placing for source in ruled for rule in source.rules) \
            else tuple(map(id, ruled))

    def silent_for_turn(self) -> bool:
        """Whether every rule has a false TURN part before any other part: then no rule
        speaks anywhere (and ``mute`` is set). Asked before the locations, where ``and``
        would first ask at the first space: a part that raises is left to be asked
        there (nothing else can tell: conditions change nothing)."""
        names = self.names
        try:
            for check in self.checks:
                names["this"] = check.this
                names["owner"] = check.owner
                for j, part in enumerate(check.parts):
                    if part.level != TURN:
                        return False
                    if not self._holds(check, j, part, None):
                        break
                else:
                    return False  # true at every space
        except EffectError:
            return False
        self.mute = True
        return True

    def outlook(self) -> dict[Any, list[Target]] | None:
        """The targets at each location under these rules, kept by the location's
        spaces (``version``, and an auction's display size) for the rest of the game,
        when every part of every rule is known by its inputs: by the rules, the values
        of their TURN parts and the inputs fixed for the turn of the others, which
        decide everything else. Those are gathered ahead of the locations, where
        ``and`` would ask them in turn (a part that raises leaves the outlook out:
        it is asked where it would be). None: not kept."""
        if self.seen is not False:
            return self.seen  # type: ignore[return-value]
        self.seen = None
        names = self.names
        key: list[Any] = [self.shares]
        try:
            for check in self.checks:
                names["this"] = check.this
                names["owner"] = check.owner
                key += (check.rule, check.this)
                for j, part in enumerate(check.parts):
                    if part.hoisted is None:
                        return None  # a part that is not known by its inputs
                    if part.level == TURN:
                        key.append(self._holds(check, j, part, None))
                    else:
                        table = self._table(check, part)
                        if table is _UNKEPT:
                            return None
                        key.append(id(table))  # the part with the turn's inputs
        except EffectError:
            return None
        self.seen = self.cache.outlooks.setdefault(tuple(key), {})
        return self.seen

    def verdict(self, loc: LocationState, s: int, occupants: list[Assistant]) -> str | None:
        """The kind of the first rule whose condition holds for space ``s`` of ``loc``
        (its parts all true, asked in order), or None."""
        names = self.names
        names["target"] = loc
        names["occupant"] = occupants[0] if occupants else None
        space_named = False
        for check in self.checks:
            names["this"] = check.this
            names["owner"] = check.owner
            for j, part in enumerate(check.parts):
                if part.level == SPACE:
                    if not space_named:
                        names["space"] = Space(loc, s)
                        space_named = True
                    if not self._value(check, part):
                        break
                elif not self._holds(check, j, part, loc):
                    break
            else:
                return check.kind
        return None

    def silent_at(self, loc: LocationState) -> bool:
        """Whether no rule speaks about any space of ``loc``: each has a part that is
        false there before any part that reads the space. The parts are asked as
        ``verdict`` would at the first space, and kept for it (``_holds``, inlined:
        this runs for every location of every placement that rules may speak about)."""
        names = self.names
        names["target"] = loc
        turn_only = True  # every rule silent for a reason of the turn
        for check in self.checks:
            names["this"] = check.this
            names["owner"] = check.owner
            values = check.values
            for j, part in enumerate(check.parts):
                level = part.level
                if level == SPACE:
                    return False
                if level == TURN:
                    value = values[j]
                    if value is None:
                        value = values[j] = self._value(check, part)
                elif check.at[j] is loc:
                    value = values[j]
                else:
                    value = values[j] = self._value(check, part)
                    check.at[j] = loc
                if not value:
                    turn_only = turn_only and level == TURN
                    break
            else:
                return False  # this rule speaks at every space here
        self.mute = turn_only
        return True

    def _holds(self, check: _Check, j: int, part: RulePart, loc: LocationState | None
               ) -> bool:
        """The value of part ``j`` (TURN or LOCATION) of ``check`` at ``loc``."""
        if part.level == TURN:
            value = check.values[j]
            if value is None:
                value = check.values[j] = self._value(check, part)
            return value  # type: ignore[no-any-return]
        if check.at[j] is loc:
            return check.values[j]  # type: ignore[no-any-return]
        value = self._value(check, part)
        check.values[j] = value
        check.at[j] = loc
        return value

    def _value(self, check: _Check, part: RulePart) -> bool:
        return self._evaluate(check, part) if part.hoisted is None else self._known(check, part)

    def _evaluate(self, check: _Check, part: RulePart) -> bool:
        return bool(part.handler(self.rt, check.owner, self.names))

    def _known(self, check: _Check, part: RulePart) -> bool:
        """The value of a part known by its inputs (``rule_parts.py``): as it was for
        the same inputs earlier in the game, else evaluated. The inputs fixed for the
        turn are gathered once (the TURN subexpressions evaluated then) and pick the
        table of values by the location's (or space's) own inputs."""
        table = self._table(check, part)
        if table is _UNKEPT:
            return self._evaluate(check, part)
        names = self.names
        local = part.local
        if part.versioned:
            key: Any = (*map(names.get, local), names["target"].version)
        elif len(local) == 1:
            key = names.get(local[0])
        else:
            key = tuple(map(names.get, local))
        value = table.get(key)
        if value is None:
            value = table[key] = self._evaluate(check, part)
        return value

    def _table(self, check: _Check, part: RulePart) -> dict[Any, bool]:
        """The values of a part known by its inputs, for the inputs fixed this turn."""
        table = check.inputs.get(part)
        if table is None:
            fixed = self._fixed_inputs(check, part)
            table = _UNKEPT  # a position of what is not an assistant: not kept
            if fixed is not None:
                with suppress(TypeError):  # an input that is not hashable (a list): not kept
                    table = self.known.setdefault((part, fixed), {})
            check.inputs[part] = table
        return table

    def _fixed_inputs(self, check: _Check, part: RulePart) -> tuple[Any, ...] | None:
        names = self.names
        positions = []
        for name in part.positions:
            assistant = names.get(name)
            if assistant.__class__ is not Assistant:
                return None
            positions.append((assistant.location, assistant.home_index, assistant.space,
                              assistant.bid))
        return (*[check.owner if name == "me" else names.get(name) for name in part.names],
                *positions,
                *[handler(self.rt, check.owner, names) for handler in part.hoisted or ()])


def rules_about(game: Game, placing: Assistant) -> RuleMemo | None:
    """The placement rules that may speak about placing ``placing`` now (None: none)."""
    ruled = [source for source in game.sources() if source.rules_about(placing)]
    return RuleMemo(game, placing, ruled) if ruled else None


def considered(loc: LocationState, n: int, empty: list[Target], shares: bool) -> bool:
    """Whether the rules are asked about some space of ``loc`` (``empty``: its targets
    when no rule speaks): one of those, or at a location without an auction, with a
    "share" rule, a held space open to ``n`` players."""
    return bool(empty) or (shares and loc.spec.auction is None
                           and any(least <= n or n == 1 for least in loc.spec.spaces))


def open_targets(loc: LocationState, n: int) -> list[Target]:
    """The open spaces of a location without an auction, for ``n`` players, kept by
    which spaces are held (Targets are values: the same ones serve again)."""
    found = loc.open_targets.get(loc.held)
    if found is None:
        found = loc.open_targets[loc.held] = [
            Target(loc, s) for s, least in enumerate(loc.spec.spaces)
            if not loc.held[s] and (least <= n or n == 1)]
    return found


def targets_at(game: Game, loc: LocationState, n: int) -> list[Target]:
    """The targets at ``loc`` when no placement rule speaks: its open spaces, or the
    bids open at an auction (kept while its spaces and the size of its display stay
    the same: ``LocationState.bids``)."""
    if loc.spec.auction is None:
        return open_targets(loc, n)
    key = (loc.version, len(loc.area))
    if loc.bids is None or loc.bids[0] != key:
        loc.bids = (key, game._location_targets(loc, forced=False, rules=None))
    return loc.bids[1]


def _open_targets_of(game: Game, home: list[Assistant | None]) -> list[Target]:
    """The targets of an assistant about whom no placement rule speaks (not solo)."""
    targets = [t for t, held in zip(home_targets(len(home)), home, strict=True) if held is None]
    n = game.n_players
    for loc in game.state.in_play:
        if loc.resolved:
            continue
        found = loc.open_targets.get(loc.held)  # never an auction's
        targets += found if found is not None else targets_at(game, loc, n)
    return targets


def placement_options(game: Game, seat: int) -> list[Option]:
    """``flow.placement_options``: for each assistant offered, ``(assistant, target)``
    for every target of ``game.placement_targets(seat, assistant)``, in its order.
    The targets are found once for every assistant about whom no placement rule
    speaks, and once for those whose rules say the same of every assistant."""
    player = game.state.players[seat]
    options: list[Option] = []
    general = None  # whether placement_targets is asked for every assistant (solo...)
    shared: list[Target] | None = None  # the targets when no rule speaks
    by_rules: dict[tuple[int, ...], list[Target]] = {}  # when rules say the same of each
    seen = 0  # standard assistants offered: 1 not placed this round, 2 placed again
    for assistant in player.assistants:
        if assistant.location is not None or assistant.home_index is not None:
            continue  # not available
        if general is None:
            game.sources()  # the priority order as of this turn (sorts are stable)
            general = game.placement_cache.general(game)
        if assistant.kind == "standard":
            # standard assistants are alike, except that one placed earlier this round
            # (and sent back) does not count again at the Diviner's Hut (LOC-01-5)
            flag = 2 if assistant.id in player.placed_this_round else 1
            if seen & flag:
                continue
            seen |= flag
        rules = None if general or not game.rules_apply(assistant) \
            else rules_about(game, assistant)
        if general:
            targets = game.placement_targets(seat, assistant)
        elif rules is not None and not rules.silent_for_turn():
            key = rules.signature
            found = by_rules.get(key) if key is not None else None
            if found is None:
                found = game.targets_under(rules, seat, assistant)
                if key is not None:
                    by_rules[key] = found
            targets = found
        else:  # no rule speaks: the targets of every such assistant
            if shared is None:
                shared = _open_targets_of(game, player.home)
            targets = shared
        options += zip(repeat(assistant), targets)
    return options
