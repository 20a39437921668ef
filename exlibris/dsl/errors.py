"""Errors in effect-language source, located within the source text."""

from __future__ import annotations

from exlibris.errors import caret_context


class DslError(Exception):
    """A problem in effect-language source at ``line``:``col`` of that source.

    The validator shifts the position into the YAML file that holds the source.
    """

    def __init__(self, code: str, message: str, line: int, col: int, source: str = "") -> None:
        super().__init__(f"{line}:{col}: {message}")
        self.code = code
        self.message = message
        self.line = line
        self.col = col
        self.context = caret_context(source, line, col) if source else ""


class EffectError(RuntimeError):
    """A checked effect that cannot go on at run time: a value of the wrong kind where
    the checker could only say "any", a number or list past the limits of
    ``exlibris.limits``, or activations nested too deep. ``entry`` names the content
    entry whose effect it was, once known."""

    def __init__(self, message: str, entry: str | None = None, line: int | None = None) -> None:
        where = f"{entry}, line {line} of its effect" if entry and line else entry
        super().__init__(f"the effect of {where}: {message}" if entry else message)
        self.message = message
        self.entry = entry
        self.line = line


class EffectBudgetExceeded(EffectError):
    """A running effect took more steps than the rules allow."""
