"""What a game's first question loads: not the code that only checks content or scores
a finished game's effects (``tests/test_import_graph.py: LAZY`` holds the same of the
modules' load-time imports; this runs a game)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_FIRST_QUESTION = (
    "import json, sys\n"
    "from exlibris.cli.main import cli\n"
    "try:\n    cli(['play', '--seats', 'human,greedy', '--seed', '5', '--save', sys.argv[1]])\n"
    "except SystemExit as stop:\n    code = stop.code\n"
    "print(json.dumps([code, sorted(m for m in sys.modules if m.startswith('exlibris.dsl.'))]))\n")


def test_a_first_question_loads_neither_the_checker_nor_the_score_language(
        tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONPATH": str(ROOT)}
    for cache in ("1", ""):  # the first command after an install, then a warm cache
        done = subprocess.run([sys.executable, "-c", _FIRST_QUESTION,
                               str(tmp_path / f"save{cache}.json")],
                              cwd=ROOT, env={**env, "EXLIBRIS_NO_CACHE": cache},
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              check=True, timeout=300)
        code, loaded = json.loads(done.stdout.strip().splitlines()[-1])
        assert code == 0 and "Input ended" in done.stdout + done.stderr
        assert "exlibris.dsl.compiler" in loaded  # (the list is what was loaded)
        assert not {"exlibris.dsl.checker", "exlibris.dsl.scoring"} & set(loaded), loaded
