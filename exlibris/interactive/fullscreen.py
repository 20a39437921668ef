"""The full-screen terminal (POSIX): the alternate screen, one frame at a time, and
keys read one by one (↑/↓, Page Up/Down, Tab, Esc, Enter, typing).

A frame is drawn again when the terminal changes size. The terminal is in
cbreak mode (no echo, no line buffering; Ctrl-C still interrupts) from the first
frame until the full screen is left, so that keys typed while a frame is
drawn are read as typed (in line mode a burst of Backspaces was edited away by the
terminal itself); the alternate screen and the terminal's mode are restored however
the game ends (:meth:`FullScreen.leave`). Keys typed ahead while the game worked
(bots, forced steps) are dropped when a new decision is asked
(:meth:`FullScreen.drop_typed_ahead`).
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import termios
import tty
from collections.abc import Callable, Sequence
from typing import TextIO

UP, DOWN, PAGE_UP, PAGE_DOWN, ENTER, BACKSPACE, EOF, TAB, BACK_TAB, ESCAPE, RESIZE = (
    "up", "down", "page-up", "page-down", "enter", "backspace", "eof", "tab", "back-tab",
    "escape", "")
HOME, END = "home", "end"
_ESCAPES = {b"[A": UP, b"OA": UP, b"[B": DOWN, b"OB": DOWN, b"[5~": PAGE_UP,
            b"[6~": PAGE_DOWN, b"[Z": BACK_TAB, b"[H": HOME, b"OH": HOME, b"[1~": HOME,
            b"[F": END, b"OF": END, b"[4~": END}
FRAME_END = "\x1b[J"  # every frame ends by clearing what is below it


class FullScreen:
    """Draws frames on the alternate screen and reads keys from ``stdin``."""

    def __init__(self, stdin: TextIO, out: TextIO) -> None:
        self.fd = stdin.fileno()
        self.out = out
        self.active = False
        self.drawn = (0, 0)  # the size of the latest frame
        self.saved: list[object] | None = None  # the terminal's mode before cbreak
        self.before_key: Callable[[], None] | None = None  # run before waiting for a key

    def size(self) -> tuple[int, int]:
        """Columns and lines of the terminal now (it may have been resized)."""
        try:
            size = os.get_terminal_size(self.out.fileno())
            return size.columns, size.lines
        except (OSError, ValueError):
            size = shutil.get_terminal_size((80, 24))
            return size.columns, size.lines

    def enter(self) -> None:
        if not self.active:
            self._cbreak()
            self.out.write("\x1b[?1049h")
            self.active = True

    def _cbreak(self) -> None:
        """Keys from now on are read as typed (no echo, no line editing)."""
        if self.saved is None:
            with contextlib.suppress(termios.error):
                self.saved = termios.tcgetattr(self.fd)
                tty.setcbreak(self.fd, termios.TCSANOW)

    def leave(self) -> None:
        if self.saved is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            self.saved = None
        if self.active:
            self.out.write("\x1b[?1049l")
            self.out.flush()
            self.active = False

    def drop_typed_ahead(self) -> None:
        """Forget keys typed before this point (a new decision is asked)."""
        with contextlib.suppress(termios.error):
            termios.tcflush(self.fd, termios.TCIFLUSH)

    def draw(self, lines: Sequence[str]) -> None:
        self.drawn = self.size()
        self.enter()
        self.out.write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K" + FRAME_END)
        self.out.flush()

    def key(self) -> str:
        """One key (the work put off till an answer is awaited done first)."""
        if self.before_key is not None:
            self.before_key()
        while True:
            key = self.key_within(0.25)
            if key is not None:
                return key

    def key_within(self, seconds: float) -> str | None:
        """One key typed within ``seconds``, ``RESIZE`` if the terminal changed size,
        else None."""
        self._cbreak()
        if self.size() != self.drawn:
            return RESIZE  # the terminal changed size: draw again
        if not select.select([self.fd], [], [], seconds)[0]:
            return RESIZE if self.size() != self.drawn else None
        return self._key()

    def bottom_line(self, text: str) -> None:
        """Write ``text`` over the bottom line of the screen, the cursor left where it
        was (a live line between frames)."""
        columns, rows = self.size()
        self.out.write(f"\x1b7\x1b[{rows};1H\x1b[2K{text[:columns]}\x1b8")
        self.out.flush()

    def _key(self) -> str:
        byte = os.read(self.fd, 1)
        if not byte or byte == b"\x04":
            return EOF
        if byte in (b"\r", b"\n"):
            return ENTER
        if byte == b"\t":
            return TAB
        if byte in (b"\x7f", b"\x08"):
            return BACKSPACE
        if byte == b"\x1b":
            seq = b""
            while len(seq) < 3 and select.select([self.fd], [], [], 0.05)[0]:
                seq += os.read(self.fd, 1)
                if seq in _ESCAPES:
                    return _ESCAPES[seq]
            return ESCAPE if not seq else ""
        if byte[0] >= 0x80:  # the rest of a UTF-8 character
            while len(byte) < 4 and select.select([self.fd], [], [], 0.01)[0]:
                byte += os.read(self.fd, 1)
                try:
                    return byte.decode()
                except UnicodeDecodeError:
                    continue
            return ""
        char = byte.decode("ascii", "ignore")
        return char if char.isprintable() else ""
