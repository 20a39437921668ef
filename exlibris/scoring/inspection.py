"""The whole inspection: a table in, one form per player and the ranking out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from exlibris.model.cards import BookCard
from exlibris.model.shelf import Shelf
from exlibris.scoring import steps
from exlibris.scoring.artifacts import (
    ArtifactPoints,
    ScoreEnv,
    Town,
    artifact_lines,
    artifact_points,
)
from exlibris.scoring.assistant_points import adds_to, assistant_row_points
from exlibris.scoring.settings import ScoringRules


@dataclass(frozen=True, slots=True)
class PlayerTable:
    """One player at the end of the game: shelf as laid out, focus, cards in hand."""

    name: str
    focus: str
    shelf: Shelf
    hand: int = 0
    origins: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict, compare=False)
    """Where each shelf cell was written in the table file: (line, col)."""
    assistants: tuple[str, ...] | None = None
    """The special assistants the player holds at the end (None: the table does not say)."""


@dataclass(frozen=True, slots=True)
class PublicLibrary:
    """The solo opponent: the discard pile, its focus, volunteers and donated artifacts."""

    focus: str
    cards: tuple[BookCard, ...] = ()
    volunteers: int = 0
    artifacts: int = 0


@dataclass(frozen=True, slots=True)
class Table:
    """An end-of-game table, as a table file describes it."""

    players: tuple[PlayerTable, ...]
    prominent: str
    banned: str | None
    variant: str = "standard"
    difficulty: int = 0
    public_library: PublicLibrary | None = None
    also_prominent: str | None = None  # a second prominent category (a variant's)

    @property
    def solo(self) -> bool:
        return self.public_library is not None

    @property
    def prominent_codes(self) -> tuple[str, ...]:
        """The prominent categories: Prominent Works is awarded for each."""
        return (self.prominent,) if self.also_prominent is None else (
            self.prominent, self.also_prominent)


@dataclass(frozen=True, slots=True)
class Form:
    """One column of the inspection form."""

    name: str
    tally: dict[str, int]
    flipped: tuple[str, ...] = ()
    stability: int = 0
    entombed: int = 0
    prominent: int = 0
    banned: int = 0
    variety: int = 0
    focus: int = 0
    artifacts: int = 0
    volunteers: int = 0
    hand: int = 0
    banned_books: int = 0
    house: int = 0  # the variant's own scoring (``ScoringRules.has_house_line``)
    flipped_at: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    # B6 (B7 solo) line by line: (artifact id, points) of each artifact on the shelf
    artifact_lines: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    @property
    def books(self) -> int:
        return sum(self.tally.values())

    @property
    def total(self) -> int:
        return (self.stability + self.entombed + self.prominent + self.banned + self.variety
                + self.focus + self.artifacts + self.volunteers + self.house)


@dataclass(frozen=True, slots=True)
class Inspection:
    """The filled-in form: every player's column, the ranking and the winners."""

    table: Table
    rules: ScoringRules
    forms: tuple[Form, ...]
    ranking: tuple[str, ...]
    winners: tuple[str, ...]
    public_library: Form | None = None

    @property
    def win(self) -> bool | None:
        """Solo only: the player's total exceeds the public library's (SOLO-02)."""
        if self.public_library is None:
            return None
        return self.forms[0].total > self.public_library.total


def inspect_player(
    player: PlayerTable, table: Table, rules: ScoringRules,
    points: ArtifactPoints = artifact_points, town: Town | None = None,
) -> Form:
    """Every step of one player's column except B2, which depends on the others;
    ``town``: the table as the player's scores see it, if not ``town_of`` it (a
    player's shelf weighed apart from the table's)."""
    flips = steps.a1_alphabetical(player.shelf)
    shelf = steps.with_flips(player.shelf, flips)
    tally = steps.a2_tally(shelf)
    if town is None:
        town = town_of(table, player)
    lines = artifact_lines(shelf, rules, points, town)
    return Form(
        name=player.name,
        tally=tally,
        flipped=tuple(player.shelf.at(pos).card.name for pos in flips),  # type: ignore[union-attr]
        flipped_at=tuple(flips),
        stability=steps.b1_stability(shelf, rules),
        entombed=entombed_row(player, shelf, rules),
        banned=steps.b3_banned(tally, table.banned, rules),
        variety=steps.b4_variety(tally, table.banned, rules),
        focus=steps.b5_focus(tally, player.focus, rules),
        artifacts=sum(p for _, p in lines)
        + assistant_row_points(shelf, player.assistants or (), "artifacts", rules),
        hand=player.hand,
        banned_books=steps.banned_books(tally, table.banned, rules),
        house=house_points(shelf, tally, rules, town)
        if rules.has_house_line else 0,
        artifact_lines=lines,
    )


NOWHERE = (-(10**6), -(10**6))  # the cell a house rule's score is "at": no card is there


def house_points(shelf: Shelf, tally: dict[str, int], rules: ScoringRules, town: Town) -> int:
    """The house rules line: the variant's points for each book of a category, and the
    end-of-game scores of its own abilities (``this`` is nothing in them)."""
    points = sum(tally.get(code, 0) * bonus for code, bonus in rules.category_bonus)
    env = ScoreEnv(shelf, NOWHERE, rules, town)
    return points + sum(int(score(env)) for score in rules.house_scores)


def town_of(table: Table, player: PlayerTable) -> Town:
    """The table as a score of ``player``'s sees it."""
    return Town(table.prominent, table.banned, player.name,
                tuple((p.name, p.shelf) for p in table.players if p is not player))


def entombed_row(player: PlayerTable, shelf: Shelf, rules: ScoringRules) -> int:
    """The entombed points of the shelf; with ``entombed_to_holder`` (EXP-TEMP-05) and a
    table that names the player's assistants, only if one of them adds to this row."""
    if (rules.entombed_to_holder and player.assistants is not None
            and not any(adds_to(aid, "entombed") for aid in player.assistants)):
        return 0
    return steps.entombed_points(shelf, rules)


def inspect_library(library: PublicLibrary, table: Table, rules: ScoringRules) -> Form:
    """The public library's column: no A1, no B1; volunteers and donations at the
    difficulty level each (SOLO-20..25, EXP-SOLO-16..18)."""
    tally = steps.tally_cards(library.cards)
    return Form(
        name="public library",
        tally=tally,
        banned=steps.b3_banned(tally, table.banned, rules),
        variety=steps.b4_variety(tally, table.banned, rules),
        focus=steps.b5_focus(tally, library.focus, rules),
        volunteers=steps.solo_volunteers(library.volunteers, table.difficulty),
        artifacts=steps.solo_donations(library.artifacts, table.difficulty),
        banned_books=steps.banned_books(tally, table.banned, rules),
    )


def prominent_awards(
    forms: Sequence[Form], library: Form | None, prominent: str, rules: ScoringRules
) -> tuple[list[int], int]:
    """B2 for every player (and the public library in solo)."""
    counts = [form.tally[prominent] for form in forms]
    if library is None:
        return steps.b2_prominent(counts, rules), 0
    mine, theirs = steps.b2_solo(counts[0], library.tally[prominent], rules)
    return [mine], theirs


def rank(forms: Sequence[Form], rules: ScoringRules) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Players best first after the tiebreakers, and the winners (several only when a
    tie survives every tiebreaker, SCORE-TIE-3). Seat order settles the listing of a
    tie that nothing breaks."""
    keys = [rank_key(form, rules) for form in forms]
    order = sorted(range(len(forms)), key=lambda i: keys[i])
    ranking = tuple(forms[i].name for i in order)
    if not order:
        return ranking, ()
    best = keys[order[0]]
    return ranking, tuple(forms[i].name for i in order if keys[i] == best)


def rank_key(form: Form, rules: ScoringRules) -> tuple[int, ...]:
    """Sort key: highest total, then the tiebreakers in the rules' order (SCORE-TIE-1)."""
    key = [-form.total]
    for name in rules.tiebreakers:
        if name == "books":
            key.append(-form.books)  # books on face-up shelf cards (SCORE-TIE-2 reading a)
        elif name == "hand":
            key.append(form.hand)
        elif name == "banned":
            key.append(form.banned_books)
    return tuple(key)


def table_key(table: Table) -> tuple[Any, ...]:
    """All that ``inspect_table`` reads of ``table``, as one hashable value: tables with
    equal keys are inspected alike under the same rules, whatever shelf objects hold
    their cells (a file's ``origins`` are left out: they only place its errors)."""
    return (tuple((p.name, p.focus, p.shelf.key(), p.hand, p.assistants)
                  for p in table.players),
            table.prominent, table.banned, table.variant, table.difficulty,
            table.public_library, table.also_prominent)


def inspect_table(
    table: Table, rules: ScoringRules, points: ArtifactPoints = artifact_points
) -> Inspection:
    """Run the whole form on ``table``."""
    forms = [inspect_player(p, table, rules, points) for p in table.players]
    library = (inspect_library(table.public_library, table, rules)
               if table.public_library is not None else None)
    awards, library_award = [0] * len(forms), 0
    for code in table.prominent_codes:  # B2 for each prominent category
        these, theirs = prominent_awards(forms, library, code, rules)
        awards = [a + b for a, b in zip(awards, these, strict=True)]
        library_award += theirs
    forms = [replace(form, prominent=award) for form, award in zip(forms, awards, strict=True)]
    if library is not None:
        library = replace(library, prominent=library_award)
    ranking, winners = rank(forms, rules)
    if library is not None and forms[0].total <= library.total:
        winners = ()
    return Inspection(table, rules, tuple(forms), ranking, winners, library)


def deciding_tiebreak(inspection: Inspection) -> str:
    """What set the winner apart from the runner-up: ``total``, a tiebreaker's name
    (``books``, ``hand``, ``banned``), or ``unbroken`` when the tie survives them all."""
    forms = {form.name: form for form in inspection.forms}
    if len(inspection.ranking) < 2:
        return "total"
    first, second = (rank_key(forms[name], inspection.rules) for name in inspection.ranking[:2])
    names = ("total", *inspection.rules.tiebreakers)
    for name, a, b in zip(names, first, second, strict=True):
        if a != b:
            return name
    return "unbroken"
