"""Drawing keys (``interactive.keyed``): alike only when drawn alike."""

from __future__ import annotations

import io

import pytest
from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from exlibris.interactive.frame import Painter
from exlibris.interactive.keyed import KeyedColumns, KeyedTable, drawing_key
from exlibris.interactive.terminal import Terminal


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


@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_a_terminal_shows_a_group_as_printing_it_does_and_keeps_its_keyed_parts(
        colour: bool) -> None:
    """``Terminal.show`` (line mode): the same characters as ``Console.print``, the
    first time and from the kept segments after; the parts without a key drawn each
    time."""
    group = Group(Text("Round 2", "bold"), _table(), Columns([Text("a"), Text("b")]),
                  KeyedColumns([Text("c", "red"), _table(cell="K2")], padding=(0, 4)),
                  "a plain line")
    outputs = []
    for kept in (True, False):
        out = io.StringIO()
        terminal = Terminal(io.StringIO(), out, arrows=False)
        terminal.console = Console(file=out, width=50, force_terminal=colour,
                                   color_system="truecolor" if colour else None,
                                   highlight=False, markup=False, emoji=False)
        for width in (50, 50, 30):  # kept at one width, drawn anew at another
            terminal.console.width = width
            terminal.show(group) if kept else terminal.console.print(group)
        outputs.append(out.getvalue())
        if kept:
            assert len(terminal.kept) == 8  # all but the columns of no key, at each width
    assert outputs[0] == outputs[1] and "K2" in outputs[0]
    assert ("\x1b[" in outputs[0]) is colour


def test_columns_made_alike_have_one_key_and_a_difference_is_another() -> None:
    def columns(*cells: str, padding: tuple[int, int] = (0, 4)) -> KeyedColumns:
        return KeyedColumns([Text(cell) for cell in cells], padding=padding)

    added = columns("a")
    added.add_renderable(Text("b"))
    keys = [drawing_key(c) for c in (columns("a", "b"), columns("a", "b"), columns("a"),
                                     columns("a", "b", padding=(0, 1)), added)]
    assert keys[0] == keys[1] and None not in keys
    assert len({keys[0], keys[2], keys[3], keys[4]}) == 4
