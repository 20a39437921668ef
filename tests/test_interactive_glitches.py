"""Issue 27's glitches and wording, each at the function that draws or tells it."""

from __future__ import annotations

from types import SimpleNamespace

from exlibris.catalog import load_catalog
from exlibris.interactive.frame import Painter, shelf_lines
from exlibris.interactive.shelf_grid import category_styles
from exlibris.scoring.table import parse_table_text

STYLES = category_styles(load_catalog().categories)


def shelf_of(rows: str):  # type: ignore[no-untyped-def]
    table, _ = parse_table_text("prominent: R\nbanned: M\nplayers:\n  - name: A\n"
                                "    focus: H\n    shelf: |\n"
                                + "".join(f"      {row}\n" for row in rows.splitlines())
                                + "  - name: B\n    focus: H\n    shelf: Z1:HH\n")
    return table.players[0].shelf


def drawn(shelf, width: int = 80) -> list[str]:  # type: ignore[no-untyped-def]
    screen = SimpleNamespace(styles=STYLES)
    text = shelf_lines(shelf, screen, {}, "Shelf", width)  # type: ignore[arg-type]
    return Painter(None, no_color=True).lines(text, width)


def test_the_one_line_shelf_of_seven_columns_fits_80_columns_aligned() -> None:
    shelf = shelf_of("A1/9:CCFM  B3/9:FMRS  C4/10:RHHS  D1/8:FFSS  E2/5:CFHS  F5/6:MMRS  "
                     "G6/7:CCHR\nA2/9:CCFM  B4/9:FMRS  C5/10:RHHS  D2/8:FFSS  E3/5:CFHS  "
                     "F6/6:MMRS  G7/7:CCHR")
    lines = drawn(shelf)
    assert all(len(line) <= 80 for line in lines), lines
    rows = [line for line in lines if line.startswith("row")]
    assert len(rows) == 4  # two blocks of columns, two rows each
    assert rows[0].index("B3/9:") == rows[1].index("B4/9:")  # aligned
    assert "columns 0 to" in "\n".join(lines) and "column 6:" in "\n".join(lines)


def test_the_one_line_shelf_shows_entombed_tucked_and_one_tilde() -> None:
    shelf = shelf_of("K2:CC+M3:FFS  ~A1:HH  *mystical-crystal-see-all-ball[2]")
    text = "\n".join(drawn(shelf))
    assert "K2:CC+M3" in text
    assert "~A1:HH" in text and "~~" not in text
    assert "*Ball[2]" in text
