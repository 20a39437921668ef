"""While a bot decides at the terminal: the table stays in view, and the wait says how
far along the bot is.

The bot decides on the main thread, exactly as it does unwatched: its answer, its
generators and the game are the same whether anyone looks (the screen reads the
game and the bot's ``progress``, never a generator, and the bot's search works on
forks, never on the game shown). One helper thread a game looks every ``TICK``
for a bot decision that has lasted ``THINKING_AFTER`` seconds (a quick bot costs
it no thread switch) and shows the person the table as it now stands: their own
last move and all that followed it (the log's newest entries), their hand and shelf, and
on the bottom row a live line saying who is thinking, how far along (the search
bot's ``progress``: iterations done of its budget) and for how long. The views
work (Tab, the arrows, Esc, ``?``) and ``q`` saves and quits at once: the helper
interrupts the main thread (``_thread.interrupt_main``) and the interruption
becomes a :class:`QuitRequest`. Ctrl-C and SIGTERM stop the search as they stop
anything on the main thread. However the wait ends, the helper has stopped showing
it before the game goes on, and it is joined when the screen is left
(``Terminal.leave``, which ``exlibris play`` calls however the game ends).

In line mode at a terminal the wait prints what happened since the person's last
answer and a live line (rewritten in place); on POSIX a line typed meanwhile is
read: ``q`` quits at once, anything else answers the next question.
"""

from __future__ import annotations

import _thread
import contextvars
import os
import select
import signal
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING, Any

from rich.text import Text

from exlibris.interactive.session import QuitRequest

if TYPE_CHECKING:
    from exlibris.interactive.frame import Ask
    from exlibris.interactive.fullscreen import FullScreen
    from exlibris.interactive.screen import Screen
    from exlibris.interactive.session import Session
    from exlibris.interactive.terminal import Terminal

THINKING_AFTER = 0.3  # seconds a bot decides before the wait is shown
TICK = 0.1  # seconds between looks at the keys (q answers within about this)
LIVE_EVERY = 0.25  # seconds between rewrites of the live line
WAIT_HINT = "Tab views · ↑↓ scroll · Esc back · ? help · q save and quit now · Ctrl-C stop"
WAIT_HELP = ("While another player's bot decides, the table stays in view: Tab shows the "
             "views, q saves the game and quits at once (exlibris play --resume goes on "
             "from there), Ctrl-C stops it too. The bottom line counts the bot's thinking.")
QUIT_KEYS = frozenset({"q", "Q"})


def waits(session: Session, terminal: Terminal, after: float | None = None) -> Waits:
    """The session's ``thinking`` hook: a :class:`Wait` for each live bot decision,
    shown after ``after`` seconds (default: ``EXLIBRIS_THINKING_AFTER`` if set, a
    number of seconds from 0 to 60, else ``THINKING_AFTER``)."""
    if after is None:
        after = thinking_after(os.environ.get("EXLIBRIS_THINKING_AFTER"))
    return Waits(session, terminal, after)


def thinking_after(text: str | None) -> float:
    """``EXLIBRIS_THINKING_AFTER``'s seconds (tests show every wait with 0); anything
    but a number from 0 to 60 leaves the default."""
    try:
        seconds = float(text) if text is not None else THINKING_AFTER
    except ValueError:
        return THINKING_AFTER
    return seconds if 0 <= seconds <= 60 else THINKING_AFTER


class Waits:
    """The waits of one game and the one helper thread that shows them: started at the
    first bot decision, it looks every ``TICK`` for a wait that has lasted ``after``
    seconds, so a quick bot costs no thread switch. :meth:`stop` (from
    ``Terminal.leave``, however the game ends) ends it and joins it."""

    def __init__(self, session: Session, terminal: Terminal, after: float = THINKING_AFTER
                 ) -> None:
        self.session = session
        self.terminal = terminal
        self.after = after
        self.lock = threading.Lock()  # ``current``, and each wait's ``done`` and ``stopped``
        self.current: Wait | None = None
        self.closed = threading.Event()
        self.thread: threading.Thread | None = None
        terminal.waiting = self

    def __call__(self, seat: int, agent: Any) -> Wait:
        if self.thread is None or not self.thread.is_alive():
            self.closed.clear()
            self.terminal.waiting = self
            context = contextvars.copy_context()
            self.thread = threading.Thread(target=context.run, args=(self._run,),
                                           name="exlibris-wait", daemon=True)
            self.thread.start()
        return Wait(self, seat, agent)

    def stop(self) -> None:
        """No more waits: the one shown is ended and the helper joined."""
        self.closed.set()
        current = self.current
        if current is not None:
            current.end()
        thread = self.thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        self.thread = None

    def _run(self) -> None:
        while not self.closed.wait(TICK):
            with self.lock:
                wait = self.current
                if (wait is None or wait.done or wait.stopped is not None  # shown once
                        or time.monotonic() - wait.started < self.after):
                    continue
                stopped = wait.stopped = threading.Event()  # made only for a wait shown
            try:
                wait.show()
            except Exception as exc:  # a fault of the screen must not stop the game
                wait.error = exc
            finally:
                stopped.set()


class Wait:
    """One bot decision's wait (a context manager around the bot's ``decide``)."""

    def __init__(self, waits: Waits, seat: int, agent: Any) -> None:
        self.waits = waits
        self.session = waits.session
        self.terminal = waits.terminal
        self.name = waits.session.record.names[seat]
        self.agent = agent
        self.done = False  # the bot has answered (or the game stops)
        self.stopped: threading.Event | None = None  # set once the helper no longer shows it
        self.quit: str | None = None  # why the person stopped the game meanwhile
        self.interrupted = False  # the main thread was interrupted for it
        self.shown = False  # the wait was put on screen
        self.error: Exception | None = None  # what broke the helper (the game goes on)
        self.started = time.monotonic()
        self.ask: Ask | None = None
        self.screen: Screen | None = None
        self.log: list[str] = []

    # ------------------------------------------------------------------ main thread
    def __enter__(self) -> Wait:
        with self.waits.lock:
            self.started = time.monotonic()
            self.waits.current = self
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> bool:
        interrupted = kind is KeyboardInterrupt
        try:
            self.end()
            if self.interrupted and not interrupted:
                absorb_interruption()  # asked for, not yet arrived: it arrives here
        except KeyboardInterrupt:  # Ctrl-C, or the interruption asked, arriving late
            self.end()
            interrupted = True
        if self.quit is not None and (kind is None or interrupted):
            raise QuitRequest(self.quit) from None
        if interrupted and kind is not KeyboardInterrupt:
            raise KeyboardInterrupt from None
        return False

    def end(self) -> None:
        """End the wait; if the helper shows it, once it has stopped drawing and reading
        keys (at most ``TICK`` and a frame later)."""
        waits = self.waits
        with waits.lock:
            self.done = True
            if waits.current is self:
                waits.current = None
            stopped = self.stopped
        if stopped is not None and threading.current_thread() is not waits.thread:
            stopped.wait()

    # ------------------------------------------------------------------ the helper
    def show(self) -> None:
        """Show the wait until it ends (on the helper thread)."""
        full = self.terminal.full
        if full is not None:
            self._full_screen(full)
        else:
            self._line_mode()

    def _ask_quit(self, reason: str) -> None:
        """The person stops the game: the bot's search is interrupted (on the main
        thread, which turns it into a :class:`QuitRequest`)."""
        with self.waits.lock:
            if self.done:
                return
            self.quit = reason
            if callable(signal.getsignal(signal.SIGINT)):  # Python handles SIGINT
                self.interrupted = True
                _thread.interrupt_main()

    def live_line(self) -> str:
        """``Mcts 2 is thinking… 412 of 1500 iterations (27%) · 3 s · q quits``."""
        seconds = int(time.monotonic() - self.started)
        progress = getattr(self.agent, "progress", None)
        along = ""
        if isinstance(progress, tuple) and len(progress) == 2 and progress[1]:
            done, budget = progress
            along = f" {done} of {budget} iterations ({100 * done // budget}%)"
        return f"{self.name} is thinking…{along} · {seconds} s · q quits"

    def viewer(self) -> int | None:
        """Whose table is shown: the person who answered last (with one person at the
        table, theirs from the start); None before anyone of a hot seat answered."""
        humans = self.session.humans
        last = self.terminal.last_seat
        if last is not None and last in humans:
            return last
        return next(iter(humans)) if len(humans) == 1 else None

    def since(self, seat: int) -> tuple[list[str], list[str]]:
        """The whole log and what happened since ``seat``'s last answer, in words."""
        from exlibris.interactive.narrate import Narrator

        session = self.session
        assert session.game is not None
        records = list(session.log.records)
        narrator = Narrator(session.game, seat)
        return narrator.lines(records), narrator.lines(records[session.seen.get(seat, 0):])

    # ------------------------------------------------------------------ full screen
    def _full_screen(self, full: FullScreen) -> None:
        from exlibris.interactive import fullscreen as keys

        self._prepare()
        self._draw(full)
        self.shown = True
        live = time.monotonic()
        while not self.done:
            key = full.key_within(TICK)
            if self.done:
                return
            if key is None:
                if time.monotonic() - live >= LIVE_EVERY:
                    full.bottom_line(self.live_line())
                    live = time.monotonic()
                continue
            if key in QUIT_KEYS or key == keys.EOF:
                self._ask_quit("quit" if key in QUIT_KEYS else "end of input")
                return
            self._press(key)
            self._draw(full)

    def _prepare(self) -> None:
        """The screen, the log and the state of the views, built once."""
        from exlibris.interactive.frame import Ask
        from exlibris.interactive.human import table_view
        from exlibris.interactive.screen import Screen

        seat = self.viewer()
        prompt = Text(f"Waiting for {self.name} to decide.", "bold")
        game = self.session.game
        if seat is None or game is None:
            return
        human = self.session.humans[seat]
        screen = Screen(game, seat, human.styles, human.library_names)
        self.log = self.since(seat)[0]
        self.screen = screen
        self.ask = Ask(prompt, [], hint=WAIT_HINT, seed=self.session.record.seed,
                       **table_view(game, seat, screen))

    def _draw(self, full: FullScreen) -> None:
        from exlibris.interactive.frame import Painter, frame

        width, height = full.size()
        if self.ask is None or self.screen is None:
            lines = [f"Waiting for {self.name} to decide.", "", WAIT_HINT[:width]]
            lines += [""] * max(height - len(lines) - 1, 0)
        else:
            console = self.terminal.console
            painter = Painter(console.color_system, console.no_color)
            lines = frame(self.screen, self.log, self.ask, width, height, painter)[:-1]
            self.ask.message = ""
        full.draw([*lines, self.live_line()[:width]])

    def _press(self, key: str) -> None:
        """A key while waiting: the views as at a question; any other key is told what
        the wait takes."""
        from exlibris.interactive import fullscreen as keys
        from exlibris.interactive.frame import LAST, PANES

        ask = self.ask
        if ask is None:
            return
        if key in (keys.TAB, keys.BACK_TAB) or key == "?":
            step = 1 if key == keys.TAB else -1
            ask.pane = "help" if key == "?" else PANES[(PANES.index(ask.pane) + step)
                                                       % len(PANES)]
            ask.scroll = LAST if ask.pane == "log" else 0
            if ask.pane == "help" and not ask.help:
                ask.help = self.help()
        elif key == keys.ESCAPE:
            ask.pane = "decision"
        elif key in (keys.HOME, keys.END):
            ask.scroll = 0 if key == keys.HOME else LAST
        elif key in (keys.UP, keys.DOWN, keys.PAGE_UP, keys.PAGE_DOWN):
            move = {keys.UP: -1, keys.DOWN: 1, keys.PAGE_UP: -ask.page,
                    keys.PAGE_DOWN: ask.page}[key]
            ask.scroll = max(0, ask.scroll + move)
        elif key != keys.RESIZE:
            ask.message = f"{self.name} is deciding: Tab shows the views, q saves and quits."

    def help(self) -> str:
        from exlibris.interactive.context import player_help
        from exlibris.interactive.human import about

        return f"{WAIT_HELP}\n\n{player_help(full_screen=True)}{about(self.session)}"

    # ------------------------------------------------------------------ line mode
    def _line_mode(self) -> None:
        term = self.terminal
        seat = self.viewer()
        if seat is not None and self.session.game is not None:
            since = self.since(seat)[1]
            if since:
                term.say("What happened since your turn:\n" + "\n".join(
                    f"  • {line}" for line in since), wrap=True)
        self.shown = True
        fd = _readable_fd(term)
        live = 0.0
        try:
            while not self.done:
                if time.monotonic() - live >= LIVE_EVERY:
                    term.out.write("\r" + self.live_line().ljust(term.console.width - 1)[
                        :term.console.width - 1])
                    term.out.flush()
                    live = time.monotonic()
                if fd is None or not select.select([fd], [], [], TICK)[0]:
                    if fd is None:
                        time.sleep(TICK)
                    continue
                line = term.stdin.readline()
                if not line or line.strip().casefold() in ("q", "quit"):
                    self._ask_quit("quit" if line else "end of input")
                    return
                term.typed.append(line.rstrip("\r\n"))
        finally:
            term.out.write("\n")
            term.out.flush()


def _readable_fd(term: Terminal) -> int | None:
    """Standard input's descriptor when lines can be awaited on it (POSIX), else None."""
    if os.name != "posix":
        return None
    try:
        return term.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def absorb_interruption() -> None:
    """Let an interruption asked of the main thread arrive here: it comes within the
    next few instructions, and must not come later, in the middle of a save."""
    try:
        for _ in range(100):
            time.sleep(0.005)
    except KeyboardInterrupt:
        return
