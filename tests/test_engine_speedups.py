"""The engine's fast paths give the answers of the general code they stand in for.

* a placement rule starting ``placing == this and`` is recognised (and skipped for
  other assistants), and no other rule is;
* ``Shelf`` trials: a refused shift or re-shelve changes nothing (the shelf verbs
  reuse one trial copy until a trial succeeds);
* placement (``engine/placement.py``): a rule's condition split into parts marked
  with what they read; the options offered at every placement turn of whole games,
  kept targets and kept rule values included, are the ones a plain evaluation finds;
  an auction's kept bids follow its display.
"""

from __future__ import annotations

from typing import Any

import pytest

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.dsl.parser import parse_rule
from exlibris.engine import flow
from exlibris.engine.abilities import _placing_is_this, abilities_of
from exlibris.engine.decisions import Decision
from exlibris.engine.game import Game
from exlibris.engine.placement import targets_at
from exlibris.engine.rule_parts import LOCATION, SPACE, TURN, rule_parts
from exlibris.engine.solo import blocked as solo_blocked
from exlibris.engine.state import Assistant, LocationState, Space
from exlibris.engine.targets import Target
from exlibris.engine.triggers import Triggers
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.model.shelf_errors import ShelfError
from exlibris.validation import resolve_settings


@pytest.mark.parametrize("text, own", [
    ("deny if placing == this and target == @diviners-hut", True),
    ("share if this == placing and target.instant and count(occupant) > 0", True),
    ("deny if this.at_location and target == this.location and target.instant", False),
    ("deny if placing == this or target.instant", False),
    ("deny if target.instant and placing == this", False),
])
def test_own_only_rules_are_recognised(text: str, own: bool) -> None:
    assert _placing_is_this(parse_rule(text).condition) is own


def _shelf(cells: list[tuple[int, int]]) -> Shelf:
    return Shelf.from_slots({pos: Slot(BookCard("ABCDEFGHIJKLMNOP"[i], 1, ("C",)))
                             for i, pos in enumerate(cells)})


@pytest.mark.parametrize("cells", [
    [(0, 0), (0, 1), (0, 2), (1, 1)],
    [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2)],
    [(2, 0), (2, 1), (2, 2), (2, 3), (1, 1), (0, 1), (1, 3)],
])
def test_refused_shelf_operations_change_nothing(cells: list[tuple[int, int]]) -> None:
    shelf = _shelf(cells)
    before = shelf.snapshot()
    refused = 0
    for row in range(-1, 4):
        for first in range(-1, 4):
            for last in range(first, 4):
                for distance in (-3, -2, -1, 1, 2, 3):
                    trial = shelf.copy()
                    try:
                        trial.shift_run(row, first, last, distance)
                    except ShelfError:
                        refused += 1
                        assert trial.snapshot() == before
    for src in cells:
        for dst in [(r, c) for r in range(-1, 4) for c in range(-1, 5)]:
            trial = shelf.copy()
            try:
                trial.reshelve(src, dst)
            except ShelfError:
                refused += 1
                assert trial.snapshot() == before
    assert refused > 0 and shelf.snapshot() == before


# ---------------------------------------------------------------- placement
@pytest.mark.parametrize("text, levels", [
    ("deny if this.at_location and target == this.location and target.instant",
     [TURN, LOCATION, LOCATION]),
    ("deny if placing == this and target == @diviners-hut", [TURN, LOCATION]),
    ("share if placing == this and target.instant and count(occupant) > 0 "
     "and occupant.owner != owner", [TURN, LOCATION, SPACE, SPACE]),
    ("deny if placing == this and count(target.assistants where it.owner != owner) > 0",
     [TURN, LOCATION]),
    ("deny if target == this.location or this.at_location", [LOCATION]),
    ("deny if target.name == \"x\" and space.index == 1", [LOCATION, SPACE]),
    ("deny if placing.owner.hired > 0 and count(assistants_here()) > 1", [TURN, SPACE]),
])
def test_rule_parts_say_what_each_conjunct_reads(text: str, levels: list[int]) -> None:
    parts = rule_parts(parse_rule(text).condition, "test")
    assert [p.level for p in parts] == levels


def _reference_targets(game: Game, seat: int, assistant: Assistant) -> list[Target]:
    """Board.placement_targets the plain way: every rule's whole condition asked at
    every space, nothing kept."""
    state = game.state
    n = len(state.players)
    ruled = [s for s in game.triggers.sources() if s.rules_about(assistant)]
    shares = any(s.shares for s in ruled)
    names = {"placing": assistant, "players": state.players,
             "prominent": game.by_code.get(state.prominent),
             "banned": game.by_code.get(state.banned or "")}

    def verdict(loc: LocationState, s: int, occupants: list[Assistant]) -> str | None:
        names.update(target=loc, space=Space(loc, s),
                     occupant=occupants[0] if occupants else None)
        for source in ruled:
            owner = game.player(source.owner)
            names.update(this=source.this, owner=owner)
            for rule in source.rules:
                if rule.condition(game.rt, owner, names):
                    return rule.kind
        return None

    targets = [Target(None, i) for i, a in enumerate(game.player(seat).home) if a is None]
    for loc in state.in_play:
        if loc.resolved or (n == 1 and any(a.owner == seat and a is not assistant
                                           for a in loc.assistants())):
            continue
        auction = loc.spec.auction
        present = loc.assistants()
        for s, least in enumerate(loc.spec.spaces):
            occupants = loc.spaces[s]
            # a space marked for more players is closed, solo too (PLACE-06)
            if least > n or (occupants and (auction is not None or not shares)):
                continue
            displaces = None
            bid = 0
            if auction is not None:
                bid = auction.bids[s] if s < len(auction.bids) else 0
                leader = max(present, key=lambda a: a.bid) if present else None
                lowest = min(present, key=lambda a: a.bid) if present else None
                if auction.style == "outbid":
                    if leader is not None and bid <= leader.bid:
                        continue
                    displaces = leader
                elif len(present) >= len(loc.area):
                    if lowest is None or bid <= lowest.bid:
                        continue
                    displaces = lowest
                if game.solo is not None and solo_blocked(game, loc, bid):
                    continue
            said = verdict(loc, s, occupants) if ruled else None
            if said == "deny":
                continue
            if not occupants:
                targets.append(Target(loc, s, bid, False, displaces))
            elif said == "share":
                targets.append(Target(loc, s, 0, True))
    return targets


def _reference_options(game: Game, seat: int) -> list[tuple[Assistant, Target]]:
    player = game.player(seat)
    options: list[tuple[Assistant, Target]] = []
    seen: set[bool] = set()
    for assistant in player.available():
        if assistant.kind == "standard":
            again = assistant.id in player.placed_this_round
            if again in seen:
                continue
            seen.add(again)
        options += [(assistant, t) for t in _reference_targets(game, seat, assistant)]
    return options


@pytest.mark.parametrize("variant, players, seeds", [
    ("standard", 2, range(12)), ("standard", 3, range(4)), ("standard", 4, range(3)),
    ("expanded", 2, range(3)), ("job-faire", 3, range(3)), ("artifactorium", 2, range(3)),
    ("solo", 1, range(3)),
])
def test_kept_placement_options_are_the_plain_ones(
        monkeypatch: pytest.MonkeyPatch, variant: str, players: int, seeds: range) -> None:
    """Every placement turn of whole games (special assistants with placement rules,
    auctions, modules, solo): the options offered, and every assistant's
    placement_targets, are what the plain way finds."""
    catalog = load_catalog()
    settings = resolve_settings(variant, catalog.variants)
    kept = flow.placement_options
    asked = []

    def checked(game: Game, seat: int) -> list[tuple[Assistant, Target]]:
        expected = _reference_options(game, seat)
        for assistant in game.player(seat).available():
            assert game.board.placement_targets(seat, assistant) == \
                _reference_targets(game, seat, assistant)
        options = kept(game, seat)
        assert options == expected
        asked.append(len(options))
        return options

    monkeypatch.setattr(flow, "placement_options", checked)
    for seed in seeds:
        game = flow.new_game(catalog, settings, [RandomAgent(seed * 10 + i)
                                                 for i in range(players)],
                             seed=seed, variant=variant)
        flow.play(game)
    assert asked and max(asked) > 1


def test_kept_bids_follow_the_display_of_a_capacity_auction() -> None:
    """At a capacity auction the bids open depend on how many cards are on display:
    the kept ones change when the display does, without a placement."""
    catalog = load_catalog()
    settings = resolve_settings("job-faire", catalog.variants)
    game = flow.new_game(catalog, settings, [RandomAgent(1), RandomAgent(2)], seed=3,
                         variant="job-faire")
    flow.preparation(game)
    loc = next(loc for loc in game.state.in_play
               if loc.spec.auction is not None and loc.spec.auction.style == "capacity")
    seat, assistant = 0, game.player(0).available()[0]
    while len(loc.assistants()) < len(loc.area):
        game.board.place(seat, assistant, targets_at(game, loc, 2)[0], visit=False)
        seat = 1 - seat
        assistant = game.player(seat).available()[0]
    seen = []
    for _ in range(2):  # a full display, then one card more
        kept = targets_at(game, loc, 2)
        assert kept == game.board._location_targets(loc, forced=False, rules=None)
        seen.append(kept)
        game.state.cards.move(game.state.assistant_deck.cards[-1], loc.area)
    assert seen[0] != seen[1]


class _CheckingCarriers:
    """A random seat that, at each of its decisions, holds the game's triggers to what
    they keep for speed: the carriers other than special assistants to those a fresh
    ``Triggers`` of the same game finds (its keeps empty), the abilities each event
    wakes to those the carriers give, and ``heard`` to every carrier's events."""

    def __init__(self, seed: int, game_ref: list[Game], checks: list[int]) -> None:
        self.inner = RandomAgent(seed)
        self.game_ref = game_ref
        self.checks = checks

    def decide(self, view: object, decision: Decision) -> int:
        if not self.game_ref:  # set-up, inside ``new_game``
            return self.inner.decide(view, decision)  # type: ignore[arg-type]
        game = self.game_ref[0]
        kept = game.triggers
        carriers = kept.sources()
        # the special assistants in the order of the turn's sort (``sources``)
        assert [s for s in carriers if isinstance(s.this, Assistant)] == kept._specials
        others = [s for s in carriers if not isinstance(s.this, Assistant)]
        fresh = [s for s in Triggers(game).sources() if not isinstance(s.this, Assistant)]
        assert _described(others) == _described(fresh)
        keys = {(ability.trigger.event, ability.trigger.mode)
                for spec in game.artifact_specs.values()
                for ability in abilities_of(spec.id, spec.abilities)
                if ability.trigger is not None}
        keys |= {key for source in carriers for key in source.wakes}
        keys |= {("no-such-event", "after"), ("placed", "instead"), ("take", "modify")}
        for event, mode in sorted(keys):
            listening = [s for s in carriers if (event, mode) in s.wakes]
            assert kept.heard(event, mode) or not listening
            if listening:
                expected = [(a, s) for s in listening for a in s.wakes[(event, mode)]
                            if kept._fits(a, s, actor=decision.seat, location=None,
                                          names=None)]
                assert _woken(kept.listeners(event, mode, actor=decision.seat)) == \
                    _woken(expected)
        self.checks.append(sum(isinstance(s.this, ArtifactCard) for s in carriers))
        return self.inner.decide(view, decision)  # type: ignore[arg-type]


def _described(carriers: list[Any]) -> list[tuple[int, int, int, list[Any]]]:
    return [(s.owner, id(s.this), s.order, sorted(s.wakes)) for s in carriers]


def _woken(found: list[Any]) -> list[tuple[str, int]]:
    return [(ability.key, id(source.this)) for ability, source in found]


@pytest.mark.parametrize("variant, players, seed", [
    ("expanded", 4, 1), ("artifactorium", 3, 2), ("solo-expanded", 1, 4)])
def test_kept_carriers_are_the_ones_found_afresh(variant: str, players: int,
                                                 seed: int) -> None:
    """With artifacts in the game, at every decision of a whole game: the carriers in
    priority order (special assistants, each shelf's face-up artifacts, the house
    rules) and the abilities each event wakes are those a fresh ``Triggers`` finds;
    an event it says none hears wakes none afresh; and checking changes no game."""
    from exlibris.engine.digest import state_digest

    catalog = load_catalog()
    settings = resolve_settings(variant, catalog.variants)
    digests = []
    checks: list[int] = []
    for checking in (False, True):
        ref: list[Game] = []
        agents: list[Any] = [_CheckingCarriers(seed * 10 + i, ref, checks) if checking
                             else RandomAgent(seed * 10 + i) for i in range(players)]
        game = flow.new_game(catalog, settings, agents, seed=seed, variant=variant)
        ref.append(game)
        flow.play(game)
        digests.append(state_digest(game))
    assert digests[0] == digests[1]
    assert checks and max(checks) >= 1  # artifacts came to a shelf
