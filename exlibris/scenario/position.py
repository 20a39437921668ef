"""Build a :class:`~exlibris.engine.game.Game` holding exactly a scenario's position.

Nothing is shuffled or dealt: the players, their libraries and assistants, hands,
shelves, the deck (top first), the discard pile, the locations in play with their
card areas, and the assistants already placed are put where the scenario says,
through the same state classes the engine's own setup (``flow.new_game``) uses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from exlibris.dsl.scoring import CategoryValue
from exlibris.engine.decisions import Agent
from exlibris.engine.events import EventLog
from exlibris.engine.game import Game
from exlibris.engine.state import Assistant, GameState, PlayerState
from exlibris.engine.zones import ShelfZone
from exlibris.model.cards import ArtifactCard, ResumeCard
from exlibris.scenario.assistants import CARD_PREFIX, matching, owned_kind
from exlibris.scenario.model import Scenario
from exlibris.scoring.settings import ScoringRules


def build_game(scenario: Scenario, agents: Sequence[Agent]) -> Game:
    """The scenario's starting position, with the event log on."""
    catalog = scenario.catalog
    settings = scenario.settings
    setup = scenario.setup
    state = GameState(players=[PlayerState(i, p.name) for i, p in enumerate(setup.players)],
                      rng=random.Random(scenario.seed))
    categories = {c.id: CategoryValue(c.id, c.code, c.name) for c in catalog.categories}
    game = Game(state, settings, agents, categories, log=EventLog(enabled=True))
    game.variant = scenario.rules  # type: ignore[attr-defined]
    game.seed = scenario.seed  # type: ignore[attr-defined]
    game.artifact_specs = dict(catalog.artifacts)
    game.assistant_cards = dict(catalog.assistants)
    modules = {"base", *settings.modules}
    game.location_specs = {  # type: ignore[attr-defined]
        loc.id: loc for loc in catalog.locations.values() if loc.module in modules
    } | {loc.id: catalog.locations[loc.id] for loc in setup.locations}
    game.scoring = ScoringRules.from_settings(  # type: ignore[attr-defined]
        settings.scoring, players=len(state.players))

    state.round = setup.round
    state.final_round = setup.final_round
    state.first_player = setup.first_player
    state.prominent = setup.prominent
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
        loc = game.bring_into_play(catalog.locations[entry.id])
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
        player.shelf = spec.shelf.copy()
        player.shelf_zone = ShelfZone(f"shelf:{seat}", seat, player.shelf)
        cards.put_shelf(player.shelf_zone)
        library = catalog.libraries[spec.library] if spec.library else None
        kinds = spec.assistants
        if kinds is None:
            kinds = ([library.assistant.id] if library and settings.setup.special_assistant
                     else []) + ["standard"] * settings.setup.standard_assistants
        specials = [k for k in kinds if k != "standard"]
        for k in specials:  # the special assistants first, as the library draft does
            if k.startswith(CARD_PREFIX):  # an Expanded Archives card, given directly:
                spec = catalog.assistants[owned_kind(k)]  # its card lies before the player
                cards.put(ResumeCard(spec.id), player.hires)
                player.hired += 1
            else:
                assert library is not None
                spec = library.assistant
            aid = f"{seat}:{spec.id}"
            if any(a.id == aid for a in player.assistants):
                aid += f"-{sum(a.spec is not None for a in player.assistants) + 1}"
            player.assistants.append(Assistant(aid, seat, spec))
        for i in range(kinds.count("standard")):
            player.assistants.append(Assistant(f"{seat}:standard-{i + 1}", seat))

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
        loc.spaces[s].append(assistant)
        assistant.location = loc
        assistant.space = s
        auction = loc.spec.auction
        assistant.bid = auction.bids[s] if auction and s < len(auction.bids) else 0
    if "artifactorium" in settings.modules or any(
            isinstance(card, ArtifactCard) for card in cards.where):
        game.has_artifacts = True  # shelved artifacts' abilities are looked for
    if settings.solo is not None:
        from exlibris.engine.solo import SoloState

        game.solo = SoloState(difficulty=setup.difficulty or settings.solo.difficulty,
                              public_focus=setup.public_focus,
                              form=list(reversed(setup.license_form)))
    game.event("scenario", name=scenario.name, players=[p.name for p in state.players])
    return game
