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


class EffectBudgetExceeded(RuntimeError):
    """A running effect took more steps than the rules allow."""
