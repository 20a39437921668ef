"""`exlibris play` in a real terminal (a pseudo-terminal) and in a killed process.

These run the command as a subprocess; its autosave goes to a temporary
``XDG_STATE_HOME`` or ``--save`` file, never to the real home.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.interactive.frame import visible
from exlibris.interactive.fullscreen import FRAME_END

ROOT = Path(__file__).resolve().parent.parent
FRAME = FRAME_END.encode()
LEAVE = b"\x1b[?1049l"  # the alternate screen is left
# How long to wait for what a test checks before it fails: generous, since every wait
# ends as soon as the thing waited for is there (a loaded machine only makes it later)
PATIENCE = float(os.environ.get("EXLIBRIS_PTY_PATIENCE", "180"))
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals only")]


def _ctrl_c_as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A subprocess on a pseudo-terminal (120 columns by 40 rows unless told)."""

    def __init__(self, args: list[str], env: dict[str, str], size: tuple[int, int] = (120, 40)
                 ) -> None:
        master, slave = os.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        # Ctrl-C as at a person's terminal, even when the tests run where it is ignored
        # (a background job of a shell ignores it, and its children inherit that)
        self.proc = subprocess.Popen([sys.executable, "-m", "exlibris", *args], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                     preexec_fn=_ctrl_c_as_at_a_terminal)
        os.close(slave)
        self.master = master
        self.output = b""
        self._frames = 0  # frames ended in ``output``, counted as it grows

    def read_until(self, count: int, marker: bytes = FRAME, timeout: float = PATIENCE) -> None:
        """Read until ``marker`` (by default: the end of a frame) has appeared ``count``
        times in all output."""
        end = time.monotonic() + timeout
        seen = self.frames if marker == FRAME else lambda: self.output.count(marker)
        while seen() < count:
            assert time.monotonic() < end, self.output[-2000:].decode(errors="replace")
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self._take(os.read(self.master, 65536))
                except OSError:  # the child has gone
                    break

    def frames(self) -> int:
        return self._frames

    def _take(self, data: bytes) -> None:
        """Add ``data`` to the output, counting the frames it ends (one may have begun
        in what came before)."""
        start = max(0, len(self.output) - len(FRAME) + 1)
        self.output += data
        self._frames += self.output.count(FRAME, start)

    def press(self, keys: bytes, frames: int = 1) -> None:
        """Send keys and wait for the frames they cause (one per key)."""
        seen = self.frames()
        self.send(keys)
        self.read_until(seen + frames)

    def last_frame(self) -> list[str]:
        """The lines of the newest frame, without colour codes."""
        text = self.output.decode(errors="replace")
        body = text[:text.rindex(FRAME.decode())]
        body = body[body.rindex("\x1b[H") + 3:]
        body = body.replace("\x1b[K", "").replace("\r", "")
        return [visible(line) for line in body.split("\n")]

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def finish(self, timeout: float = PATIENCE) -> int:
        """Wait for the process to end (reading all it writes); its exit status."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._drain()
        code = self.proc.wait(timeout=5)
        self._drain()
        self.lflag = termios.tcgetattr(self.master)[3]  # the terminal as the game left it
        os.close(self.master)
        return code

    def _drain(self) -> None:
        """Read until the output pauses for 50 ms."""
        while self.read_some():
            pass

    def read_some(self, timeout: float = 0.05) -> bool:
        """Read what the process has written within ``timeout``, if anything; whether
        anything was read."""
        if not select.select([self.master], [], [], timeout)[0]:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self._take(data)
        return bool(data)


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(XDG_STATE_HOME=str(tmp_path / "state"), TERM="xterm-256color")
    return env


@pytest.fixture(scope="module")
def straight_table(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The final table of seed 5, you (always option 1) against greedy, played through."""
    folder = tmp_path_factory.mktemp("straight")
    table = folder / "straight.yaml"
    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "5",
                                      "--save", str(folder / "straight.json"),
                                      "--table-out", str(table)], input="1\n" * 800)
    assert result.exit_code == 0
    return table.read_text()


def test_at_a_terminal_arrow_keys_choose_and_the_default_is_you_against_greedy(
        tmp_path: Path) -> None:
    term = Terminal(["play", "--seed", "5"], environment(tmp_path))
    term.read_until(1)
    assert "You, choose your library" in "\n".join(term.last_frame())
    term.press(b"\x1b[B")  # down: the second library
    assert re.search(rb"\x1b\[([0-9;]*;)?7m", term.output)  # the cursor in reverse video
    seen = term.frames()
    fcntl.ioctl(term.master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    term.read_until(seen + 1)  # a resized terminal is drawn again, at its new size
    assert len(term.last_frame()) == 30
    term.press(b"\r")
    term.press(b"2")  # a typed number moves the cursor too
    assert "›  2. " in "\n".join(term.last_frame())
    term.press(b"\r")
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0
    out = term.output.decode(errors="replace")
    assert "You (human), Greedy 2 (greedy)" in out
    assert colours(term.output)  # colour at a terminal
    assert LEAVE in term.output
    save = tmp_path / "state" / "exlibris" / "autosave.json"
    assert f"Resume with: exlibris play --resume {save}" in out
    record = json.loads(save.read_text())
    assert record["seats"] == ["human", "greedy"]
    mine = [d["index"] for d in record["decisions"] if d["seat"] == 0]
    assert mine[0] == 1


def test_no_color_at_a_terminal(tmp_path: Path) -> None:
    env = environment(tmp_path) | {"NO_COLOR": "1"}
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5"], env)
    term.read_until(1)
    term.send(b"q\r")
    assert term.finish() == 0
    assert b"\x1b[1m" in term.output  # bold and reverse video stay; colours go
    assert colours(term.output) == set()


def colours(output: bytes) -> set[int]:
    """The colour codes among the terminal's SGR sequences (foreground and background)."""
    codes = set()
    for params in re.findall(rb"\x1b\[([0-9;]*)m", output):
        codes |= {int(p) for p in params.split(b";") if p}
    return {c for c in codes if 30 <= c <= 49 or 90 <= c <= 107}


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "term"])
def test_ctrl_c_saves_and_resume_ends_the_same(tmp_path: Path, straight_table: str,
                                               stop: signal.Signals) -> None:
    save = tmp_path / "s.json"
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5", "--save", str(save)],
                    environment(tmp_path))
    term.read_until(1)
    for _ in range(6):
        term.press(b"\r")  # Enter: the highlighted (first) option
    term.proc.send_signal(stop)
    assert term.finish() == 130
    assert term.lflag & termios.ECHO and term.lflag & termios.ICANON  # the key mode undone
    assert LEAVE in term.output and b"Interrupted. Game saved to" in term.output
    record = json.loads(save.read_text())
    assert sum(d["seat"] == 0 for d in record["decisions"]) >= 3
    resumed = CliRunner().invoke(cli, ["play", "--resume", str(save), "--table-out",
                                       str(tmp_path / "resumed.yaml")], input="1\n" * 800)
    assert resumed.exit_code == 0
    assert (tmp_path / "resumed.yaml").read_text() == straight_table


def test_a_killed_game_resumes_to_the_same_end(tmp_path: Path, straight_table: str) -> None:
    for answers in (3, 25):
        save = tmp_path / f"killed{answers}.json"
        proc = subprocess.Popen(
            [sys.executable, "-m", "exlibris", "play", "--seats", "human,greedy", "--seed",
             "5", "--save", str(save)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=environment(tmp_path), cwd=ROOT)
        assert proc.stdin is not None
        proc.stdin.write(b"1\n" * answers)
        proc.stdin.flush()
        end = time.monotonic() + PATIENCE
        last, steady = -1, 0
        while time.monotonic() < end and steady < 10:  # until the save stops growing
            try:
                done = len(json.loads(save.read_text())["decisions"])
            except (OSError, ValueError):
                done = -1
            steady = steady + 1 if done == last and done > 0 else 0
            last = done
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        resumed = CliRunner().invoke(cli, ["play", "--resume", str(save), "--table-out",
                                           str(tmp_path / "resumed.yaml")], input="1\n" * 800)
        assert resumed.exit_code == 0, resumed.output
        assert (tmp_path / "resumed.yaml").read_text() == straight_table


def test_hot_seat_waits_for_enter_and_replay_steps_at_a_terminal(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    term = Terminal(["play", "--seats", "human,human", "--names", "Ada,Bo", "--seed", "3",
                     "--save", str(save)], environment(tmp_path))
    term.read_until(1)
    assert term.last_frame()[0].startswith("— Pass the game to Ada")
    assert b"Hand (" not in term.output  # nothing of anyone's hand before Enter
    term.press(b"\r")
    assert "Ada, choose your library" in "\n".join(term.last_frame())
    term.press(b"\r")  # the first library
    assert term.last_frame()[0].startswith("— Pass the game to Bo")
    term.press(b"\r")
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0
    assert len(json.loads(save.read_text())["decisions"]) == 1
    step = Terminal(["replay", str(save)], environment(tmp_path))
    step.read_until(1, b"Enter: next")
    assert b"Decision 1 of 1" in step.output
    step.send(b"\r")
    step.read_until(1, b"The record ends here")
    assert step.finish() == 0


def check_frame(lines: list[str], size: tuple[int, int]) -> None:
    """A decision frame: the terminal's size, nothing wider, everything of one's own."""
    columns, rows = size
    assert len(lines) == rows, lines
    assert all(len(line) <= columns for line in lines), lines
    text = "\n".join(lines)
    parts = ("You, ", "›  1. ") if "set-up" in lines[0] else ("You, ", "›  1. ", "Hand (",
                                                               "Shelf: ", "Focus: ")
    for part in parts:
        assert part in text, text
    assert lines[-1].startswith("> ")


def play_through(term: Terminal, size: tuple[int, int], limit: int | None = None) -> int:
    """Press Enter on every frame (checking each) until the game ends or ``limit``."""
    term.read_until(1)
    pressed = 0
    while term.proc.poll() is None and (limit is None or pressed < limit):
        if "is thinking…" in term.last_frame()[-1]:  # a bot slowed by a loaded machine:
            term.read_until(term.frames() + 1)  # its answer, then the next question
            continue
        check_frame(term.last_frame(), size)
        seen = term.frames()
        term.send(b"\r")
        pressed += 1
        end = time.monotonic() + 30
        while term.frames() == seen and LEAVE not in term.output:
            assert time.monotonic() < end
            term.read_some()
        if LEAVE in term.output:
            break
    return pressed


def test_a_whole_game_full_screen_quit_and_resume_ends_as_line_mode(
        tmp_path: Path, straight_table: str) -> None:
    size = (80, 24)
    save = tmp_path / "s.json"
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5", "--save", str(save)],
                    environment(tmp_path), size)
    play_through(term, size, limit=40)
    term.send(b"q\r")
    assert term.finish() == 0
    assert b"Stopped. Game saved to" in term.output
    assert not json.loads(save.read_text())["finished"]
    again = Terminal(["play", "--resume", str(save), "--table-out", str(tmp_path / "t.yaml")],
                     environment(tmp_path), size)
    assert play_through(again, size) > 20
    assert again.finish() == 0
    assert (tmp_path / "t.yaml").read_text() == straight_table
    assert b"Winner" in again.output


@pytest.mark.slow
def test_a_whole_four_player_game_full_screen_at_160_by_50(tmp_path: Path) -> None:
    size = (160, 50)
    term = Terminal(["play", "--seats", "human,greedy,random,greedy", "--seed", "8", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), size)
    assert play_through(term, size) > 40
    assert term.finish() == 0


def test_five_humans_play_the_job_faire_hot_seat_at_a_terminal(tmp_path: Path) -> None:
    """EXP-5P and the Job Faire at a terminal: hand-offs, the display, ``?``, quit."""
    term = Terminal(["play", "--seats", "human,human,human,human,human", "--variant",
                     "job-faire", "--seed", "2", "--save", str(tmp_path / "g.json")],
                    environment(tmp_path))
    term.read_until(1, b"press Enter when ready")

    def settle() -> None:
        settled = -1
        while len(term.output) != settled:
            settled = len(term.output)
            time.sleep(0.3)
            term._drain()

    for _ in range(8):  # hand-off screens and first options alike take Enter
        settle()
        term.send(b"\r")
    settle()
    before = len(term.output)
    term.send(b"?\r")
    settle()
    assert b"(#" in term.output[before:] or b"Home action" in term.output[before:]
    term.send(b"q\r")
    assert term.finish() == 0
    out = term.output.decode(errors="replace")
    assert "Job Faire" in out and "special assistant deck" in out
    assert out.count("Pass the game to Player") >= 2 and "Traceback" not in out


def play_to_the_end(args: list[str], tmp_path: Path, limit: float = 60) -> tuple[str, Path]:
    """Answer every decision with Enter (the highlighted option) until the game ends;
    the screen output and the table written."""
    table = tmp_path / "end.yaml"
    term = Terminal(["play", *args, "--table-out", str(table)], environment(tmp_path))
    end = time.monotonic() + limit
    while term.proc.poll() is None:
        assert time.monotonic() < end, term.output[-2000:].decode(errors="replace")
        seen = term.frames()
        term.send(b"\r")
        wait = time.monotonic() + 10
        while term.frames() <= seen and term.proc.poll() is None and time.monotonic() < wait:
            term.read_some()  # on at the frame's end, not after a pause in the output
    assert term.finish() == 0
    return term.output.decode(errors="replace"), table


def rescored_totals(table: Path) -> dict[str, int]:
    result = CliRunner().invoke(cli, ["score", "--json", str(table)])
    assert result.exit_code == 0, result.output
    return {p["name"]: p["total"] for p in json.loads(result.output)["players"]}


def screen_totals(out: str) -> dict[str, int]:
    ranking = visible(out[out.rindex("Ranking: "):].splitlines()[0])
    return {name: int(total) for name, total in re.findall(r"\d+\. (.+?) \((-?\d+)\)", ranking)}


@pytest.mark.slow
def test_an_expanded_game_is_played_to_the_end_at_a_terminal(tmp_path: Path) -> None:
    out, table = play_to_the_end(["--variant", "expanded", "--seats", "human,greedy",
                                  "--seed", "3"], tmp_path)
    assert "B6 artifacts" in out and "Winner" in out
    assert "variant: expanded" in table.read_text()
    assert screen_totals(out) == rescored_totals(table)


@pytest.mark.slow
def test_a_five_player_hot_seat_job_faire_game_is_played_to_the_end_at_a_terminal(
        tmp_path: Path) -> None:
    out, table = play_to_the_end(["--variant", "job-faire", "--seats",
                                  "human,human,greedy,random,greedy", "--seed", "4"], tmp_path)
    assert "Job Faire" in out and "Winner" in out
    assert table.read_text().count("  - name: ") == 5
    assert screen_totals(out) == rescored_totals(table)


def test_a_quick_bot_is_never_shown_thinking(tmp_path: Path) -> None:
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5"], environment(tmp_path))
    term.read_until(1)
    for _ in range(4):
        term.press(b"\r")
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0
    assert b"is thinking" not in term.output


def test_why_not_at_a_terminal_opens_on_the_answer(tmp_path: Path) -> None:
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "2"], environment(tmp_path))
    term.read_until(1)
    term.press(b"\r")  # the library
    for key in b"why Book Seller space 4":
        term.press(bytes([key]))
    term.press(b"\r")
    screen = " ".join(" ".join(term.last_frame()).split())
    assert "Why not Book Seller space 4?" in screen
    assert "(PLACE-06)" in screen and "needs 4 players; this game has 2" in screen
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0


def test_since_your_turn_strip_and_the_log_opens_at_its_newest_entry(tmp_path: Path) -> None:
    """At 80×24 the decision says what happened since your last answer; the log view
    (Tab) opens at its newest entry, Home goes to the oldest and End back."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5"], environment(tmp_path),
                    size=(80, 24))
    term.read_until(1)
    term.press(b"\r")  # the library
    term.press(b"\r")  # your library (home spaces), then a home space: its home action
    term.press(b"\r")
    term.press(b"\r")
    screen = " ".join(term.last_frame())
    assert "Since your turn" in screen and "Greedy 2 " in screen, screen
    for _ in range(4):  # the form, the locations, the players, the log
        term.press(b"\t")
    log = term.last_frame()
    assert "[log]" in log[next(i for i, line in enumerate(log) if "── " in line)]
    newest = [line for line in log if line.startswith("• ")]
    assert newest
    term.press(b"\x1b[H")  # Home: the oldest entries
    oldest = [line for line in term.last_frame() if line.startswith("• ")]
    term.press(b"\x1b[F")  # End: the newest again
    assert [line for line in term.last_frame() if line.startswith("• ")] == newest
    assert oldest[0] != newest[-1] or len(newest) < 3
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0


def test_a_burst_of_backspaces_loses_no_key(tmp_path: Path) -> None:
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5"], environment(tmp_path),
                    size=(80, 24))
    term.read_until(1)
    seen = term.frames()
    term.send(b"xyz\x7f\x7f\x7f2")  # typed in one burst: seven keys, seven frames
    term.read_until(seen + 7)
    assert "›  2. " in "\n".join(term.last_frame())
    assert term.last_frame()[-1].rstrip() in ("> 2", ">2", "> 2 ")
    assert b"xyz" not in term.output.split(FRAME)[-1]  # never echoed by the terminal
    term.press(b"\x7f")
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0


def test_a_placement_is_asked_location_then_space_full_screen(tmp_path: Path) -> None:
    """Full screen: the location (or your library), then the space; Esc goes back a
    step; a typed full label at the first step places at once."""
    save = tmp_path / "p.json"
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5", "--save", str(save)],
                    environment(tmp_path), size=(80, 24))
    term.read_until(1)
    term.press(b"\r")  # the library
    screen = "\n".join(term.last_frame())
    assert "You, place an assistant — which location?" in screen
    assert "›  1. your library (home spaces) … (6 options)" in screen
    term.press(b"2")
    term.press(b"\r")
    screen = "\n".join(term.last_frame())
    assert "› Diviner's Hut (#1) — which space?" in screen
    assert "place standard assistant at Diviner's Hut (#1) space 1" in screen
    term.press(b"\x1b")  # Esc: back to the location
    assert "You, place an assistant — which location?" in "\n".join(term.last_frame())
    for key in b"place The Wizard on home space 2":
        term.press(bytes([key]))
    term.press(b"\r")
    assert "You, which home action?" in "\n".join(term.last_frame())
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0
    placed = [d["label"] for d in json.loads(save.read_text())["decisions"]
              if d["seat"] == 0 and d["kind"] == "place"]
    assert placed == ["place The Wizard on home space 2"]


def test_keys_typed_ahead_past_a_decision_do_not_answer_the_next_one(tmp_path: Path) -> None:
    """A burst at the first step of a placement: its two steps take the keys for them
    (the same keys whatever the options); the keys past the placement are dropped when
    the next decision (the home action, after the placement resolved) is asked."""
    save = tmp_path / "p.json"
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5", "--save", str(save)],
                    environment(tmp_path), size=(80, 24))
    term.read_until(1)
    term.press(b"\r")  # the library
    seen = term.frames()
    term.send(b"1\r1\r2\r")  # your library, home space 1, then "2" typed ahead
    term.read_until(seen + 3)
    time.sleep(0.5)
    term._drain()
    frame = term.last_frame()
    assert "You, which home action?" in "\n".join(frame)
    assert "›  1. " in "\n".join(frame) and frame[-1].rstrip() == ">"  # nothing typed
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0
    mine = [d for d in json.loads(save.read_text())["decisions"] if d["seat"] == 0]
    assert [d["kind"] for d in mine] == ["library", "place"]  # the home action not answered
    assert mine[-1]["label"] == "place The Wizard on home space 1"


def test_replay_wraps_at_words_and_only_enter_steps_on(tmp_path: Path) -> None:
    """Issue 27: a decision's line is wrapped at words to the terminal's width, and only
    Enter shows the next decision (another key is said to be neither; q stops)."""
    save = tmp_path / "s.json"
    CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "5", "--save",
                             str(save)], input="1\n" * 6)
    assert len(json.loads(save.read_text())["decisions"]) >= 4
    step = Terminal(["replay", str(save)], environment(tmp_path), (40, 30))
    step.read_until(1, b"Enter: next")
    step.send(b"x\r")
    step.read_until(1, b"is neither")
    step.read_until(2, b"Enter: next")
    assert b"Decision 2 of" not in step.output  # x did not step on
    step.send(b"\r")
    step.read_until(1, b"Decision 2 of")
    step.read_until(3, b"Enter: next")
    step.send(b"q\r")
    assert step.finish() == 0
    text = visible(step.output.decode(errors="replace")).replace("\r", "")
    said = text[text.index("Decision 1 of"):]
    said = said[:said.index("Enter: next")]
    assert all(len(line) <= 40 for line in said.split("\n")), said
    assert len(said.strip().split("\n")) > 1  # wrapped by the game, not by the terminal


def test_at_120_by_40_wrapped_lines_are_indented_and_no_panel_is_cut(tmp_path: Path) -> None:
    """Issue 27: at 120×40 with three players a wrapped option, log entry or help line
    goes on indented under its start, and another player's panel is whole or left to
    the players view (Tab)."""
    size = (120, 40)
    term = Terminal(["play", "--seats", "human,greedy,greedy", "--seed", "7", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), size)
    term.read_until(1)
    seen_players = False
    for _ in range(30):
        lines = term.last_frame()
        left = [line[:60].rstrip() for line in lines[:-2]]
        right = [line[63:] for line in lines[:-2] if len(line) > 63]
        if "What happened" in right:
            for line in right[right.index("What happened") + 1:]:
                assert line.startswith(("• ", "  ")), right  # a log entry or its rest
        for i, line in enumerate(left):
            if line.startswith(("Greedy 2 — ", "Greedy 3 — ")):  # a panel: whole
                seen_players = True
                assert any(row.startswith("└") or "Shelf: 0 cards" in row
                           for row in left[i:]), "\n".join(left)
        seen_players |= "(the players: Tab)" in left
        term.press(b"\r")
    assert seen_players
    term.press(b"?")
    term.press(b"\r")
    help_pane = [line[63:] for line in term.last_frame()]
    assert any(line.startswith("── [help]") for line in help_pane)
    body = [line for line in help_pane if line.strip()][1:-1]
    assert all(not line.startswith(" ") or line.startswith("  ") for line in body)
    term.press(b"\x1b[6~" * 6, frames=6)  # to its end: the seed is said there
    assert "seed 7" in "\n".join(term.last_frame())
    term.send(b"q\r")
    assert term.finish() == 0


def test_solo_shows_the_license_form_and_the_public_library_at_a_terminal(
        tmp_path: Path) -> None:
    """Issue 27: solo at 80×24: the header shows the license form's face-down
    categories and the players view (Tab) the public library, not a blank."""
    term = Terminal(["play", "--players", "1", "--seed", "7", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), (80, 24))
    term.read_until(1)
    term.press(b"\r")  # the first library; round 1
    text = "\n".join(term.last_frame())
    assert "license form" in text and "face down" in text, text
    term.press(b"\t\t\t", frames=3)  # the form, the locations, the players
    players = "\n".join(term.last_frame())
    assert "[players]" in players and "The public library (your opponent)" in players
    assert "license form: 2 face down" in players
    term.press(b"\x1b")  # back to the decision, then Enter to the end of the game
    prompts = set()
    while LEAVE not in term.output:
        prompts |= {line for line in term.last_frame() if line.startswith("You, ")}
        seen = term.frames()
        term.send(b"\r")
        end = time.monotonic() + 30
        while term.frames() == seen and LEAVE not in term.output:
            assert time.monotonic() < end
            term.read_some()
    assert "You, which location do you eliminate?" in prompts  # not "You, Which"
    assert term.finish() == 0
    out = visible(term.output.decode(errors="replace"))
    assert "Result: " in out and "B5 library focus" in out
    assert "B6 volunteers" not in out and "B7 artifacts" not in out  # no such modules
    assert "You's" not in out


# ---- issue 27: when the engine fails (an author's effect past the list limit) -----------------


NARROW = (100, 40)  # the decision below the table: its lines are whole


def type_answer(term: Terminal, text: str, marker: bytes) -> None:
    """Type ``text`` and Enter, then wait for a whole frame that shows ``marker``."""
    seen = term.output.count(marker)
    term.send(text.encode() + b"\r")
    wait_for(term, marker, seen + 1)


def wait_for(term: Terminal, marker: bytes, count: int = 1) -> None:
    """Wait until ``marker`` has appeared ``count`` times and a frame ends after it."""
    term.read_until(count, marker)
    end = time.monotonic() + PATIENCE
    while term.output.rfind(FRAME) < term.output.rfind(marker):
        assert time.monotonic() < end, term.output[-2000:].decode(errors="replace")
        term.read_some()


def screen_text(term: Terminal) -> str:
    return " ".join(" ".join(term.last_frame()).split())


def failing_game(tmp_path: Path, save: Path) -> Terminal:
    """Seed 5 with an author's Diviner's Hut that stops the game, at the offer to take
    back your placement there (decision 3; the game stopped at decision 4)."""
    from test_take_back import HUT, hostile_hut

    author = hostile_hut(tmp_path / "author")
    term = Terminal(["play", "--content", str(author), "--seats", "human,greedy", "--seed",
                     "5", "--save", str(save)], environment(tmp_path), NARROW)
    term.read_until(1)
    term.press(b"\r")  # the first library
    type_answer(term, HUT, b"Take back your latest decision")
    return term


def test_after_an_engine_error_the_full_screen_offers_to_take_back(tmp_path: Path) -> None:
    from test_take_back import HOME, HUT

    save = tmp_path / "s.json"
    term = failing_game(tmp_path, save)
    screen = screen_text(term)
    assert "The game stopped at decision 4: " in screen
    assert "diviners-hut.yaml:18:5:theeffectofdiviners-hutstoppedat" in "".join(
        screen.split())
    assert "[engine/effect]. Take back your latest decision and choose again?" in screen
    assert "› 1. take back your decision 3: place standard assistant" in screen
    assert "2. stop here (the game stays saved)" in screen
    assert "Hand (" in screen and LEAVE not in term.output  # the table, still full screen
    assert json.loads(save.read_text())["failure"]["decision"] == 4
    term.press(b"\r")  # Enter: the highlighted choice, take back
    screen = screen_text(term)
    assert f"Taking back: {HUT}" in screen and "You, place an assistant" in screen
    type_answer(term, HOME, b"which home action")
    term.press(b"q")
    term.send(b"\r")
    assert term.finish() == 0
    record = json.loads(save.read_text())
    assert "failure" not in record and record["decisions"][2]["label"] == HOME


def test_a_failed_game_stopped_at_a_terminal_resumes_to_the_offer(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    term = failing_game(tmp_path, save)
    term.send(b"\x1b")  # Esc: stop here
    assert term.finish() == 2
    out = " ".join(term.output.decode(errors="replace").split())
    assert LEAVE in term.output and "Traceback" not in out
    assert "exlibris play: the game stopped at decision 4" in out
    assert "offers again to take back the latest decision a person made" in out
    assert "Resume with" not in out and "stops at the same point" not in out
    again = Terminal(["play", "--resume", str(save)], environment(tmp_path), NARROW)
    wait_for(again, b"Take back your latest decision")
    before = " ".join(again.output.split(b"\x1b[?1049h")[0].decode(errors="replace").split())
    assert "Resuming at decision 4" in before
    assert "The game stopped at decision 4" in before and "you may take back" in before
    assert "take back your decision 3" in screen_text(again)
    again.proc.send_signal(signal.SIGINT)  # Ctrl-C at the offer: still never "Resume with"
    assert again.finish() == 130
    out = " ".join(again.output.decode(errors="replace").split())
    assert "Interrupted. The game stopped at decision 4" in out
    assert "offers again to take back" in out and "Resume with" not in out
    assert json.loads(save.read_text())["failure"]["decision"] == 4


def test_replay_of_a_failed_game_at_a_terminal_says_it_cannot_go_on(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    term = failing_game(tmp_path, save)
    term.send(b"2\r")  # the second choice: stop
    assert term.finish() == 2
    step = Terminal(["replay", str(save)], environment(tmp_path))
    for count in (1, 2, 3):
        step.read_until(count, b"Enter: next")
        step.send(b"\r")
    assert step.finish() == 2
    out = " ".join(step.output.decode(errors="replace").split())
    assert "Decision 3 of 3" in out and "You used Diviner's Hut (#1)." in out
    assert "the game stopped at decision 4" in out and "It cannot go on from here." in out
    assert "--resume" not in out and "Continue" not in out


# ---- issue 27: the glitches, each seen at a terminal ------------------------------------------


def enter_until(term: Terminal, seen_in: str, limit: int = 200) -> list[str]:
    """Press Enter (the highlighted option) until a frame whose text matches ``seen_in``
    (a regular expression); that frame's lines."""
    term.read_until(1)
    for _ in range(limit):
        lines = term.last_frame()
        if re.search(seen_in, "\n".join(lines)):
            return lines
        seen = term.frames()
        term.send(b"\r")
        end = time.monotonic() + 30
        while term.frames() == seen:
            assert time.monotonic() < end and LEAVE not in term.output, "\n".join(lines)
            term.read_some()
    raise AssertionError(f"no frame showed {seen_in!r}")


def test_a_shelf_of_ten_columns_is_drawn_in_blocks_within_80_columns(tmp_path: Path) -> None:
    """Issue 27: at 80×24 a shelf too tall for its grid is drawn one line a row; its
    columns past the width follow in a block of their own, each row whole on its line."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "4", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), (80, 24))
    lines = enter_until(term, r"Shelf: \d+ cards \(columns -9 to 0\)")
    start = next(i for i, line in enumerate(lines) if line.startswith("Shelf: "))
    end = next(i for i, line in enumerate(lines) if line.startswith("── "))
    shelf = lines[start + 1:end]
    assert all(len(line) <= 80 for line in lines), lines
    # a card the alphabetical check would flip is marked "!": its column is one wider
    assert [line for line in shelf if line.startswith("column")] == [
        "columns -9 to -4:", "columns -3 to 0:"], shelf
    rows = [line for line in shelf if not line.startswith("column")]
    assert all(re.match(r"row [ \d-]\d │", line) for line in rows), shelf  # none wrapped
    assert [len(line.split()) - 3 for line in rows] == [6, 6, 6, 4, 4, 4], shelf
    term.send(b"q\r")
    assert term.finish() == 0


def test_the_header_says_next_rounds_first_player_after_the_diviners_hut(
        tmp_path: Path) -> None:
    """Issue 27: Greedy 2 goes first in seed 1; once you use the Diviner's Hut the
    header says you go first from the next round."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "1", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), (80, 24))
    term.read_until(1)
    term.press(b"\r")  # the first library
    assert term.last_frame()[0].startswith("Round 1 · first: Greedy 2 · prominent")
    for key in b"place standard assistant at Diviner's Hut (#1) space 1":
        term.press(bytes([key]))
    term.press(b"\r")  # placed at once; then Greedy 2's turn and your next decision
    time.sleep(0.5)
    term._drain()
    assert "You, " in "\n".join(term.last_frame())
    assert term.last_frame()[0].startswith("Round 1 · first: Greedy 2 (next round: You) · ")
    term.send(b"q\r")
    assert term.finish() == 0


def test_a_library_dealt_under_the_job_faire_is_not_told_as_chosen(tmp_path: Path) -> None:
    """Issue 27: with one library tile each (the Job Faire) the log says whose library
    is which, never that anyone chose it."""
    term = Terminal(["play", "--seats", "human,greedy", "--variant", "job-faire", "--seed",
                     "2", "--save", str(tmp_path / "s.json")], environment(tmp_path))
    wait_for(term, b"What happened")
    screen = screen_text(term)
    assert "Your library: The Forest Repository." in screen, screen
    assert "Greedy 2's library: The Crypt of Accursed Knowledge." in screen
    assert " chose " not in screen
    term.send(b"q\r")
    assert term.finish() == 0


def test_the_social_butterfly_by_a_special_assistant_alone_asks_no_draw(
        tmp_path: Path) -> None:
    """Issue 27: three at the table (seed 3); Player 2's Bookworm goes to the Mystery
    Shack, then Player 1's Social Butterfly joins it: no standard assistant is there,
    so no draw is asked, only the shelving the Bookworm earns."""
    ready = "press Enter when ready"  # the hand-off to the next player
    term = Terminal(["play", "--seats", "human,human,human", "--assistant",
                     "social-butterfly", "--seed", "3", "--save", str(tmp_path / "s.json")],
                    environment(tmp_path))
    wait_for(term, ready.encode())
    for text, marker in (("", "choose your library"), ("1", ready),
                         ("", "choose your library"), ("1", ready),
                         ("", "choose your library"), ("1", "place an assistant"),
                         ("place The Bookworm at Mystery Shack (#13) space 1",
                          "name a category"),
                         ("1", "which card to reveal?"), ("1", "which card to shelve?"),
                         ("1", ready), ("", "place an assistant"),
                         ("place standard assistant on home space 1", "which home action?"),
                         ("1", ready), ("", "place an assistant"),
                         ("place The Social Butterfly at Mystery Shack (#13) space 2",
                          "The Social Butterfly: ")):
        type_answer(term, text, marker.encode())
    screen = screen_text(term)
    assert "Player 1, The Social Butterfly: which card to shelve?" in screen, screen
    assert "draw" not in screen.split("Your Social Butterfly acts")[-1]
    term.send(b"q\r")
    assert term.finish() == 0


def test_a_card_flipped_face_down_has_one_tilde_on_the_one_line_shelf(tmp_path: Path) -> None:
    """Issue 27: at 80×24 seed 2's shelf is drawn one line a row at the end; a card
    flipped before the inspection is ``~B8/9:FMS`` there, not ``~~B8/9:FMS``."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "2", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), (80, 24))
    enter_until(term, "You, flip cards face down before the inspection", limit=300)
    term.press(b"2")  # choose cards to flip
    term.press(b"\r")
    assert "flip B8/9:FMS from your shelf, row -2 column -4" in "\n".join(term.last_frame())
    type_answer(term, "flip B8", b"~B8/9")  # one card typed: flipped at once
    lines = term.last_frame()
    assert any(line.startswith("row -2 │ ~B8/9:FMS ") for line in lines), lines
    assert not any("~~" in line for line in lines), lines
    term.send(b"q\r")
    assert term.finish() == 0


def test_an_entombed_card_is_shown_on_the_one_line_shelf(tmp_path: Path) -> None:
    """Issue 27: your Mummy (seed 2) entombs A5 on top of G7 in round 5, when your
    three-row shelf is drawn one line a row at 80×24: the cell reads ``A5/9:FRRS+G7/7``."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "2", "--assistant", "mummy",
                     "--save", str(tmp_path / "s.json")], environment(tmp_path), (80, 24))
    enter_until(term, r"cards \(columns -?\d+ to -?\d+\)(.|\n)*1\. place The Mummy on home "
                      r"space 1")
    for text, marker in (("", "which home action?"),
                         ("home action: shelve a card from hand", "which card to shelve?"),
                         ("1", "how to shelve A5?"), ("use Entomb", "entomb A5 on top of G7"),
                         ("entomb A5 on top of G7", "You entombed A5")):
        type_answer(term, text, marker.encode())
    lines = term.last_frame()
    assert any(line.startswith("row -2 │ A5/9:FRRS+G7/7") for line in lines), lines
    term.send(b"q\r")
    assert term.finish() == 0


# ---- issue 27: everything a player may see, named, at a terminal ------------------------------


def test_the_witch_names_both_cards_and_shows_the_turned_up_card(tmp_path: Path) -> None:
    """Issue 27: in seed 1 the Swamp's Witch asks which card to keep; both options name
    their card with its books, and the turned-up card is on the screen under the hand."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "1", "--library",
                     "swamp-of-scholarship", "--save", str(tmp_path / "s.json")],
                    environment(tmp_path))
    lines = enter_until(term, "You, The Witch: choose one")
    text = "\n".join(lines)
    assert re.search(r"^Turned up: N3/3:HMM ", text, re.M), text  # the left panel
    assert "›  1. keep the card gained (G3/7:MS)" in text, text
    assert "   2. keep the turned-up card (N3/3:HMM)" in text, text
    assert "You drew G3:MS." in text and "You revealed N3:HMM." in text, text
    term.send(b"q\r")
    assert term.finish() == 0


def test_the_mystery_shack_shows_its_visitor_the_cards_looked_at(tmp_path: Path) -> None:
    """Issue 27: in seed 19 Greedy 2's Trash Golem looks at the Mystery Shack's four cards
    (told to you as a count), then your Bookworm does: you are told which cards, and the
    options to reveal name them with their books."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "19", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), NARROW)
    term.read_until(1)
    term.press(b"\r")  # the first library
    wait_for(term, b"which location?")
    assert "Greedy 2 looked at 4 cards." in screen_text(term)  # not which
    for text, marker in (("place The Bookworm at Mystery Shack (#13) space 2",
                          "name a category"),
                         ("name Corrupted Codices", "which card to reveal?")):
        type_answer(term, text, marker.encode())
    screen = screen_text(term)
    assert "You looked at 4 cards: E5:CRSS, R4:CHR, O4:CSS, O2:HMR." in screen, screen
    assert "You, Mystery Shack: which card to reveal?" in screen
    assert "reveal R4/7:CHR from Mystery Shack's area" in screen
    term.send(b"q\r")
    assert term.finish() == 0


def test_a_prompt_says_which_artifact_asks_and_the_log_names_it(tmp_path: Path) -> None:
    """Issue 27: in the expanded game of seed 3 Greedy 2's Necromonkey's Paw asks you
    to take a home action; the prompt says so by the artifact's name, and so does the
    log (not its id)."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "3", "--variant",
                     "expanded", "--save", str(tmp_path / "s.json")], environment(tmp_path),
                    NARROW)
    enter_until(term, r"take a home action\?", limit=300)
    screen = screen_text(term)
    assert "You, The Necromonkey's Paw: take a home action?" in screen, screen
    assert "Greedy 2's Necromonkey's Paw acts." in screen, screen
    assert "necromonkey" not in screen, screen
    term.send(b"q\r")
    assert term.finish() == 0


def test_the_voluntary_flips_are_asked_as_the_games_own_question(tmp_path: Path) -> None:
    """Issue 27: before the inspection (seed 2) no location asks which card to flip:
    the prompt is the game's own, not put in the name of the last location resolved."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "2", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), NARROW)
    enter_until(term, "You, flip cards face down before the inspection", limit=300)
    term.press(b"2")  # choose cards to flip
    term.press(b"\r")
    screen = screen_text(term)
    assert "You, which card to flip? — mark any number (Space)" in screen, screen
    assert "› 1. [ ] flip B8/9:FMS from your shelf" in screen, screen
    term.send(b"q\r")
    assert term.finish() == 0


def test_a_card_given_by_another_players_visit_names_the_giver(tmp_path: Path) -> None:
    """Issue 27: in the expanded game of seed 3 Greedy 2 visits the Community Centre and
    gives you a card: the screen says Greedy 2 gave it, not that you took it, and the
    Community Centre's question names it with its books."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "3", "--variant",
                     "expanded", "--save", str(tmp_path / "s.json")], environment(tmp_path),
                    NARROW)
    enter_until(term, r"You, Community Centre: which card to shelve\?", limit=200)
    screen = screen_text(term)
    assert "Greedy 2 gave Z3:MSS from Community Centre (#5)'s area to you." in screen, screen
    assert "You took Z3" not in screen, screen
    assert "1. shelve Z3/3:MSS from your hand" in screen, screen
    term.send(b"q\r")
    assert term.finish() == 0


def test_an_artifact_is_named_in_options_and_log_and_shortened_in_its_cell(
        tmp_path: Path) -> None:
    """Issue 27: in the expanded game of seed 3 you win the Artifactorium at bid 0; the
    options and the log name the artifacts (not their ids), and the shelf cell holds
    the artifact's short form."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "3", "--variant",
                     "expanded", "--save", str(tmp_path / "s.json")], environment(tmp_path),
                    NARROW)
    term.read_until(1)
    type_answer(term, "place standard assistant at Artifactorium (#21) bidding 0",
                b"You placed standard assistant at Artifactorium")
    enter_until(term, r"You, Artifactorium: which card to take\?", limit=20)
    screen = screen_text(term)
    assert "1. take The Phoenix Feather Quill from Artifactorium's area" in screen, screen
    assert "2. take The Hungry Void of Nothingness from Artifactorium's area" in screen
    lines = enter_until(term, r"You took The Phoenix Feather Quill from Artifactorium "
                              r"\(#21\)'s area\.(.|\n)*You, Artifactorium: which card to "
                              r"shelve\?",
                        limit=2)
    assert "1. shelve The Phoenix Feather Quill from your hand" in screen_text(term), lines
    lines = enter_until(term, r"Shelf: 1 card", limit=5)  # shelved at row 0, column 0
    assert "│  0│ *Quill │" in lines, lines
    assert "Artifactorium (#21): dealt The Sands of Our Fathers, The Alliterative " \
           "Alligator." in screen_text(term)
    assert "phoenix-feather-quill" not in screen_text(term), lines  # never the id
    term.send(b"q\r")
    assert term.finish() == 0


# ---- issue 27: the smallest size, and the library tile's letter counts -------------------


def test_under_the_smallest_size_the_screen_says_it_and_keeps_the_answer_line(
        tmp_path: Path) -> None:
    """At 50×15 the options are not cut away unseen: the screen names the size the game
    needs, and a typed command still answers (q saves and quits)."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), (50, 15))
    term.read_until(1)
    text = " ".join(" ".join(term.last_frame()).split())
    assert "The terminal is 50×15; the game needs at least 60×20." in text, text
    assert term.last_frame()[-1].startswith(">")
    term.send(b"q\r")
    assert term.finish() == 0
    assert (tmp_path / "s.json").is_file()


def test_the_help_gives_the_library_tiles_letter_counts_at_a_terminal(tmp_path: Path) -> None:
    """The help view (? then Enter) lists how many cards of each letter the deck holds."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), (80, 24))
    term.read_until(1)
    term.press(b"?")
    term.press(b"\r")
    seen = "\n".join(term.last_frame())
    for _ in range(8):  # page down through the help
        if "Letters in the deck" in seen:
            break
        term.press(b"\x1b[6~")
        seen += "\n".join(term.last_frame())
    joined = " ".join(seen.split())
    assert "Letters in the deck (the library tile's bookmark): A " in joined, joined[-600:]
    term.press(b"\x1b")  # back to the decision
    term.send(b"q\r")
    assert term.finish() == 0


def test_the_inspection_is_in_view_at_80_by_24(tmp_path: Path) -> None:
    """Issue 38: the shelf's title says the inspection's total now and the cards the
    alphabetical check would flip, each marked ``!`` on the shelf; Tab shows the form
    line by line; Space marks cards of a multi-card choice."""
    term = Terminal(["play", "--seats", "human,greedy", "--seed", "5", "--save",
                     str(tmp_path / "s.json")], environment(tmp_path), size=(80, 24))
    term.read_until(1)
    flips = None
    for _ in range(200):
        term.press(b"\r")
        screen = term.last_frame()
        title = next((line for line in screen if line.startswith("Shelf: ")), "")
        flips = re.search(r"inspection now (\d+) · A1 flips (\d+) \(!\)", title)
        if flips:
            break
    assert flips, "\n".join(screen)
    marked = [line for line in screen if re.search(r"(^|[ │])!([A-Z]\d|[CFHMRS]{1,4}\b)", line)]
    assert marked, "\n".join(screen)
    term.press(b"\t")
    form = "\n".join(term.last_frame())
    assert "[form]" in form and f"Total: {flips.group(1)}" in form, form
    assert "A1 flipped by the alphabetical check:" in form
    term.press(b"\x1b")
    term.send(b"q\r")
    assert term.finish() == 0
