"""Placement options, kept rather than rebuilt at every placement turn.

``flow.placement_options`` asks ``assistant_options`` for each assistant it offers;
the answer is ``Game.placement_targets`` paired with the assistant, found the short
way where nothing can differ:

* when no placement rule may speak about the assistant (``Game.rules_apply``) and
  no artifact carries one, each location keeps the assistant's options there
  (``LocationState.options``) until its spaces change (``occupy``, ``vacate``) or,
  at an auction, its display changes size; home options are home targets;
* when rules do speak, ``RuleMemo`` keeps, for one call of
  ``Game.placement_targets``, the value of each part of a rule's condition that
  reads only names fixed for the call (``placing``, ``this``, ``owner``...) or for
  the location (``target``): ``Game._rules_verdict`` evaluates the parts in order, as
  ``and`` does, and reads a kept value instead of evaluating it again. Nothing
  changes during the call, so a kept value is the one evaluating would give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from exlibris.engine.abilities import LOCATION, Source
from exlibris.engine.state import Assistant, LocationState
from exlibris.engine.targets import Target, home_target

if TYPE_CHECKING:
    from exlibris.engine.game import Game

Option = tuple[Assistant, Target]
# one rule that may speak, in priority order: its source, the source's owner, its
# kind, and its condition's parts as (level, handler, index of its kept value)
Check = tuple[Any, Any, str, tuple[tuple[int, Any, int], ...]]


class RuleMemo:
    """The placement rules that may speak about placing one assistant, in priority
    order (TIME-01), and the values of their condition parts kept during one call of
    ``Game.placement_targets`` (see ``Game._rules_verdict``)."""

    __slots__ = ("checks", "kept", "location", "location_slots", "names", "shares")

    def __init__(self, game: Game, placing: Assistant, ruled: list[Source]) -> None:
        state = game.state
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


def open_targets(loc: LocationState, n: int) -> list[Target]:
    """The open spaces of a location without an auction, for ``n`` players, kept by
    which spaces are held (Targets are values: the same ones serve again)."""
    found = loc.open_targets.get(loc.held)
    if found is None:
        found = loc.open_targets[loc.held] = [
            Target(loc, s) for s, least in enumerate(loc.spec.spaces)
            if not loc.held[s] and (least <= n or n == 1)]
    return found


def assistant_options(game: Game, seat: int, assistant: Assistant) -> list[Option]:
    """``(assistant, target)`` for every target of ``game.placement_targets(seat,
    assistant)``, in its order."""
    n = game.n_players
    if n == 1 or game.rules_apply(assistant) or game.artifacts_rule():
        return [(assistant, t) for t in game.placement_targets(seat, assistant)]
    options = [(assistant, home_target(i))
               for i, held in enumerate(game.state.players[seat].home) if held is None]
    for loc in game.state.in_play:
        if loc.resolved:
            continue
        found = loc.options.get(assistant)
        if found is None or loc.spec.auction is not None:
            found = _options_at(game, seat, assistant, loc, n)
        options += found
    return options


def _options_at(game: Game, seat: int, assistant: Assistant, loc: LocationState,
                n: int) -> list[Option]:
    """``assistant``'s options at ``loc`` when no rule speaks, kept in ``loc.options``."""
    if loc.spec.auction is None:
        targets = open_targets(loc, n)
    else:
        # an auction's targets also depend on how many cards are on display
        if loc.options_area != len(loc.area):
            loc.options.clear()
            loc.options_area = len(loc.area)
        found = loc.options.get(assistant)
        if found is not None:
            return found
        targets = game._location_targets(seat, assistant, loc, forced=False, rules=None)
    found = loc.options[assistant] = [(assistant, t) for t in targets]
    return found
