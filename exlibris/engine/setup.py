"""The table every game starts from, built in one place for new games and scenarios.

``flow.new_game`` deals a random setup onto it (SETUP-01..12); ``scenario/position.py``
lays a written position onto it. What every game needs whatever its start (the
state and its players, the categories, the content the game looks things up in,
the variant's scoring rules, the solo state) is wired here: a new piece of setup
is added to :func:`build_table`, and both kinds of game have it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from exlibris.catalog import Catalog
from exlibris.dsl.values import CategoryValue
from exlibris.engine.decisions import Agent
from exlibris.engine.events import EventLog
from exlibris.engine.game import Game
from exlibris.engine.house_rules import house_scores
from exlibris.engine.solo import SoloState
from exlibris.engine.state import Assistant, GameState, PlayerState
from exlibris.model.cards import ArtifactCard
from exlibris.model.content import Location, SpecialAssistant
from exlibris.model.rules import Settings
from exlibris.model.shelf import ShelfRules
from exlibris.scoring.settings import ScoringRules


def build_table(catalog: Catalog, settings: Settings, agents: Sequence[Agent], *, seed: int,
                names: Sequence[str], variant: str = "standard",
                log: EventLog | None = None, views: Any = None) -> Game:
    """A game with one seat per agent and nothing dealt: no card, tile or assistant
    is anywhere yet (see :func:`seat_assistants` and :func:`finish_table`)."""
    n = len(agents)
    shelf_rules = ShelfRules(removal_may_split=bool(settings.rulings.get("removal_may_split")))
    state = GameState(players=[PlayerState(i, names[i], shelf_rules) for i in range(n)],
                      rng=random.Random(seed))
    categories = {c.id: CategoryValue(c.id, c.code, c.name) for c in catalog.categories}
    game = Game(state, settings, agents, categories, log=log, views=views)
    game.variant = variant
    game.seed = seed
    game.artifact_specs = dict(catalog.artifacts)
    game.assistant_cards = dict(catalog.assistants)
    game.location_specs = module_locations(catalog, settings)
    game.scoring = scoring_rules(settings.scoring, n)
    if any(ability.score for ability in settings.abilities):  # the house rules line
        house = house_scores(settings.abilities, variant)
        game.scoring = replace(game.scoring, house_scores=house)
    if settings.solo is not None:
        game.solo = SoloState(difficulty=settings.solo.difficulty)
    for agent in agents:  # an agent that searches forks of the game is handed it
        sit_at = getattr(agent, "sit_at", None)
        if sit_at is not None:
            sit_at(game)
    return game


_SCORING: dict[tuple[int, int], tuple[Any, Any, ScoringRules]] = {}


def scoring_rules(mapping: Any, players: int) -> ScoringRules:
    """``ScoringRules.from_settings(mapping, players=players)``, worked out once per
    mapping and player count (a frozen value; kept while the mapping stays equal to
    the copy taken when it was worked out)."""
    found = _SCORING.get((id(mapping), players))
    if found is None or found[0] is not mapping or found[1] != mapping:
        found = (mapping, copy.deepcopy(mapping),
                 ScoringRules.from_settings(mapping, players=players))
        _SCORING[(id(mapping), players)] = found
    return found[2]


def module_locations(catalog: Catalog, settings: Settings) -> dict[str, Location]:
    """The location tiles of the base game and of the variant's modules, by id."""
    modules = {"base", *settings.modules}
    return {loc.id: loc for loc in catalog.locations.values() if loc.module in modules}


def seat_assistants(seat: int, specials: Sequence[SpecialAssistant], standard: int
                    ) -> list[Assistant]:
    """A seat's assistant tokens: its special assistants first, then ``standard``
    standard ones (ids ``0:mummy``, ``0:standard-1``; a second token of one special
    assistant is ``0:mummy-2``)."""
    made: list[Assistant] = []
    for spec in specials:
        aid = f"{seat}:{spec.id}"
        if any(a.id == aid for a in made):
            aid += f"-{len(made) + 1}"
        made.append(Assistant(aid, seat, spec))
    return made + [Assistant(f"{seat}:standard-{i + 1}", seat) for i in range(standard)]


def finish_table(game: Game) -> None:
    """Once every card is placed: artifacts' abilities are looked for when the
    Artifactorium is in play or an artifact card is anywhere."""
    where = game.state.cards.zone_of
    game.has_artifacts = "artifactorium" in game.settings.modules or any(
        where(card) is not None for card in ArtifactCard.made())
