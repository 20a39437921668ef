"""``bench/search_agreement.py``: how the search's choice settles with its budget."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import search_agreement


def test_agreement_counts_seeds_the_largest_budget_and_greedy() -> None:
    rows = [{"options": 5, "greedy": 1, 25: [1, 2], 400: [3, 3]},
            {"options": 5, "greedy": 0, 25: [3, 3], 400: [3, 4]}]
    low, high = search_agreement.agreement(rows, [25, 400])
    assert (low["seeds_agree"], low["agrees_with_largest"], low["agrees_with_greedy"]) == \
        (0.5, 0.5, 0.5)
    assert (high["seeds_agree"], high["agrees_with_largest"], high["agrees_with_greedy"]) == \
        (0.5, 1.0, 0.0)


def test_a_short_run_reports_every_budget(capsys) -> None:  # type: ignore[no-untyped-def]
    assert search_agreement.main(["--budgets", "2,4", "--games", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"budget": 2' in out and '"budget": 4' in out
