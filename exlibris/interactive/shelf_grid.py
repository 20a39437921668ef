"""Cards and shelves as rich text: letter and order (``M3/8``), then the books as
category letters, each in its category's colour. Colour only ever repeats what
the letters say, so the screen reads the same without it (``NO_COLOR``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich import box
from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text

from exlibris.interactive.keyed import KeyedTable
from exlibris.model.cards import ArtifactCard, BookCard, Card
from exlibris.model.shelf import Pos, Shelf, Slot

Styles = Mapping[str, Style]


def category_styles(categories: Iterable[object]) -> dict[str, Style]:
    """Each category code's style, from the ``colour`` in ``categories.yaml``."""
    styles = {}
    for category in categories:
        colour = getattr(category, "colour", None)
        styles[category.code] = Style(color=colour, bold=True) if colour else Style(bold=True)  # type: ignore[attr-defined]
    return styles


def books_text(books: Iterable[str], styles: Styles) -> Text:
    text = Text()
    for code in books:
        text.append(code, styles.get(code, ""))
    return text


def card_name(card: Card) -> str:
    """``M3/8`` (letter, order, cards of that letter) or an artifact's short name
    (``*Hammer``)."""
    if isinstance(card, BookCard):
        return f"{card.name}/{card.of}" if card.of else card.name
    if isinstance(card, ArtifactCard):
        return f"*{artifact_short(card.artifact_id)}"
    return f"*{card.name}"


def artifact_name(artifact_id: str) -> str:
    """An artifact's name from the content in use (its id if there is none)."""
    from exlibris.catalog import load_catalog

    spec = load_catalog().artifacts.get(artifact_id)
    return spec.name if spec is not None else artifact_id


def artifact_short(artifact_id: str) -> str:
    """A short form of an artifact's name that fits a shelf cell: the word before
    " of ", else its last word (``Hammer``, ``Void``, ``Ball``)."""
    name = artifact_name(artifact_id)
    if name == artifact_id:
        return artifact_id
    head = name.split(" of ")[0] if " of " in name else name
    return head.replace(",", " ").split()[-1]


def card_text(card: Card, styles: Styles) -> Text:
    """A card on one line, never broken: ``M3/8:FFS``."""
    text = Text(card_name(card))
    if isinstance(card, BookCard):
        text.append(":")
        text.append_text(books_text(card.books, styles))
    return text


def cards_text(cards: Iterable[Card | None], styles: Styles) -> Text:
    """Cards side by side; ``None`` is a face-down card (``??``)."""
    parts = [card_text(c, styles) if c is not None else Text("??", "dim") for c in cards]
    return Text("  ").join(parts) if parts else Text("none", "dim")


def cell_text(slot: Slot | None, styles: Styles, *, secret: bool, flips: bool = False) -> Text:
    """One shelf cell on two lines; ``secret`` hides face-down cards (not the owner);
    ``flips``: the alphabetical check would flip it now (``!`` before its books)."""
    if slot is None:
        return Text("·", "dim")
    card = slot.card
    if slot.face_down and secret:
        return Text("face\ndown", "dim")
    text = Text(("~" if slot.face_down else "") + card_name(card),
                "dim" if slot.face_down else "")
    if slot.beneath is not None:
        text.append("+1" if secret else f"+{card_name(slot.beneath)}", "dim")
    if slot.tucked:
        text.append(f"[{len(slot.tucked)}]", "dim")
    text.append("\n")
    if flips:
        text.append("!", "bold")
    if isinstance(card, BookCard):
        text.append_text(books_text(card.books, styles))
    elif isinstance(card, ArtifactCard):
        text.append("artifact", "italic")
    return text


CELL_WIDTH = 7  # six characters (``S11/12``) and a border


def shelf_grid(shelf: Shelf, styles: Styles, *, secret: bool = False,
               marks: Mapping[Pos, str] | None = None, title: str | None = None,
               width: int = 80, flipped: frozenset[Pos] = frozenset()) -> Group | Table:
    """The shelf as a grid with its row and column numbers (as decisions name them);
    a shelf too wide for ``width`` columns is listed row by row instead.

    ``marks`` labels empty cells (the option numbers of a ``where to shelve``);
    ``flipped`` cells hold cards the alphabetical check would flip now (``!``).
    """
    marks = marks or {}
    cells = {pos: slot for pos, slot in shelf.items()}
    used = list(cells) + list(marks)
    if not used:
        used = [(0, 0)]
    rows = range(min(r for r, _ in used), max(r for r, _ in used) + 1)
    cols = range(min(c for _, c in used), max(c for _, c in used) + 1)
    if 4 + CELL_WIDTH * len(cols) > width:
        return shelf_rows(cells, rows, cols, styles, secret=secret, marks=marks, title=title,
                          flipped=flipped)
    grid = KeyedTable(box=box.SQUARE, show_lines=True, padding=(0, 0), show_header=True,
                      header_style="dim")
    grid.add_column("r\\c", style="dim", justify="right", vertical="middle")
    for col in cols:
        grid.add_column(str(col), justify="center", min_width=6, no_wrap=True)
    for row in rows:
        line: list[Text] = [Text(str(row))]
        for col in cols:
            pos = (row, col)
            if pos in cells:
                line.append(cell_text(cells[pos], styles, secret=secret,
                                      flips=pos in flipped))
            elif pos in marks:
                line.append(Text(f"[{marks[pos]}]", "bold reverse"))
            else:
                line.append(Text("·", "dim"))
        grid.add_row(*line)
    return Group(Text(title), grid) if title else grid


def shelf_rows(cells: Mapping[Pos, Slot], rows: range, cols: range, styles: Styles, *,
               secret: bool, marks: Mapping[Pos, str], title: str | None,
               flipped: frozenset[Pos] = frozenset()) -> Group:
    """A wide shelf as one line per row: ``row -1:  3=M3/8:FFS  4=...``, a row that
    wraps going on under its first cell."""
    grid = KeyedTable.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column()
    for row in rows:
        text = Text()
        for col in cols:
            pos = (row, col)
            if pos in cells:
                text.append(f"{col}=", "dim")
                if pos in flipped:
                    text.append("!", "bold")
                text.append_text(cell_text(cells[pos], styles, secret=secret).split("\n")[0])
                slot = cells[pos]
                if isinstance(slot.card, BookCard) and not (secret and slot.face_down):
                    text.append(":")
                    text.append_text(books_text(slot.card.books, styles))
                text.append("  ")
            elif pos in marks:
                text.append(f"{col}=")
                text.append(f"[{marks[pos]}]", "bold reverse")
                text.append("  ")
        text.rstrip()
        grid.add_row(f"row {row}:", text)
    head = Text(f"{title} (too wide to draw: row by row)" if title else "")
    return Group(head, grid) if title else Group(grid)
