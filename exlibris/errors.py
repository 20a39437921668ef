"""Errors in user input: every one names a file, a line and a column.

Each problem has a stable ``code`` (tests assert on it, not on the wording).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a user's file, at ``file:line:col`` (1-based)."""

    file: str
    line: int
    col: int
    code: str
    message: str
    context: str = field(default="", compare=False)

    def __str__(self) -> str:
        # a file name holding a newline or another control character is shown escaped:
        # one problem is one line, and a name cannot forge another problem's line
        file = self.file if self.file.isprintable() else \
            self.file.encode("unicode_escape", "backslashreplace").decode("ascii")
        text = f"{file}:{self.line}:{self.col}: {self.message} [{self.code}]"
        return f"{text}\n{self.context}" if self.context else text

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "message": self.message,
        }


class UserInputError(Exception):
    """One or more problems in a user's file; the CLI prints them and exits 2."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


def caret_context(text: str, line: int, col: int) -> str:
    """The offending line of ``text`` quoted, with a caret under column ``col``."""
    from exlibris.limits import MAX_QUOTED_CHARS

    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    source = "".join(ch if ch.isprintable() else " " for ch in lines[line - 1].expandtabs(1))
    col = max(col, 1)
    if len(source) > MAX_QUOTED_CHARS:  # a long line: quote a window around the caret
        start = max(0, min(col - 1 - MAX_QUOTED_CHARS // 2, len(source) - MAX_QUOTED_CHARS))
        end = start + MAX_QUOTED_CHARS
        source = ("…" if start else "") + source[start:end] + ("…" if end < len(source) else "")
        col = col - start + (1 if start else 0)
    return f"    {source}\n    {' ' * (col - 1)}^"
