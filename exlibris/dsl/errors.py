"""Errors in effect-language source, located within the source text."""

from __future__ import annotations

from collections.abc import Callable

from exlibris.errors import caret_context
from exlibris.limits import MAX_QUOTED_CHARS


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
    ``exlibris.limits``, or activations nested too deep. Once the handler that ran it
    names it (``compiler._named``): ``entry``, the handler's source name
    (``ENTRY-KEY:FIELD``, see :func:`source_name`), and ``line``/``col`` inside that
    field's text; then ``where``, the author's file, line and column with the text
    there, when a locator (``set_locator``) finds the entry's file."""

    def __init__(self, message: str, entry: str | None = None, line: int | None = None,
                 col: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.entry = entry
        self.line = line
        self.col = col
        self._place: Where | bool | None = False  # found when first told (False: not yet)

    @property
    def where(self) -> Where | None:
        """The author's place of the error (found once, when first asked: an error a
        caller handles, such as a placement rule's pre-check, never looks)."""
        if self._place is False:
            self._place = _locate(self.entry, self.line, self.col) \
                if self.entry is not None else None
        return self._place  # type: ignore[return-value]

    def __str__(self) -> str:
        if self.entry is None:
            return self.message
        entry, what = field_words(self.entry)
        where = self.where
        if where is None:
            at = f", line {self.line}" if self.line else ""
            return f"{what} of {entry}{at}: {self.message}"
        file, line, col, quoted = where
        shown = f" stopped at `{quoted}`" if quoted else ""
        return f"{file}:{line}:{col}: {what} of {entry}{shown}: {self.message}"

    def __reduce__(self) -> tuple[object, ...]:  # (pickled by simulate's workers: located
        # where the content in use is known)
        return (_rebuilt, (type(self), self.message, self.entry, self.line, self.col,
                           self.where))


def _rebuilt(cls: type[EffectError], message: str, entry: str | None, line: int | None,
             col: int | None, where: Where | None) -> EffectError:
    exc = cls(message, entry, line, col)
    exc._place = where
    return exc


class EffectBudgetExceeded(EffectError):
    """A running effect took more steps than the rules allow."""


# ---- where a running effect's error is in the author's files ---------------------------------

# (file as shown, line, column, the text there as written): the author's place of an error
Where = tuple[str, int, int, str]
# a field's source name -> (file as shown, line and column of the field's first
# character in that file, the field's text); None where no content in use has it
Locator = Callable[[str], tuple[str, int, int, str] | None]
_locator: list[Locator] = []


def set_locator(locator: Locator) -> None:
    """Let run-time errors name the author's file: ``locator`` finds an entry's field
    (the catalog module sets it: this package does not read content)."""
    _locator[:] = [locator]


def source_name(entry: str, *field: str | int) -> str:
    """The name a compiled field of a content entry runs under: ``ENTRY-KEY:FIELD``,
    e.g. ``diviners-hut:effect``, ``mummy@base#0:when``, ``x#1:placement.0``."""
    return f"{entry}:{'.'.join(map(str, field))}"


_FIELD_WORDS = {"effect": "the effect", "when": "the condition of the trigger",
                "placement": "the placement rule", "score": "the score"}


def field_words(name: str) -> tuple[str, str]:
    """(the entry's id, what the field is in words) for a source name."""
    key, _, field = name.partition(":")
    entry = key.partition("#")[0].partition("@")[0]
    return entry, _FIELD_WORDS.get(field.partition(".")[0], "the effect")


def _locate(entry: str, line: int | None, col: int | None) -> Where | None:
    """The author's file, line and column of ``line``:``col`` of the named field, with
    the field's text from there to the end of that line; None without a locator's
    answer."""
    if not _locator:
        return None
    try:
        found = _locator[0](entry)
    except Exception:  # an error is being told: never a second one
        return None
    if found is None:
        return None
    file, field_line, field_col, text = found
    line = line or 1
    lines = text.splitlines()
    source = lines[line - 1] if 1 <= line <= len(lines) else ""
    if col is None:  # a statement starts its line: at its first character
        col = len(source) - len(source.lstrip()) + 1
    quoted = " ".join(source[col - 1:].split())
    if len(quoted) > MAX_QUOTED_CHARS:
        quoted = quoted[:MAX_QUOTED_CHARS - 1] + "…"
    # a block scalar keeps its lines and shifts every column by its indentation
    return file, field_line + line - 1, field_col + col - 1, quoted
