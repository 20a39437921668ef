"""The inspection form's plain grid (``scoring/report.py: ascii_grid``) is drawn
without rich, character for character as rich draws it with ``box.ASCII``; text
rich would do more with (markup, wide or accented letters, a grid too wide) is
left to rich."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from exlibris.scoring.report import _rich_grid, ascii_grid

ROOT = Path(__file__).resolve().parent.parent
PLAIN = "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-,.()&'!?#: "


def _cell(rng: random.Random, longest: int) -> str:
    text = "".join(rng.choice(PLAIN) for _ in range(rng.randint(0, longest))).rstrip()
    return " " * rng.choice((0, 0, 0, 3)) * bool(text) + text


def _table(rng: random.Random) -> tuple[list[str], list[list[str]], list[str]]:
    columns = rng.randint(2, 7)
    headers = ["Step", *(_cell(rng, 14) or "P" for _ in range(columns - 1))]
    rows = [[_cell(rng, 30), *(_cell(rng, 12) for _ in range(columns - 1))]
            for _ in range(rng.randint(1, 25))]
    return headers, rows, ["Total", *(str(rng.randint(-9, 120)) for _ in range(columns - 1))]


def test_the_plain_grid_is_what_rich_draws() -> None:
    rng = random.Random(27)
    drawn = 0
    for _ in range(60):
        headers, rows, total = _table(rng)
        width = rng.choice((200, 200, 80, 60))
        mine = ascii_grid(headers, rows, total, width)
        if mine is None:  # wider than the terminal: rich folds it, and is asked
            assert sum(max(len(r[i]) for r in [headers, *rows, total]) + 3
                       for i in range(len(headers))) + 1 > width
            continue
        drawn += 1
        assert mine == _rich_grid(headers, rows, total, color=False, width=width)
    assert drawn >= 40


def test_text_rich_would_change_is_left_to_rich() -> None:
    for odd in ("[bold]Ann[/bold]", "Zoë", "漢字", "tab\there", "back\\slash", "end "):
        assert ascii_grid(["Step", odd], [["A1", "1"]], ["Total", "1"], 200) is None
        assert ascii_grid(["Step", "Ann"], [[odd, "1"]], ["Total", "1"], 200) is None


def test_score_prints_the_plain_form_without_importing_rich() -> None:
    code = ("import sys; from exlibris.cli.main import cli\n"
            "try:\n    cli(['score', 'tests/tables/spec-example.yaml'])\n"
            "except SystemExit:\n    pass\n"
            "print('rich' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert "| Step " in done.stdout and "+----" in done.stdout
    assert done.stderr.strip() == "False"
