"""The README's set-up: the play command installs the pure-Python wheel, the compiled
engine is one documented step away, and CI runs the README's test command with the
compiled engine asked for (``hatch_build.py``, ``.ci/run``)."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAY = "python3 -m venv .venv && . .venv/bin/activate && pip install . && exlibris play"
TEST = ('python3 -m venv .venv && . .venv/bin/activate && pip install ".[test]" '
        '&& python -m pytest -m ""')


def setup_section() -> str:
    readme = (ROOT / "README.md").read_text("utf-8")
    return readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]


def test_the_readme_gives_the_play_and_test_commands_and_the_compiled_step() -> None:
    text = setup_section()
    assert f"    {PLAY}\n" in text and f"    {TEST}\n" in text
    assert "    EXLIBRIS_COMPILE=1 pip install .\n" in text
    assert "EXLIBRIS_PURE_PYTHON=1" in text  # the former opt-out still works


def test_ci_runs_the_readme_test_command_with_the_compiled_engine_asked_for() -> None:
    run = (ROOT / ".ci" / "run").read_text("utf-8")
    command = TEST.split(" && ", 2)[2]  # after the venv, which .ci/run makes itself
    assert command.replace("pip install ", "pip install --quiet ") in run
    exported = run.index("export EXLIBRIS_COMPILE=1")
    assert exported < run.index('pip install --quiet ".[test]"')


@pytest.mark.parametrize(("env", "compiled"), [
    ({}, False), ({"EXLIBRIS_COMPILE": "1"}, True), ({"EXLIBRIS_COMPILE": "0"}, False),
    ({"EXLIBRIS_PURE_PYTHON": "1"}, False),
    ({"EXLIBRIS_PURE_PYTHON": "1", "EXLIBRIS_COMPILE": "1"}, False),
    ({"EXLIBRIS_PURE_PYTHON": "0", "EXLIBRIS_COMPILE": "1"}, True)])
def test_only_a_build_asked_to_compile_needs_cython(
        monkeypatch: pytest.MonkeyPatch, env: dict[str, str], compiled: bool) -> None:
    """The hook asks for Cython and setuptools only for a compiled build; a default one
    needs only hatchling."""
    interface = types.ModuleType("hatchling.builders.hooks.plugin.interface")
    interface.BuildHookInterface = object  # type: ignore[attr-defined]  # no hatchling here
    monkeypatch.setitem(sys.modules, interface.__name__, interface)
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook_module)
    for name in ("EXLIBRIS_COMPILE", "EXLIBRIS_PURE_PYTHON"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    hook = object.__new__(hook_module.CustomBuildHook)
    hook.metadata = types.SimpleNamespace(core=types.SimpleNamespace(dependencies=["lark"]))
    wanted = hook.dependencies()
    assert (wanted == [hook_module.CYTHON, hook_module.SETUPTOOLS]) if compiled \
        else wanted == []
