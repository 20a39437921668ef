"""The inspection in view: one player's form as the game stands, and what a move does
to it.

The projection is the scoring's own code (``inspect_table`` over ``table_of``, the
table the Official Inspection reads at the end) run on the table now, with what the
player may not see taken out: the other players' focus and, in solo, the public
library's focus. Neither figures in the player's own column (B5 is a player's own
focus; B2 compares the tallies of face-up cards, which everyone sees), so the
column shown is the one the inspection would fill in if the game ended now and
nobody flipped anything. ``best`` is what ``exlibris score --best-flips`` finds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from exlibris.engine.flow import table_of
from exlibris.engine.game import Game
from exlibris.model.cards import Card
from exlibris.model.shelf import Pos, Shelf
from exlibris.scoring.flips import BestFlips, best_flips
from exlibris.scoring.inspection import Form, Inspection, Table, inspect_table

HIDDEN_FOCUS = ""  # a focus the player may not see: no category


def seen_table(game: Game, seat: int, shelf: Shelf | None = None) -> Table:
    """The end-of-game table as ``seat`` sees it now (``shelf``: theirs, changed)."""
    table = table_of(game)
    players = tuple(
        replace(p, shelf=shelf) if i == seat and shelf is not None
        else p if i == seat else replace(p, focus=HIDDEN_FOCUS)
        for i, p in enumerate(table.players))
    library = table.public_library
    if library is not None:
        library = replace(library, focus=HIDDEN_FOCUS)
    return replace(table, players=players, public_library=library)


def projected(game: Game, seat: int, shelf: Shelf | None = None) -> Inspection:
    """The inspection of the table ``seat`` sees, as it stands (or with ``shelf``)."""
    return inspect_table(seen_table(game, seat, shelf), game.scoring)


def projected_form(game: Game, seat: int) -> Form:
    """``seat``'s column of the inspection if the game ended now, nothing flipped."""
    return projected(game, seat).forms[seat]


def best_for(game: Game, seat: int) -> BestFlips:
    """The voluntary flips that raise ``seat``'s own total most (``score --best-flips``)."""
    return best_flips(projected(game, seat), seat)


@dataclass(frozen=True)
class Effect:
    """What shelving a card at one cell does to the projected total and the A1 flips."""

    total: int
    gain: int
    flips: int
    more_flips: int

    def text(self) -> str:
        """``→ 41 (+3) · A1 flips 2 (+1)``."""
        return (f"→ {self.total} ({self.gain:+d}) · A1 flips {self.flips}"
                f"{f' ({self.more_flips:+d})' if self.more_flips else ''}")


def shelving_effects(game: Game, seat: int, card: Card, cells: Sequence[Any]
                     ) -> list[Effect | None]:
    """For each cell of ``cells``, the projection with ``card`` shelved there (None
    for a cell that is not a shelf position)."""
    now = projected_form(game, seat)
    shelf = game.state.players[seat].shelf
    effects: list[Effect | None] = []
    for cell in cells:
        if not (isinstance(cell, tuple | list) and len(cell) == 2
                and all(isinstance(x, int) for x in cell)):
            effects.append(None)
            continue
        trial = shelf.copy()
        pos: Pos = (cell[0], cell[1])
        if trial.shelving_refusal(card, pos) is not None:
            effects.append(None)
            continue
        trial.shelve(card, pos)
        form = projected(game, seat, trial).forms[seat]
        effects.append(Effect(form.total, form.total - now.total, len(form.flipped),
                              len(form.flipped) - len(now.flipped)))
    return effects


def form_lines(form: Form, game: Game, best: BestFlips | None = None) -> list[str]:
    """The whole projected column, line by line, as the inspection form has it."""
    from exlibris.scoring.categories import CATEGORY_NAMES
    from exlibris.scoring.report import artifact_title

    state = game.state
    prominent = {state.prominent, state.also_prominent} - {None}
    lines = ["Your inspection form if the game ended now (nothing flipped by you):",
             f"  Total: {form.total}",
             f"  A1 flipped by the alphabetical check: {', '.join(form.flipped) or 'none'}"]
    for code, count in form.tally.items():
        mark = " (prominent)" if code in prominent else " (banned)" if code == state.banned \
            else ""
        lines.append(f"  A2 {CATEGORY_NAMES.get(code, code)}{mark}: {count}")
    lines += [f"  A2 books: {form.books}",
              f"  B1 shelf stability: {form.stability}",
              f"  B2 prominent works: {form.prominent}",
              f"  B3 banned books: {form.banned}",
              f"  B4 categorical variety: {form.variety}",
              f"  B5 library focus: {form.focus}"]
    if form.entombed:
        lines.append(f"  entombed cards: {form.entombed}")
    if form.artifacts or form.artifact_lines:
        lines.append(f"  artifacts: {form.artifacts}")
        lines += [f"    {artifact_title(aid)}: {points}" for aid, points in form.artifact_lines]
    if best is not None:
        lines.append("  " + best_words(best))
    return lines


def best_words(best: BestFlips) -> str:
    """``Best voluntary flips: R4, M8, T10, Z3 -> 63 (+25)`` (as ``score --best-flips``)."""
    if not best.cards:
        return f"Best voluntary flips: none (flipping anything scores less than {best.total})"
    note = "" if best.exact else " (search cut short: best found)"
    return (f"Best voluntary flips: {', '.join(best.cards)} -> {best.total} "
            f"({best.gain:+d}){note}")
