"""The wait while a bot decides (``interactive/waiting.py``), in this process, on a
pseudo-terminal: q and Ctrl-C end it within a second, its helper thread never
outlives the screen, and a line typed in line mode answers the next question.

The "bot" here is a busy loop on the main thread, as a search is.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from exlibris.interactive.session import QuitRequest
from exlibris.interactive.terminal import Terminal
from exlibris.interactive.waiting import THINKING_AFTER, Waits, thinking_after

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals only")
# seconds within which q and Ctrl-C must end the wait: about 0.1 s on a quiet machine;
# more is allowed for a machine loaded many times over (its threads wait their turn),
# still far below the minute the bot would think
QUICK = 3.0


class Bot:
    """A stand-in for the search bot: its ``progress`` as ``MctsAgent`` keeps it."""

    def __init__(self) -> None:
        self.progress = (0, 0)

    def think(self, seconds: float, budget: int = 1000,
              until: Callable[[], bool] | None = None, most: float = 20.0) -> None:
        """Busy on this thread for ``seconds`` (interruptible, as a search is), and then
        until ``until()`` holds, for ``most`` seconds at most: on a loaded machine the
        waiting screen's thread may get little of the time the bot spins."""
        started = time.monotonic()
        done = 0
        while True:
            now = time.monotonic()
            if now - started >= seconds and (until is None or until()
                                             or now - started >= most):
                break
            self.progress = (done, budget)
            done = min(done + 1, budget)


class Pty:
    """A pseudo-terminal whose far end the test reads and types into."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.stdin = os.fdopen(slave, "r")
        self.out = os.fdopen(os.dup(slave), "w")
        self.output = b""

    def drain(self) -> bytes:
        while select.select([self.master], [], [], 0.05)[0]:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                break
            if not data:
                break
            self.output += data
        return self.output

    def close(self) -> None:
        self.drain()
        self.stdin.close()
        self.out.close()
        os.close(self.master)


@pytest.fixture
def pty(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pty]:
    monkeypatch.setenv("TERM", "xterm-256color")
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    made = Pty()
    yield made
    made.close()
    signal.signal(signal.SIGINT, previous)


def session() -> Any:
    """What a wait reads of a session, with nobody's table to show."""
    return SimpleNamespace(record=SimpleNamespace(names=["You", "Mcts 2"], seed=5), humans={},
                           game=None, log=SimpleNamespace(records=[]), seen={})


def waits_alive() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "exlibris-wait"]


def later(seconds: float, action: Any, *args: Any) -> threading.Timer:
    timer = threading.Timer(seconds, action, args)
    timer.start()
    return timer


@pytest.mark.parametrize("full", [True, False], ids=["full-screen", "line-mode"])
def test_q_while_a_bot_thinks_saves_and_quits_within_a_second(pty: Pty, full: bool) -> None:
    term = Terminal(pty.stdin, pty.out, arrows=full)
    bot = Bot()
    timer = later(0.6, os.write, pty.master, b"q" if full else b"q\n")
    started = time.monotonic()
    with pytest.raises(QuitRequest) as stop, Waits(session(), term, 0.05)(1, bot):
        bot.think(60)
    took = time.monotonic() - started
    timer.join()
    term.leave()  # as play's ``finally`` does: the helper is joined
    assert stop.value.reason == "quit"
    assert took < 0.6 + QUICK, took
    assert not waits_alive()
    shown = pty.drain().decode(errors="replace")
    assert "Mcts 2 is thinking…" in shown and " of 1000 iterations (" in shown, shown


def test_ctrl_c_while_a_bot_thinks_stops_within_a_second(pty: Pty) -> None:
    term = Terminal(pty.stdin, pty.out, arrows=True)
    bot = Bot()
    timer = later(0.6, os.kill, os.getpid(), signal.SIGINT)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), Waits(session(), term, 0.05)(1, bot):
        bot.think(60)
    timer.join()
    took = time.monotonic() - started
    term.leave()
    assert took < 0.6 + QUICK, took
    assert not waits_alive()


def test_the_wait_shows_a_live_line_and_its_views_answer_keys(pty: Pty) -> None:
    """The bottom line is rewritten as the bot goes on; a key other than q is told what
    the wait takes, and the bot's answer is not disturbed."""
    term = Terminal(pty.stdin, pty.out, arrows=True)
    bot = Bot()
    timer = later(0.5, os.write, pty.master, b"x")
    line = b"\x1b[2KMcts 2 is thinking"
    with Waits(session(), term, 0.05)(1, bot) as wait:
        bot.think(1.5, until=lambda: pty.drain().count(line) >= 2)
    timer.join()
    term.leave()
    assert not waits_alive() and wait.error is None and wait.shown
    shown = pty.drain()
    assert shown.count(line) >= 2  # rewritten in place
    assert b"Waiting for Mcts 2 to decide." in shown


def test_quick_bots_show_no_wait_and_share_one_helper(pty: Pty) -> None:
    term = Terminal(pty.stdin, pty.out, arrows=True)
    bot = Bot()
    thinking = Waits(session(), term)
    for _ in range(50):
        with thinking(1, bot) as wait:
            bot.think(0.002)
        assert not wait.shown and len(waits_alive()) == 1
    term.leave()
    assert not waits_alive()
    assert b"thinking" not in pty.drain()


def test_a_line_typed_in_line_mode_while_a_bot_thinks_answers_the_next_question(
        pty: Pty) -> None:
    term = Terminal(pty.stdin, pty.out, arrows=False)
    bot = Bot()
    timer = later(0.3, os.write, pty.master, b"2\n")
    thinking = Waits(session(), term, 0.05)
    with thinking(1, bot):
        bot.think(1.0)
    timer.join()
    thinking.stop()
    assert term.typed == ["2"]
    assert term.read_line() == "2"  # not read again from the terminal
    assert not waits_alive()


def test_leaving_the_screen_stops_a_wait_still_shown(pty: Pty) -> None:
    term = Terminal(pty.stdin, pty.out, arrows=True)
    wait = Waits(session(), term, 0.0)(1, Bot())
    wait.__enter__()
    time.sleep(0.5)
    assert wait.shown
    term.leave()  # as play's ``finally`` does, however the game ended
    assert not waits_alive()
    wait.__exit__(None, None, None)


@pytest.mark.parametrize(("text", "seconds"), [(None, THINKING_AFTER), ("0", 0.0),
                                               ("1.5", 1.5), ("-1", THINKING_AFTER),
                                               ("nan", THINKING_AFTER), ("soon", THINKING_AFTER),
                                               ("61", THINKING_AFTER)])
def test_exlibris_thinking_after(text: str | None, seconds: float) -> None:
    assert thinking_after(text) == seconds
