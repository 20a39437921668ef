"""The Official Library Inspection Form, one small function per step.

Every number comes from :class:`~exlibris.scoring.settings.ScoringRules`; the
rulings each step applies are written up in ``docs/rulings.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from exlibris.model.cards import CATEGORY_CODES, BookCard
from exlibris.model.shelf import Pos, Shelf
from exlibris.scoring.settings import ScoringRules

Tally = dict[str, int]


def a1_alphabetical(shelf: Shelf) -> list[Pos]:
    """A1: the cells the inspector flips, in inspection order.

    One greedy pass in reading order (SCORE-A1-6); each face-up book card is
    compared with the last card left face up (SCORE-A1-4 reading b). Face-down
    cards and artifacts are skipped and never serve as the previous card.
    """
    last: tuple[str, int] | None = None  # the key of the last card left face up
    flipped: list[Pos] = []
    for pos, slot in shelf.items():
        card = slot.card
        if slot.face_down or not isinstance(card, BookCard):
            continue  # only face-up book cards (Slot.face_up_book), inlined: a hot loop
        key = card.key  # ``follows`` compares keys
        if last is None or key > last:
            last = key
        else:
            flipped.append(pos)
    return flipped


def with_flips(shelf: Shelf, positions: Iterable[Pos]) -> Shelf:
    """A copy of ``shelf`` with the cards at ``positions`` turned face down."""
    return shelf.turned_down(positions)


def a2_tally(shelf: Shelf) -> Tally:
    """A2: books per category code on the face-up book cards (SCORE-A2-1)."""
    tally = dict.fromkeys(CATEGORY_CODES, 0)
    for _, slot in shelf.items():
        card = slot.face_up_book
        if card is not None:
            for code in card.books:
                tally[code] = tally.get(code, 0) + 1
    return tally


def tally_cards(cards: Iterable[BookCard]) -> Tally:
    """A2 for the public library: books per category on every card given."""
    tally = dict.fromkeys(CATEGORY_CODES, 0)
    for card in cards:
        for code in card.books:
            tally[code] = tally.get(code, 0) + 1
    return tally


def b1_stability(shelf: Shelf, rules: ScoringRules) -> int:
    """B1: cards in the largest completely filled rectangle standing on the bottom row.

    It must be at least ``rules.min_rectangle`` (width, height); face-down cards,
    artifacts and entombed stacks fill their cells (SCORE-B1-1..3).
    """
    bottom = shelf.bottom_row
    if bottom is None:
        return 0
    standing = standing_columns(set(shelf.positions()), bottom)
    return filled_rectangle(standing, rules.min_rectangle, shelf.height)


def standing_columns(cells: set[Pos], bottom: int) -> dict[int, int]:
    """Each column's filled cells counted up from the ``bottom`` row, without a gap."""
    standing: dict[int, int] = {}
    for r, c in cells:
        if r == bottom:
            depth = 1
            while (bottom - depth, c) in cells:
                depth += 1
            standing[c] = depth
    return standing


def filled_rectangle(standing: dict[int, int], smallest: tuple[int, int], height: int
                     ) -> int:
    """Cards in the largest rectangle of ``standing`` columns (see ``standing_columns``)
    at least ``smallest`` (width, height) and at most ``height`` rows high."""
    min_width, min_height = smallest
    columns = sorted(standing)
    best = 0
    for rows in range(min_height, height + 1):
        run, previous = 0, None
        for col in columns:
            if standing[col] >= rows:
                run = run + 1 if previous == col - 1 else 1
                previous = col
                if run >= min_width:
                    best = max(best, run * rows)
            else:
                run, previous = 0, None
    return best


def entombed_points(shelf: Shelf, rules: ScoringRules) -> int:
    """The Mummy: points per entombed card, shown apart from B1 (SA-MUMMY-7)."""
    return shelf.entombed_count() * rules.entombed_per_card


def b2_prominent(counts: Sequence[int], rules: ScoringRules) -> list[int]:
    """B2: each player's Prominent Works award from their prominent tallies.

    N players tied at a place share the awards of that place and the N-1 places
    below it (a missing place is worth 0), each taking the pool divided by N,
    rounded up; the next player takes the place after the pooled ones
    (SCORE-B2-2, SCORE-B2-4 reading a). With ``prominent_needs_a_book`` a tally of
    0 takes no place (SCORE-B2-5).
    """
    awards = [0] * len(counts)
    place = 0
    for value in sorted(set(counts), reverse=True):
        if value == 0 and rules.prominent_needs_a_book:
            break
        tied = [i for i, count in enumerate(counts) if count == value]
        pool = sum(rules.award_for(place + k) for k in range(len(tied)))
        share = -(-pool // len(tied))
        for i in tied:
            awards[i] = share
        place += len(tied)
    return awards


def b2_solo(player: int, library: int, rules: ScoringRules) -> tuple[int, int]:
    """Solo B2: one award to the higher prominent tally; the public library takes ties
    (SOLO-23), unless the rules say otherwise, when the tie is pooled as usual."""
    if not rules.public_library_wins_ties:
        mine, theirs = b2_prominent([player, library], rules)
        return mine, theirs
    award = rules.award_for(0)
    needs = rules.prominent_needs_a_book
    player_wins = player > library and (player > 0 or not needs)
    library_wins = not player_wins and (library > 0 or not needs)
    return (award if player_wins else 0, award if library_wins else 0)


def banned_books(tally: Tally, banned: str | None, rules: ScoringRules) -> int:
    """How many banned books the tally holds (0 where nothing is banned)."""
    return tally.get(banned, 0) if banned and rules.banned_books else 0


def b3_banned(tally: Tally, banned: str | None, rules: ScoringRules) -> int:
    """B3: the penalty for banned books, zero or negative (SCORE-B3-1, EXP-5P-02)."""
    return banned_books(tally, banned, rules) * rules.banned_per_book


def variety_categories(banned: str | None) -> tuple[str, ...]:
    """The categories B4 weighs: all but the banned one (all six when none is)."""
    return tuple(code for code in CATEGORY_CODES if code != banned)


def b4_variety(tally: Tally, banned: str | None, rules: ScoringRules) -> int:
    """B4: points per book of the smallest tally among the non-banned categories."""
    return min(tally.get(code, 0) for code in variety_categories(banned)) * rules.variety_per_book


def b5_focus(tally: Tally, focus: str, rules: ScoringRules) -> int:
    """B5: points per book of the library's focus."""
    return tally.get(focus, 0) * rules.focus_per_book


def solo_volunteers(count: int, level: int) -> int:
    """Solo B6: the public library's points for volunteer cards (EXP-SOLO-17)."""
    return count * level


def solo_donations(count: int, level: int) -> int:
    """Solo B7: the public library's points for donated artifacts (EXP-SOLO-18)."""
    return count * level
