"""docs/authoring.md works as written: every command, on its files, from a folder outside
the repository, with a non-editable install; and the shipped pre-commit hooks pass on
examples/authoring and fail, with the error, when a file is broken."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # installs and runs commands end to end; CI runs it

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "authoring.md"
EXAMPLES = ROOT / "examples" / "authoring"

needs_install = pytest.mark.skipif(os.environ.get("EXLIBRIS_SKIP_INSTALL_TEST") == "1",
                                   reason="set EXLIBRIS_SKIP_INSTALL_TEST=1 to skip installs")


@dataclass
class Step:
    """A file to write, or a command to run with the lines it must print."""

    file: str | None = None
    text: str = ""
    command: str | None = None
    shows: list[str] = field(default_factory=list)


def tutorial_steps(text: str) -> list[Step]:
    """The files (``<!-- file: PATH -->`` then a yaml block) and the ``$`` commands of
    the ``console`` blocks, in the order of the page."""
    steps: list[Step] = []
    pattern = re.compile(r"<!-- file: (?P<file>\S+) -->\n```yaml\n(?P<text>.*?)```\n"
                         r"|```console\n(?P<console>.*?)```\n", re.DOTALL)
    for match in pattern.finditer(text):
        if match["file"]:
            steps.append(Step(file=match["file"], text=match["text"]))
            continue
        for line in match["console"].splitlines():
            if line.startswith("$ "):
                steps.append(Step(command=line[2:]))
            elif line.strip():
                steps[-1].shows.append(line.strip())
    return steps


def test_the_tutorial_shows_every_example_file_as_it_is() -> None:
    steps = tutorial_steps(DOC.read_text("utf-8"))
    shown = {s.file: s.text for s in steps if s.file}
    on_disk = {p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*")
               if p.is_file() and p.name != ".gitignore"}
    assert set(shown) == on_disk
    for name, text in shown.items():
        assert (EXAMPLES / name).read_text("utf-8") == text, name
    assert sum(1 for s in steps if s.command) >= 15


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A non-editable install of this checkout; the environment to run its commands."""
    site = tmp_path_factory.mktemp("install") / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(site), str(ROOT)], check=True, capture_output=True,
                   env={**os.environ, "EXLIBRIS_PURE_PYTHON": "1"})  # no compiling: faster
    tools = Path(sys.executable).parent  # pre-commit, git's python tools
    path = os.pathsep.join([str(site / "bin"), str(tools), os.environ.get("PATH", "")])
    env = {**os.environ, "PATH": path, "PYTHONPATH": str(site),
           "PRE_COMMIT_HOME": str(site.parent / "pre-commit-home"), "NO_COLOR": "1"}
    env.pop("EXLIBRIS_CONTENT", None)
    return env


def run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


@needs_install
def test_every_tutorial_command_works_outside_the_repository(
        tmp_path: Path, installed: dict[str, str]) -> None:
    folder = tmp_path / "my-exlibris"
    folder.mkdir()
    for step in tutorial_steps(DOC.read_text("utf-8")):
        if step.file is not None:
            target = folder / step.file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, "utf-8")
            continue
        assert step.command is not None
        result = run(step.command, folder, installed)
        output = result.stdout + result.stderr
        assert result.returncode == 0, f"$ {step.command}\n{output}"
        assert "Traceback" not in output
        for line in step.shows:
            assert line in output, f"$ {step.command}\nwanted: {line}\ngot:\n{output}"
    assert not (ROOT / "my-variant.yaml").exists()
    refused = run("exlibris schema", folder, installed)  # never into the installed package
    assert refused.returncode == 2 and "--out" in refused.stderr


@needs_install
def test_the_pre_commit_hooks_pass_and_fail_with_the_error(
        tmp_path: Path, installed: dict[str, str]) -> None:
    folder = tmp_path / "author"
    shutil.copytree(EXAMPLES, folder)
    hooks = [line.split(":", 1)[1].strip() for line in
             (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8").splitlines()
             if line.startswith("- id:")]
    config = (folder / ".pre-commit-config.yaml").read_text("utf-8")
    assert all(f"id: {hook}" in config for hook in hooks)
    assert config.count("pass_filenames: false") == len(hooks)
    assert run("git init -q . && git add .", folder, installed).returncode == 0
    passed = run(f"{sys.executable} -m pre_commit run --all-files", folder, installed)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "exlibris validate" in passed.stdout and "Passed" in passed.stdout

    broken = folder / "reading-nook.yaml"
    broken.write_text(broken.read_text("utf-8").replace("number: 23", "number: 6"), "utf-8")
    failed = run(f"{sys.executable} -m pre_commit run --all-files", folder, installed)
    assert failed.returncode != 0
    assert ("reading-nook.yaml:5:9: number 6 is already used by the shipped location "
            "'wishing-well'") in failed.stdout


@needs_install
def test_the_shipped_hooks_install_the_pure_python_wheel_and_run(tmp_path: Path) -> None:
    """As an author's ``repo:`` entry has it: pre-commit pip-installs this repository
    at a commit for the hooks of ``.pre-commit-hooks.yaml``. By default that is the
    pure-Python wheel (seconds, where the compiled one takes minutes: README,
    "Set-up"); the variables CI exports for its own install are not the author's."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True)
    if head.returncode != 0:
        pytest.skip("this checkout is not a git repository with a commit")
    folder = tmp_path / "author"
    shutil.copytree(EXAMPLES, folder)
    (folder / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {head.stdout.strip()}\n    hooks:\n"
        "      - id: exlibris-validate\n      - id: exlibris-scenarios\n", "utf-8")
    home = tmp_path / "pre-commit-home"
    env = {k: v for k, v in os.environ.items() if k not in (
        "EXLIBRIS_COMPILE", "EXLIBRIS_PURE_PYTHON", "PYTHONPATH", "EXLIBRIS_CONTENT")}
    env.update(PRE_COMMIT_HOME=str(home), NO_COLOR="1")
    assert run("git init -q . && git add .", folder, env).returncode == 0
    installed = run(f"{sys.executable} -m pre_commit install-hooks", folder, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    flows = list(home.glob("*/py_env-*/lib/python*/site-packages/exlibris/engine/flow.py"))
    assert len(flows) == 1, flows
    package = flows[0].parent.parent
    assert not [p for p in package.rglob("*") if p.suffix in (".so", ".pyd")]
    passed = run(f"{sys.executable} -m pre_commit run --all-files", folder, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert passed.stdout.count("Passed") == 2
