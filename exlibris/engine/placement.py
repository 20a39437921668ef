# cython: annotation_typing=True
"""Placement options, kept rather than rebuilt at every placement turn.

``placement_options`` (what ``flow.placement_options`` offers) is, for each assistant
offered, ``Board.placement_targets`` paired with the assistant, found the short way
wherever the answer cannot differ:

* without placement rules: the free home spaces, and at each location its open
  spaces, kept by which spaces are held (``open_targets``), or at an auction its open
  bids, kept while its spaces (``LocationState.version``) and its display stay the
  same (``targets_at``); found once a turn for every assistant no rule speaks about;
* with placement rules (``RuleMemo``): each rule's condition is in parts, marked with
  what they read (``engine/rule_parts.py``). The parts are asked in order, as ``and``
  does; while one placement's targets are worked out, a part that reads only the
  turn's names, or the location's, is asked once there. A location where every rule
  is silent before a part reads the space offers its targets without rules, and one
  where a rule denies every space before that, none (``RuleMemo.at_location``);
  rules silent for a reason of the turn are not asked again (``RuleMemo.mute``);
  rules that say the same of every assistant give their targets once a turn
  (``RuleMemo.signature``).

A kept value is the one asking again would give: conditions change nothing (they
take no effect steps either) and nothing changes while targets are worked out. Parts
asked ahead of where ``and`` would ask them (``RuleMemo.silent_for_turn``) are only
asked so when nothing can tell: one that raises is left to be asked where it would be.
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING, Any

from exlibris.dsl.errors import EffectError
from exlibris.engine.abilities import CompiledRule, Source
from exlibris.engine.rule_parts import SPACE, TURN, RulePart
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState, Space
from exlibris.engine.targets import Target, free_home_targets

if TYPE_CHECKING:
    from exlibris.engine.game import Game

Option = tuple[Assistant, Target]
# what placement rules say about every space of a location alike (RuleMemo.at_location)
SILENT, DENIED, ASK = "silent", "denied", "ask"


class _Check:
    """One rule that may speak, with the values of its parts kept for one call."""

    __slots__ = ("at", "kind", "owner", "parts", "rule", "this", "values")

    def __init__(self, this: Any, owner: Any, rule: CompiledRule) -> None:
        self.this = this
        self.owner = owner
        self.rule = rule
        self.kind = rule.kind
        self.parts = rule.parts
        self.values: list[Any] = [None] * len(rule.parts)  # None: not evaluated yet
        self.at: list[LocationState | None] = [None] * len(rule.parts)  # of LOCATION values


class RuleMemo:
    """The placement rules that may speak about placing one assistant, in priority
    order (TIME-01), with the values of their parts kept while one placement's
    targets are worked out (see the module)."""

    __slots__ = ("checks", "mute", "names", "rt", "shares", "signature")

    def __init__(self, game: Game, placing: Assistant, ruled: list[Source]) -> None:
        state = game.state
        self.rt = game.rt
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
            check: _Check
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

    def verdict(self, loc: LocationState, s: int, occupants: list[Assistant]) -> str | None:
        """The kind of the first rule, in priority order (TIME-01), whose condition holds
        for space ``s`` of ``loc`` (its parts all true, asked in order), or None."""
        check = self.speaker(loc, s, occupants)
        return None if check is None else check.kind

    def speaker(self, loc: LocationState, s: int, occupants: list[Assistant]) -> Any:
        """The first rule (a ``_Check``: its ``rule``, ``this`` and ``owner``) whose
        condition holds for space ``s`` of ``loc``, or None (``verdict``)."""
        names = self.names
        names["target"] = loc
        names["occupant"] = occupants[0] if occupants else None
        space_named = False
        check: _Check
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
                return check
        return None

    def at_location(self, loc: LocationState) -> str:
        """What the rules say about every space of ``loc`` alike, as far as parts that do
        not read the space tell (``SILENT``, ``DENIED``), or ``ASK`` space by space.
        Each rule in turn: silent if a part is false; if all are true, it speaks at
        every space (a deny, an allow: as silent, or a share: ask). The parts are asked
        as ``verdict`` would at the first space, and kept for it (``_holds``, inlined:
        this runs for every location of every placement that rules may speak about)."""
        names = self.names
        names["target"] = loc
        turn_only = True  # every rule silent for a reason of the turn
        check: _Check
        for check in self.checks:
            names["this"] = check.this
            names["owner"] = check.owner
            values = check.values
            for j, part in enumerate(check.parts):
                level = part.level
                if level == SPACE:
                    return ASK
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
            else:  # this rule speaks at every space here, before any later one
                return DENIED if check.kind == "deny" else SILENT if check.kind == "allow" \
                    else ASK
        self.mute = turn_only
        return SILENT

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
        return bool(part.handler(self.rt, check.owner, self.names))


def rules_about(game: Game, placing: Assistant) -> RuleMemo | None:
    """The placement rules that may speak about placing ``placing`` now (None: none)."""
    ruled = [source for source in game.triggers.sources() if source.rules_about(placing)]
    return RuleMemo(game, placing, ruled) if ruled else None


def considered(loc: LocationState, n: int, empty: list[Target], shares: bool) -> bool:
    """Whether the rules are asked about some space of ``loc`` (``empty``: its targets
    when no rule speaks): one of those, or at a location without an auction, with a
    "share" rule, a held space open to ``n`` players."""
    return bool(empty) or (shares and loc.auction is None
                           and any(least <= n for least in loc.opens_at))


def targets_at(game: Game, loc: LocationState, n: int) -> list[Target]:
    """The targets at ``loc`` when no placement rule speaks: its open spaces, or the
    bids open at an auction (kept while its spaces and the size of its display stay
    the same: ``LocationState.bids``)."""
    found = loc.open_targets.get(loc.held)  # kept below (never at an auction)
    if found is not None:
        return found
    if loc.auction is None:  # its open spaces, kept by which spaces are held
        found = loc.open_targets[loc.held] = [  # Targets are values: they serve again
            Target(loc, s) for s, least in enumerate(loc.opens_at)
            if not loc.held[s] and least <= n]
        return found
    key = (loc.version, len(loc.area))
    if loc.bids is None or loc.bids[0] != key:
        loc.bids = (key, game.board._location_targets(loc, forced=False, rules=None))
    return loc.bids[1]


def _open_targets_of(game: Game, home: list[Assistant | None]) -> list[Target]:
    """The targets of an assistant about whom no placement rule speaks (not solo)."""
    targets = free_home_targets(home)
    state: GameState = game.state
    n = len(state.players)
    loc: LocationState
    for loc in state.in_play:
        if loc.resolved:
            continue
        found = loc.open_targets.get(loc.held)  # ``targets_at``'s first step, inlined
        targets += found if found is not None else targets_at(game, loc, n)
    return targets


def placement_options(game: Game, seat: int) -> list[Option]:
    """``flow.placement_options``: for each assistant offered, ``(assistant, target)``
    for every target of ``game.board.placement_targets(seat, assistant)``, in its order.
    The targets are found once for every assistant about whom no placement rule
    speaks, and once for those whose rules say the same of every assistant."""
    player: PlayerState = game.state.players[seat]
    assistant: Assistant
    options: list[Option] = []
    general = None  # whether placement_targets is asked for every assistant (solo...)
    shared: list[Target] | None = None  # the targets when no rule speaks
    by_rules: dict[tuple[int, ...], list[Target]] = {}  # when rules say the same of each
    seen = 0  # standard assistants offered: 1 not placed this round, 2 placed again
    for assistant in player.assistants:
        if assistant.location is not None or assistant.home_index is not None:
            continue  # not available
        if general is None:
            game.triggers.sources()  # the priority order as of this turn (sorts are stable)
            general = game.n_players == 1 or game.board.artifacts_rule()
        if assistant.kind == "standard":
            # standard assistants are alike, except that one placed earlier this round
            # (and sent back) does not count again at the Diviner's Hut (LOC-01-5)
            flag = 2 if assistant.id in player.placed_this_round else 1
            if seen & flag:
                continue
            seen |= flag
        rules = None if general or not game.triggers.rules_apply(assistant) \
            else rules_about(game, assistant)
        if general:
            targets = game.board.placement_targets(seat, assistant)
        elif rules is not None and not rules.silent_for_turn():
            key = rules.signature
            found = by_rules.get(key) if key is not None else None
            if found is None:
                found = game.board.targets_under(rules, seat, assistant)
                if key is not None:
                    by_rules[key] = found
            targets = found
        else:  # no rule speaks: the targets of every such assistant
            if shared is None:
                shared = _open_targets_of(game, player.home)
            targets = shared
        options += zip(repeat(assistant), targets)
    return options
