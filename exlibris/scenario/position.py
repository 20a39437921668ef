"""Build a :class:`~exlibris.engine.game.Game` holding exactly a scenario's position.

Nothing is shuffled or dealt: the players, their libraries and assistants, hands,
shelves, the deck (top first), the discard pile, the locations in play with their
card areas, and the assistants already placed are put where the scenario says,
on the table the engine's own setup (``flow.new_game``) starts from
(``engine/setup.py: build_table``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from exlibris.engine.decisions import Agent
from exlibris.engine.events import EventKind, EventLog
from exlibris.engine.game import Game
from exlibris.engine.setup import build_table, finish_table, seat_assistants
from exlibris.engine.zones import ShelfZone
from exlibris.model.cards import ResumeCard
from exlibris.model.shelf import Shelf
from exlibris.scenario.assistants import CARD_PREFIX, TEMP_PREFIX, matching, owned_kind
from exlibris.scenario.model import Scenario


def build_game(scenario: Scenario, agents: Sequence[Agent], *, views: Any = None) -> Game:
    """The scenario's starting position, with the event log on (``views``: what builds a
    seat's view, for bot seats)."""
    catalog = scenario.catalog
    settings = scenario.settings
    setup = scenario.setup
    game = build_table(catalog, settings, agents, seed=scenario.seed,
                       names=[p.name for p in setup.players], variant=scenario.rules,
                       log=EventLog(enabled=True), views=views)
    game.location_specs |= {loc.id: catalog.locations[loc.id] for loc in setup.locations}
    state = game.state

    state.round = setup.round
    state.final_round = setup.final_round
    state.counters = dict(setup.counters)
    state.visits = {loc: list(seats) for loc, seats in setup.visits.items()}
    state.first_player = setup.first_player
    state.prominent = setup.prominent
    state.also_prominent = setup.also_prominent
    state.banned = setup.banned
    cards = state.cards
    for card in reversed(setup.deck):  # the top of a deck zone is its last card
        cards.put(card, state.deck)
    for card in setup.discard:
        cards.put(card, state.discard)
    for deck, listed in ((state.assistant_deck, setup.assistant_deck),
                         (state.artifact_deck, setup.artifact_deck)):
        for card in reversed(listed):
            cards.put(card, deck)
    for entry in setup.locations:
        loc = game.board.bring_into_play(catalog.locations[entry.id])
        loc.permanent = entry.permanent
        for card in entry.area:
            cards.put(card, loc.area)
    state.location_stack = list(reversed(setup.location_stack))  # popped from the end
    state.location_discard = list(setup.location_discard)

    for seat, (player, spec) in enumerate(zip(state.players, setup.players, strict=True)):
        player.library = spec.library
        player.focus = spec.focus
        for card in spec.hand:
            cards.put(card, player.hand)
        # the scenario's cells under the rules of this game's shelves
        player.shelf = Shelf.from_slots(spec.shelf.snapshot(), player.shelf.rules, check=False)
        player.shelf_zone = ShelfZone(f"shelf:{seat}", seat, player.shelf)
        cards.put_shelf(player.shelf_zone)
        library = catalog.libraries[spec.library] if spec.library else None
        kinds = spec.assistants
        if kinds is None:
            kinds = ([library.assistant.id] if library and settings.setup.special_assistant
                     else []) + ["standard"] * settings.setup.standard_assistants
        specials = []
        temps = []
        for k in kinds:
            if k == "standard":
                continue
            if k.startswith(TEMP_PREFIX):  # a temporary assistant: its card stays in the
                specials.append(catalog.assistants[owned_kind(k)])  # special assistant
                temps.append(specials[-1].id)  # deck (EXP-TEMP-01), dismissed after
                continue  # resolution
            if k.startswith(CARD_PREFIX):  # an Expanded Archives card, given directly:
                specials.append(catalog.assistants[owned_kind(k)])  # its card lies before
                cards.put(ResumeCard(specials[-1].id), player.hires)  # the player
                player.hired += 1
            else:
                assert library is not None
                specials.append(library.assistant)
        player.assistants += seat_assistants(seat, specials, kinds.count("standard"))
        state.temps += [a for a in player.assistants
                        if a.spec is not None and a.spec.id in temps]

    by_id = {loc.id: loc for loc in state.in_play}
    for placed in setup.placed:  # oldest first
        seat = setup.seat_of(placed.player)
        player = state.players[seat]
        assistant = next(a for a in matching(player.assistants, placed.assistant)
                         if a.available)
        state.placement_counter += 1
        assistant.placed_at = state.placement_counter
        player.placed_this_round.add(assistant.id)
        if placed.where.location is None:
            player.home[placed.where.space - 1] = assistant
            assistant.home_index = placed.where.space - 1
            continue
        loc = by_id[placed.where.location]
        s = placed.where.space - 1
        assistant.sharing_with = list(loc.spaces[s])
        loc.occupy(assistant, s)
        assistant.location = loc
        assistant.space = s
        auction = loc.spec.auction
        assistant.bid = auction.bids[s] if auction and s < len(auction.bids) else 0
    finish_table(game)
    if game.solo is not None:
        game.solo.difficulty = setup.difficulty or game.solo.difficulty
        game.solo.public_focus = setup.public_focus
        game.solo.form = list(reversed(setup.license_form))
    game.event(EventKind.SCENARIO, name=scenario.name, players=[p.name for p in state.players])
    return game
