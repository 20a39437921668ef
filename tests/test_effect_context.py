"""The effect context: what each mark of time forgets, the step budget, the cause."""

from __future__ import annotations

import pytest

from exlibris.dsl.errors import EffectBudgetExceeded
from exlibris.engine.context import EffectContext
from exlibris.engine.state import Assistant

KEY = ("mummy@base#0", 1)


def used_everywhere(ctx: EffectContext) -> None:
    for span in ("turn", "round", "game"):
        ctx.used_for(span).add(KEY)
    ctx.skip.add(7)
    ctx.steps = 5


def test_each_mark_forgets_only_its_own_span() -> None:
    ctx = EffectContext(max_steps=100)
    used_everywhere(ctx)
    ctx.new_turn()
    assert (ctx.used_this_turn, ctx.steps) == (set(), 0)
    assert KEY in ctx.used_this_round and KEY in ctx.used_this_game and ctx.skip == {7}
    used_everywhere(ctx)
    ctx.new_round()
    assert ctx.used_this_round == set()
    assert KEY in ctx.used_this_turn and KEY in ctx.used_this_game and ctx.steps == 5
    ctx.home_spaces_cleared()
    assert ctx.skip == set() and KEY in ctx.used_this_game
    used_everywhere(ctx)
    ctx.running.add(KEY)
    ctx.activating = 2
    ctx.new_game()
    assert not (ctx.used_this_turn or ctx.used_this_round or ctx.used_this_game
                or ctx.skip or ctx.running or ctx.steps or ctx.activating)
    assert ctx.max_steps == 100


def test_used_for_names_the_span() -> None:
    ctx = EffectContext(max_steps=100)
    assert ctx.used_for("turn") is ctx.used_this_turn
    assert ctx.used_for("round") is ctx.used_this_round
    assert ctx.used_for("game") is ctx.used_this_game


def test_the_step_budget_stops_at_max_steps_and_a_new_turn_renews_it() -> None:
    ctx = EffectContext(max_steps=3)
    for _ in range(3):
        ctx.tick()
    with pytest.raises(EffectBudgetExceeded, match="more than 3 steps"):
        ctx.tick()
    ctx.new_turn()
    ctx.tick()
    assert ctx.steps == 1


def test_caused_by_restores_the_cause_even_on_error() -> None:
    ctx = EffectContext(max_steps=10)
    outer, inner = Assistant("0:a", 0), Assistant("1:b", 1)
    with ctx.caused_by(outer):
        assert ctx.cause is outer
        with pytest.raises(ValueError), ctx.caused_by(inner):
            assert ctx.cause is inner
            raise ValueError
        assert ctx.cause is outer
    assert ctx.cause is None
