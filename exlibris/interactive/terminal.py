"""Where the screen goes and where answers come from.

When standard input and the screen are both a terminal (POSIX), the game is
played full screen (``fullscreen.py``, ``frame.py``). Otherwise answers are
read a line at a time (a number, a label or a command) and the table is
printed before each decision, so pipes, saves and transcripts work.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from typing import Any, TextIO

from rich.console import Console, RenderableType
from rich.segment import Segments
from rich.text import Text

from exlibris.interactive.fullscreen import FullScreen
from exlibris.shown import terminal_text

KEYS_HINT = ("↑/↓ Enter choose · type a number or label · Esc back · Tab views · "
             "? help · u undo · s save · q quit")
TYPE_HINT = "Type a number or a label · b back · ? help · u undo · s [FILE] save · q quit"


def interactive(stdin: TextIO, out: TextIO) -> bool:
    """Both ends are a terminal (and not a dumb one)."""
    try:
        return stdin.isatty() and out.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


class Terminal:
    """The console to draw on and the input to read answers from."""

    def __init__(self, stdin: TextIO, out: TextIO, *, arrows: bool | None = None) -> None:
        self.stdin = stdin
        self.out = out
        self.tty = interactive(stdin, out)
        self.arrows = self.tty and os.name == "posix" if arrows is None else arrows
        self.full: FullScreen | None = FullScreen(stdin, out) if self.arrows else None
        self.console = Console(file=out, highlight=False, markup=False, emoji=False)
        self.last_seat: int | None = None  # whose screen is showing (hot-seat hand-offs)
        self.waiting: Any = None  # the wait shown while a bot decides (``waiting.py``)
        self.typed: list[str] = []  # lines typed during that wait, for the next questions
        self.pending: Callable[[], None] | None = None  # work put off (``when_idle``)
        # the segments of drawings shown before on ``console``, by what they show
        self.kept: dict[Any, Any] = {}

    # ------------------------------------------------------------------ put-off work
    def when_idle(self, work: Callable[[], None]) -> None:
        """Do ``work`` once the screen is drawn and an answer is awaited (the first
        autosave of a game: its first question shows without waiting for the disk)."""
        self.pending = work
        if self.full is not None:
            self.full.before_key = self.idle

    def idle(self) -> None:
        """Do the work put off, if any (once)."""
        work, self.pending = self.pending, None
        if work is not None:
            work()

    # ------------------------------------------------------------------ output
    def show(self, *renderables: RenderableType) -> None:
        if len(renderables) == 1 and not isinstance(renderables[0], (str, Text)):
            renderables = (self._drawn(renderables[0]),)
        self.console.print(*renderables)

    def _drawn(self, renderable: RenderableType) -> Segments:
        """``renderable`` as the segments printing it makes, the parts drawn before (the
        board, the shelves, the locations) given again (``keyed.segments``)."""
        from exlibris.interactive.keyed import segments

        # the options ``Console.print`` renders with when given none of its own
        options = self.console.options.update(justify=None, overflow=None, height=None,
                                              no_wrap=None, markup=None, highlight=None)
        return Segments(segments(self.console, renderable, options, self.kept))

    def say(self, text: str, *, wrap: bool = False) -> None:
        """A message; unwrapped unless ``wrap`` (paths and commands stay whole). It may
        quote a path or a file, so it goes out through the one printer of untrusted
        text (``shown.terminal_text``)."""
        self.console.print(terminal_text(text), soft_wrap=not wrap)

    def clear(self) -> None:
        if self.tty:
            self.console.clear()

    # ------------------------------------------------------------------ input
    def read_line(self, prompt: str = "> ") -> str | None:
        """One line without its newline; None at the end of input."""
        self.console.print(terminal_text(prompt), end="")
        if self.typed:  # typed (and echoed) while a bot decided
            self.idle()
            line = self.typed.pop(0)
            self.console.print(terminal_text(line))
            return line
        self.out.flush()
        self.idle()
        line = self.stdin.readline()
        if not line:
            self.console.print()
            return None
        line = line.rstrip("\r\n")
        if not self.tty:
            self.console.print(terminal_text(line))  # echo: a transcript shows the answer
        return line

    def wait(self, message: str) -> bool:
        """Show ``message``; on a terminal, wait for Enter. False at end of input."""
        if not self.tty:
            self.say(message)
            return True
        return self.read_line(f"{message} ") is not None

    def choose(self) -> str | None:
        """A typed answer, or None at the end of input (line mode)."""
        return self.read_line()

    def leave(self) -> None:
        """Back from the full screen to the ordinary one (nothing if never there); a
        wait still shown is stopped first."""
        if self.waiting is not None:
            self.waiting.stop()
        if self.full is not None:
            self.full.leave()


def terminal_for(json_output: bool) -> Terminal:
    """The screen goes to standard output, or to standard error when it carries JSON."""
    return Terminal(sys.stdin, sys.stderr if json_output else sys.stdout)


def screen_width(default: int = 80) -> int:
    return shutil.get_terminal_size((default, 24)).columns
