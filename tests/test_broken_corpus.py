"""Every broken file of tests/broken/ is answered with its expected error.

Line 1 of each file says what is expected: ``# expect: CODE LINE:COL``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli

CORPUS = sorted((Path(__file__).parent / "broken").glob("*.yaml"))


def expectation(path: Path) -> tuple[str, int, int]:
    header = path.read_text("utf-8", errors="replace").splitlines()[0]
    code, where = header.removeprefix("# expect: ").split()
    line, col = where.split(":")
    return code, int(line), int(col)


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 30


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_broken_file(path: Path) -> None:
    code, line, col = expectation(path)
    path = Path(os.path.relpath(path))
    start = time.perf_counter()
    result = CliRunner().invoke(cli, ["validate", str(path)])
    elapsed = time.perf_counter() - start
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    expected = f"{path}:{line}:{col}: "
    lines = [entry for entry in result.stderr.splitlines() if entry.startswith(str(path))]
    assert any(entry.startswith(expected) and entry.endswith(f"[{code}]") for entry in lines), (
        f"wanted {expected}...[{code}], got:\n" + "\n".join(lines))
    assert elapsed < 1.0
