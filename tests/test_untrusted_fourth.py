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
from test_untrusted_third import assert_user_error, invoke  # the third campaign's helpers

from exlibris.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent




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


# ---- 4. every number and shape a stranger can write ---------------------------------------------


@pytest.fixture(scope="module")
def run_rows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rows and manifest of a small run (one game), to damage in copies."""
    folder = tmp_path_factory.mktemp("run")
    out = folder / "r.jsonl"
    result = invoke("simulate", "--games", "2", "--seats", "random", "--workers", "1",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def rows_copy(run_rows: Path, tmp_path: Path, edit: Any = None, manifest: Any = None) -> Path:
    """A copy of the run's rows (each row passed through ``edit``) and manifest."""
    import json

    out = tmp_path / "r.jsonl"
    lines = [json.loads(line) for line in run_rows.read_text().splitlines()]
    if edit is not None:
        for row in lines:
            edit(row)
    out.write_text("".join(json.dumps(row) + "\n" for row in lines))
    data = json.loads(run_rows.with_name(run_rows.name + ".manifest.json").read_text())
    text = json.dumps(data) if manifest is None else manifest(data)
    out.with_name(out.name + ".manifest.json").write_text(text)
    return out


@pytest.mark.parametrize("seat", ["mcts:" + "9" * 5000, "mcts:" + "0" * 4000 + "7",
                                  "mcts:1e9", "x" * 5000])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_seat_of_thousands_of_digits_is_one_error(command: str, seat: str) -> None:
    args = ["--games", "1"] if command == "simulate" else []
    result = invoke(command, *args, "--seats", f"{seat},random")
    assert_user_error(result, "--seats")
    assert len(result.output) < 600


@pytest.mark.parametrize("winner", [float("inf"), float("nan"), 2.0, -1.0, "1", True])
def test_rows_with_a_winner_out_of_range_are_refused(run_rows: Path, tmp_path: Path,
                                                     winner: Any) -> None:
    rows_file = rows_copy(run_rows, tmp_path, lambda row: row.update(winner=winner))
    assert_user_error(invoke("simulate", "report", str(rows_file)), "winner")


@pytest.mark.parametrize("column,value", [("players", 10**40), ("total", -(10**30)),
                                          ("seat", 0), ("rank", 9)])
def test_rows_with_numbers_out_of_bounds_are_refused(run_rows: Path, tmp_path: Path,
                                                     column: str, value: Any) -> None:
    rows_file = rows_copy(run_rows, tmp_path, lambda row: row.update({column: value}))
    assert_user_error(invoke("simulate", "report", str(rows_file)), column)


def test_a_nan_in_a_csv_row_is_refused(run_rows: Path, tmp_path: Path) -> None:
    converted = tmp_path / "r.csv"
    from exlibris.simulate import rows

    rows.write(converted, rows.iter_rows(run_rows))
    lines = converted.read_text().splitlines()
    header = lines[0].split(",")
    cells = lines[1].split(",")
    cells[header.index("winner")] = "nan"
    converted.write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n")
    assert_user_error(invoke("simulate", "report", str(converted)), "winner")


def test_a_rows_line_is_never_read_whole_past_the_limit(tmp_path: Path) -> None:
    """A line of many megabytes: read in pieces, said, and never held whole."""
    import tracemalloc

    from exlibris.simulate import rows

    huge = tmp_path / "r.jsonl"
    with huge.open("wb") as f:
        f.write(b'{"a": "' + b"x" * 20_000_000 + b'"}\n{"b": 1}\n')
    problems: list[str] = []
    tracemalloc.start()
    try:
        found = list(rows.read_jsonl(huge, problems))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [item for _, item, _ in found] == [{"b": 1}]
    assert "longer than" in problems[0] and peak < 2_000_000
    assert found[0][2] == 20_000_010  # the offset of the line after it


def test_report_json_is_valid_json_with_null_where_undefined(run_rows: Path,
                                                             tmp_path: Path) -> None:
    import json

    one_game = rows_copy(run_rows, tmp_path)
    lines = one_game.read_text().splitlines()
    one_game.write_text("\n".join(lines[:1]) + "\n")  # a single row: no spread
    result = CliRunner().invoke(cli, ["simulate", "report", "--json", str(one_game)])
    assert result.exit_code == 0, result.output

    def no_constants(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    data = json.loads(result.stdout, parse_constant=no_constants)
    assert "null" in result.stdout and data["cells"]


@pytest.mark.parametrize("damage", [
    lambda d: {**d, "plan": [1]},
    lambda d: {**d, "plan": "standard"},
    lambda d: {**d, "plan": {**d["plan"], "cells": [["standard"]]}},
    lambda d: {**d, "plan": {**d["plan"], "cells": [[1, 2]]}},
    lambda d: {**d, "plan": {**d["plan"], "cells": "standard,2"}},
    lambda d: {**d, "plan": {**d["plan"], "games": 10**40}},
    lambda d: {**d, "plan": {**d["plan"], "seats": [[["random"]]]}},
    lambda d: {**d, "files": [1, 2]},
    lambda d: {**d, "command": {"a": 1}},
    "deep",
])
@pytest.mark.parametrize("command", ["report", "resume"])
def test_a_damaged_manifest_is_one_error(run_rows: Path, tmp_path: Path, damage: Any,
                                         command: str) -> None:
    import json

    def damaged(data: dict[str, Any]) -> str:
        if damage == "deep":
            return json.dumps({**data, "plan": 0})[:-1].replace(
                '"plan": 0', '"plan": ' + "[" * 100_000 + "]" * 100_000) + "}"
        return json.dumps(damage(data))

    rows_file = rows_copy(run_rows, tmp_path, manifest=damaged)
    if command == "report":
        result = invoke("simulate", "report", str(rows_file))
    else:
        result = invoke("simulate", "--games", "2", "--seats", "random", "--workers", "1",
                        "--out", str(rows_file), "--resume")
    assert_user_error(result, "manifest")


@pytest.mark.parametrize("path", ["c\0ontent.yaml", "/" + "d" * 5000 + ".yaml",
                                  "/".join(["d" * 300] * 3)])
def test_a_save_naming_an_impossible_content_path_is_one_error(tmp_path: Path,
                                                              path: str) -> None:
    import json

    save = tmp_path / "s.json"
    assert bot_game("--save", str(save)).exit_code == 0
    data = json.loads(save.read_text())
    data["own_content"] = [{"path": path, "sha256": "0" * 64}]
    save.write_text(json.dumps(data))
    assert_user_error(invoke("play", "--resume", str(save)), "own_content")


@pytest.mark.parametrize("command", [["content", "list"], ["play", "--seats", "random,random"],
                                     ["simulate", "--games", "1", "--seats", "random"]])
def test_an_impossible_path_in_exlibris_content_is_one_error(command: list[str]) -> None:
    for value in ["a" * 5000, "/tmp/" + "b" * 300 + "/c.yaml"]:
        result = invoke(*command, env={"EXLIBRIS_CONTENT": value})
        assert_user_error(result, "content/bad-path")
        assert len(result.output) < 1000


@pytest.mark.parametrize("command", [["play", "--seats", "random,random"],
                                     ["simulate", "--games", "1", "--seats", "random"]])
def test_a_variant_path_of_five_thousand_letters_is_one_error(command: list[str]) -> None:
    result = invoke(*command, "--variant", "v" * 5000 + ".yaml")
    assert_user_error(result, "longer than")
    assert len(result.output) < 1000


# ---- 3. escape sequences never reach the terminal -----------------------------------------------

HOSTILE = ["\x1b]0;owned\x07", "\x1b[2J", "ab\u202ecd", "x\ry", "\x9b31m"]


@pytest.mark.parametrize("text", HOSTILE)
def test_the_printer_escapes_what_a_terminal_would_obey(text: str) -> None:
    from exlibris.shown import shown, terminal_text

    for out in (shown(text), terminal_text(f"line one\n{text}\tend")):
        assert out.isprintable() or set(out) - set(out.replace("\n", "").replace("\t", "")) \
            <= {"\n", "\t"}
        assert not any(c in out for c in "\x1b\x07\u202e\r\x9b")
    assert terminal_text("a\nb\tc") == "a\nb\tc"


@pytest.mark.parametrize("column", ["variant", "agent", "library"])
def test_rows_text_is_printed_escaped(run_rows: Path, tmp_path: Path, column: str) -> None:
    rows_file = rows_copy(run_rows, tmp_path, lambda row: row.update(
        {column: "\x1b]0;owned\x07\u202e" + str(row[column])}))
    for args in (["simulate", "report", str(rows_file)],
                 ["simulate", "report", "--json", str(rows_file)]):
        result = invoke(*args)
        assert "\x1b" not in result.output and "\u202e" not in result.output, result.output
        assert "Traceback" not in result.output


def test_a_saves_text_is_printed_escaped(tmp_path: Path) -> None:
    import json

    save = tmp_path / "s.json"
    assert bot_game("--save", str(save)).exit_code == 0
    data = json.loads(save.read_text())
    data["own_content"] = [{"path": "/tmp/\x1b]0;owned\x07\u202e.yaml", "sha256": "0" * 64}]
    data["exlibris"] = "\x1b]0;owned\x07"
    data["finished"] = False
    save.write_text(json.dumps(data))
    result = invoke("play", "--resume", str(save))
    assert result.exit_code != 0
    assert "\x1b" not in result.output and "\u202e" not in result.output, result.output


@pytest.mark.parametrize("args", [
    ["play", "--seats", "random,random", "--variant", "\x1b]0;owned\x07"],
    ["play", "--seats", "\x1b[2J,random"],
    ["simulate", "--games", "1", "--seats", "random", "--variant", "\u202eevil"],
    ["new", "location", "\x1b]0;owned\x07"],
    ["score", "/nonexistent/\x1b[2J.yaml"],
])
def test_arguments_are_printed_escaped(args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output, result.output


def test_a_content_value_with_an_escape_sequence_is_refused(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "authoring" / "reading-nook.yaml").read_text("utf-8")
    own = tmp_path / "reading-nook.yaml"
    own.write_text(text.replace("name: Reading Nook", 'name: "Reading\\e]0;owned\\a Nook"'))
    assert "\\e]0" in own.read_text()
    result = invoke("validate", str(own))
    assert result.exit_code == 2 and "yaml/control-character" in result.output, result.output
    assert "\x1b" not in result.output


def test_every_print_of_the_package_goes_through_the_one_printer() -> None:
    """No module prints but ``cli/output.py`` (``echo``); rich consoles draw the
    screen and the form from values read through checks that refuse control
    characters."""
    import ast

    allowed = {"exlibris/cli/output.py", "exlibris/dsl/usage.py"}  # usage: a developer's tool
    found = []
    for path in sorted((ROOT / "exlibris").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            what = (func.id if isinstance(func, ast.Name) else
                    ast.unparse(func) if isinstance(func, ast.Attribute) else "")
            if what in ("print", "click.echo", "click.secho", "sys.stdout.write",
                        "sys.stderr.write"):
                found.append(f"{name}:{node.lineno}: {what}")
    assert found == []


# ---- found by hand ------------------------------------------------------------------------------


def test_a_relative_xdg_cache_home_is_ignored(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The XDG rule: a relative value is ignored (no cache made in the current folder);
    the cache then goes to the home folder's."""
    from exlibris import shipped_cache
    from exlibris.paths import xdg_folder

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    for value in ("cache", "./cache", "~/cache"):
        monkeypatch.setenv("XDG_CACHE_HOME", value)
        assert shipped_cache.cache_dir() == home / ".cache" / "exlibris"
        monkeypatch.setenv("XDG_STATE_HOME", value)
        assert xdg_folder("XDG_STATE_HOME", ".local", "state") == home / ".local" / "state"
    env = {"XDG_CACHE_HOME": "cache", "HOME": str(home)}
    run = subprocess.run([sys.executable, "-m", "exlibris", "validate"], cwd=tmp_path,
                         env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


@pytest.mark.parametrize("option", ["--out", "--events"])
def test_a_simulate_output_that_is_a_pipe_is_refused_without_waiting(tmp_path: Path,
                                                                     option: str) -> None:
    fifo = tmp_path / "p.jsonl"
    os.mkfifo(fifo)
    start = time.monotonic()
    result = invoke("simulate", "--games", "1", "--seats", "random", "--workers", "1",
                    option, str(fifo))
    assert time.monotonic() - start < 30
    assert_user_error(result, "not a regular file")
    assert fifo.is_fifo()


def test_a_log_to_standard_output_redirected_to_a_file_is_added_to_it(tmp_path: Path) -> None:
    """``--log /dev/stdout > out.txt``: the link is the process's own stream, written
    after what was printed, never replaced."""
    out = tmp_path / "out.txt"
    with out.open("w") as stdout:
        run = subprocess.run([sys.executable, "-m", "exlibris", "play", "--seats",
                              "random,random", "--seed", "2", "--log", "/dev/stdout"],
                             stdout=stdout, stderr=subprocess.PIPE, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    text = out.read_text()
    assert text.count('"event"') > 100 and "Inspection Form" in text


@pytest.mark.parametrize("port", ["9" * 5000, "70000", "0"])
def test_a_ray_address_port_out_of_range_is_one_error(port: str) -> None:
    from exlibris.simulate.backends import BackendError, check_listening

    with pytest.raises(BackendError, match="not a port"):
        check_listening(f"127.0.0.1:{port}")
