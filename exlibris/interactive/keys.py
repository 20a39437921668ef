"""An arrow-key menu for a terminal (POSIX): ↑/↓ move, Enter chooses, typing edits
an answer line that is handed back as text (a number, a label or a command).

The terminal is in cbreak mode (no echo, no line buffering; Ctrl-C still
interrupts) only while the menu runs. Long lists scroll within the window.
"""

from __future__ import annotations

import os
import select
import shutil
import termios
import tty
from collections.abc import Sequence
from typing import TextIO

from exlibris.interactive.terminal import KEYS_HINT

UP, DOWN, PAGE_UP, PAGE_DOWN, ENTER, BACKSPACE, EOF = (
    "up", "down", "page-up", "page-down", "enter", "backspace", "eof")
_ESCAPES = {b"[A": UP, b"OA": UP, b"[B": DOWN, b"OB": DOWN, b"[5~": PAGE_UP,
            b"[6~": PAGE_DOWN}


class KeyMenu:
    """One menu of ``labels``; :meth:`run` returns an index, typed text or None (EOF)."""

    def __init__(self, stdin: TextIO, out: TextIO, labels: Sequence[str]) -> None:
        self.fd = stdin.fileno()
        self.out = out
        self.labels = list(labels)
        self.cursor = 0
        self.top = 0
        self.typed = ""
        self.drawn = 0
        size = shutil.get_terminal_size((80, 24))
        self.width = max(20, size.columns - 1)
        self.visible = max(3, min(len(self.labels), size.lines - 4))

    def run(self) -> int | str | None:
        saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd, termios.TCSANOW)
        try:
            self.draw()
            while True:
                key = self.key()
                if key == ENTER:
                    self.out.write("\n")
                    return self.typed.strip() if self.typed.strip() else self.cursor
                if key == EOF:
                    if not self.typed:
                        self.out.write("\n")
                        return None
                elif key in (UP, DOWN, PAGE_UP, PAGE_DOWN):
                    self.move(key)
                elif key == BACKSPACE:
                    self.typed = self.typed[:-1]
                elif key:
                    self.typed += key
                    if self.typed.isdigit() and 1 <= int(self.typed) <= len(self.labels):
                        self.cursor = int(self.typed) - 1
                self.draw()
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, saved)
            self.out.flush()

    def move(self, key: str) -> None:
        step = {UP: -1, DOWN: 1, PAGE_UP: -self.visible, PAGE_DOWN: self.visible}[key]
        self.cursor = max(0, min(len(self.labels) - 1, self.cursor + step))
        self.typed = ""

    def key(self) -> str:
        byte = os.read(self.fd, 1)
        if not byte or byte == b"\x04":
            return EOF
        if byte in (b"\r", b"\n"):
            return ENTER
        if byte in (b"\x7f", b"\x08"):
            return BACKSPACE
        if byte == b"\x1b":
            seq = b""
            while len(seq) < 3 and select.select([self.fd], [], [], 0.05)[0]:
                seq += os.read(self.fd, 1)
                if seq in _ESCAPES:
                    return _ESCAPES[seq]
            return ""
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

    def lines(self) -> list[str]:
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + self.visible:
            self.top = self.cursor - self.visible + 1
        shown = []
        for i in range(self.top, min(len(self.labels), self.top + self.visible)):
            text = f"{'›' if i == self.cursor else ' '} {i + 1:>3}. {self.labels[i]}"
            text = text[: self.width]
            shown.append(f"\x1b[7m{text}\x1b[0m" if i == self.cursor else text)
        span = ""
        if len(self.labels) > self.visible:
            span = f"{self.top + 1}-{self.top + len(shown)} of {len(self.labels)} · "
        shown.append(f"  {span}{KEYS_HINT}"[: self.width])
        shown.append(f"> {self.typed}"[: self.width])
        return shown

    def draw(self) -> None:
        lines = self.lines()
        if self.drawn > 1:
            self.out.write(f"\x1b[{self.drawn - 1}A")
        self.out.write("\r" + "\n".join("\x1b[2K" + line for line in lines))
        self.drawn = len(lines)
        self.out.flush()
