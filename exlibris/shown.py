"""The one printer of untrusted text: what a file, a save, a rows file, the
environment or the command line gave is shown escaped, never sent raw.

A control character (an escape sequence's ``ESC``, a bell, a carriage return), a
bidirectional override (U+202E and its kin: text that reads in another order than
it runs) and every other character Python does not call printable is shown as its
escape (``\\x1b``, ``\\u202e``), so a file can neither set the terminal's title nor
reorder what it says. Every message of the command line passes through
:func:`terminal_text` (``cli/output.py``: ``echo``); :func:`shown` quotes one
value inside a message, escaped and cut to a length.
"""

from __future__ import annotations

MAX_SHOWN_CHARS = 200  # characters of one untrusted value quoted in a message


def _escaped(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(text: object, limit: int = MAX_SHOWN_CHARS) -> str:
    """``text`` as one line a terminal shows as it is: every character that is not
    printable (a newline too) escaped, and more than ``limit`` characters cut in the
    middle."""
    value = str(text)
    if len(value) > limit:
        value = value[:limit // 2] + "..." + value[-(limit // 4):]
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() else _escaped(c) for c in value)


def terminal_text(text: str) -> str:
    """A whole message or table for the terminal: every character that is not
    printable escaped, except the newlines and tabs that lay it out."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in "\n\t" else _escaped(c) for c in text)
