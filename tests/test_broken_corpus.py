"""Every broken file of tests/broken/ is answered with its expected error.

Line 1 of each file says what is expected: ``# expect: CODE LINE:COL``; an optional
line 2, ``# advice: TEXT``, is a phrase the message must hold (what to do about it).
A folder of the corpus is validated as a whole (a mistake that needs two files, such as
two variants that extend each other); its file whose line 1 starts ``# expect:`` says
what is expected there.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli

BROKEN = Path(__file__).parent / "broken"
CORPUS = sorted([*BROKEN.glob("*.yaml"), *(p for p in BROKEN.iterdir() if p.is_dir())])


def expecting(path: Path) -> Path:
    """The file of a corpus case that says what is expected (the case itself, or the
    file of a folder that holds the ``# expect:`` line)."""
    if path.is_file():
        return path
    return next(p for p in sorted(path.glob("*.yaml"))
                if p.read_text("utf-8").startswith("# expect: "))


def expectation(path: Path) -> tuple[str, int, int]:
    header = path.read_text("utf-8", errors="replace").splitlines()[0]
    code, where = header.removeprefix("# expect: ").split()
    line, col = where.split(":")
    return code, int(line), int(col)


def advice(path: Path) -> str | None:
    lines = path.read_text("utf-8", errors="replace").splitlines()
    return lines[1].removeprefix("# advice: ") if len(lines) > 1 and lines[1].startswith(
        "# advice: ") else None


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 30


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_broken_file(path: Path) -> None:
    shown = expecting(path)
    code, line, col = expectation(shown)
    wanted_advice = advice(shown)
    checked = Path(os.path.relpath(path))
    path = Path(os.path.relpath(shown))
    start = time.process_time()  # this process's CPU: not the other test workers' load
    result = CliRunner().invoke(cli, ["validate", str(checked)])
    elapsed = time.process_time() - start
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    expected = f"{path}:{line}:{col}: "
    lines = [entry for entry in result.stderr.splitlines() if entry.startswith(str(path))]
    assert any(entry.startswith(expected) and entry.endswith(f"[{code}]") for entry in lines), (
        f"wanted {expected}...[{code}], got:\n" + "\n".join(lines))
    if wanted_advice is not None:
        assert any(entry.startswith(expected) and entry.endswith(f"[{code}]")
                   and wanted_advice in entry for entry in lines), (
            f"wanted {wanted_advice!r} in the message, got:\n" + "\n".join(lines))
    assert elapsed < 1.0
