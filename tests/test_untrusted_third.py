"""Issue 26: the third hostile-user campaign, one named regression per defect class.

Output paths, files that are not saves, two programs on one save, counts without
a bound, effects whose expressions run unbounded, content that validates and then
crashes, odd files and folders, messages that leak internals and the smaller ones.
Every case ends in one clear error (exit 2, no traceback) or plays on, with
nothing the user had lost.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.dsl.errors import EffectError
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _shipped_content_only(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def invoke(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=stdin, env=env)


def assert_user_error(result: Any, *fragments: str) -> None:
    """Exit 2 with a message, never a traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# ---- 5. effects whose expressions run unbounded -----------------------------------------------


@pytest.mark.parametrize("source", [
    "n = sum(deck, sum(deck, sum(deck, sum(deck, 1))))\n",
    "n = count(deck where count(deck where count(deck where true) > 0) > 0)\n",
    "home_actions(999999999999, max_each: 999999999999)\n",
])
def test_every_evaluation_step_counts_against_max_steps(source: str) -> None:
    from tests.test_untrusted import run_hostile

    start = time.process_time()
    with pytest.raises(EffectError, match="steps"):
        run_hostile(source)
    assert time.process_time() - start < 2


def shelf_rows(seed: int, rows: int, width: int) -> list[str]:
    rng = random.Random(seed)
    cards = [f"{letter}{order}:{''.join(rng.choice('CFHMRS') for _ in range(2))}"
             for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for order in range(1, 9)]
    rng.shuffle(cards)
    return ["      " + "  ".join(cards.pop() for _ in range(width)) for _ in range(rows)]


def test_a_nested_sum_in_an_artifact_score_stops_at_the_step_budget(tmp_path: Path) -> None:
    shipped = ROOT / "content" / "artifacts" / "bejeweled-skull-of-turpitude.yaml"
    own = tmp_path / "own"
    own.mkdir()
    (own / shipped.name).write_text(shipped.read_text("utf-8").replace(
        "score: books(adjacent(this), @corrupted-codices)",
        "score: sum(shelf, sum(shelf, sum(shelf, sum(shelf, 1))))"), "utf-8")
    rows = shelf_rows(1, 3, 25)
    rows[0] = rows[0].replace(rows[0].split()[0], "*bejeweled-skull-of-turpitude", 1)
    table = tmp_path / "t.yaml"
    table.write_text("prominent: C\nbanned: M\nplayers:\n  - name: A\n    focus: F\n"
                     "    hand: 0\n    shelf: |\n" + "\n".join(rows) + "\n  - name: B\n"
                     "    focus: F\n    hand: 0\n    shelf: A1:CC\n", "utf-8")
    start = time.process_time()
    result = invoke("score", str(table), "--content", str(own))
    assert time.process_time() - start < 5
    assert_user_error(result, "steps")
