"""The public descriptors of decisions' options (``engine/public.py``): what its kept
descriptors give (by object, by value, a placement's pairs at once) is what describing
each option afresh gives, and a copy of the game (a search's fork) shows its copied
objects by the descriptors their originals had."""

from __future__ import annotations

from typing import Any

import pytest

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.engine.abilities import CompiledAbility, Source
from exlibris.engine.copying import _Copier
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.flow import new_game, play
from exlibris.engine.public import (
    PublicAbility,
    PublicAssistant,
    PublicLocation,
    PublicPlayer,
    PublicSpace,
    PublicTarget,
    public_list,
)
from exlibris.engine.state import Assistant, LocationState, PlayerState, Space
from exlibris.engine.targets import Target
from exlibris.validation import resolve_settings

CATALOG = load_catalog()


def fresh(value: Any) -> Any:
    """A value's descriptor made afresh, field by field (no descriptor kept)."""
    if isinstance(value, tuple):
        return tuple(fresh(v) for v in value)
    if isinstance(value, LocationState):
        return PublicLocation(value.id, value.number, value.spec.name, value.instant,
                              value.spec)
    if isinstance(value, Assistant):
        return PublicAssistant(value.id, value.owner, value.kind, value.name, value.spec)
    if isinstance(value, Target):
        return PublicTarget(fresh(value.location) if value.location else None, value.space,
                            value.bid, value.share,
                            fresh(value.displaces) if value.displaces else None)
    if isinstance(value, Space):
        return PublicSpace(fresh(value.location), value.index)
    if isinstance(value, PlayerState):
        return PublicPlayer(value.seat, value.name)
    if isinstance(value, CompiledAbility):
        return PublicAbility(value.label, value.timing, value.text)
    if isinstance(value, Source):
        return fresh(value.this)
    return value


class Checking:
    """A random seat that checks every decision's descriptors before it answers."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomAgent(seed)
        self.placements = 0

    def decide(self, view: Any, decision: Decision) -> int:
        assert decision.values == [fresh(v) for v in decision.handles]
        if decision.kind is DecisionKind.PLACE:
            self.placements += 1
            copier = _Copier()  # the options as a fork copies them: new objects
            copies = [(copier.assistant(a), Target(copier.location(t.location), t.space,
                                                   t.bid, t.share, copier.assistant(t.displaces)))
                      for a, t in decision.handles]
            shown = public_list(copies)
            assert shown == decision.values
            for mine, theirs in zip(shown, decision.values, strict=True):
                # the copied assistant and target: their originals' descriptors
                assert all(a is b for a, b in zip(mine, theirs, strict=True))
        return self.inner.decide(view, decision)


@pytest.mark.parametrize("variant", ["standard", "artifactorium", "job-faire", "expanded"])
def test_descriptors_are_what_describing_afresh_gives(variant: str) -> None:
    settings = resolve_settings(variant, CATALOG.variants)
    for seed in range(3):
        seats = [Checking(seed * 10 + i) for i in range(3)]
        play(new_game(CATALOG, settings, seats, seed=seed))
        assert all(seat.placements for seat in seats)
