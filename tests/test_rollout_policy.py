"""The search's rollout policies (``agents/rollout.py``) score a fork's placements on
the engine's own pairs, and describe only the sample of a rework they weigh: the same
worths, and the same choices, as the greedy bot reading the options' descriptors."""

from __future__ import annotations

import contextlib
from dataclasses import replace
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



CELLS_CHECKED = 1500  # a whole game of the search in the Artifactorium gives about 4,900


class Enough(Exception):
    """Raised by a probe to end a game once it has checked enough."""


@pytest.mark.parametrize(("variant", "players"), [("standard", 2), ("artifactorium", 3)])
def test_a_cell_the_rollouts_remember_is_the_greedy_bot_s_cell(
        monkeypatch: pytest.MonkeyPatch, variant: str, players: int) -> None:
    """At every card a search's rollouts shelve (the first ``CELLS_CHECKED`` of a game),
    the cell the rollout policy gives, remembered or not, is the greedy bot's choice
    made afresh from the same generator state, which it leaves as the greedy bot does;
    and the play-outs meet some of those shelves again (the cell is then remembered,
    not weighed)."""
    from exlibris.agents import MctsAgent
    from exlibris.agents.rollout import RememberingGreedy

    position = RememberingGreedy.position
    met: list[bool] = []

    def checked(self: RememberingGreedy, view: Any, decision: Decision) -> int:
        if len(met) == CELLS_CHECKED:
            raise Enough
        state = self.rng.getstate()
        fresh = GreedyAgent._position(self, view, decision)
        after = self.rng.getstate()
        self.rng.setstate(state)
        remembered = len(self.cells)
        chosen = position(self, view, decision)
        met.append(len(self.cells) == remembered)
        assert chosen == fresh and self.rng.getstate() == after
        return chosen

    monkeypatch.setattr(RememberingGreedy, "position", checked)
    settings = resolve_settings(variant, CATALOG.variants)
    seats = [MctsAgent(3, iterations=24), *[GreedyAgent(i) for i in range(1, players)]]
    with contextlib.suppress(Enough):
        play(new_game(CATALOG, settings, seats, seed=4, views=player_view, variant=variant))
    assert any(met) and not all(met)


def test_a_cell_is_remembered_apart_for_each_way_the_shelf_is_read() -> None:
    """The same shelf, card and cells read for another focus, prominent category or
    round is another question: the cell given for each is the greedy bot's for it (in
    these games each of the three changes the greedy bot's cell somewhere)."""
    from dataclasses import replace

    from exlibris.agents.rollout import RememberingGreedy

    ways = {"focus": tuple("CFHMRS"), "prominent": tuple("CFHMRS"),
            "final_round": (False, True)}
    differed = dict.fromkeys(ways, 0)

    class Asker(GreedyAgent):
        def decide(self, view: Any, decision: Decision) -> int:
            if decision.kind is DecisionKind.POSITION and len(decision) > 2:
                for field, values in ways.items():
                    policy, greedy = RememberingGreedy(1), GreedyAgent(1)
                    cells = set()
                    for value in values:
                        other = replace(view, **{field: value})
                        greedy.rng.setstate(policy.rng.getstate())  # a tie: the same draw
                        fresh = greedy._position(other, decision)
                        assert policy.position(other, decision) == fresh, field
                        cells.add(fresh)
                    differed[field] += len(cells) > 1
            return super().decide(view, decision)

    settings = resolve_settings("standard", CATALOG.variants)
    for seed in range(6):
        play(new_game(CATALOG, settings, [Asker(1), Asker(2)], seed=seed, views=player_view))
    assert all(differed.values()), differed


def test_a_shift_or_rework_the_rollouts_weighed_before_is_the_greedy_bot_s_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every shift and rework of greedy games, the solo rollouts' policy (which keeps
    the moves' worths by the shelf's cells) chooses as the greedy bot does from the same
    generator state; read anew (other shelves read in between), the same shelf's moves
    are not weighed again, and the choice is the same."""
    from exlibris.agents.greedy import READINGS_KEPT
    from exlibris.agents.rollout import SamplingGreedy
    from exlibris.agents.worth import ShelfReading

    policy, greedy = SamplingGreedy(5, sample=0), GreedyAgent(5)
    asked = dict.fromkeys((DecisionKind.SHIFT, DecisionKind.REARRANGE), 0)

    class Asker(GreedyAgent):
        def decide(self, view: Any, decision: Decision) -> int:
            if decision.kind in asked and len(decision) > 1:
                asked[decision.kind] += 1
                greedy.rng.setstate(policy.rng.getstate())
                chosen = policy.decide(view, decision)
                assert chosen == greedy.decide(view, decision)
                others = [(focus, last) for focus in "CFHMRS" for last in (False, True)
                          if (focus, last) != (view.focus, view.final_round)]
                for focus, last in others[:READINGS_KEPT]:  # read otherwise: put by
                    policy.kept(replace(view, focus=focus, final_round=last))
                with monkeypatch.context() as patched:  # its moves' worths kept
                    patched.setattr(ShelfReading, "changed", _not_again)
                    patched.setattr(GreedyAgent, "_reworks", _not_again)
                    greedy.rng.setstate(policy.rng.getstate())
                    assert policy.decide(view, decision) == chosen
            return super().decide(view, decision)

    settings = resolve_settings("standard", CATALOG.variants)
    for seed in range(40):
        play(new_game(CATALOG, settings, [Asker(seed), Asker(seed + 1)], seed=seed,
                      views=player_view))
        if all(asked.values()):
            break
    assert all(asked.values()), asked


def _not_again(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("a move of this shelf weighed again")
