"""The crash sweep (scripts/crash_sweep.py) in a bounded form: a few seeded games of
every mode family, random and greedy seats, the invariants checked at every
decision, and no error. ``-m slow`` runs more games a family."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from exlibris.engine.invariants import InvariantError

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "crash_sweep.py"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("crash_sweep", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["crash_sweep"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


crash_sweep = _load()


@pytest.mark.parametrize("family", sorted(crash_sweep.FAMILIES))
def test_a_few_games_of_each_family_play_without_error(family: str) -> None:
    found = crash_sweep.sweep(4, [family], start=1000)
    totals = found[family]
    assert totals.games == 4 and totals.decisions > 0
    assert totals.errors == []


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(crash_sweep.FAMILIES))
def test_the_bounded_sweep_of_each_family(family: str) -> None:
    totals = crash_sweep.sweep(60, [family], start=20_000)[family]
    assert totals.errors == [], totals.errors[:3]


def test_the_sweep_reports_an_error_with_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game: Any, where: str = "") -> None:
        raise InvariantError("planted")

    monkeypatch.setattr(crash_sweep, "check_state", broken)
    totals = crash_sweep.sweep(1, ["solo"], start=7)["solo"]
    assert [e["seed"] for e in totals.errors] == [7]
    assert "planted" in totals.errors[0]["error"]
    assert crash_sweep.main(["--games", "1", "--family", "solo"]) == 1
