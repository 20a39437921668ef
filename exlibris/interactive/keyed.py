"""What decides how a renderable is drawn, as a hashable key, so that a drawing made
once can be given again (``frame.Painter``).

A frame is drawn again at every key press, and most of it (the log, the hand, the
shelves, the locations) is what the frame before drew. A key covers a renderable only
where it can say everything its drawing depends on: texts (their characters and
styles), tables made as ``KeyedTable`` (their settings, columns and rows, as made) and
groups of these. Anything else has no key and is drawn every time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

Key = tuple[object, ...]
Step = tuple[str, tuple[Any, ...], dict[str, Any]]  # what was made, with what


class KeyedTable(Table):
    """A rich table that keeps how it was made (its settings, then each column and
    row as added), so that tables made alike are known to draw alike. Only what goes
    through the constructor, ``add_column`` and ``add_row`` is kept: a table changed
    otherwise (an attribute set afterwards) would be given a drawing of the table as
    made, so such a table is made anew instead."""

    def __init__(self, *headers: Any, **settings: Any) -> None:
        self.made: list[Step] = [("table", headers, settings)]
        super().__init__(*headers, **settings)

    def add_column(self, *args: Any, **kwargs: Any) -> None:
        self.made.append(("column", args, kwargs))
        super().add_column(*args, **kwargs)

    def add_row(self, *cells: Any, **kwargs: Any) -> None:
        self.made.append(("row", cells, kwargs))
        super().add_row(*cells, **kwargs)


class KeyedColumns(Columns):
    """Rich columns that keep how they were made (their renderables and settings, then
    each renderable added), as ``KeyedTable`` does."""

    def __init__(self, renderables: Iterable[Any] | None = None, *args: Any,
                 **settings: Any) -> None:
        items = list(renderables or [])
        self.made: list[Step] = [("columns", (tuple(items), *args), settings)]
        super().__init__(items, *args, **settings)

    def add_renderable(self, renderable: Any) -> None:
        self.made.append(("add", (renderable,), {}))
        super().add_renderable(renderable)


class _NoKey(Exception):
    """A part whose drawing a key cannot say."""


def drawing_key(renderable: object) -> Key | None:
    """All that decides how ``renderable`` is drawn at a given width and colours, or
    None when that cannot be said."""
    try:
        key = _key(renderable)
        hash(key)
    except (_NoKey, TypeError):
        return None
    return key  # type: ignore[return-value]


def _key(part: object) -> object:
    if isinstance(part, Text):
        return ("text", part.plain, tuple(part.spans), part.style, part.justify,
                part.overflow, part.no_wrap, part.end, part.tab_size)
    if isinstance(part, (KeyedTable, KeyedColumns)):
        return ("made", *(_made(step) for step in part.made))
    if type(part) is Group:
        return ("group", part.fit, *(_key(item) for item in part.renderables))
    if part is None or isinstance(part, (str, int, float, bool)):
        return part
    if isinstance(part, tuple):
        return tuple(_key(item) for item in part)
    if isinstance(part, (Table, list, dict, set)) or hasattr(part, "__rich_console__") \
            or hasattr(part, "__rich__"):
        raise _NoKey  # a renderable or a container a key cannot vouch for
    return part  # a setting: a style, a box (hashable, or the caller's TypeError)


def _made(step: Step) -> object:
    what, args, kwargs = step
    return (what, tuple(_key(arg) for arg in args),
            tuple(sorted((name, _key(value)) for name, value in kwargs.items())))


KEPT = 4096  # drawings kept, at most, in each store (``frame.Painter``'s, a terminal's)
T = TypeVar("T")


def remembered(kept: dict[Key, T], key: Key, draw: Callable[[], T]) -> T:
    """``kept[key]``, made by ``draw`` the first time (a full store emptied first)."""
    drawn = kept.get(key)
    if drawn is None:
        if len(kept) >= KEPT:
            kept.clear()
        drawn = kept[key] = draw()
    return drawn


def segments(console: Console, renderable: Any, options: ConsoleOptions,
             kept: dict[Key, list[Segment]]) -> list[Segment]:
    """The segments ``console.render`` makes of ``renderable`` with ``options``; a
    group's parts one by one (a group renders as its parts in turn, with the same
    options), and those with a key drawn once and kept in ``kept``."""
    if type(renderable) is Group:
        return [segment for part in renderable.renderables
                for segment in segments(console, part, options, kept)]
    key = drawing_key(renderable)
    if key is None:
        return list(console.render(renderable, options))
    return remembered(kept, (key, *sorted(vars(options).items())),
                      lambda: list(console.render(renderable, options)))
