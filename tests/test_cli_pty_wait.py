"""`exlibris play` against the search bot in a real terminal (issue 37): the person's
move is on screen before the bot answers, the table stays readable while it
thinks, q, Ctrl-C and SIGTERM stop it at once, and the game is the same watched or
not.

The bot is made slow by its budget alone: ``mcts:100000`` thinks for minutes at its
first placement, so what the screen shows meanwhile is seen in order, and each test
ends it with q or a signal. ``EXLIBRIS_THINKING_AFTER=0`` shows the wait at every
bot decision, however quick.
"""

from __future__ import annotations

import json
import re
import signal
import sys
import termios
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_cli_pty import FRAME, LEAVE, PATIENCE, Terminal, environment

from exlibris.cli.main import cli

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals only")]
SIZE = (80, 24)
SLOW_BOT = "human,mcts:100000"  # minutes at its first placement
# seconds at a placement: a key sent as its wait appears reaches it during the search
# (at 300 iterations a quiet machine answered first), yet a game played straight
# through with it stays short
THINKING_BOT = "human,mcts:1500"
# seconds from q or a signal to the end of the process: a second asked, more allowed
# for the interpreter's own exit on a loaded machine
PROMPT_EXIT = 5.0
# seconds to wait for the frame after an answer; the slow bot takes far longer, so a
# screen that waits for the bot fails here
BEFORE_THE_BOT = 60.0
LIVE = re.compile(rb"\x1b\[24;1H\x1b\[2KMcts 2 is thinking\xe2\x80\xa6 (\d+) of (\d+) iterations")


def to_the_wait(term: Terminal, limit: int = 12) -> tuple[list[str], int]:
    """Answer with Enter (the highlighted option) until the frame drawn after an answer
    is the wait for Mcts 2; that frame and the answers given. Each frame must come
    within ``BEFORE_THE_BOT`` seconds of the answer."""
    end = time.monotonic() + PATIENCE
    while not term.frames() or not term.last_frame()[-1].startswith(">"):
        assert time.monotonic() < end  # the first question (the bot's library may come first)
        term._drain()
    for answers in range(1, limit + 1):
        seen = term.frames()
        term.send(b"\r")
        term.read_until(seen + 1, timeout=BEFORE_THE_BOT)
        lines = term.last_frame()
        if "Waiting for Mcts 2 to decide." in lines:
            return lines, answers
    raise AssertionError("\n".join(term.last_frame()))


def decisions(save: Path) -> list[dict[str, object]]:
    return json.loads(save.read_text())["decisions"]


def test_your_move_is_on_screen_before_the_search_bot_answers(tmp_path: Path) -> None:
    """At 80×24 against mcts: the first frame after the person's answer shows that
    answer's result (the log's newest entries) and their table, with the live line counting
    the bot's iterations, while the save shows the bot has not answered; Tab shows
    the views meanwhile; q saves and quits at once."""
    save = tmp_path / "s.json"
    term = Terminal(["play", "--seats", SLOW_BOT, "--seed", "5", "--save", str(save)],
                    environment(tmp_path), SIZE)
    try:
        lines = to_the_wait(term)[0]
        text = "\n".join(lines)
        assert len(lines) == SIZE[1] and all(len(line) <= SIZE[0] for line in lines), text
        assert "What happened" in text and re.search(r"^• You ", text, re.M), text
        for part in ("Hand (", "Shelf: ", "Focus: ", "── [decision]"):
            assert part in text, text
        assert re.match(r"Mcts 2 is thinking… \d+ of \d+ iterations \(\d+%\) · \d+ s · q "
                        r"quits$", lines[-1]), lines[-1]
        mine = decisions(save)
        assert mine[-1]["seat"] == 0  # the bot has not answered yet
        frames = term.frames()
        end = time.monotonic() + PATIENCE
        while len(LIVE.findall(term.output)) < 2:  # the live line, rewritten as it goes on
            assert time.monotonic() < end
            term._drain()
        counts = [int(m.group(1)) for m in LIVE.finditer(term.output)]
        assert counts[-1] > counts[0] and term.frames() == frames
        term.press(b"\t")
        form = "\n".join(term.last_frame())
        assert "[form]" in form and "Total: " in form, form
        term.press(b"\t")
        assert "[locations]" in "\n".join(term.last_frame())
        term.press(b"\x1b")  # Esc: back to the wait
        assert "Waiting for Mcts 2 to decide." in term.last_frame()
        asked = time.monotonic()
        term.send(b"q")
        assert term.finish() == 0
        assert time.monotonic() - asked < PROMPT_EXIT
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    assert term.lflag & termios.ECHO and term.lflag & termios.ICANON
    assert LEAVE in term.output and b"Stopped. Game saved to" in term.output
    assert decisions(save) == mine and not json.loads(save.read_text())["finished"]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "term"])
def test_a_signal_while_the_search_bot_thinks_stops_at_once(tmp_path: Path,
                                                            stop: signal.Signals) -> None:
    save = tmp_path / "s.json"
    term = Terminal(["play", "--seats", SLOW_BOT, "--seed", "5", "--save", str(save)],
                    environment(tmp_path), SIZE)
    try:
        to_the_wait(term)
        mine = decisions(save)
        asked = time.monotonic()
        term.proc.send_signal(stop)
        assert term.finish() == 130
        assert time.monotonic() - asked < PROMPT_EXIT
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    assert term.lflag & termios.ECHO and term.lflag & termios.ICANON
    assert LEAVE in term.output and b"Interrupted. Game saved to" in term.output
    assert term.output.rfind(FRAME) < term.output.rfind(LEAVE)  # nothing drawn after
    assert decisions(save) == mine


def test_q_while_the_bot_thinks_then_resume_is_the_game_played_straight(
        tmp_path: Path) -> None:
    """The save left by q during the bot's search goes on, resumed, exactly as the game
    played straight through with the same answers."""
    save = tmp_path / "q.json"
    seats = THINKING_BOT
    env = environment(tmp_path) | {"EXLIBRIS_THINKING_AFTER": "0"}
    term = Terminal(["play", "--seats", seats, "--seed", "5", "--save", str(save)], env, SIZE)
    try:
        answers = to_the_wait(term)[1]
        term.send(b"q")
        assert term.finish() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    more = 6
    resumed = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="1\n" * more)
    assert resumed.exit_code == 0, resumed.output
    straight = tmp_path / "straight.json"
    played = CliRunner().invoke(cli, ["play", "--seats", seats, "--seed", "5", "--save",
                                      str(straight)], input="1\n" * (answers + more))
    assert played.exit_code == 0, played.output
    assert decisions(save) == decisions(straight)


def test_keys_typed_while_a_bot_thinks_do_not_answer_the_next_decision(tmp_path: Path) -> None:
    """A number and Enter typed during the wait are not an answer: the next question
    opens with nothing typed and the cursor on its first option."""
    env = environment(tmp_path) | {"EXLIBRIS_THINKING_AFTER": "0"}
    term = Terminal(["play", "--seats", THINKING_BOT, "--seed", "5", "--save",
                     str(tmp_path / "s.json")], env, SIZE)
    try:
        to_the_wait(term)
        term.send(b"3\r")  # typed while the bot searches
        end = time.monotonic() + PATIENCE
        while not term.last_frame()[-1].startswith(">"):
            assert time.monotonic() < end
            term._drain()
        time.sleep(0.5)
        term._drain()
        frame = term.last_frame()
        assert "›  1. " in "\n".join(frame) and frame[-1].rstrip() == ">", frame
        term.send(b"q\r")
        assert term.finish() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_a_game_with_every_wait_shown_is_the_game_played_unwatched(tmp_path: Path) -> None:
    """The same seed and answers give the same decisions, the bot's included, whether
    every bot decision is watched (a wait drawn, keys read) or the game is played in
    line mode with no wait at all."""
    watched, output = enter_through(tmp_path / "watched.json", "0", 16)
    assert output.count(b"Waiting for Mcts 2 to decide.") >= 3
    unwatched, output = enter_through(tmp_path / "unwatched.json", "60", 16)
    assert b"Waiting for" not in output
    assert watched == unwatched
    assert sum(d["seat"] == 1 for d in watched) >= 3


def enter_through(save: Path, after: str, answers: int) -> tuple[list[dict[str, object]],
                                                                   bytes]:
    """Seed 5 against ``mcts:600`` with the wait shown after ``after`` seconds: Enter
    at ``answers`` questions, then q; the decisions saved and the screen's output. (At
    the default budget on a quiet machine most of the bot's decisions end before the
    helper's first look, ``TICK``, and two of 25 were shown: too few to tell.)"""
    env = environment(save.parent) | {"EXLIBRIS_THINKING_AFTER": after}
    term = Terminal(["play", "--seats", "human,mcts:600", "--seed", "5", "--save", str(save)],
                    env, SIZE)
    try:
        term.read_until(1)
        for answer in range(answers + 1):
            if answer:
                term.send(b"\r")
            frames = term.frames() if answer else 0
            end = time.monotonic() + PATIENCE
            while term.frames() == frames or not term.last_frame()[-1].startswith(">"):
                assert time.monotonic() < end, "\n".join(term.last_frame())
                term._drain()  # until the next question (the bot's library comes first)
        term.send(b"q\r")
        assert term.finish() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    return decisions(save), term.output
