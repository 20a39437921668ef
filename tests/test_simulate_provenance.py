"""`exlibris simulate`: provenance (the manifest, --resume under other rules, rows
outside the plan, `simulate report`), the rows' own columns, and what a hostile
environment does to a run (output paths, damaged files, counts, processes)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.limits import MAX_SIM_GAMES, MAX_SIM_WORKERS
from exlibris.simulate import figures as fig
from exlibris.simulate import manifest, plan, progress, rows, runner
from exlibris.simulate.plan import Cell
from exlibris.simulate.runner import RunConfig, simulate

STANDARD2 = Cell("standard", 2)
TINY = ("kind: variant\nid: tiny-hands\nname: Tiny hands\nextends: standard\n"
        "text: Fewer cards in hand.\nsettings:\n  setup:\n    hand_size: {n}\n")


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["simulate", *args])


def same(table: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in rows.TIMING} for r in table]


# ------------------------------------------------------------------ provenance

def test_a_run_writes_a_manifest_of_its_rules_and_command(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert invoke("--games", "2", "--seats", "random", "--workers", "1", "--out", str(out)
                  ).exit_code == 0
    data = manifest.read(manifest.manifest_path(out))
    assert data["plan"]["games"] == 2 and data["plan"]["cells"] == [["standard", 2]]
    assert len(data["files"]["rules/standard.yaml"]) == 64  # a SHA-256
    assert data["exlibris"] and isinstance(data["command"], list)


def test_resume_after_a_rules_file_changed_is_refused_naming_it(tmp_path: Path) -> None:
    mine = tmp_path / "tiny-hands.yaml"
    mine.write_text(TINY.format(n=4))
    out = tmp_path / "r.jsonl"
    args = ["--seats", "random", "--variant", str(mine), "--workers", "1", "--out", str(out)]
    assert invoke("--games", "2", *args).exit_code == 0
    mine.write_text(TINY.format(n=5))
    result = invoke("--games", "4", *args, "--resume")
    assert result.exit_code == 2, result.output
    assert "the rules changed" in result.output and str(mine.resolve()) in result.output
    assert "Traceback" not in result.output
    assert len(rows.read(out)) == 4  # the rows of the old rules are untouched


def test_resume_refuses_rows_outside_the_plan(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    base = ["--seats", "random", "--workers", "1", "--out", str(out)]
    assert invoke("--games", "3", *base).exit_code == 0
    smaller = invoke("--games", "2", *base, "--resume")
    assert smaller.exit_code == 2 and "outside this run's plan" in smaller.output
    dropped = invoke("--games", "3", "--variant", "friendlier", *base, "--resume")
    assert dropped.exit_code == 2 and "game 0 of standard" in dropped.output
    assert len(rows.read(out)) == 6


def test_simulate_report_reads_rows_on_disk(tmp_path: Path) -> None:
    out, report = tmp_path / "r.jsonl", tmp_path / "again.html"
    ran = invoke("--games", "4", "--seats", "greedy,random", "--variant", "friendlier",
                 "--variant", "standard", "--workers", "1", "--out", str(out), "--json")
    assert ran.exit_code == 0, ran.output
    result = CliRunner().invoke(cli, ["simulate", "report", str(out), "--report", str(report),
                                      "--json"])
    assert result.exit_code == 0, result.output
    again = json.loads(result.stdout)
    first = json.loads(ran.stdout)
    assert again["cells"] == first["cells"] and again["comparisons"] == first["comparisons"]
    assert again["comparisons"][0]["first"] == "standard"
    assert "Ex Libris balance report" in report.read_text()
    missing = CliRunner().invoke(cli, ["simulate", "report", str(tmp_path / "no.jsonl")])
    assert missing.exit_code == 2 and "no such rows file" in missing.output


def test_variant_all_is_compared_against_standard() -> None:
    cells, _ = plan.cells(load_catalog(), ["all"], [2])
    assert cells[0] == STANDARD2
    table = [r for c in (Cell("beginner", 2), STANDARD2)
             for r in simulate(RunConfig([c], 2, 1, ["random"])).rows]
    data = fig.figures(table, {"variants": ["beginner", "standard"]})
    assert data["comparisons"][0]["first"] == "standard"


def test_a_solo_cell_has_no_fair_share() -> None:
    result = simulate(RunConfig([Cell("solo", 1)], 2, 3, ["greedy"]))
    cell = fig.figures(result.rows)["cells"][0]
    assert cell["fair_share"] is None
    assert all(e["flag"] is None for group in cell["win_rate"].values() for e in group)
    assert "balance" not in cell["measures"]


def test_rows_carry_each_players_decisions_thinking_and_a_list_of_specials(
        tmp_path: Path) -> None:
    result = simulate(RunConfig([STANDARD2], 2, 5, ["greedy", "random"]))
    for game in (result.rows[:2], result.rows[2:]):
        assert sum(r["player_decisions"] for r in game) == game[0]["decisions"]
        assert all(r["options"] >= 2 * r["player_decisions"] for r in game)
        assert all(r["thinking"] >= r["slowest"] > 0 for r in game)
        assert all(isinstance(r["specials"], list) for r in game)
    for suffix in rows.FORMATS:
        path = tmp_path / f"r{suffix}"
        rows.write(path, result.rows)
        assert rows.read(path) == result.rows


def test_a_variant_given_by_path_replays_by_the_same_path(tmp_path: Path) -> None:
    mine = tmp_path / "tiny-hands.yaml"
    mine.write_text(TINY.format(n=4))
    config = RunConfig([Cell("tiny-hands", 2)], 1, 1, ["random"], content=(str(mine),),
                       variant_paths={"tiny-hands": str(mine)})
    command = config.spec(Cell("tiny-hands", 2), 0).replay_command()
    assert f"--variant {mine}" in command and "--content" not in command


# ------------------------------------------------------------------ outputs

@pytest.mark.parametrize("option", ["--out", "--report", "--failures"])
def test_an_output_in_a_missing_folder_is_one_clear_error(tmp_path: Path, option: str
                                                          ) -> None:
    target = tmp_path / "nowhere" / ("r.html" if option == "--report" else "r.jsonl")
    result = invoke("--games", "1", "--seats", "random", option, str(target))
    assert result.exit_code == 2, result.output
    assert "no folder" in result.output and "Traceback" not in result.output


def test_a_full_disk_leaves_the_old_report_whole(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    report = tmp_path / "r.html"
    report.write_text("the old report")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    result = invoke("--games", "1", "--seats", "random", "--workers", "1", "--report",
                    str(report))
    assert result.exit_code == 2, result.output
    assert "No space left" in result.output and "Traceback" not in result.output
    assert report.read_text() == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_a_full_disk_under_the_rows_is_one_clear_error(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def full(path, table):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(rows, "write", full)
    out = tmp_path / "r.jsonl"
    result = invoke("--games", "2", "--seats", "random", "--workers", "1", "--out", str(out))
    assert result.exit_code == 2 and "No space left" in result.output
    assert "--resume" in result.output and runner.journal_path(out).exists()


def test_failures_never_deletes_an_unrelated_file_or_the_results(tmp_path: Path) -> None:
    notes = tmp_path / "notes3.txt"
    notes.write_text("my notes\n")
    out = tmp_path / "r.jsonl"
    result = invoke("--games", "1", "--seats", "random", "--out", str(out), "--failures",
                    str(notes))
    assert result.exit_code == 2 and "not a failures file" in result.output
    assert notes.read_text() == "my notes\n"
    same_file = invoke("--games", "1", "--seats", "random", "--out", str(out), "--failures",
                       str(out))
    assert same_file.exit_code == 2 and "give each its own file" in same_file.output


# ------------------------------------------------------------------ counts

def test_games_and_workers_are_bounded() -> None:
    games = invoke("--games", str(MAX_SIM_GAMES + 1))
    assert games.exit_code == 2 and f"1<=x<={MAX_SIM_GAMES}" in games.output
    workers = invoke("--games", "1", "--workers", str(MAX_SIM_WORKERS + 1))
    assert workers.exit_code == 2 and "Traceback" not in workers.output
    with pytest.raises(runner.RunError, match="at most"):
        simulate(RunConfig([STANDARD2] * 20, MAX_SIM_GAMES, 1, ["random"]))


class Stop(KeyboardInterrupt):
    pass


def test_the_plan_is_streamed_not_built() -> None:
    def stop(done: int, failed: int) -> None:
        raise Stop

    clock = time.perf_counter()
    with pytest.raises(Stop):
        simulate(RunConfig([STANDARD2], MAX_SIM_GAMES, 1, ["random"]), progress=stop)
    assert time.perf_counter() - clock < 20  # a built plan of a million specs: far more


# ------------------------------------------------------------------ damaged files

def _interrupted(tmp_path: Path, games: int = 6) -> tuple[RunConfig, Path]:
    out = tmp_path / "r.jsonl"
    config = RunConfig([STANDARD2], games, 9, ["random"], out=out)
    seen: list[int] = []

    def progress(done: int, failed: int) -> None:
        seen.append(done)
        if sum(seen) >= 4:
            raise Stop

    with pytest.raises(Stop):
        simulate(config, progress=progress)
    return config, runner.journal_path(out)


@pytest.mark.parametrize("damage", [b"[1, 2]\n", b'{"rows": 5}\n', b"\x00\xff\xfe binary\n",
                                    "row missing a key"])
def test_a_damaged_journal_line_is_named_and_the_rest_resumes(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    config, journal = _interrupted(tmp_path)
    lines = journal.read_bytes().splitlines(keepends=True)
    if damage == "row missing a key":
        entry = json.loads(lines[1])
        del entry["rows"][0]["total"]
        damage = (json.dumps(entry) + "\n").encode()
    lines[1] = damage
    journal.write_bytes(b"".join(lines))
    config.resume = True
    result = simulate(config)
    assert result.notes and result.notes[0].startswith(f"{journal}:2: ")
    assert result.kept == len(lines) - 1
    straight = simulate(RunConfig([STANDARD2], 6, 9, ["random"]))
    assert same(rows.read(config.out)) == same(straight.rows)  # type: ignore[arg-type]


def test_a_damaged_csv_cell_is_named_and_its_game_played_again(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert invoke("--games", "3", "--seats", "random", "--seed", "4", "--workers", "1",
                  "--out", str(out)).exit_code == 0
    text = out.read_text().splitlines()
    header = text[0].split(",")
    cells = text[3].split(",")
    cells[header.index("seed")] = "two"
    text[3] = ",".join(cells)
    out.write_text("\n".join(text) + "\n")
    result = invoke("--games", "3", "--seats", "random", "--seed", "4", "--workers", "1",
                    "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert f"{out}:4: column 'seed' holds 'two'" in result.output
    assert "2 kept from before" in result.output
    assert len(rows.read(out)) == 6


def test_a_binary_rows_file_is_named_and_nothing_in_it_trusted(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert invoke("--games", "2", "--seats", "random", "--workers", "1", "--out", str(out)
                  ).exit_code == 0
    out.write_bytes(os.urandom(3000).replace(b"\n", b"\x00") + b"\n")
    result = invoke("--games", "2", "--seats", "random", "--workers", "1", "--out", str(out),
                    "--resume")
    assert result.exit_code == 0, result.output
    assert f"{out}:1: not a line of JSON" in result.output
    assert len(rows.read(out)) == 4


def test_a_damaged_parquet_file_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "r.parquet"
    assert invoke("--games", "1", "--seats", "random", "--workers", "1", "--out", str(out)
                  ).exit_code == 0
    out.write_bytes(b"PAR1 not really")
    result = invoke("--games", "1", "--seats", "random", "--out", str(out), "--resume")
    assert result.exit_code == 2 and f"{out}: not a readable parquet file" in result.output


# ------------------------------------------------------------------ progress

def test_the_rate_is_rolling_and_the_time_left_honest() -> None:
    now = [0.0]
    rate = progress.Rate(1000, done=880, window=10, clock=lambda: now[0])
    now[0] = 0.01
    rate.add(0)  # 880 kept from before arrive at once: no rate from them
    assert rate.per_second is None
    for _ in range(20):
        now[0] += 1.0
        rate.add(2)
    assert rate.per_second == pytest.approx(2.0)
    assert rate.seconds_left == pytest.approx((1000 - 920) / 2.0)


def test_progress_lines_when_standard_error_is_not_a_terminal(tmp_path: Path) -> None:
    import io

    now = [0.0]
    out = io.StringIO()
    lines = progress.Lines(out, every=5, clock=lambda: now[0])
    lines.started(10, 0)
    for _ in range(10):
        now[0] += 2
        lines.progress(1, 0)
    text = out.getvalue().splitlines()
    assert 3 <= len(text) <= 6 and text[-1].startswith("simulate: 10/10 games (100%)")
    assert "games/s" in text[0] and "left" in text[0]
    result = invoke("--games", "2", "--seats", "random", "--workers", "1")
    assert "simulate: 2/2 games" in result.output


# ------------------------------------------------------------------ processes

def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.fuzz
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_workers_die_with_their_parent(tmp_path: Path, how: int) -> None:
    """SIGKILL and SIGTERM to the command, SIGINT to its whole process group (Ctrl-C)."""
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "exlibris", "simulate", "--games", "400",
                             "--seats", "greedy", "--workers", "2", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    journal = runner.journal_path(out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (journal.exists() and journal.stat().st_size):
        time.sleep(0.2)
    children = _children(proc.pid)
    assert len(children) >= 2  # the workers (and the resource tracker)
    if how == signal.SIGINT:
        os.killpg(proc.pid, how)
    else:
        proc.send_signal(how)
    _, err = proc.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(c) for c in children):
        time.sleep(0.2)
    assert not [c for c in children if _alive(c)]
    if how != signal.SIGKILL:
        assert proc.returncode == 128 + how
        assert b"Interrupted" in err and b"Traceback" not in err
        assert b"leaked" not in err
    assert journal.exists()


def test_a_dead_worker_is_not_a_usage_mistake(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from exlibris.simulate import backends

    def dies(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise backends.WorkerLost("a Ray task failed (WorkerCrashedError: gone)")

    monkeypatch.setattr(backends, "run", dies)
    result = invoke("--games", "1", "--seats", "random")
    assert result.exit_code == 1 and "WorkerCrashedError" in result.output


def test_a_ray_address_where_nothing_listens_fails_fast_and_leaves_no_journal(
        tmp_path: Path) -> None:
    pytest.importorskip("ray")
    out = tmp_path / "r.jsonl"
    clock = time.monotonic()
    result = invoke("--games", "2", "--backend", "ray", "--address", "127.0.0.1:1", "--out",
                    str(out))
    assert time.monotonic() - clock <= 10
    assert result.exit_code == 2 and "could not connect to Ray at 127.0.0.1:1" in result.output
    assert result.output.count("\n") == 1
    assert not runner.journal_path(out).exists()
    again = invoke("--games", "1", "--seats", "random", "--workers", "1", "--out", str(out))
    assert again.exit_code == 0, again.output


# ------------------------------------------------------------------ a `ray start` cluster

@pytest.mark.slow
def test_a_ray_start_cluster_of_the_pinned_version(tmp_path: Path) -> None:
    """`ray start --head` (token authentication by default since Ray 2.59): the rows
    are the local ones; a wrong token is one error naming RAY_AUTH_MODE."""
    ray = pytest.importorskip("ray")
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    import tempfile

    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    short = tempfile.mkdtemp(prefix="xr", dir="/tmp")  # Ray's socket paths must be short
    head = subprocess.Popen(
        [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block",
         f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=2",
         "--include-dashboard=false", "--disable-usage-stats",
         f"--temp-dir={short}"],
        stdout=(tmp_path / "head.log").open("w"), stderr=subprocess.STDOUT, env=env,
        start_new_session=True)
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(1)
        base = [sys.executable, "-m", "exlibris", "simulate", "--games", "4", "--seats",
                "random", "--seed", "3", "--backend", "ray", "--address", address]
        out = tmp_path / "r.jsonl"
        done = subprocess.run([*base, "--out", str(out)], capture_output=True, text=True,
                              env=env, timeout=300, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        local = simulate(RunConfig([STANDARD2], 4, 3, ["random"])).rows
        assert same(rows.read(out)) == same(local)
        # Ray tries a refused client again each second, 20 times unless told
        # (RAY_NUM_REDIS_GET_RETRIES, ray/_private/node.py): twice is enough here
        wrong = subprocess.run(base, capture_output=True, text=True, timeout=300, check=False,
                               env={**env, "RAY_AUTH_MODE": "token",
                                    "RAY_AUTH_TOKEN": "0" * 32,
                                    "RAY_NUM_REDIS_GET_RETRIES": "2"})
        assert wrong.returncode == 2, wrong.stderr[-2000:]
        assert "RAY_AUTH_MODE" in wrong.stderr and "Traceback" not in wrong.stderr
        assert wrong.stderr.count("\n") == 1
    finally:
        # SIGTERM to `ray start --block` alone: it stops its own processes (in about 2 s;
        # sent to its whole group, they stop each other's cleanup, and it waited 20 s)
        head.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=20)
        with contextlib.suppress(ProcessLookupError):  # anything left of the group
            os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=20)
        shutil.rmtree(short, ignore_errors=True)
    assert ray.__version__.startswith("2.60.")


@pytest.mark.fuzz
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_a_killed_worker_ends_the_run_with_exit_1_and_keeps_the_games(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "exlibris", "simulate", "--games", "400",
                             "--seats", "greedy", "--workers", "2", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = runner.journal_path(out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (journal.exists() and journal.stat().st_size):
        time.sleep(0.2)
    command = Path(f"/proc/{proc.pid}/cmdline").read_bytes()  # a forked worker's too
    workers = [c for c in _children(proc.pid)
               if Path(f"/proc/{c}/cmdline").read_bytes() == command
               or b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err[-2000:]
    assert b"a worker process died" in err and b"--resume" in err and b"Traceback" not in err
    assert journal.exists()
