"""What things are worth to the greedy bot: special assistants, books and shelves.

A hire (and a Job Faire bid) is valued by walking the effect language of each
ability: every verb that gains the player cards or actions adds its worth (a draw
per card, a home action, a shelving...), scaled by how often the ability's timing
lets it act. Placement rules and end-of-game scores add a little. Nothing is read
from names or texts.

Books and shelves are valued by the inspection form read ahead with the game's own
``ScoringRules`` (``Worth``, ``ShelfReading``): a house rule that changes a number
of the form changes what the bot wants.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, reduce
from itertools import chain
from operator import add, is_not, itemgetter, mul, ne, or_, sub
from typing import Any

from exlibris.dsl import ast
from exlibris.dsl.parser import parse_program
from exlibris.model.cards import CATEGORY_CODES, ArtifactCard, BookCard, Card
from exlibris.model.shelf import Pos, Shelf, Slot
from exlibris.scoring import steps
from exlibris.scoring.artifacts import (
    CardShares,
    LetterAtoms,
    around,
    artifact_points_read,
    score_shortcut,
)
from exlibris.scoring.settings import ScoringRules

# what one use of a verb is worth, in cards (per unit of a literal amount)
VERB_WORTH = {
    "draw": 1.0, "take": 1.0, "shelve": 0.8, "home_action": 1.0,
    "both_home_actions": 2.0, "home_actions": 1.0, "entomb": 0.7, "levitate": 0.4,
    "place_assistant": 0.5, "move_assistant": 0.3, "trade": 0.3,
}
# how often an ability acts over a game, relative to one use per round
TIMING_FACTOR = {"on-placement": 1.0, "reaction": 0.6, "ongoing": 0.7, "end-of-game": 1.0}


def _amount(call: ast.Call) -> float:
    for arg in call.args:
        if arg.name is None:
            value = arg.value.value if isinstance(arg.value, ast.Amount) else arg.value
            if isinstance(value, ast.Num):
                return float(max(1, value.value))
            return 1.0
    return 1.0


def effect_worth(source: str) -> float:
    """The cards and actions an effect's verbs can bring in one use."""
    total = 0.0
    for node in ast.walk(parse_program(source)):
        if isinstance(node, ast.Call) and node.func in VERB_WORTH:
            total += VERB_WORTH[node.func] * _amount(node)
    return total


@cache
def _spec_worth(key: str, abilities: tuple[tuple[str, str | None, str | None, int], ...]
                ) -> float:
    worth = 0.0
    for timing, effect, score, rules in abilities:
        factor = TIMING_FACTOR.get(timing, 0.5)
        if effect:
            worth += factor * effect_worth(effect)
        if score:
            worth += 2.0
        worth += 0.5 * rules
    return worth


def assistant_worth(spec: Any) -> float:
    """What one special assistant (a content entry) may bring per round, in cards."""
    return _spec_worth(f"{spec.id}@{spec.edition}", tuple(
        (a.timing, a.effect, a.score, len(a.placement)) for a in spec.abilities))


# ---------------------------------------------------------------- the inspection, ahead

CODES = {code: i for i, code in enumerate(CATEGORY_CODES)}  # a category's place in a tally
Tally = tuple[int, ...]  # books per category, in CATEGORY_CODES order

LAYOUT_WIDTH = 6  # the columns of the three-row shelf a careful player lays out
PROMINENT_SHARE = 0.5  # of the award the current tallies give: the rest is still open
VARIETY_PROGRESS = 0.9  # of a variety step credited as the smallest tallies fill up
HELD = 0.3  # a book card kept in hand, as a share of its books' worth on the shelf
PUSHED_OUT = 2  # kept cards a card may push out of order in a cell ``best_gain`` weighs


@dataclass(frozen=True, slots=True)
class Foresight:
    """What the bot pays now for the shelf's future: ``per_flip`` points for each card
    A1 will flip (a cell lost to a face-down card), ``layout`` points per squared row
    a face-up card lies from where its letter belongs in a three-row shelf; a card A1
    flips is credited only ``flipped_stability`` of what it adds to B1 (a card that
    fits could stand in its cell later)."""

    per_flip: float = 2.0
    layout: float = 3.0
    width: int = LAYOUT_WIDTH
    flipped_stability: float = 0.5


@cache
def book_vector(card: BookCard) -> Tally:
    """A card's books as a tally."""
    tally = [0] * len(CATEGORY_CODES)
    for code in card.books:
        tally[CODES[code]] += 1
    return tuple(tally)


@cache
def rank(card: BookCard) -> float:
    """Where a card falls in alphabetical order, from 0 (before A) to 1 (after Z): its
    letter, then its order among the cards of that letter (its ``of``, when known)."""
    letter = max(0, min(25, ord(card.letter.upper()[:1] or "A") - ord("A")))
    within = (card.order - 0.5) / card.of if card.of >= card.order > 0 else 0.5
    return (letter + within) / 26


class Worth:
    """What books are worth to one player under the table's scoring rules.

    Read from the inspection form's steps with the game's ``ScoringRules``: B5 focus
    and B3 banned books per book, B4 variety on the smallest tally (with credit for
    filling the smallest tallies towards the next step), B2 the award the player's
    prominent tally would take against the others' tallies now (half of it: the rest
    is still open) plus a share of the award range per book.
    """

    __slots__ = ("_awards", "_books", "_smallest", "banned", "focus", "per_prominent",
                 "prominent", "rivals", "rules", "solo", "variety")

    def __init__(self, rules: ScoringRules, focus: str, prominent: str, banned: str | None,
                 rivals: tuple[int, ...]) -> None:
        self.rules = rules
        self.focus = CODES.get(focus)
        self.prominent = CODES.get(prominent)
        self.banned = CODES.get(banned) if banned and rules.banned_books else None
        self.variety = tuple(CODES[c] for c in steps.variety_categories(banned))
        # a tally's variety counts, read at once (a tuple: ``itemgetter`` of one index
        # would give the count alone)
        variety = self.variety
        self._smallest = (itemgetter(*variety) if len(variety) > 1
                          else lambda tally: tuple(tally[i] for i in variety))
        self.rivals = rivals  # the others' prominent tallies (the public library's in solo)
        self.solo = rules.solo
        last = rules.award_for(max(0, rules.players - 1)) if not rules.solo else 0
        self.per_prominent = (rules.award_for(0) - last) / (2 * len(CATEGORY_CODES))
        self._awards: dict[int, int] = {}
        self._books: dict[Tally, float] = {}

    def award(self, count: int) -> int:
        """B2 for a prominent tally of ``count`` against the rivals' as they stand."""
        found = self._awards.get(count)
        if found is None:
            # solo: the public library's tally is hidden, so only the share per book
            found = 0 if self.solo else steps.b2_prominent((count, *self.rivals), self.rules)[0]
            self._awards[count] = found
        return found

    def books(self, tally: Tally) -> float:
        """The worth of the books of a tally (the face-up books A1 leaves)."""
        found = self._books.get(tally)
        if found is None:
            found = self._books[tally] = self._worth(tally)
        return found

    def _worth(self, tally: Tally) -> float:
        rules = self.rules
        value = 0.0
        if self.focus is not None:
            value += tally[self.focus] * rules.focus_per_book
        if self.banned is not None:
            value += tally[self.banned] * rules.banned_per_book
        if self.variety:
            counts = self._smallest(tally)
            low = min(counts)
            above = len(counts) - counts.count(low)  # tallies above the smallest
            value += rules.variety_per_book * (low + VARIETY_PROGRESS * above / len(counts))
        if self.prominent is not None:
            count = tally[self.prominent]
            award = self._awards.get(count)
            if award is None:
                award = self.award(count)
            value += PROMINENT_SHARE * award + self.per_prominent * count
        return value


def prominent_count(shelf: Shelf, prominent: str) -> int:
    """Books of the prominent category on the face-up cards A1 leaves (what B2 counts)."""
    last: tuple[str, int] | None = None
    count = 0
    for _, slot in shelf.items():
        card = slot.card
        if slot.face_down or not isinstance(card, BookCard):
            continue
        key = card.key
        if last is None or key > last:
            last = key
            count += card.books.count(prominent)
    return count


class ShelfReading:
    """A shelf read once: A1's pass along the reading order, the tally it leaves, B1,
    where its face-up cards lie against their letters; then the gain of shelving a
    card in any cell, worked out from that without building the new shelf.

    ``value`` is the shelf's worth: the books A1 leaves (``Worth``), stability (B1),
    entombed cards, artifacts' points on the shelf as the inspector leaves it, less
    the foresight costs (``Foresight``). Shelves with artifacts, and cards that are not
    book cards, are valued by building the shelf (artifacts' scores read the cells).
    """

    __slots__ = ("_books", "_built", "_cards", "_cells", "_depths", "_gains", "_letters", "_lifted",
                 "_losses", "_run", "_scored", "_shown", "_stability", "artifact_cells",
                 "artifacts", "base_books", "entombed", "flips", "foresight", "kept",
                 "kept_cards", "keys", "lasts", "order", "rules", "shelf",
                 "slow", "stability", "starts", "sum_z", "sum_zz", "tally", "tombs", "value",
                 "worth", "z_count", "zs")

    def __init__(self, shelf: Shelf, worth: Worth, foresight: Foresight, *,
                 stability: int | None = None) -> None:
        """Read ``shelf``; ``stability`` is its B1 when the caller knows it already."""
        self.shelf = shelf
        self.worth = worth
        self.rules = worth.rules
        self.foresight = foresight
        self.order = shelf.positions()
        self._pass(shelf.snapshot(), 0, [], [], [], [], [], [0] * len(CATEGORY_CODES), None, 0,
                   [], [], [])
        self._finish(stability)

    def _pass(self, slots: dict[Pos, Slot], i: int, keys: list[tuple[str, int] | None],
              kept: list[bool], lasts: list[tuple[str, int] | None], starts: list[int],
              run: list[BookCard], tally: list[int], last: tuple[str, int] | None, flips: int,
              zs: list[float], tombs: list[int], artifact_cells: list[int],
              grown_from: ShelfReading | None = None) -> None:
        """A1's pass along the reading order from its ``i``-th cell on, from what it found
        before that cell (each cell's key, whether A1 keeps it, the last key kept before
        it, how many cards it keeps before it; the cards kept, their tally, the last key
        kept, the cards flipped, the layout coordinates of the face-up cards, the cells
        with a card entombed beneath, the cells with an artifact). ``grown_from``: this
        shelf is that reading's with a card added in the ``i``-th cell; once the pass
        reaches a later cell with the last key kept that the other's reached it with,
        the rest is the other's (``_rest_of``)."""
        width = self.foresight.width
        order = self.order
        for k in range(i, len(order)):
            pos = order[k]
            if grown_from is not None and k > i and last == grown_from.lasts[k - 1]:
                self._rest_of(grown_from, k, keys, kept, lasts, starts, run, tally, flips,
                              zs, tombs, artifact_cells)
                return
            slot = slots[pos]
            lasts.append(last)
            starts.append(len(run))
            card = slot.card
            if slot.beneath is not None:
                tombs.append(len(starts) - 1)
            if slot.face_down or not isinstance(card, BookCard):
                if isinstance(card, ArtifactCard):
                    artifact_cells.append(len(starts) - 1)
                keys.append(None)
                kept.append(False)
                continue
            key = card.key
            keys.append(key)
            zs.append(pos[0] + pos[1] / width - 3 * rank(card))
            if last is None or key > last:
                last = key
                kept.append(True)
                run.append(card)
                tally = list(map(add, tally, book_vector(card)))
            else:
                kept.append(False)
                flips += 1
        lasts.append(last)
        starts.append(len(run))
        self._passed(keys, kept, lasts, starts, run, tuple(tally), flips, zs, tombs,
                     artifact_cells)

    def _rest_of(self, other: ShelfReading, k: int, keys: list[tuple[str, int] | None],
                 kept: list[bool], lasts: list[tuple[str, int] | None], starts: list[int],
                 run: list[BookCard], tally: list[int], flips: int, zs: list[float],
                 tombs: list[int], artifact_cells: list[int]) -> None:
        """The pass ended from its ``k``-th cell on as ``other``'s from its ``k - 1``-th
        (the same cell, the same last key kept before it: the same keys kept and flipped
        from there on), the counts of the cells before it added in."""
        j = k - 1
        was = other.starts[j]  # cards the other kept before the cell
        face_up = j - other.keys[:j].count(None)  # the other's face-up book cards before it
        now = len(run)
        tally_before = other.run()[2][was]
        self._passed(
            keys + other.keys[j:], kept + other.kept[j:], lasts + other.lasts[j:],
            starts + [start - was + now for start in other.starts[j:]],
            run + other.kept_cards[was:],
            tuple(map(add, tally, map(sub, other.tally, tally_before))),
            flips + other.flips - (face_up - was), zs + other.zs[face_up:],
            tombs + [cell + 1 for cell in other.tombs[bisect_left(other.tombs, j):]],
            artifact_cells + [cell + 1 for cell in
                              other.artifact_cells[bisect_left(other.artifact_cells, j):]])

    def _passed(self, keys: list[tuple[str, int] | None], kept: list[bool],
                lasts: list[tuple[str, int] | None], starts: list[int], run: list[BookCard],
                tally: Tally, flips: int, zs: list[float], tombs: list[int],
                artifact_cells: list[int]) -> None:
        """What A1's pass found, kept (``_pass``)."""
        self.keys, self.kept, self.lasts, self.starts = keys, kept, lasts, starts
        self.kept_cards = run
        self.tally = tally
        self.flips = flips
        # the sums of the coordinates and their squares, added one by one in reading
        # order (``reduce``: the loop's additions, in C)
        self.zs = zs
        self.z_count = len(zs)
        self.sum_z = reduce(add, zs, 0.0)
        self.sum_zz = reduce(add, map(mul, zs, zs), 0.0)
        self.artifact_cells = artifact_cells
        self.slow = bool(artifact_cells)  # artifacts' points read the shelf built
        self.tombs = tombs
        self.entombed = len(tombs)

    def _finish(self, stability: int | None, parent: ShelfReading | None = None,
                 new: int = 0, grown: bool = False) -> None:
        """B1 (unless known), the entombed cards and the artifacts' points after the
        pass; then ``value``. ``parent``: a reading whose first ``new`` cells (in reading
        order) are this shelf's; ``grown``: this shelf is ``parent``'s with a card shelved
        in the cell ``new`` and the rest as it was. An artifact in the same cell whose
        score read none of the cells that differ (a cell whose card, face or entombed
        card differs, or that A1 now flips or no longer flips) scores what it scored
        there (``_score_artifacts``)."""
        self._depths: dict[int, int] | None = None
        if stability is None:
            height = self.order[-1][0] - self.order[0][0] + 1 if self.order else 0
            stability = filled_rectangle(self.depths, self.rules.min_rectangle, height)
        self.stability = stability
        self.artifacts = 0
        self._scored: dict[Pos, tuple[ArtifactCard, int, frozenset[Pos] | None]] = {}
        self._shown: list[tuple[Pos, Any]] | None = None
        self._letters: list[tuple[LetterAtoms, Counter[tuple[int, str]],
                                  frozenset[tuple[int, str]]]] | None = None
        if self.slow:
            self._score_artifacts(parent, new, grown)
        self._stability: dict[Pos, int] = {}
        self._cells: list[tuple[int, float, int]] | None = None
        self._run: tuple[list[Any], list[int], list[Tally]] | None = None
        self._cards: frozenset[Card] | None = None
        self._weigh()

    def _score_artifacts(self, parent: ShelfReading | None, new: int, grown: bool) -> None:
        """``artifacts``: the artifacts' points on the shelf as the inspector leaves it
        (A1's flips are the pass's), each kept in ``_scored`` with the cells its score
        read; from ``parent``'s where they hold (``_finish``)."""
        order, kept = self.order, self.kept
        known: dict[Pos, tuple[ArtifactCard, int, frozenset[Pos] | None]] = {}
        differ: set[Pos] = set()
        turned: list[int] = []  # grown: the cells after the new one A1 now flips or keeps
        if parent is not None and parent.slow:
            known = parent._scored
            if grown:  # the new cell, and the cells after it A1 reads anew
                turned = [k for k, was, now in zip(range(new + 1, len(order)),
                                                   parent.kept[new:], kept[new + 1:],
                                                   strict=True) if was != now]
                differ = {order[new], *map(order.__getitem__, turned)}
            else:
                differ = self._differing(parent, new)
        scored = self._scored
        shelf = self.shelf
        shown: Shelf | None = None  # built for the first artifact scored anew
        faces: list[tuple[Card, bool]] | None = None  # likewise, for a sum of shares
        total = 0
        for i in self.artifact_cells:
            pos = order[i]
            slot = shelf.at(pos)
            card = slot.card  # type: ignore[union-attr]
            if slot.face_down:  # type: ignore[union-attr]  # SCORE-00-2
                continue
            found = known.get(pos)
            if (found is None or found[0] is not card or found[2] is None
                    or not differ.isdisjoint(found[2])):
                shortcut = score_shortcut(card.artifact_id, self.rules)
                if isinstance(shortcut, CardShares):  # each card's share, faces as A1 leaves
                    shares = shortcut
                    near = around(pos) if shares.beside else None  # None: every card's
                    if grown and found is not None and found[0] is card:  # what changed
                        added: Slot = shelf.at(order[new])  # type: ignore[assignment]
                        down = added.face_down if self.keys[new] is None else not kept[new]
                        points = found[1] + _shares_gained(
                            shares, (order[new], added.card, down),
                            [(order[k], shelf.at(order[k]).card, kept[k])  # type: ignore[union-attr]
                             for k in turned], near)
                    elif near is not None:
                        points = sum(map(shares.__getitem__, self._faces(near - {pos})))
                    else:
                        if faces is None:
                            faces = self._faces()
                        points = sum(map(shares.__getitem__, faces))
                    found = (card, points, near)
                elif isinstance(shortcut, LetterAtoms) and (
                        points := self._letters_points(shortcut)) is not None:
                    found = (card, points, None)
                else:
                    if shown is None:
                        shown = steps.with_flips(shelf, [
                            cell for cell, key, keeps in zip(order, self.keys, kept,
                                                             strict=True)
                            if key is not None and not keeps])
                    found = (card, *artifact_points_read(shown, pos, card.artifact_id,
                                                         self.rules))
            scored[pos] = found
            total += found[1]
        self.artifacts = total

    def _faces(self, cells: Iterable[Pos] | None = None) -> list[tuple[Card, bool]]:
        """Each card of the shelf (or of those of ``cells`` it holds) and whether it
        lies face down once A1 has flipped what it flips."""
        at = self.shelf.at
        if cells is not None:
            order, keys, kept = self.order, self.keys, self.kept
            found = []
            for cell in cells:
                slot = at(cell)
                if slot is not None:
                    i = bisect_left(order, cell)
                    found.append((slot.card, slot.face_down if keys[i] is None else not kept[i]))
            return found
        return [(slot.card, slot.face_down if key is None else not keeps)
                for pos, key, keeps in zip(self.order, self.keys, self.kept, strict=True)
                if (slot := at(pos)) is not None]

    def _letters_points(self, atoms: LetterAtoms, card: BookCard | None = None,
                        kept_new: bool = False, turned: list[tuple[int, bool]] | None = None
                        ) -> int | None:
        """The points of the score of ``atoms`` (one that reads the shelf only through
        ``letters`` calls) where it was scored before for what they find (None
        otherwise): on this shelf as A1 leaves it, or grown by ``card`` as
        ``_grown_artifacts`` says."""
        if card is None:  # the union of what its cards give
            return atoms.points.get(frozenset().union(*map(atoms.__getitem__, self._faces())))
        counts, found = self._letter_counts(atoms)
        added = atoms[(card, not kept_new)]
        if not turned:  # A1 turns no card: what the card gives is found besides
            return atoms.points.get(found | added)
        at, order = self.shelf.at, self.order
        return atoms.points.get(_letters_grown(counts, added, [
            (atoms[(c, now)], atoms[(c, not now)])  # its old face's and its new face's
            for c, now in ((at(order[j]).card, now)  # type: ignore[union-attr]
                           for j, now in turned)]))

    def _letter_counts(self, atoms: LetterAtoms) -> tuple[Counter[tuple[int, str]],
                                                          frozenset[tuple[int, str]]]:
        """How many of the shelf's cards, faces as A1 leaves them, give each of what the
        letters calls of ``atoms``'s score find, and what they find (kept for the cells
        a card is weighed in)."""
        kept = self._letters
        if kept is None:
            kept = self._letters = []
        for known, counts, found in kept:  # a shelf has few artifacts
            if known is atoms:
                return counts, found
        counts = Counter(chain.from_iterable(map(atoms.__getitem__, self._faces())))
        found = frozenset(counts)
        kept.append((atoms, counts, found))
        return counts, found

    def _differing(self, parent: ShelfReading, new: int) -> set[Pos]:
        """The cells from the ``new``-th on (in reading order; the cells before it are
        the same) that differ between this shelf and ``parent``'s as the inspector
        leaves them: filled or emptied, another slot (a slot copied with an unchanged
        cell is the same slot), or kept by A1 on one and flipped on the other."""
        before = parent.shelf.at
        was = dict(zip(parent.order[new:], parent.kept[new:], strict=True))
        at = self.shelf.at
        differ = set()
        for pos, now in zip(self.order[new:], self.kept[new:], strict=True):
            kept_before = was.pop(pos, None)
            if kept_before is None or kept_before != now or before(pos) is not at(pos):
                differ.add(pos)
        differ.update(was)  # emptied
        return differ

    def _weigh(self) -> None:
        """``value`` from what the pass found, and nothing worked out from it yet."""
        foresight = self.foresight
        n, sz = self.z_count, self.sum_z
        self.base_books = self.worth.books(self.tally)
        spread = self.sum_zz - sz * sz / n if n else 0.0
        self.value = (self.base_books + self.stability - foresight.per_flip * self.flips
                      - foresight.layout * spread + self.entombed * self.rules.entombed_per_card)
        if self.slow:
            self.value += self.artifacts
        self._gains: dict[Card, float] = {}
        # the gains worked out on the shelf built (``_built_gain``), by card and cell:
        # ``best_gain`` weighs a card in every legal cell, and a card picked for its
        # best gain is then given one of the same cells (``gains``)
        self._built: dict[Card, dict[Pos, float]] = {}
        self._losses: dict[Card, float] = {}
        self._books: dict[Tally | Card, float] = {}
        self._lifted: dict[Pos, ShelfReading] = {}

    def reread(self, worth: Worth, foresight: Foresight) -> ShelfReading:
        """The same shelf read with another ``Worth`` (of the same scoring rules) or
        foresight: A1's pass, B1 and the legal cells are the shelf's and serve again;
        what they are worth is worked out anew (the same sums). A foresight of another
        width lays the cards out anew: the shelf is read again."""
        if worth.rules is not self.rules or foresight.width != self.foresight.width:
            return ShelfReading(self.shelf, worth, foresight)
        other = ShelfReading.__new__(ShelfReading)
        other.shelf, other.order, other.rules = self.shelf, self.order, self.rules
        other.keys, other.kept, other.lasts, other.starts = (self.keys, self.kept, self.lasts,
                                                             self.starts)
        other.kept_cards, other.tally, other.flips = self.kept_cards, self.tally, self.flips
        other.z_count, other.sum_z, other.sum_zz, other.zs = (self.z_count, self.sum_z,
                                                              self.sum_zz, self.zs)
        other.slow, other.stability, other.entombed = self.slow, self.stability, self.entombed
        other.artifact_cells, other._scored = self.artifact_cells, self._scored
        other._shown = self._shown  # the same rules (above)
        other.tombs = self.tombs
        other.artifacts, other._depths = self.artifacts, self._depths
        other._stability, other._cells = self._stability, self._cells
        other._run, other._cards, other._letters = self._run, self._cards, self._letters
        other.worth, other.foresight = worth, foresight
        other._weigh()
        return other

    @property
    def depths(self) -> dict[int, int]:
        """Each column's cells standing on the bottom row without a gap (B1's columns)."""
        if self._depths is None:
            self._depths = _standing(self.order)
        return self._depths

    def book_gain(self, card: BookCard) -> float:
        """What a card's books add to the tally's worth, kept face up (kept by card,
        and by its books for the cards with the same)."""
        found = self._books.get(card)
        if found is None:
            vector = book_vector(card)
            found = self._books.get(vector)
            if found is None:
                tally = tuple(map(add, self.tally, vector))
                found = self._books[vector] = self.worth.books(tally) - self.base_books
            self._books[card] = found
        return found

    def stability_gain(self, pos: Pos) -> int:
        """What a card in the empty cell ``pos`` adds to B1 (its face does not matter)."""
        found = self._stability.get(pos)
        if found is None:
            found = self._stability[pos] = self._stability_with(pos) - self.stability
        return found

    def _stability_with(self, pos: Pos) -> int:
        order = self.order
        if not order:
            return filled_rectangle({pos[1]: 1}, self.rules.min_rectangle, 1)
        top, bottom = order[0][0], order[-1][0]
        r, c = pos
        if r > bottom:  # a new bottom row: only this column stands on it
            cells = set(order)
            depth = 1
            while (r - depth, c) in cells:
                depth += 1
            return filled_rectangle({c: depth}, self.rules.min_rectangle, r - top + 1)
        depths = self.depths
        if r != bottom - depths.get(c, 0):
            return self.stability  # not on top of a standing column: B1 is the same
        cells = set(order)
        grown = dict(depths)
        depth = depths.get(c, 0) + 1
        while (bottom - depth, c) in cells:
            depth += 1
        grown[c] = depth
        return filled_rectangle(grown, self.rules.min_rectangle, bottom - min(top, r) + 1)

    def layout_cost(self, card: BookCard, pos: Pos) -> float:
        """The foresight cost of a face-up card at ``pos``: what it adds to the spread of
        the face-up cards' rows against their letters."""
        n = self.z_count
        if not n:
            return 0.0
        z = pos[0] + pos[1] / self.foresight.width - 3 * rank(card)
        mean = self.sum_z / n
        return self.foresight.layout * n / (n + 1) * (z - mean) ** 2

    def gain(self, card: Card, pos: Pos) -> float:
        """What shelving ``card`` at the empty cell ``pos`` adds to ``value``."""
        if self.slow or not isinstance(card, BookCard):
            return self._built_gain(card, pos)
        i = bisect_left(self.order, pos)
        key = card.key
        last = self.lasts[i]
        foresight = self.foresight
        if last is not None and key <= last:  # A1 flips it: a filled cell, no books
            return (foresight.flipped_stability * self.stability_gain(pos) - foresight.per_flip
                    - self.layout_cost(card, pos))
        return self._kept_gain(card, key, pos, i)

    def gains(self, card: Card, cells: Iterable[Pos]) -> list[float]:
        """``gain`` of ``card`` at each of the empty ``cells``, the same sums in the same
        order, with what depends on the card alone worked out once."""
        if self.slow or not isinstance(card, BookCard):
            return self._built_gains(card, cells)
        key = card.key
        order, lasts = self.order, self.lasts
        foresight = self.foresight
        share, per_flip = foresight.flipped_stability, foresight.per_flip
        n = self.z_count
        width = foresight.width
        scale = foresight.layout * n / (n + 1)  # ``layout_cost``'s factor
        mean = self.sum_z / n if n else 0.0
        shift = 3 * rank(card)
        stability = self._stability
        values = []
        for pos in cells:
            i = bisect_left(order, pos)
            last = lasts[i]
            gained = stability.get(pos)
            if gained is None:
                gained = self.stability_gain(pos)
            layout = scale * (pos[0] + pos[1] / width - shift - mean) ** 2 if n else 0.0
            if last is not None and key <= last:  # A1 flips it: a filled cell, no books
                values.append(share * gained - per_flip - layout)
            else:
                values.append(self._kept_at(card, key, i, gained - layout))
        return values

    def _kept_at(self, card: BookCard, key: tuple[str, int], i: int, gain: float) -> float:
        """The gain of a card A1 keeps in the cell ``i`` in reading order, from the
        cell's gain before the books (``gain``): with the kept cards after it that it
        pushes out, a run of the kept cards summed by prefixes."""
        keys, starts, tallies = self.run()
        start, end = starts[i], bisect_right(keys, key)
        if end <= start:
            return gain + self.book_gain(card)
        return (gain + self._pushed_books(card, tallies[start], tallies[end])
                - self.base_books - self.foresight.per_flip * (end - start))

    def _kept_gain(self, card: BookCard, key: tuple[str, int], pos: Pos, i: int) -> float:
        """The gain of a card A1 keeps at ``pos`` (``i`` in reading order), with the kept
        cards after it that it pushes out (``_kept_at``)."""
        return self._kept_at(card, key, i, self.stability_gain(pos) - self.layout_cost(card, pos))

    def run(self) -> tuple[list[Any], list[int], list[Tally]]:
        """The cards A1 keeps, in order: their keys, how many are kept before each cell,
        and prefix sums of their books."""
        if self._run is None:
            tally: Tally = (0,) * len(CATEGORY_CODES)
            tallies = [tally]
            for card in self.kept_cards:
                tally = tuple(map(add, tally, book_vector(card)))
                tallies.append(tally)
            self._run = ([card.key for card in self.kept_cards], self.starts,
                         tallies)
        return self._run

    def _built_gains(self, card: Card, cells: Iterable[Pos]) -> list[float]:
        """``_built_gain`` of ``card`` at each of ``cells``, each kept with this reading
        (``_built``) and given again when asked again."""
        known = self._built.get(card)
        if known is None:
            known = self._built[card] = {}
        found = []
        for pos in cells:
            gain = known.get(pos)
            if gain is None:
                gain = known[pos] = self._built_gain(card, pos)
            found.append(gain)
        return found

    def _built_gain(self, card: Card, pos: Pos) -> float:
        """``gain`` read on the shelf built with ``card`` at ``pos``: A1's pass resumed at
        the new cell (the cells before it are this shelf's), B1 from this shelf's, the
        artifacts scored on the shelf built. A book card on a shelf with artifacts: the
        value worked out from what the card changes (``_grown_value``)."""
        i = bisect_left(self.order, pos)
        # B1 with a card in the cell, as ``stability_gain`` works it out from this shelf
        stability = self.stability + self.stability_gain(pos)
        if self.slow and isinstance(card, BookCard):
            return self._grown_value(card, pos, i, stability) - self.value
        trial = self.shelf.with_card(card, pos)
        return (self._resumed(trial, i, self.worth, self.foresight, stability, grown=True
                              ).value - self.value)

    def _grown_value(self, card: BookCard, pos: Pos, i: int, stability: int) -> float:
        """``value`` of this shelf (one with artifacts) with the book ``card`` face up in
        the empty cell ``pos``, the ``i``-th in reading order, and B1 ``stability``,
        exactly as reading that shelf finds it (the same sums in the same order) without
        building it or its reading: A1's pass from the new cell goes on only until it
        reaches a cell with the last key kept that this shelf's pass had there (from
        there on it keeps and flips as this one did), so the tally and the flips are
        this shelf's and what the card and the cells it turns change; the face-up
        cards' coordinates are this shelf's with the card's among them; an artifact
        whose score read none of the cells that changed scores what it scored here, a
        sum of the cards' shares what changed, any other on the shelf built."""
        keys, kept, lasts, order = self.keys, self.kept, self.lasts, self.order
        at = self.shelf.at
        key = card.key
        last = lasts[i]
        kept_new = last is None or key > last
        if kept_new:
            last = key
        turned: list[tuple[int, bool]] = []  # the cells A1 now keeps or flips otherwise
        for j in range(i, len(order)):
            if last == lasts[j]:  # from here on, as this shelf's pass
                break
            other = keys[j]
            if other is not None:
                now = other > last  # type: ignore[operator]
                if now:
                    last = other
                if now != kept[j]:
                    turned.append((j, now))
        tally, flips = self.tally, self.flips
        if kept_new:
            tally = tuple(map(add, tally, book_vector(card)))
        else:
            flips += 1
        for j, now in turned:
            tally = tuple(map(add if now else sub, tally,
                              book_vector(at(order[j]).card)))  # type: ignore[union-attr,arg-type]
            flips += -1 if now else 1
        zs = self.zs
        face_up = i - keys[:i].count(None)  # face-up book cards before the cell
        z = pos[0] + pos[1] / self.foresight.width - 3 * rank(card)
        zs = [*zs[:face_up], z, *zs[face_up:]]
        n = len(zs)
        sz = reduce(add, zs, 0.0)
        sum_zz = reduce(add, map(mul, zs, zs), 0.0)
        foresight = self.foresight
        spread = sum_zz - sz * sz / n
        value = (self.worth.books(tally) + stability - foresight.per_flip * flips
                 - foresight.layout * spread + self.entombed * self.rules.entombed_per_card)
        return value + self._grown_artifacts(card, pos, kept_new, turned)

    def _grown_artifacts(self, card: BookCard, pos: Pos, kept_new: bool,
                         turned: list[tuple[int, bool]]) -> int:
        """The artifacts' points for ``_grown_value``: ``card`` at ``pos``, kept by A1 or
        not, and the cells A1 now keeps (True) or flips (False) otherwise."""
        order, at = self.order, self.shelf.at
        differ = {pos, *(order[j] for j, _ in turned)}
        scored = self._scored
        shown: Shelf | None = None
        total = 0
        for cell, shortcut in self._shown_artifacts():
            artifact, points, read = scored[cell]
            if read is None or not differ.isdisjoint(read):
                if isinstance(shortcut, CardShares):  # beside: read, the cells around it
                    points += _shares_gained(shortcut, (pos, card, not kept_new), [
                        (order[j], at(order[j]).card, now)  # type: ignore[union-attr]
                        for j, now in turned], read if shortcut.beside else None)
                elif isinstance(shortcut, LetterAtoms) and (known := self._letters_points(
                        shortcut, card, kept_new, turned)) is not None:
                    points = known
                else:
                    if shown is None:  # the grown shelf as A1 leaves it
                        now_kept = dict(turned)
                        flipped = [at_j for j, (at_j, key) in enumerate(zip(order, self.keys,
                                                                            strict=True))
                                   if key is not None and not now_kept.get(j, self.kept[j])]
                        if not kept_new:
                            flipped.append(pos)
                        shown = self.shelf.with_card(card, pos).turned_down(flipped)
                    points = artifact_points_read(shown, cell, artifact.artifact_id,
                                                  self.rules)[0]
            total += points
        return total

    def _shown_artifacts(self) -> list[tuple[Pos, Any]]:
        """The shelf's face-up artifacts in reading order (a face-down one scores
        nothing: SCORE-00-2), each its cell and ``score_shortcut`` under these rules
        (kept: a reading's shelf and rules never change)."""
        found = self._shown
        if found is None:
            at, order, rules = self.shelf.at, self.order, self.rules
            found = self._shown = [
                (cell, score_shortcut(slot.card.artifact_id, rules))  # type: ignore[union-attr]
                for cell, slot in ((order[a], at(order[a])) for a in self.artifact_cells)
                if not slot.face_down]  # type: ignore[union-attr]
        return found

    def holds(self, card: Card) -> bool:
        """Whether ``card`` is a visible card of the shelf (cards are interned, so
        equal is the same card)."""
        cards = self._cards
        if cards is None:
            cards = self._cards = frozenset(slot.card for _, slot in self.shelf.items())
        return card in cards

    def loss(self, card: Card) -> float:
        """What taking ``card`` off the shelf costs (``inf`` if it may not leave): the
        shelf read without it is ``lifted``'s (kept for the next question), and whether
        it may leave is the shelf's own ``removable_positions`` (kept with its cells)."""
        found = self._losses.get(card)
        if found is None:
            shelf = self.shelf
            pos = shelf.position_of(card)
            if pos is None or pos not in shelf.removable_positions():
                found = float("inf")
            else:
                found = self.value - self.lifted(pos).value
            self._losses[card] = found
        return found

    def best_gain(self, card: Card) -> float:
        """The gain of ``card`` in its best legal cell (-inf if the shelf takes none)."""
        found = self._gains.get(card)
        if found is None:
            if self.slow or not isinstance(card, BookCard):
                found = max(self._built_gains(card, self.shelf.legal_cells()),
                            default=float("-inf"))
            else:
                found = self._best_book_gain(card)
            self._gains[card] = found
        return found

    def _best_book_gain(self, card: BookCard) -> float:
        """``best_gain`` of a book card on a shelf without artifacts: one pass over the
        legal cells, each with what it needs worked out once. A cell where the card
        would push more than ``PUSHED_OUT`` kept cards out of order is not weighed.
        Each cell's value is worked out exactly as ``gain`` would (the same sums in the
        same order), with the books of the card pushing kept cards out read once for
        all the cells that push out the same ones."""
        cells = self._cells
        if cells is None:
            cells = self._cells = self._legal_cells()
        key = card.key
        foresight = self.foresight
        books = self.book_gain(card)
        n = self.z_count
        scale = foresight.layout * n / (n + 1)
        mean = self.sum_z / n if n else 0.0
        shift = 3 * rank(card)
        target = shift + mean
        share, flipped = foresight.flipped_stability, -foresight.per_flip
        keys, _, tallies = self.run()
        end = bisect_right(keys, key)  # kept cards before the card's key
        # kept cards below the card's key: in a cell with more kept cards before it, the
        # last of them is not below the key, and A1 flips the card
        below = bisect_left(keys, key)
        pushing: dict[int, float] = {}  # by the first kept card pushed out: what is left
        best = float("-inf")
        for start, z, stability in cells:
            if start > below:
                value = share * stability + flipped - scale * (z - target) ** 2
            elif end <= start:
                value = books + stability - scale * (z - target) ** 2
            elif end - start <= PUSHED_OUT:  # ``_kept_gain``, cell by cell
                left = pushing.get(start)
                if left is None:
                    left = pushing[start] = self._pushed_books(card, tallies[start],
                                                               tallies[end])
                layout = scale * (z - shift - mean) ** 2 if n else 0.0
                value = (stability - layout + left - self.base_books
                         - foresight.per_flip * (end - start))
            else:
                continue
            if value > best:
                best = value
        return best

    def _pushed_books(self, card: BookCard, here: Tally, out: Tally) -> float:
        """The books A1 keeps when ``card`` goes in and pushes out the kept cards whose
        books are ``out`` less ``here`` (prefix sums of ``run``)."""
        return self.worth.books(tuple(map(add, map(sub, map(add, self.tally, book_vector(card)),
                                                        out), here)))

    def _legal_cells(self) -> list[tuple[int, float, int]]:
        """Each legal cell as what ``best_gain`` reads of it: how many cards A1 keeps
        before it, its layout coordinate (row plus column over the width) and what a
        card there adds to B1."""
        starts, order = self.run()[1], self.order
        width = self.foresight.width
        stability = self.stability_gain
        return [(starts[bisect_left(order, pos)], pos[0] + pos[1] / width, stability(pos))
                for pos in self.shelf.legal_cells()]

    def lifted(self, pos: Pos) -> ShelfReading:
        """The shelf read without the card at ``pos`` (kept for the next question): a
        card entombed beneath it stays in the cell, face down (LIB-MUMMY-5), as the
        engine leaves it."""
        found = self._lifted.get(pos)
        if found is None:
            if pos in self.shelf.removable_positions():  # as the engine takes it off
                shelf = self.shelf.copy()
                shelf.remove(pos)
            else:  # the shelf left in two parts, read all the same
                slots = self.shelf.snapshot()
                beneath = slots.pop(pos).beneath
                if beneath is not None:
                    slots[pos] = Slot(beneath, True)
                shelf = Shelf.from_slots(slots, self.shelf.rules, check=False)
            found = self._lifted[pos] = self._without(shelf, pos)
        return found

    def _without(self, shelf: Shelf, pos: Pos) -> ShelfReading:
        """``shelf``, this shelf with the card at ``pos`` taken off, read from this
        reading (``_resumed``: the cells before ``pos`` are the same)."""
        i = bisect_left(self.order, pos)
        if len(shelf.positions()) == len(self.order):  # the cell kept (a card entombed
            other = self._resumed(shelf, i, self.worth, self.foresight, self.stability)
            other._depths = self._depths  # beneath it): the same cells, the same B1
            return other
        return self._resumed(shelf, i, self.worth, self.foresight)

    def changed(self, shelf: Shelf, worth: Worth, foresight: Foresight) -> ShelfReading:
        """``shelf`` read with ``worth`` and ``foresight``, from this reading where they
        share their first cells (in reading order): ``shelf`` is this shelf after a
        move, say (``_resumed``). Read afresh where this reading cannot serve (other
        scoring rules, another layout width)."""
        if worth.rules is not self.rules or foresight.width != self.foresight.width:
            return ShelfReading(shelf, worth, foresight)
        order, mine = shelf.positions(), self.order
        # the first cell where the two shelves differ: its position, or its slot (the
        # same slot, a copy's of an unchanged cell, is the same card, face and entombed
        # card), compared in C
        slots = shelf.snapshot()
        differ = list(map(or_, map(ne, mine, order),
                          map(is_not, map(self.shelf.snapshot().__getitem__, mine),
                              map(slots.__getitem__, order))))
        i = differ.index(True) if True in differ else len(differ)
        return self._resumed(shelf, i, worth, foresight, slots=slots)

    def _resumed(self, shelf: Shelf, i: int, worth: Worth, foresight: Foresight,
                 stability: int | None = None, *, slots: dict[Pos, Slot] | None = None,
                 grown: bool = False) -> ShelfReading:
        """``shelf``, whose first ``i`` cells in reading order are this shelf's, read with
        ``worth`` and ``foresight`` (of this layout width and scoring rules): A1's pass
        starts at the ``i``-th cell from what this one found there, the same sums (the
        coordinates are added from the first again); B1 anew unless ``stability`` says
        it; the artifacts' points (if any) scored on ``shelf``, from this shelf's where
        ``shelf`` is this one ``grown`` by a card in its ``i``-th cell (``_finish``)."""
        other = ShelfReading.__new__(ShelfReading)
        other.shelf, other.worth, other.rules, other.foresight = (shelf, worth, worth.rules,
                                                                  foresight)
        other.order = shelf.positions()
        keys = self.keys[:i]
        start = self.starts[i]
        face_up = i - keys.count(None)  # face-up book cards before the cell
        tombs = self.tombs
        other._pass(shelf.snapshot() if slots is None else slots, i, keys, self.kept[:i],
                    self.lasts[:i], self.starts[:i], self.kept_cards[:start],
                    list(self.run()[2][start]), self.lasts[i], face_up - start,
                    self.zs[:face_up], tombs[:bisect_left(tombs, i)],
                    self.artifact_cells[:bisect_left(self.artifact_cells, i)],
                    self if grown else None)
        other._finish(stability, self, i, grown)
        return other


def _shares_gained(shares: dict[tuple[Card, bool], int], added: tuple[Pos, Card, bool],
                   turned: list[tuple[Pos, Card, bool]],
                   within: frozenset[Pos] | None = None) -> int:
    """What a sum of the cards' shares gains when a shelf grows by the card ``added``
    (its cell, the card and whether it lies face down as A1 leaves it) and A1 turns the
    ``turned`` cards (each its cell, the card and whether A1 now keeps it, and so
    flipped it before): the card's share, and each turned card's share with its new
    face less that with its old; only those in the cells ``within`` where given (a sum
    over the cards next to the scored one)."""
    cell, card, down = added
    gained = shares[(card, down)] if within is None or cell in within else 0
    for cell, card, now in turned:
        if within is None or cell in within:
            gained += shares[(card, not now)] - shares[(card, now)]
    return gained


def _letters_grown(counts: Counter[tuple[int, str]], added: frozenset[tuple[int, str]],
                   turned: list[tuple[frozenset[tuple[int, str]], frozenset[tuple[int, str]]]]
                   ) -> frozenset[tuple[int, str]]:
    """What a score's letters calls find on a shelf grown by a card that adds ``added``
    where they found ``counts`` (how many cards gave each), A1 turning cards that gave
    the first of each ``turned`` pair and now give the second."""
    came = set(added)
    gone: Counter[tuple[int, str]] = Counter()
    for old, new in turned:
        gone.update(old)
        came.update(new)
    found = set(counts)
    for atom, n in gone.items():
        if counts[atom] <= n and atom not in came:
            found.discard(atom)
    found.update(came)
    return frozenset(found)


# B1's rectangles by the standing columns, the smallest rectangle and the rows: a few
# shapes recur on every shelf read; emptied when it holds ``RECTANGLES_MOST``
_RECTANGLES: dict[tuple[Any, ...], int] = {}
RECTANGLES_MOST = 8192


def filled_rectangle(standing: dict[int, int], smallest: tuple[int, int], height: int) -> int:
    """``steps.filled_rectangle``, kept by its arguments (the columns in order: a dict
    of the same columns built in another order is the same shape)."""
    key = (tuple(sorted(standing.items())), smallest, height)
    found = _RECTANGLES.get(key)
    if found is None:
        if len(_RECTANGLES) >= RECTANGLES_MOST:
            _RECTANGLES.clear()
        found = _RECTANGLES[key] = steps.filled_rectangle(standing, smallest, height)
    return found


def _standing(order: tuple[Pos, ...]) -> dict[int, int]:
    """B1's standing columns of a shelf whose cells in reading order are ``order``."""
    return steps.standing_columns(set(order), order[-1][0]) if order else {}
