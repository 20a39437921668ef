"""The filled-in form as ``--json`` figures or as a readable table."""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from typing import Any

from exlibris.model.cards import CATEGORY_CODES
from exlibris.scoring.categories import CATEGORY_IDS, CATEGORY_NAMES
from exlibris.scoring.flips import BestFlips
from exlibris.scoring.inspection import Form, Inspection


def form_json(form: Form, *, library: bool = False) -> dict[str, Any]:
    """One column's figures, keyed as the table format specifies."""
    data: dict[str, Any] = {} if library else {"name": form.name}
    data.update({
        "flipped": list(form.flipped),
        "tally": {CATEGORY_IDS[code]: form.tally.get(code, 0) for code in CATEGORY_CODES},
        "books": form.books,
        "stability": form.stability,
        "entombed": form.entombed,
        "prominent": form.prominent,
        "banned": form.banned,
        "variety": form.variety,
        "focus": form.focus,
    })
    if library:
        data["volunteers"] = form.volunteers
    data["artifacts"] = form.artifacts
    if form.house:
        data["house_rules"] = form.house  # an extension: the variant's own scoring
    data["total"] = form.total
    return data


def to_json(inspection: Inspection, best: Sequence[BestFlips] | None = None) -> dict[str, Any]:
    """The ``--json`` document; ``best`` adds each player's ``best_flips``."""
    players = []
    for i, form in enumerate(inspection.forms):
        entry = form_json(form)
        if best is not None:
            entry["best_flips"] = {"flip": list(best[i].cards), "total": best[i].total,
                                   "gain": best[i].gain}
        players.append(entry)
    data: dict[str, Any] = {
        "variant": inspection.table.variant,
        "players": players,
        "ranking": list(inspection.ranking),
        "winners": list(inspection.winners),
    }
    if inspection.public_library is not None:
        data["public_library"] = form_json(inspection.public_library, library=True)
        data["win"] = bool(inspection.win)
    return data


def _rows(inspection: Inspection, modules: Collection[str] | None = None
          ) -> list[tuple[str, list[str]]]:
    table = inspection.table
    columns: list[Form] = list(inspection.forms)
    if inspection.public_library is not None:
        columns.append(inspection.public_library)

    def row(label: str, values: list[Any]) -> tuple[str, list[str]]:
        return label, [str(v) for v in values]

    rows = [row("A1 flipped", [", ".join(f.flipped) or "-" for f in columns])]
    for code in CATEGORY_CODES:
        mark = (" (prominent)" if code in table.prominent_codes
                else " (banned)" if code == table.banned else "")
        rows.append(row(f"A2 {CATEGORY_NAMES[code]}{mark}", [f.tally[code] for f in columns]))
    rows.append(row("A2 books", [f.books for f in columns]))
    rows.append(row("B1 shelf stability", [f.stability for f in columns]))
    rows.append(row("   entombed (Mummy)", [f.entombed for f in columns]))
    rows.append(row("B2 prominent works", [f.prominent for f in columns]))
    rows.append(row("B3 banned books", [f.banned for f in columns]))
    rows.append(row("B4 categorical variety", [f.variety for f in columns]))
    rows.append(row("B5 library focus", [f.focus for f in columns]))
    volunteers = [f.volunteers for f in columns]
    artifacts = [f.artifacts for f in columns]
    if table.solo and _shown("job-faire", modules, volunteers):
        rows.append(row("B6 volunteers", volunteers))
    if _shown("artifactorium", modules, artifacts):
        rows.append(row("B7 artifacts" if table.solo else "B6 artifacts", artifacts))
    rows.extend(_artifact_rows(columns))
    if inspection.rules.has_house_line or any(f.house for f in columns):
        rows.append(row("   house rules (variant)", [f.house for f in columns]))
    return rows


def _shown(module: str, modules: Collection[str] | None, values: list[int]) -> bool:
    """A row of a module's points is left out of the form of a game without that
    module (``modules``; None: not known, always shown) unless it scored."""
    return modules is None or module in modules or any(values)


def _artifact_rows(columns: list[Form]) -> list[tuple[str, list[str]]]:
    """A line under the artifacts row for each artifact on a shelf, with its points."""
    ids = list(dict.fromkeys(aid for form in columns for aid, _ in form.artifact_lines))
    found = [dict(form.artifact_lines) for form in columns]
    return [(f"   {aid}", [str(points.get(aid, "-")) for points in found]) for aid in ids]


def outcome_lines(inspection: Inspection) -> list[str]:
    """The winner line (and the ranking), in words."""
    forms = {f.name: f for f in inspection.forms}
    if inspection.public_library is not None:
        me, library = inspection.forms[0], inspection.public_library
        if inspection.win:
            return [f"Winner: {me.name} ({me.total} against the public library's "
                    f"{library.total}): licence approved", "Result: won"]
        return [f"Winner: the public library ({library.total} against "
                f"{possessive(me.name)} {me.total}; a tie goes to the library)",
                "Result: lost"]
    ranking = ", ".join(f"{i}. {name} ({forms[name].total})"
                        for i, name in enumerate(inspection.ranking, 1))
    winners = inspection.winners
    if len(winners) == 1:
        line = f"Winner: {winners[0]}{tiebreak_words(inspection)}"
    else:
        line = f"Winners (a tie no tiebreaker settles): {', '.join(winners)}"
    return [line, f"Ranking: {ranking}"]


def possessive(name: str) -> str:
    """``Ada's``; a player named You is ``your``."""
    return "your" if name.lower() == "you" else f"{name}'s"


_TIEBREAK_WORDS = {"books": ("more books on face-up shelf cards", "books", True),
                   "hand": ("fewer cards in hand", "hand", False),
                   "banned": ("fewer banned books", "banned_books", False)}


def tiebreak_words(inspection: Inspection) -> str:
    """``; tied on 59 with Ann, wins on fewer banned books (2 to 4)`` when a tie on the
    total was broken (SCORE-TIE-1), else nothing."""
    forms = {f.name: f for f in inspection.forms}
    first = forms[inspection.winners[0]]
    tied = [f for f in inspection.forms if f.total == first.total and f is not first]
    if not tied:
        return ""
    rivals = list(tied)
    for name in inspection.rules.tiebreakers:
        words, field, more = _TIEBREAK_WORDS[name]
        mine = getattr(first, field)
        best_other = max if more else min
        other = best_other(getattr(f, field) for f in rivals)
        if mine != other:
            names = ", ".join(f.name for f in tied)
            return (f" — tied on {first.total} with {names}; wins on {words} "
                    f"({mine} to {other})")
        rivals = [f for f in rivals if getattr(f, field) == mine]
    return ""


def best_lines(best: Sequence[BestFlips]) -> list[str]:
    lines = ["Best voluntary flips (each player's own total, everyone else as given):"]
    for b in best:
        what = "flip " + ", ".join(b.cards) if b.cards else "no flips"
        note = "" if b.exact else " (search cut short: best found)"
        lines.append(f"  {b.name}: {what} -> {b.total} ({b.gain:+d}){note}")
    return lines


def render_form(
    inspection: Inspection,
    *,
    color: bool = False,
    width: int | None = None,
    best: Sequence[BestFlips] | None = None,
    modules: Collection[str] | None = None,
) -> str:
    """The readable form: rows are the steps, columns the players, then the winner.

    Without ``color`` the table is plain ASCII with no escape codes. ``modules`` are
    the game's: the volunteers and artifacts rows of a module not among them (and
    scoring nothing) are left out.
    """
    table = inspection.table
    what = [table.variant] if table.variant != "solo" else []
    what.append("solo" if table.solo else f"{len(table.players)} players")
    title = f"Official Library Inspection Form ({', '.join(what)})"
    columns = [*inspection.forms]
    if inspection.public_library is not None:
        columns.append(inspection.public_library)
    headers = ["Step", *(form.name for form in inspection.forms)]
    if inspection.public_library is not None:
        headers.append("Public library")
    rows = [[label, *values] for label, values in _rows(inspection, modules)]
    total = ["Total", *(str(f.total) for f in columns)]
    text = None if color else ascii_grid(headers, rows, total, width or 200)
    if text is None:
        text = _rich_grid(headers, rows, total, color=color, width=width or 200)
    lines = outcome_lines(inspection)
    if table.solo and table.difficulty:
        lines.insert(0, f"Difficulty level {table.difficulty}")
    if best is not None:
        lines += best_lines(best)
    lines = [part for line in [title, *lines] for part in _wrapped(line, width or 200)]
    return "\n".join([lines[0], text, *lines[1:]]) + "\n"


def _wrapped(line: str, width: int) -> list[str]:
    """``line`` in lines of at most ``width`` columns, the later ones indented."""
    import textwrap

    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False) or [line]


def _plain(cell: str) -> bool:
    """True for text rich prints as it is: printable ASCII, no markup, no trailing space."""
    return cell == cell.rstrip() and all(" " <= c <= "~" and c not in "[]\\" for c in cell)


def ascii_grid(headers: list[str], rows: list[list[str]], total: list[str],
               width: int) -> str | None:
    """The form's grid drawn as rich draws it with ``box.ASCII`` (first column to the
    left, the others to the right, ``total`` in a section of its own), without
    importing rich; None when rich would do more than pad the cells (text that is
    not plain ASCII, or a grid wider than ``width``), for the caller to ask rich."""
    cells = [headers, *rows, total]
    if not all(len(row) == len(headers) and all(_plain(c) for c in row) for row in cells):
        return None
    sizes = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    if sum(sizes) + 3 * len(sizes) + 1 > width:
        return None

    def line(row: list[str]) -> str:
        first = row[0].ljust(sizes[0])
        rest = [c.rjust(n) for c, n in zip(row[1:], sizes[1:], strict=True)]
        return "| " + " | ".join([first, *rest]) + " |"

    rule = "|" + "+".join("-" * (n + 2) for n in sizes) + "|"
    edge = "+" + "-" * (len(rule) - 2) + "+"
    return "\n".join([edge, line(headers), rule, *map(line, rows), rule, line(total), edge])


def _rich_grid(headers: list[str], rows: list[list[str]], total: list[str], *,
               color: bool, width: int) -> str:
    """The grid drawn by rich: rounded and bold at a colour terminal, else ASCII."""
    from rich import box
    from rich.console import Console
    from rich.table import Table as RichTable

    grid = RichTable(box=box.ROUNDED if color else box.ASCII)
    grid.add_column(headers[0], style="bold" if color else None, no_wrap=True)
    for header in headers[1:]:
        grid.add_column(header, justify="right")
    for row in rows:
        grid.add_row(*row)
    grid.add_section()
    grid.add_row(*total, style="bold" if color else None)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color,
                      color_system="auto" if color else None, width=width,
                      highlight=False, emoji=False)
    console.print(grid)
    return buffer.getvalue().rstrip("\n")
