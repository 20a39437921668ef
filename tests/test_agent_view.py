"""Agents see only their player's view: decision values are public descriptors."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from pydantic import BaseModel

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import PlayerView, player_view
from exlibris.catalog import load_catalog
from exlibris.dsl.scoring import CategoryValue
from exlibris.engine.flow import new_game, play
from exlibris.engine.state import Assistant, LocationState, PlayerState, Space
from exlibris.engine.zones import Zone
from exlibris.validation import resolve_settings

LIVE = (PlayerState, LocationState, Assistant, Space, Zone)


def reachable(value: Any, depth: int = 0) -> list[Any]:
    """Everything reachable from a decision value through its fields."""
    found = [value]
    if depth > 4 or isinstance(value, BaseModel | str | int | CategoryValue):
        return found
    if isinstance(value, tuple | list):
        for item in value:
            found += reachable(item, depth + 1)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            found += reachable(getattr(value, f.name), depth + 1)
    return found


class Inspector:
    """A bot that checks what it is shown before answering like a greedy bot."""

    needs_view = True

    def __init__(self, seed: int) -> None:
        self.inner = GreedyAgent(seed)
        self.seen = 0

    def decide(self, view: PlayerView, decision: Any) -> int:
        assert isinstance(view, PlayerView)
        for value in decision.values:
            leaked = [v for v in reachable(value) if isinstance(v, LIVE)]
            assert leaked == [], (decision.kind, leaked[:1])
        self.seen += 1
        return self.inner.decide(view, decision)


@pytest.mark.parametrize("seed", range(6))
def test_no_live_engine_object_reaches_an_agent(seed: int) -> None:
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    inspector = Inspector(seed)
    agents = [inspector, RandomAgent(seed), RandomAgent(seed + 1)]
    play(new_game(catalog, settings, agents, seed=seed, views=player_view))
    assert inspector.seen > 50


def test_the_view_holds_no_other_hand_and_no_face_down_card() -> None:
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    game = new_game(catalog, settings, [RandomAgent(1), RandomAgent(2)], seed=3)
    view = player_view(game, 0)
    assert set(view.hand) == set(game.state.players[0].hand.cards)
    assert not hasattr(view.opponents[0], "hand") and view.opponents[0].hand_size == 6
    assert not hasattr(view, "deck") and view.deck_size == len(game.state.deck)


def test_a_view_is_the_value_its_class_builds_and_stays_frozen() -> None:
    """``player_view`` fills a view's fields at once: every field is set, the view equals
    one built by the dataclass itself, and it cannot be changed."""
    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    game = new_game(catalog, settings, [RandomAgent(1), RandomAgent(2), RandomAgent(3)], seed=4)
    view = player_view(game, 1)
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(PlayerView)}
    assert vars(view).keys() == fields.keys()
    assert view == PlayerView(**fields)
    for other in view.opponents:
        names = [f.name for f in dataclasses.fields(other)]
        assert list(vars(other)) == names
        assert other == type(other)(*(getattr(other, n) for n in names))
    assert [o.seat for o in view.opponents] == [0, 2]
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
