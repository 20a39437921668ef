"""Rules of the whole game that no scenario shows, checked on seeded engine games.

A scenario (``tests/test_scenarios.py``) starts from a position and runs a phase
or two. These tests cover what lies around the scenarios, and
``docs/rules-coverage.md`` cites them by clause:

* setup: the tiles, the first player, the library draft, assistants, categories
  and hands (SETUP-05..14, LIB-00-1);
* the round: the order of the phases, locations per round, the location stack's
  reshuffle, cleanup, the last round and the inspection (PREP-01..05, RES-01,
  CLEAN-01..04, FINAL-01..04, LOC-01-4, SCORE-00-1);
* placement: turn order, no pass, legal targets, home spaces (PLACE-01..05,
  HOME-01);
* the voluntary flips before the inspection (SCORE-00-2);
* the variants, the module thresholds and five players (VAR-*, EXP-FINAL-*,
  EXP-5P-*);
* the other reading of each ruling setting (``settings.rulings`` in
  ``rules/standard.yaml``), on a scenario written for that reading.

Every seat is a seeded random bot that sees the game itself (``views`` hands the
game to agents that ask for a view), so the checks can read the state at each
decision.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision
from exlibris.engine.events import EventLog
from exlibris.engine.flow import (
    NOT_PLAYABLE_YET,
    EndReason,
    cleanup,
    inspection,
    new_game,
    placement,
    play,
    preparation,
    resolution,
)
from exlibris.engine.game import Game, Target
from exlibris.model.cards import BookCard
from exlibris.scenario import load_scenario, run_scenario
from exlibris.validation import resolve_settings

CATALOG = load_catalog()
DECK_SIZE = 152
BASE_LOCATIONS = {loc.id for loc in CATALOG.locations.values() if loc.module == "base"}
CATEGORY_CODES = {c.code for c in CATALOG.categories}


def settings(variant: str = "standard", **rulings: Any) -> Any:
    resolved = resolve_settings(variant, CATALOG.variants)
    if rulings:
        resolved = resolved.model_copy(update={"rulings": {**resolved.rulings, **rulings}})
    return resolved


class Bot:
    """A seeded random bot for every seat that sees the game at each decision."""

    needs_view = True

    def __init__(self, seed: int, check: Callable[[Game, Decision], None] | None = None):
        self.rng = random.Random(seed)
        self.check = check
        self.asked: list[Decision] = []

    def decide(self, game: Game, decision: Decision) -> int:
        self.asked.append(decision)
        if self.check is not None:
            self.check(game, decision)
        return self.rng.randrange(len(decision.values))


def game_for(n: int, seed: int, variant: str = "standard", *, bot: Bot | None = None,
             log: EventLog | None = None, **rulings: Any) -> Game:
    bot = bot or Bot(seed)
    return new_game(CATALOG, settings(variant, **rulings), [bot] * n, seed=seed,
                    views=lambda game, seat: game, log=log, variant=variant)


def fill_shelf(game: Game, seat: int, count: int) -> None:
    """Shelve ``count`` deck cards for ``seat``, row by row, eight to a row."""
    state = game.state
    zone = state.players[seat].shelf_zone
    for i in range(count):
        state.cards.move(state.deck.cards[-1], zone, pos=(i // 8, i % 8))


# ---------------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_lays_out_the_game_as_the_rulebook_says(n: int) -> None:
    stacks = set()
    for seed in range(8):
        state = game_for(n, seed).state
        # SETUP-05: the Diviner's Hut face up for round 1, the 17 others in the stack
        assert [loc.id for loc in state.in_play] == ["diviners-hut"]
        assert not state.in_play[0].permanent
        assert sorted(state.location_stack) == sorted(BASE_LOCATIONS - {"diviners-hut"})
        stacks.add(tuple(state.location_stack))
        # SETUP-07, SETUP-08, LIB-00-1: one library each, its special assistant and
        # two standard assistants
        assert len({p.library for p in state.players}) == n
        for player in state.players:
            library = CATALOG.libraries[player.library]
            specials = [a.spec.id for a in player.assistants if a.spec is not None]
            assert specials == [library.assistant.id]
            assert sum(a.kind == "standard" for a in player.assistants) == 2
        # SETUP-10: prominent and banned differ
        assert {state.prominent, state.banned} <= CATEGORY_CODES
        assert state.prominent != state.banned
        # SETUP-11: a focus each, no two alike, never the prominent or banned one
        focuses = [p.focus for p in state.players]
        assert len(set(focuses)) == n
        assert not {state.prominent, state.banned} & set(focuses)
        # SETUP-12: six cards each, the rest is the deck
        assert [len(p.hand) for p in state.players] == [6] * n
        assert len(state.deck) == DECK_SIZE - 6 * n and not state.discard.cards
    assert len(stacks) > 1, "the location stack is shuffled"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_first_player_comes_from_the_seeded_rng(n: int) -> None:
    """SETUP-06: random, and the same seed gives the same first player."""
    firsts = [game_for(n, seed).state.first_player for seed in range(30)]
    assert set(firsts) == set(range(n))
    assert [game_for(n, seed).state.first_player for seed in range(30)] == firsts


@pytest.mark.parametrize("n", [2, 3, 4])
def test_libraries_are_drafted_in_reverse_turn_order(n: int) -> None:
    """SETUP-07: dealt two each; the first player's right-hand neighbour picks first."""
    for seed in range(6):
        bot = Bot(seed)
        state = game_for(n, seed, bot=bot).state
        drafts = [d for d in bot.asked if d.kind == "library"]
        first = state.first_player
        assert [d.seat for d in drafts] == [(first - k) % n for k in range(1, n + 1)]
        assert all(len(d.values) == 2 for d in drafts)
        assert len({lib.id for d in drafts for lib in d.values}) == 2 * n
        for d in drafts:
            assert state.players[d.seat].library in {lib.id for lib in d.values}


def test_no_hand_is_ever_capped() -> None:
    """SETUP-13."""
    game = game_for(2, 1)
    game.moves.draw(0, 40)
    assert len(game.player(0).hand) == 46


def test_an_empty_deck_gives_what_it_has_and_no_reshuffle_by_default() -> None:
    """SETUP-14 (b): draws and deals take what is left."""
    game = game_for(2, 3)
    state = game.state
    while len(state.deck) > 2:
        state.cards.move(state.deck.cards[-1], state.discard)
    assert len(game.moves.draw(0, 5)) == 2
    assert not state.deck.cards and len(state.discard) == DECK_SIZE - 12 - 2
    assert game.moves.deal_to(state.in_play[0].area, 3) == []


def test_the_reshuffle_setting_turns_the_discard_pile_into_a_deck() -> None:
    """SETUP-14 (a), ``settings.rulings.deck_runs_out: reshuffle``."""
    game = game_for(2, 3, deck_runs_out="reshuffle")
    state = game.state
    while len(state.deck) > 2:
        state.cards.move(state.deck.cards[-1], state.discard)
    assert len(game.moves.draw(0, 5)) == 5
    assert not state.discard.cards and len(state.deck) == DECK_SIZE - 12 - 5


def test_an_empty_deck_ends_the_game_only_under_its_setting() -> None:
    """SETUP-14: ``empty_deck_ends_game`` is a house rule, off in the standard rules
    (scenario ``cleanup-an-empty-deck-does-not-start-the-final-round``); here on."""
    game = game_for(2, 3, empty_deck_ends_game=True)
    state = game.state
    while state.deck.cards:
        state.cards.move(state.deck.cards[-1], state.discard)
    state.round = 1
    cleanup(game)
    assert state.final_round


# ---------------------------------------------------------------------------- rounds

PHASE_OF_EVENT = {"reveal-location": 0, "locations-reshuffled": 0, "deal": 0, "place": 1,
                  "resolve": 2, "discard-area": 2, "cleanup": 3, "final-round": 3}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rounds_run_their_phases_in_order_and_the_last_ends_in_the_inspection(n: int) -> None:
    """PREP-01, CLEAN-04, FINAL-03, FINAL-04, SCORE-00-1."""
    for seed in range(3):
        log = EventLog(enabled=True)
        outcome = play(game_for(n, seed, log=log))
        records = log.records
        starts = [i for i, r in enumerate(records) if r["event"] == "round"]
        assert [records[i]["round"] for i in starts] == list(range(1, outcome.rounds + 1))
        finals = [i for i, r in enumerate(records) if r["event"] == "final-round"]
        stalled = outcome.reason is EndReason.STALLED
        if stalled:  # the stuck-game guard ends the game after a cleanup (SETUP-14)
            assert not finals
            assert "game-stalled" in [r["event"] for r in records[starts[-1]:]]
        else:  # the final round is announced once, at the cleanup of the round before it
            assert len(finals) == 1 and starts[-2] < finals[0] < starts[-1]
        assert [records[i]["final"] for i in starts] == (
            [False] * len(starts) if stalled else [False] * (len(starts) - 1) + [True])
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(records)
            kinds = [r["event"] for r in records[start:end]]
            phases = [PHASE_OF_EVENT[kind] for kind in kinds if kind in PHASE_OF_EVENT]
            assert phases == sorted(phases), f"round {k + 1}: phases out of order"
            assert {1, 2} <= set(phases)
            # every round but the final one has a cleanup; the final one has none
            assert ("cleanup" in kinds) == (k + 1 < len(starts) or stalled)
        # the inspection follows the last Resolution Phase
        assert records[-1]["event"] == "inspection"
        assert max(i for i, r in enumerate(records) if r["event"] == "resolve") > starts[-1]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_locations_per_round_and_cleanup(n: int) -> None:
    """PREP-02..05, RES-01, PLACE-04, CLEAN-01..03, LOC-01-4, driven phase by phase."""
    for seed in range(3):
        log = EventLog(enabled=True)
        game = game_for(n, seed, log=log)
        state = game.state
        for r in range(1, 7):
            state.round = r
            before = len(log.records)
            preparation(game)
            temporary = [loc for loc in state.in_play if not loc.permanent]
            assert len(temporary) == n  # PREP-02
            assert len(state.in_play) == n + r - 1  # PREP-03, PREP-04
            if r == 1:
                assert "diviners-hut" in {loc.id for loc in temporary}  # PREP-03
            if any(rec["event"] == "locations-reshuffled" for rec in log.records[before:]):
                assert r > 1  # PREP-05: only once the stack has run out
            placement(game)
            assert not any(p.available() for p in state.players)  # PLACE-04, RES-01
            resolution(game)
            assert all(not loc.assistants() for loc in state.in_play)  # RES-03 step 3
            kept = min(temporary, key=lambda loc: loc.number)
            discarded_before = len(state.location_discard)
            cleanup(game)
            assert kept.permanent and kept in state.in_play  # CLEAN-01
            assert state.in_play[0].id == "diviners-hut" and state.in_play[0].permanent
            assert len(state.location_discard) == discarded_before + n - 1  # CLEAN-02
            assert all(a is None for p in state.players for a in p.home)  # CLEAN-03
            assert all(p.available() for p in state.players)
        if n == 4:  # 17 tiles, 3 + 4 + 4 + 4 revealed by round 4: round 5 reshuffles
            assert any(rec["event"] == "locations-reshuffled" for rec in log.records)


@pytest.mark.parametrize(("variant", "n", "threshold"), [
    ("standard", 2, 16), ("standard", 3, 14), ("standard", 4, 12),  # FINAL-01
    ("longer", 2, 19), ("longer", 3, 17), ("longer", 4, 15),  # VAR-LONG-1
    ("job-faire", 2, 18), ("artifactorium", 4, 14),  # EXP-FINAL-01
    ("five-player", 5, 10), ("artifactorium", 5, 12),  # EXP-FINAL-02 (a), EXP-FINAL-01
])
def test_the_final_round_threshold(variant: str, n: int, threshold: int) -> None:
    """FINAL-01, FINAL-02: checked at cleanup, on the shelf card count."""
    for cards, final in ((threshold - 1, False), (threshold, True)):
        if set(settings(variant).modules) & set(NOT_PLAYABLE_YET):
            # the engine refuses to play these modules yet; their thresholds are rules
            # data, checked on a game that uses them (EXP-FINAL-01)
            game = game_for(n, 1, "five-player" if n == 5 else "standard")
            game.settings = game.settings.model_copy(
                update={"final_round": settings(variant).final_round})
        else:
            game = game_for(n, 1, variant)
        game.state.round = 1
        fill_shelf(game, n - 1, cards)
        assert not game.state.final_round  # shelving changes nothing until cleanup
        cleanup(game)
        assert game.state.final_round is final, (variant, n, cards)


# ---------------------------------------------------------------------------- placement


class PlacementWatch:
    """Checks every placement decision of one game against the rulebook."""

    def __init__(self, every_space_open: bool = False) -> None:
        self.round = 0
        self.last = 0
        self.turns = 0
        self.every_space_open = every_space_open

    def __call__(self, game: Game, decision: Decision) -> None:
        state = game.state
        if decision.kind != "place" or decision.prompt != "place an assistant":
            return
        n = len(state.players)
        player = state.players[decision.seat]
        self.turns += 1
        # PLACE-01: from the first player, clockwise; PLACE-04: seats with no
        # assistant left are skipped
        start = state.first_player if state.round != self.round else (self.last + 1) % n
        self.round = state.round
        expected = next(s for s in state.seats_from(start) if state.players[s].available())
        assert decision.seat == expected
        self.last = decision.seat
        options: list[tuple[Any, Target]] = list(decision.handles)
        # PLACE-05: every option places an assistant; there is no pass
        assert options and all(isinstance(t, Target) for _, t in options)
        assert all(label.startswith("place ") for label in decision.labels)
        # PLACE-03: each kind of available assistant may be placed
        assert {a.kind for a, _ in options} == {a.kind for a in player.available()}
        # HOME-01: three home spaces, the player's own empty ones are offered
        assert len(player.home) == 3
        homes = {t.space for _, t in options if t.location is None}
        assert homes == {i for i, a in enumerate(player.home) if a is None}
        # PLACE-02, PLACE-06: spaces of locations in play, usable at this player count
        for _, target in options:
            if target.location is not None:
                assert target.location in state.in_play and not target.location.resolved
                assert target.location.spec.spaces[target.space] <= n
        if self.every_space_open:
            # with no special assistant, every empty space usable at this count is
            # offered (an auction takes only a higher bid)
            offered = {(id(t.location), t.space) for _, t in options if t.location}
            for loc in state.in_play:
                for s, least in enumerate(loc.spec.spaces):
                    if least <= n and not loc.spaces[s] and loc.spec.auction is None:
                        assert (id(loc), s) in offered, (loc.id, s)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_placement_turns_targets_and_home_spaces(n: int) -> None:
    """PLACE-01..06, HOME-01, over whole games."""
    for seed in range(4):
        watch = PlacementWatch()
        play(game_for(n, 50 + seed, bot=Bot(seed, watch)))
        assert watch.turns >= 3 * n


@pytest.mark.parametrize("n", [2, 3, 4])
def test_without_special_assistants_every_open_space_is_offered(n: int) -> None:
    """PLACE-02, PLACE-06 in the Beginner game with every location (no placement rules)."""
    for seed in range(3):
        watch = PlacementWatch(every_space_open=True)
        play(game_for(n, 70 + seed, "beginner-all-locations", bot=Bot(seed, watch)))
        assert watch.turns >= 3 * n


# ---------------------------------------------------------------------------- inspection


class Answers:
    """Answers by label, from a list per seat."""

    needs_view = False

    def __init__(self, answers: dict[int, list[str]]) -> None:
        self.answers = answers

    def decide(self, view: Any, decision: Decision) -> int:
        return decision.index_of(self.answers[decision.seat].pop(0))


@pytest.mark.parametrize(("answers", "flipped_by_a1", "face_down"), [
    (["flip nothing"], ("M3",), [False, False, False]),
    (["choose cards to flip", "flip M8", "done"], (), [True, False, False]),
])
def test_voluntary_flips_come_before_the_inspection(answers: list[str],
                                                    flipped_by_a1: tuple[str, ...],
                                                    face_down: list[bool]) -> None:
    """SCORE-00-2, and the rulebook's example (SCORE-A1-5) played through the engine:
    a voluntary flip turns the card face down on the shelf; A1's flips are the form's."""
    agent = Answers({0: list(answers)})
    game = new_game(CATALOG, settings(), [Bot(0), Bot(1)], seed=4)
    game.agents = [agent, agent]
    state = game.state
    piles = [state.deck, *(p.hand for p in state.players)]  # wherever the seed dealt them
    by_name = {c.name: c for pile in piles for c in pile.cards if isinstance(c, BookCard)}
    for col, name in enumerate(["M8", "M3", "N3"]):
        state.cards.move(by_name[name], state.players[0].shelf_zone, pos=(0, col))
    result = inspection(game)  # Bob's shelf is empty: he is not asked
    assert agent.answers[0] == []
    assert result.forms[0].flipped == flipped_by_a1
    shelf = state.players[0].shelf
    assert [shelf.at((0, col)).face_down for col in range(3)] == face_down


# ---------------------------------------------------------------------------- variants


@pytest.mark.parametrize("n", [2, 3, 4])
def test_beginner_game(n: int) -> None:
    """VAR-BEG-1: one library, no special assistant, three standard assistants;
    VAR-BEG-2: six tiles out, or none in ``beginner-all-locations``."""
    removed = set(settings("beginner").setup.remove_locations)
    assert len(removed) == 6
    for variant, out in (("beginner", removed), ("beginner-all-locations", set())):
        bot = Bot(n)
        game = game_for(n, 11, variant, bot=bot)
        state = game.state
        assert not [d for d in bot.asked if d.kind == "library"]  # nothing to choose
        for player in state.players:
            assert [a.kind for a in player.assistants] == ["standard"] * 3
        tiles = {loc.id for loc in state.in_play} | set(state.location_stack)
        assert tiles == BASE_LOCATIONS - out
        assert play(game).rounds >= 2


def test_friendlier_game() -> None:
    """VAR-FRI-1, VAR-FRI-2: four tiles and four libraries out; at four players the
    eight libraries left are exactly the ones dealt."""
    setup = settings("friendlier").setup
    libraries = set(CATALOG.libraries) - set(setup.remove_libraries)
    assert len(setup.remove_locations) == 4 and len(libraries) == 8
    for seed in range(4):
        bot = Bot(seed)
        game = game_for(4, seed, "friendlier", bot=bot)
        dealt = {lib.id for d in bot.asked if d.kind == "library" for lib in d.values}
        assert dealt == libraries
        tiles = {loc.id for loc in game.state.in_play} | set(game.state.location_stack)
        assert tiles == BASE_LOCATIONS - set(setup.remove_locations)
        assert play(game).rounds >= 2


def test_five_players() -> None:
    """EXP-5P-05: no banned card, so one prominent and five focuses; EXP-5P-07: every
    space of every location is open; the game plays to the end."""
    for seed in range(3):
        bot = Bot(seed)
        game = game_for(5, seed, "five-player", bot=bot)
        state = game.state
        assert state.banned is None
        assert {state.prominent, *(p.focus for p in state.players)} == CATEGORY_CODES
        play(game)
        for decision in bot.asked:
            if decision.kind == "place":
                assert all(t.location is None or t.location.spec.spaces[t.space] <= 5
                           for _, t in decision.handles)
    assert all(least <= 5 for loc in CATALOG.locations.values() for least in loc.spaces)


# ---------------------------------------------------------------------------- settings

# Each case: a scenario written for the other reading of one ruling setting, run
# with that setting changed. The shipped scenarios show the standard readings.
OTHER_READINGS: dict[str, tuple[dict[str, Any], str]] = {
    "LOC-01-5 (b): the Diviner's Hut counts placements": ({"diviner_counts": "placements"}, """\
setup:
  players:
    - {name: Ann, library: garden-of-education, assistants: [standard]}
    - {name: Bob, library: igloo-of-information}
  deck: [A1, B1, C1]
  locations:
    - diviners-hut
    - {id: auction-house, area: [D1, D2, D3]}
script:
  - Ann: place standard assistant at Auction House (#3) bidding 1
  - Bob: place standard assistant at Auction House (#3) bidding 2
  - Ann: place standard assistant (placed again) at Diviner's Hut (#1) space 1
expect:
  hands: {Ann: [A1, B1]}
"""),
    "LOC-01-6 (b): the new first player takes over at once": (
        {"first_player_takes_effect": "immediately"}, """\
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: igloo-of-information, assistants: [standard]}
  first_player: Bob
  deck: [B1, C1, D1]
  locations: [diviners-hut]
  placed:
    - Bob standard at home 1
script:
  - Ann: place standard assistant at Diviner's Hut (#1) space 1
expect:
  first_player: Ann
"""),
    "LOC-13-5 (a): the Mystery Shack takes every match": ({"mystery_shack_takes": "all"}, """\
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: igloo-of-information}
  locations:
    - diviners-hut
    - {id: mystery-shack, area: [A1, B4, C6, D1]}
script:
  - Ann: place standard assistant at Mystery Shack (#13) space 1
  - name Monster Manuals
  - done
expect:
  hands: {Ann: [B4, C6, D1]}
  areas: {mystery-shack: [A1]}
"""),
    "LOC-15-6 (b): the Guild's move is no visit": ({"guild_move_is_visit": False}, """\
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: forest-repository}
  locations:
    - diviners-hut
    - {id: rummage-sale, area: [A1, B1, C1]}
    - assistants-guild
  placed:
    - Bob standard at rummage-sale space 1
    - Bob sasquatch at rummage-sale space 2
    - Ann standard at home 1
script:
  - Ann: place standard assistant at Assistants Guild (#15) space 1
  - Ann: choose Rummage Sale space 1
  - Ann: take A1
  - Ann: take B1
  - Ann: done
expect:
  hands: {Ann: [A1, B1]}
  assistants: [Bob sasquatch at rummage-sale space 2]
"""),
    "LOC-16-5 (b): the Tax Collector's visitor discards into the area": (
        {"tax_collector_own_discards": "area"}, """\
setup:
  players:
    - {name: Ann, library: garden-of-education, hand: [C1, C2], shelf: [D1]}
    - {name: Bob, library: igloo-of-information, hand: [A2]}
  locations: [diviners-hut, tax-collector]
script:
  - Ann: place standard assistant at Tax Collector (#16) space 1
  - Ann: discard C1
  - Ann: take A2
  - Ann: done
expect:
  hands: {Ann: [C2, A2]}
  areas: {tax-collector: [C1]}
  discard: []
"""),
    "HOME-06 (a): both home actions draw first": ({"home_actions_order": "draw-first"}, """\
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: dungeon-of-deep-thought, hand: [A2]}
  deck: [B1, B2]
  locations:
    - diviners-hut
    - {id: book-seller, area: [C1, D1]}
  placed:
    - Bob gelatinous-cube at book-seller space 1
script:
  - Ann: place standard assistant at Book Seller (#10) space 2
  - Bob: shelve A2
expect:
  hands: {Bob: [B1]}
  shelves: {Bob: [A2]}
"""),
    "SETUP-14 (a): an empty deck is refilled from the discard pile": (
        {"deck_runs_out": "reshuffle"}, """\
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: igloo-of-information}
  discard: [A1]
  locations: [diviners-hut, wishing-well]
script:
  - Ann: place standard assistant at Wishing Well (#6) space 1
  - Ann: done
expect:
  hands: {Ann: [A1]}
  discard: []
  deck: []
"""),
}


@pytest.mark.parametrize("case", sorted(OTHER_READINGS))
def test_the_other_reading_of_each_ruling_setting(case: str, tmp_path: Path) -> None:
    rulings, body = OTHER_READINGS[case]
    path = tmp_path / "reading.yaml"
    path.write_text(f"kind: scenario\nname: {json.dumps(case)}\n{body}", "utf-8")
    scenario = load_scenario(path)
    standard = run_scenario(scenario)
    assert not standard.passed, "the scenario must tell the two readings apart"
    scenario.settings = scenario.settings.model_copy(
        update={"rulings": {**scenario.settings.rulings, **rulings}})
    result = run_scenario(scenario)
    assert result.passed, result.difference


def test_removal_may_split_reaches_every_shelf() -> None:
    """SHELF-14: ``settings.rulings.removal_may_split`` becomes each shelf's rule."""
    for value in (False, True):
        game = game_for(2, 1, removal_may_split=value)
        assert all(p.shelf.rules.removal_may_split is value for p in game.state.players)


def test_a_module_the_engine_does_not_run_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module listed as not playable is refused with a clear error, never half-played."""
    from exlibris.engine import flow
    from exlibris.engine.game import RulesError

    monkeypatch.setitem(flow.NOT_PLAYABLE_YET, "artifactorium", "the Artifactorium module")
    with pytest.raises(RulesError, match="does not play yet"):
        game_for(2, 1, "artifactorium")


@pytest.mark.parametrize("variant", ["standard", "artifactorium", "expanded"])
def test_the_artifactorium_module_setup(variant: str) -> None:
    """EXP-SETUP-01/10/13: with the module, the 18 artifacts are shuffled into a deck, the
    Artifactorium is in play from round 1 outside the count, the Black Market is in the
    location stack; without it, none of them."""
    game = game_for(3, 5, variant)
    state = game.state
    module = variant != "standard"
    deck = [c.artifact_id for c in state.artifact_deck.cards]
    assert sorted(deck) == (sorted(CATALOG.artifacts) if module else [])
    assert (deck != sorted(deck)) is module  # shuffled
    in_play = {loc.id: loc.permanent for loc in state.in_play}
    assert in_play.get("artifactorium-tile") is (True if module else None)
    assert ("black-market" in state.location_stack) is module
    assert game.has_artifacts is module


def test_an_optional_step_says_what_it_offers() -> None:
    """A 'may' decision names its steps, not a line number."""
    from exlibris.dsl import parse_program
    from exlibris.engine.runtime import describe_steps

    def says(source: str) -> str:
        return describe_steps(parse_program(source).body[0].body)

    assert says("may:\n  skip_location()\n  both_home_actions()\n  may:\n    draw(1)\n") \
        == "take both home actions"
    assert says("may return_assistant(this)\n") == "take the assistant back"
    assert says("may:\n  gone = discard(1, from: hand)\n  draw(2)\n") \
        == "discard 1 card, then draw 2 cards"
    assert says("may:\n  pay(2, from: hand)\n  take(1, from: discard_pile)\n") \
        == "pay 2 cards, then take 1 card"
    assert says("may:\n  draw(count(hand))\n") == "draw"


def test_a_reshuffle_leaves_discarded_artifacts_in_the_pile() -> None:
    """EXP-ARTF-05 with SETUP-14 (a): artifacts never enter the book deck."""
    game = game_for(2, 3, "artifactorium", deck_runs_out="reshuffle")
    state = game.state
    for card in list(state.deck.cards):
        state.cards.move(card, state.discard)
    relic = state.artifact_deck.cards[-1]
    state.cards.move(relic, state.discard)
    game.moves.refill_deck()
    assert list(state.discard.cards) == [relic]
    assert state.deck.cards and relic not in state.deck


def test_a_shelved_artifact_with_a_rule_about_others_speaks_about_any_placement() -> None:
    """Source.rules_about: an artifact has no 'available'; once it is a source (on a
    shelf, face up) it is present, so a rule of it that is not about itself applies."""
    from exlibris.engine.abilities import Source
    from exlibris.engine.state import Assistant
    from exlibris.model.cards import ArtifactCard

    placing = Assistant("standard-1", 0)
    artifact = Source(0, ArtifactCard("a-rule-giving-artifact"), (), 0,
                      has_rules=True, rules_for_others=True)
    assert artifact.rules_about(placing)
    assert not Source(0, ArtifactCard("another"), (), 0).rules_about(placing)
