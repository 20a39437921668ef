"""Issue 39: the fourth hostile-user campaign, one named regression per class.

Writing through links, caches believed when damaged, escape sequences reaching the
terminal, numbers and shapes without a bound, signals. Every case ends in one
clear error (exit 2, no traceback) or plays on as it should, with nothing the
user had changed, no lock left behind and nothing raw printed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
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


def bot_game(*args: str) -> Any:
    return invoke("play", "--seats", "greedy,random", "--seed", "3", *args)


# ---- 1. writing through links -------------------------------------------------------------------


def victim(tmp_path: Path) -> Path:
    """A file of the user's that no command may change."""
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    precious = outside / "precious.txt"
    precious.write_text("the user's own words\n")
    return precious


@pytest.mark.parametrize("kind", ["link", "dangling", "own-file", "fifo", "folder"])
def test_a_lock_path_that_is_not_a_lock_is_refused_and_left_alone(tmp_path: Path,
                                                                  kind: str) -> None:
    precious = victim(tmp_path)
    lock = tmp_path / ".s.json.lock"
    if kind == "link":
        lock.symlink_to(precious)
    elif kind == "dangling":
        lock.symlink_to(tmp_path / "outside" / "new.txt")
    elif kind == "own-file":
        lock.write_text("my notes, named like a lock\n")
    elif kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    start = time.monotonic()
    result = bot_game("--save", str(tmp_path / "s.json"))
    assert time.monotonic() - start < 30
    assert_user_error(result, "not a lock file of exlibris")
    assert precious.read_text() == "the user's own words\n"
    assert not (tmp_path / "outside" / "new.txt").exists()
    assert os.path.lexists(lock)
    if kind == "own-file":
        assert lock.read_text() == "my notes, named like a lock\n"
    assert not (tmp_path / "s.json").exists()


def test_a_stale_lock_holding_a_pid_is_taken_over_and_removed(tmp_path: Path) -> None:
    lock = tmp_path / ".s.json.lock"
    lock.write_text("999999\n")
    result = bot_game("--save", str(tmp_path / "s.json"))
    assert result.exit_code == 0, result.output
    assert not os.path.lexists(lock)


@pytest.mark.parametrize("dangling", [False, True])
def test_schema_out_never_writes_through_a_link_in_its_folder(tmp_path: Path,
                                                              dangling: bool) -> None:
    precious = victim(tmp_path)
    out = tmp_path / "schemas"
    out.mkdir()
    target = tmp_path / "outside" / "made.json" if dangling else precious
    (out / "location.json").symlink_to(target)
    assert_user_error(invoke("schema", "--out", str(out)), "symbolic link")
    assert precious.read_text() == "the user's own words\n"
    assert not (tmp_path / "outside" / "made.json").exists()
    assert (out / "location.json").is_symlink()


def test_new_never_writes_through_a_dangling_link(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "reading-den.yaml").symlink_to(tmp_path / "outside" / "made.yaml")
    result = invoke("new", "location", "reading-den", "--dir", str(tmp_path))
    assert_user_error(result)
    assert not (tmp_path / "outside" / "made.yaml").exists()
    assert (tmp_path / "reading-den.yaml").is_symlink()


@pytest.mark.parametrize("option", ["--log", "--table-out", "--save"])
def test_a_play_output_that_is_a_link_to_a_file_is_refused(tmp_path: Path,
                                                           option: str) -> None:
    precious = victim(tmp_path)
    link = tmp_path / "out.txt"
    link.symlink_to(precious)
    assert_user_error(bot_game(option, str(link)), "symbolic link")
    assert precious.read_text() == "the user's own words\n" and link.is_symlink()


def test_simulate_never_renames_over_what_a_link_leads_to(tmp_path: Path) -> None:
    """A report named by a link to a pipe (standing in for a device): written to the
    pipe directly, or refused, never replaced by a regular file."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "r.html"
    link.symlink_to(fifo)
    result = invoke("simulate", "--games", "1", "--seats", "random", "--workers", "1",
                    "--report", str(link))
    assert_user_error(result, "no program reads")
    assert fifo.is_fifo() and link.is_symlink()


@pytest.mark.parametrize("which", ["out", "journal", "manifest", "events"])
def test_simulate_outputs_are_never_written_through_links(tmp_path: Path, which: str) -> None:
    precious = victim(tmp_path)
    out = tmp_path / "r.jsonl"
    names = {"out": out, "journal": tmp_path / "r.jsonl.partial.jsonl",
             "manifest": tmp_path / "r.jsonl.manifest.json",
             "events": tmp_path / "e.jsonl"}
    names[which].symlink_to(precious)
    result = invoke("simulate", "--games", "1", "--seats", "random", "--workers", "1",
                    "--out", str(out), "--events", str(tmp_path / "e.jsonl"))
    assert_user_error(result, "symbolic link")
    assert precious.read_text() == "the user's own words\n"
    assert names[which].is_symlink()


# ---- 5. signals ---------------------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _start(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "exlibris", *args], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_for(test: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "the program did not get going"
        time.sleep(0.1)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_sigterm_stops_simulate_as_ctrl_c_does_within_five_seconds(tmp_path: Path) -> None:
    """Workers in the middle of a long search batch are ended, not waited for."""
    run = _start(["simulate", "--games", "50", "--seats", "mcts:20000,mcts:20000",
                  "--workers", "2", "--out", "r.jsonl"], tmp_path)
    try:
        _wait_for(lambda: len(_children(run.pid)) >= 2, 60)
        time.sleep(3)  # the workers are in their first batch
        workers = _children(run.pid)
        run.send_signal(signal.SIGTERM)
        start = time.monotonic()
        status = run.wait(timeout=30)
        assert time.monotonic() - start < 5
    finally:
        run.kill()
        run.wait()
    assert status == 128 + signal.SIGTERM, run.stderr.read() if run.stderr else ""
    assert b"Interrupted" in (run.stderr.read() if run.stderr else b"")
    time.sleep(0.5)
    assert not [p for p in workers if Path(f"/proc/{p}").exists()
                and "Z" not in Path(f"/proc/{p}/stat").read_text().split()[2]]
    assert (tmp_path / "r.jsonl.manifest.json").exists()


def test_sigterm_to_a_bots_only_game_with_a_save_leaves_no_lock(tmp_path: Path) -> None:
    run = _start(["play", "--seats", "mcts:20000,mcts:20000", "--seed", "1", "--save",
                  "s.json"], tmp_path)
    lock = tmp_path / ".s.json.lock"
    try:
        _wait_for(lock.exists, 60)
        time.sleep(1)
        run.send_signal(signal.SIGTERM)
        status = run.wait(timeout=10)
    finally:
        run.kill()
        run.wait()
    assert status != 0 and not os.path.lexists(lock)
    assert b"Traceback" not in (run.stderr.read() if run.stderr else b"")
