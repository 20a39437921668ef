"""The compiled engine (``hatch_build.py``) plays exactly the games the plain one plays.

The suite imports this checkout's plain-Python package. A wheel built with
``EXLIBRIS_COMPILE=1`` (CI's ``pip install ".[test]"``: ``.ci/run`` exports it) carries
the hot modules compiled too; run from another folder, Python imports that install.
These tests compare the two on whole games and run the rules scenarios with it. Where
no compiled install is present (a development checkout, the default pure-Python wheel)
they are skipped, saying so, unless ``EXLIBRIS_COMPILE`` is set: then the compiled
engine was asked for, and its absence (the build fell back to pure Python) fails them.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _installed(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python ARGS`` on the installed package: from an empty folder, with this
    checkout off the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "EXLIBRIS_CONTENT")}
    return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=600)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty folder from which the compiled install is imported (or a skip)."""
    folder = tmp_path_factory.mktemp("elsewhere")
    probe = _installed(folder, "-c", "import exlibris.engine.flow, exlibris.build_info as b; "
                                     "print(b.engine_build())")
    asked = os.environ.get("EXLIBRIS_COMPILE", "").strip().lower() not in ("", "0", "false",
                                                                             "no")
    missing = pytest.fail if asked else pytest.skip
    if probe.returncode != 0:
        missing("exlibris is not installed in this environment "
                "(EXLIBRIS_COMPILE=1 pip install .)")
    if "compiled" not in probe.stdout:
        missing(f"the installed exlibris is {probe.stdout.strip()}: nothing to compare "
                "(EXLIBRIS_COMPILE=1 pip install . compiles it)")
    return folder


def test_compiled_and_plain_engines_play_the_same_games(compiled: Path) -> None:
    script = str(ROOT / "bench" / "same_games.py")  # bench/ is first on its path
    installed = _installed(compiled, script, "--games", "25", "--seed", "300")
    assert installed.returncode == 0, installed.stderr
    plain = subprocess.run([sys.executable, script, "--games", "25", "--seed", "300"],
                           cwd=ROOT, text=True, capture_output=True, timeout=600,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert plain.returncode == 0, plain.stderr
    assert len(installed.stdout.splitlines()) == 4
    assert installed.stdout == plain.stdout


def test_compiled_engine_passes_the_rules_scenarios(compiled: Path) -> None:
    result = _installed(compiled, "-m", "exlibris", "scenario", "run", str(ROOT / "scenarios"))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert " 0 failed" in result.stdout


@pytest.mark.parametrize(("variant", "seats"), [
    ("expanded", "greedy,random"), ("artifactorium", "random,greedy,random"),
    ("job-faire", "greedy,random,greedy"), ("solo", "greedy"), ("solo-expanded", "random")])
def test_compiled_engine_plays_module_games_as_the_plain_one(
        compiled: Path, variant: str, seats: str) -> None:
    for seed in (1, 2):
        args = ["-m", "exlibris", "play", "--variant", variant, "--seats", seats,
                "--seed", str(seed), "--json"]
        installed = _installed(compiled, *args)
        assert installed.returncode == 0, installed.stderr
        plain = subprocess.run([sys.executable, *args], cwd=ROOT, text=True,
                               capture_output=True, timeout=600,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert plain.returncode == 0, plain.stderr
        assert installed.stdout == plain.stdout and installed.stdout.strip()


def test_the_search_bot_plays_the_same_game_compiled(compiled: Path) -> None:
    """``mcts`` with its modules compiled (``agents/mcts.py``, ``engine/forward.py``,
    ``engine/copying.py``) searches and decides as the plain one."""
    args = ["-m", "exlibris", "play", "--seats", "mcts:20,greedy", "--seed", "3", "--json"]
    installed = _installed(compiled, *args)
    assert installed.returncode == 0, installed.stderr
    plain = subprocess.run([sys.executable, *args], cwd=ROOT, text=True, capture_output=True,
                           timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert plain.returncode == 0, plain.stderr
    assert installed.stdout == plain.stdout and installed.stdout.strip()


def test_the_install_has_every_listed_module_compiled(compiled: Path) -> None:
    """Each module of the compiled list (``pyproject.toml``) loads from an extension."""
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["modules"]
    probe = _installed(compiled, "-c", "\n".join([
        "import importlib, importlib.machinery as m, sys",
        "for name in sys.argv[1:]:",
        "    if not importlib.import_module(name).__file__.endswith(",
        "            tuple(m.EXTENSION_SUFFIXES)):",
        "        print(name)"]), *listed)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout == ""


def _hook() -> Any:
    """``hatch_build.py`` as a module (hatchling need not be importable)."""
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_listed_module_has_a_known_level() -> None:
    """The hook's config gives every compiled module a C compiler level it knows."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    hook = _hook()
    levels = hook.module_levels(config)
    assert list(levels) == config["modules"]
    assert set(levels.values()) <= set(hook.LEVELS)


def test_a_wrong_level_or_a_module_not_listed_is_refused() -> None:
    hook = _hook()
    assert hook.module_levels({"modules": ["a", "b"], "level": "-O0",
                               "levels": {"b": "-O2"}}) == {"a": "-O0", "b": "-O2"}
    with pytest.raises(ValueError, match="unknown level -O9"):
        hook.module_levels({"modules": ["a"], "level": "-O9"})
    with pytest.raises(ValueError, match="not in modules: c"):
        hook.module_levels({"modules": ["a"], "levels": {"c": "-O1"}})
