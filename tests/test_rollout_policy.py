"""The search's rollout policies (``agents/rollout.py``) score a fork's placements on
the engine's own pairs, and describe only the sample of a rework they weigh: the same
worths, and the same choices, as the greedy bot reading the options' descriptors."""

from __future__ import annotations

from typing import Any

import pytest

from exlibris.agents import GreedyAgent
from exlibris.agents.rollout import REWORK_SAMPLE, _Options, place, weigh_sample
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings

CATALOG = load_catalog()


class Probe(GreedyAgent):
    """Greedy play; at each placement and large rework, the rollout policy's way of
    weighing it is set against the greedy bot's."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.placements = 0
        self.reworks = 0

    def decide(self, view: Any, decision: Decision) -> int:
        if decision.kind is DecisionKind.PLACE:
            self.placements += 1
            assert self.placements_scored(view, decision.handles) == \
                self.place_scores(view, decision)
            state = self.rng.getstate()
            chosen = place(self, view, decision)
            self.rng.setstate(state)
            assert chosen == self._place(view, decision)
            self.rng.setstate(state)
        elif decision.kind is DecisionKind.REARRANGE and len(decision) > REWORK_SAMPLE:
            self.reworks += 1
            state = self.rng.getstate()
            chosen = weigh_sample(self, view, decision, REWORK_SAMPLE)
            self.rng.setstate(state)  # the same sample, of the options' descriptors
            drawn = sorted(self.rng.sample(range(len(decision)), REWORK_SAMPLE))
            sample = _Options([decision.values[i] for i in drawn])
            assert chosen == drawn[self._rearrange(view, sample)]  # type: ignore[arg-type]
            self.rng.setstate(state)
        return super().decide(view, decision)


@pytest.mark.parametrize(("variant", "players"), [
    ("standard", 2), ("standard", 4), ("artifactorium", 3), ("job-faire", 3),
    ("expanded", 2), ("solo", 1)])
def test_rollouts_weigh_the_engine_s_options_as_the_greedy_bot_their_descriptors(
        variant: str, players: int) -> None:
    settings = resolve_settings(variant, CATALOG.variants)
    placements = reworks = 0
    for seed in range(2):
        seats = [Probe(seed * 10 + i) for i in range(players)]
        play(new_game(CATALOG, settings, seats, seed=seed, views=player_view,
                      variant=variant))
        placements += sum(seat.placements for seat in seats)
        reworks += sum(seat.reworks for seat in seats)
    assert placements
    if variant == "standard" and players == 4:
        assert reworks  # the Librarians' Lodge, say

