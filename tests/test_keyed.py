"""Drawing keys (``interactive.keyed``): alike only when drawn alike."""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from exlibris.interactive.frame import Painter
from exlibris.interactive.keyed import KeyedTable, drawing_key


def _table(header: str = "r\\c", cell: str = "M3/8", justify: str = "center",
           row_style: str | None = None) -> KeyedTable:
    table = KeyedTable(show_lines=True, padding=(0, 0))
    table.add_column(header, justify="right")
    table.add_column("0", justify=justify, min_width=6)
    table.add_row(Text("0"), Text(cell, "bold"), style=row_style)
    return table


def test_tables_made_alike_have_one_key_and_one_drawing() -> None:
    first, second = _table(), _table()
    assert first is not second and drawing_key(first) == drawing_key(second) is not None
    assert Painter().lines(first, 40) == Painter()._draw(second, 40)


def test_a_difference_in_a_setting_a_column_or_a_row_is_a_different_key() -> None:
    keys = {drawing_key(table) for table in (
        _table(), _table(header="row"), _table(cell="M3/9"), _table(justify="left"),
        _table(row_style="dim"), KeyedTable.grid(), KeyedTable.grid(padding=(0, 1)))}
    assert len(keys) == 7 and None not in keys


def test_groups_key_by_their_parts_and_unknown_parts_have_no_key() -> None:
    assert drawing_key(Group(Text("a"), _table())) == drawing_key(Group(Text("a"), _table()))
    assert drawing_key(Group(Text("a"))) != drawing_key(Group(Text("a"), fit=False))
    table = Table()  # a plain rich table does not say how it was made
    table.add_row("a")
    for unknown in (table, Columns([Text("a")]), Group(Text("a"), table),
                    _with_cell(Columns([Text("a")]))):
        assert drawing_key(unknown) is None


def test_a_text_changed_after_it_was_put_in_a_table_changes_the_key() -> None:
    cell = Text("M3")
    table = KeyedTable()
    table.add_row(cell)
    before = drawing_key(table)
    cell.append(":FFS", "red")
    assert drawing_key(table) != before


def _with_cell(cell: object) -> KeyedTable:
    table = KeyedTable()
    table.add_row(cell)  # type: ignore[arg-type]
    return table
