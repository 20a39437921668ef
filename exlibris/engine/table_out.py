"""Writing a finished game as a table file (the format of `exlibris score`)."""

from __future__ import annotations

from typing import Any

from exlibris.model.shelf import Shelf
from exlibris.scoring.categories import CATEGORY_IDS


def shelf_rows(shelf: Shelf) -> list[str]:
    """The shelf as rows of cell tokens, top row first, ``.`` for empty cells."""
    cells = {pos: slot.token() for pos, slot in shelf.items()}
    if not cells:
        return ["."]
    rows = sorted({r for r, _ in cells})
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    lines = [[cells.get((r, c), ".") for c in cols] for r in range(rows[0], rows[-1] + 1)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(cols))]
    return ["  ".join(tok.ljust(w) for tok, w in zip(line, widths, strict=True)).rstrip()
            for line in lines]


def table_text(game: Any) -> str:
    """The end-of-game table of ``game`` in the table-file format (YAML)."""
    state = game.state
    out = [
        "# An end-of-game table written by `exlibris play`; score it with `exlibris score`.",
        f"variant: {getattr(game, 'variant', 'standard')}",
        f"prominent: {CATEGORY_IDS[state.prominent]}",
        f"banned: {CATEGORY_IDS[state.banned] if state.banned else 'null'}",
        "players:",
    ]
    for player in state.players:
        out.append(f"  - name: {_quote(player.name)}")
        out.append(f"    focus: {CATEGORY_IDS[player.focus]}")
        out.append(f"    hand: {len(player.hand)}")
        out.append(f"    assistants: [{', '.join(held_assistants(player))}]")
        out.append("    shelf: |")
        out += [f"      {row}" for row in shelf_rows(player.shelf)]
    if getattr(game, "solo", None) is not None:
        out += solo_lines(game)
    return "\n".join(out) + "\n"


def held_assistants(player: Any) -> tuple[str, ...]:
    """The ids of the special assistants ``player`` holds (the table's ``assistants:``)."""
    return tuple(sorted({a.spec.id for a in player.assistants if a.spec is not None}))


def solo_lines(game: Any) -> list[str]:
    """The difficulty and the public library of a solo table (SOLO-19)."""
    from exlibris.engine.solo import public_library

    library = public_library(game)
    cards = ", ".join(str(card) for card in library.cards)
    return [f"difficulty: {game.solo.difficulty}",
            "public-library:",
            f"  focus: {CATEGORY_IDS[library.focus]}",
            f"  cards: [{cards}]",
            f"  volunteers: {library.volunteers}",
            f"  artifacts: {library.artifacts}"]


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
