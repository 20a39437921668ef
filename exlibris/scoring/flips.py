"""``--best-flips``: the voluntary flips that maximise one player's own total.

Whatever a player flips, the cards left face up after A1 form an increasing
sequence in reading order, and every increasing sequence can be reached (flip
everything else). The total depends only on which cards end face down, so the
search runs over increasing sequences instead of all 2^n flip sets:

* A dynamic programme walks the face-up book cards in reading order. A state is
  the last card kept face up, the tally so far, which cells next to an artifact
  were flipped, and how many flips were voluntary. Each card is kept (if it
  follows the last kept card) or flipped; a flip is voluntary only where A1 would
  have kept the card.
* Two states with the same last card and the same flipped cells next to artifacts
  face the same future. One whose tally is at least as good in every category
  that helps (and no worse in the ones that hurt) with no more voluntary flips
  dominates the other, which is dropped. Which direction helps comes from the
  rules: focus, prominent and variety categories help, banned books hurt.
* Surviving end states are scored by the real inspection (B6 included), the
  others' figures held fixed. The best total wins; ties go to fewer flips.

This is exact when artifacts' points depend only on the faces of the cards next
to them (every adjacency artifact and the Hungry Void) and the state count stays
under ``beam``; past it, the states with the best partial score are kept and the
answer is marked inexact. Tests compare it with brute force on small shelves.

The beam keeps the time gentle: about linear in the shelf's cards times
``beam`` squared at worst, so a 3×25 shelf takes about a second; on longer
shelves the beam shrinks (``beam_for``) so that the work stays about that of a
3×25 shelf, and the answer is marked approximate. A bigger ``beam`` buys
exactness on large shelves for time.

Bots use ``bounded_flips``: a heaviest increasing sequence under weights read from
the tally, then a short local search, a few exact totals in all (under a
millisecond on an end-of-game shelf, where ``best_flips`` takes several); it finds
what ``best_flips`` finds on the shelves games end with and is never worse than
flipping nothing.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations

from exlibris.model.cards import CATEGORY_CODES, ArtifactCard, BookCard
from exlibris.model.shelf import STEPS, Pos, Shelf
from exlibris.scoring import steps
from exlibris.scoring.artifacts import ArtifactPoints, ReadCells, artifact_points
from exlibris.scoring.inspection import Form, Inspection, inspect_player, town_of

DEFAULT_BEAM = 200  # states kept per card; past it the answer is marked approximate
# The search's work is about cards × beam²: the beam shrinks on long shelves so that
# it stays under this budget (a 3×25 shelf keeps the whole beam: about a second), and
# never below ``MIN_BEAM``; the answer is then marked approximate.
FLIP_WORK = 75 * DEFAULT_BEAM**2
MIN_BEAM = 8
BOUNDED_PASSES = 3  # weighings of ``bounded_flips``: the bots' bound


@dataclass(frozen=True, slots=True)
class BestFlips:
    """One player's best voluntary flips, the total they reach and the gain."""

    name: str
    positions: tuple[Pos, ...]
    cards: tuple[str, ...]
    total: int
    gain: int
    exact: bool = True


class OwnTotal:
    """A player's total for any shelf of theirs, the rest of the table held fixed."""

    def __init__(self, inspection: Inspection, index: int, points: ArtifactPoints) -> None:
        self.inspection = inspection
        self.index = index
        self.points = points
        self.player = inspection.table.players[index]
        self.codes = inspection.table.prominent_codes
        self.counts = {code: [form.tally[code] for form in inspection.forms]
                       for code in self.codes}
        library = inspection.public_library
        self.library_counts = ({code: library.tally[code] for code in self.codes}
                               if library is not None else None)
        self._partials: dict[tuple[int, ...], int] = {}
        self._awards: dict[tuple[str, int], int] = {}  # by category and this player's count
        # the table as this player's scores see it, whatever their shelf: the others'
        # shelves (``town_of`` the player, not of the copy of them that ``form`` makes)
        self.town = town_of(inspection.table, self.player)

    def award(self, tally: dict[str, int]) -> int:
        """B2 for a tally of this player's, summed over the prominent categories (each
        category's award kept by the player's count in it: the others' are fixed)."""
        total = 0
        for code in self.codes:
            count = tally[code]
            found = self._awards.get((code, count))
            if found is None:
                found = self._awards[code, count] = self._award(code, count)
            total += found
        return total

    def _award(self, code: str, count: int) -> int:
        """B2 in one prominent category for a count of this player's."""
        rules = self.inspection.rules
        if self.library_counts is not None:
            return steps.b2_solo(count, self.library_counts[code], rules)[0]
        counts = list(self.counts[code])
        counts[self.index] = count
        return steps.b2_prominent(counts, rules)[self.index]

    def form(self, shelf: Shelf) -> Form:
        player = replace(self.player, shelf=shelf)
        form = inspect_player(player, self.inspection.table, self.inspection.rules, self.points,
                              self.town)
        return replace(form, prominent=self.award(form.tally))

    def total(self, shelf: Shelf) -> int:
        return self.form(shelf).total

    def partial(self, tally: tuple[int, ...]) -> int:
        """The flip-dependent figures a tally alone decides (B2 to B5), for the beam
        (kept by tally)."""
        found = self._partials.get(tally)
        if found is None:
            table, rules = self.inspection.table, self.inspection.rules
            counts = dict(zip(CATEGORY_CODES, tally, strict=True))
            found = self._partials[tally] = (
                self.award(counts) + steps.b3_banned(counts, table.banned, rules)
                + steps.b4_variety(counts, table.banned, rules)
                + steps.b5_focus(counts, self.player.focus, rules))
        return found


class PlanTotals:
    """A player's total for each plan of :func:`bounded_flips` on a shelf with
    artifacts, from what a plan changes: the figures its tally decides
    (``OwnTotal.partial``) and each artifact's points, kept with the faces of the cells
    its score read (``ReadCells``: where those faces are the same, so are the points);
    B1 and the entombed cards are the same whatever is flipped. It gives exactly
    ``OwnTotal.total`` of the shelf the plan leaves (tests compare them), scoring an
    artifact again only where a plan turns a cell its score read."""

    def __init__(self, own: OwnTotal) -> None:
        base = own.inspection.forms[own.index]
        self.own = own
        self.shelf = own.player.shelf
        self.fixed = base.stability + base.entombed + base.volunteers  # faces change none
        self.artifacts = [(pos, slot.card.artifact_id) for pos, slot in sorted(self.shelf.items())
                          if isinstance(slot.card, ArtifactCard)]
        # per artifact: (the cells its score read, None for all of the shelf; the points
        # by the cells among them a plan turns face down)
        self.known: dict[Pos, list[tuple[frozenset[Pos] | None, dict[frozenset[Pos], int]]]] = {
            pos: [] for pos, _ in self.artifacts}
        self._shown: tuple[frozenset[Pos], Shelf] | None = None

    @classmethod
    def of(cls, own: OwnTotal) -> PlanTotals | None:
        """For ``own``, unless a part of the total other than the tally and the
        artifacts could change with the faces (an assistant's row, a house-rules line)
        or the artifacts are scored by other means than their content's scores."""
        if (own.points is not artifact_points or own.player.assistants
                or own.inspection.rules.has_house_line):
            return None
        return cls(own)

    def total(self, down: frozenset[Pos], tally: tuple[int, ...]) -> int:
        """The total with the face-up book cards at ``down`` turned face down (and
        the rest left face up), ``tally`` the books of those left."""
        points = self.fixed + self.own.partial(tally)
        for pos, artifact_id in self.artifacts:
            points += self._points(pos, artifact_id, down)
        return points

    def _points(self, pos: Pos, artifact_id: str, down: frozenset[Pos]) -> int:
        known = self.known[pos]
        for cells, by_turned in known:
            found = by_turned.get(down if cells is None else down & cells)
            if found is not None:
                return found
        if self._shown is None or self._shown[0] != down:
            self._shown = (down, steps.with_flips(self.shelf, down))
        seen = ReadCells(self._shown[1])
        own = self.own
        points = artifact_points(seen, pos, artifact_id, own.inspection.rules,  # type: ignore[arg-type]
                                 town=own.town)
        cells = None if seen.whole else frozenset(seen.cells)
        turned = down if cells is None else down & cells
        for read, by_turned in known:
            if read == cells:
                by_turned[turned] = points
                break
        else:
            known.append((cells, {turned: points}))
        return points


def directions(inspection: Inspection, focus: str) -> list[int | None]:
    """Per category: +1 if more books never lower the total, -1 if they never raise it,
    0 if they do not matter, None if it depends (then states must match exactly)."""
    table, rules = inspection.table, inspection.rules
    awards_fall = all(a >= b for a, b in zip(rules.awards, rules.awards[1:], strict=False))
    variety = set(steps.variety_categories(table.banned))
    result: list[int | None] = []
    for code in CATEGORY_CODES:
        linear = rules.focus_per_book if code == focus else 0
        if code == table.banned and rules.banned_books:
            linear += rules.banned_per_book
        signs = {(linear > 0) - (linear < 0)}
        if code in variety:
            signs.add((rules.variety_per_book > 0) - (rules.variety_per_book < 0))
        if code in table.prominent_codes:
            signs.add(1 if awards_fall else 2)
        signs.discard(0)
        result.append(signs.pop() if len(signs) == 1 and signs <= {1, -1} else
                      (0 if not signs else None))
    return result


def _face_up_books(shelf: Shelf) -> list[tuple[Pos, BookCard]]:
    return [(pos, slot.face_up_book) for pos, slot in shelf.items()
            if slot.face_up_book is not None]


def _near_artifacts(shelf: Shelf) -> set[Pos]:
    cells: set[Pos] = set()
    for pos, slot in shelf.items():
        if isinstance(slot.card, ArtifactCard):
            cells.update((pos[0] + dr, pos[1] + dc) for dr, dc in STEPS)
    return cells


def best_flips(
    inspection: Inspection,
    index: int,
    *,
    points: ArtifactPoints = artifact_points,
    beam: int | None = None,
) -> BestFlips:
    """The voluntary flips that maximise player ``index``'s own total (``beam``:
    states kept per card, by default :func:`beam_for` the shelf)."""
    own = OwnTotal(inspection, index, points)
    shelf = own.player.shelf
    cards = _face_up_books(shelf)
    beam = beam_for(len(cards)) if beam is None else beam
    near = _near_artifacts(shelf)
    bit = {pos: 1 << i for i, (pos, _) in enumerate(cards) if pos in near}
    signs = directions(inspection, own.player.focus)
    keep = [i for i, s in enumerate(signs) if s != 0]

    # state key: (last kept index or -1, projected tally, flipped-near-artifact bits)
    # value: (full tally, voluntary flip count, flip mask over ``cards``)
    zero = (0,) * len(CATEGORY_CODES)
    states: dict[tuple[int, tuple[int, ...], int], tuple[tuple[int, ...], int, int]] = {
        (-1, tuple(zero[i] for i in keep), 0): (zero, 0, 0)}
    exact = True
    partial = cache(own.partial)
    for i, (pos, card) in enumerate(cards):
        add = tuple(card.books.count(code) for code in CATEGORY_CODES)
        nxt: dict[tuple[int, tuple[int, ...], int], tuple[tuple[int, ...], int, int]] = {}
        for (last, _, bits), (tally, voluntary, mask) in states.items():
            follows = last < 0 or card.follows(cards[last][1])
            if follows:
                kept = tuple(a + b for a, b in zip(tally, add, strict=True))
                _offer(nxt, (i, tuple(kept[k] for k in keep), bits), (kept, voluntary, mask))
            flipped = (last, tuple(tally[k] for k in keep), bits | bit.get(pos, 0))
            _offer(nxt, flipped, (tally, voluntary + follows, mask | 1 << i))
        states = _prune(nxt, [signs[k] for k in keep])
        if len(states) > beam:
            exact = False
            ranked = sorted(states.items(), key=lambda kv: (-partial(kv[1][0]), kv[1][1],
                                                            kv[0]))
            states = dict(ranked[:beam])

    baseline = own.inspection.forms[index].total
    best: tuple[int, int, tuple[Pos, ...]] = (baseline, 0, ())
    ends = [value for value in states.values() if value[1] > 0]
    if ends and not near and not own.player.assistants:
        # No artifact on the shelf and no assistant's score: flips change only the
        # tally, so a total is the tally's figures (B2 to B5) plus what flips leave
        # alone (B1, entombed cards). Only the states with the best tally can win.
        top = max(partial(tally) for tally, _, _ in ends)
        ends = [value for value in ends if partial(value[0]) == top]
    by_parts = PlanTotals.of(own) if ends else None
    for tally, _, mask in ends:
        chosen = frozenset(pos for j, (pos, _) in enumerate(cards) if mask >> j & 1)
        flips = _voluntary(cards, chosen)
        total = (by_parts.total(chosen, tally) if by_parts is not None
                 else own.total(steps.with_flips(shelf, flips)))
        if (total, -len(flips)) > (best[0], -best[1]):
            best = (total, len(flips), tuple(flips))
    total, _, flips = best
    names = tuple(shelf.at(pos).card.name for pos in flips)  # type: ignore[union-attr]
    return BestFlips(own.player.name, flips, names, total, total - baseline, exact)


def beam_for(cards: int) -> int:
    """States kept per card on a shelf of ``cards`` face-up book cards: ``DEFAULT_BEAM``
    while the work (cards × beam²) fits ``FLIP_WORK``, then less, down to ``MIN_BEAM``."""
    if cards * DEFAULT_BEAM**2 <= FLIP_WORK:
        return DEFAULT_BEAM
    return max(MIN_BEAM, math.isqrt(FLIP_WORK // max(cards, 1)))


def bounded_flips(
    inspection: Inspection,
    index: int,
    *,
    points: ArtifactPoints = artifact_points,
    passes: int = BOUNDED_PASSES,
) -> BestFlips:
    """The voluntary flips of a bounded search, for bots: a few quadratic passes and a
    short local search, however the shelf is laid out.

    A plan is the set of cards left face up, an increasing sequence in reading order
    (A1's own result to start with). Each face-up book card is weighed by what its
    books add to the player's figures at the plan's tally (B2 to B5,
    ``OwnTotal.partial``), and the heaviest increasing sequence becomes the next plan
    (a card that costs, a banned book, is left out); ``passes`` times. Then, at most
    ``passes`` times, the best single change is made while one raises the total: keep
    one more card (flipping those out of order with it) or flip one. Plans are scored
    by the form (by their tally alone where that decides, as in ``best_flips``); the
    best one that raises the total is taken, else none. It finds what ``best_flips``
    finds on nearly every shelf (tests compare them).
    """
    own = OwnTotal(inspection, index, points)
    shelf = own.player.shelf
    cards = _face_up_books(shelf)
    baseline = own.inspection.forms[index].total
    if not cards:
        return BestFlips(own.player.name, (), (), baseline, 0, exact=False)
    vectors = [tuple(card.books.count(code) for code in CATEGORY_CODES) for _, card in cards]
    by_tally = not _near_artifacts(shelf) and not own.player.assistants
    by_parts = None if by_tally else PlanTotals.of(own)
    scores: dict[tuple[bool, ...], tuple[int, int]] = {}
    zero = (0,) * len(CATEGORY_CODES)

    def tally_of(plan: tuple[bool, ...]) -> tuple[int, ...]:
        tally = zero
        for vector, keep in zip(vectors, plan, strict=True):
            if keep:
                tally = tuple(map(operator.add, tally, vector))
        return tally

    def score(plan: tuple[bool, ...]) -> tuple[int, int]:
        """(figures that flips change, -voluntary flips) of a plan."""
        found = scores.get(plan)
        if found is None:
            down = frozenset(pos for (pos, _), keep in zip(cards, plan, strict=True)
                             if not keep)
            flips = _voluntary(cards, down)
            if by_tally:
                figure = own.partial(tally_of(plan))
            elif by_parts is not None:
                figure = by_parts.total(down, tally_of(plan))
            else:
                figure = own.total(steps.with_flips(shelf, flips))
            found = scores[plan] = (figure, -len(flips))
        return found

    up: list[bool] = []
    last: BookCard | None = None
    for _, card in cards:  # A1's own result
        up.append(last is None or card.follows(last))
        last = card if up[-1] else last
    start = tuple(up)
    plan = start
    for _ in range(passes):
        tally = tally_of(plan)
        here = own.partial(tally)
        weights = []
        for vector, keep in zip(vectors, plan, strict=True):
            sign = -1 if keep else 1
            other = own.partial(tuple(t + sign * v for t, v in zip(tally, vector, strict=True)))
            gain = here - other if keep else other - here
            weights.append(gain * len(cards) + 1 if gain >= 0 else -1)  # ties: keep more
        weighed = tuple(_heaviest_increasing(cards, weights))
        if weighed in scores:
            break
        if score(weighed) > score(plan):
            plan = weighed
    for _ in range(passes):  # local search: one card more face up, or one fewer
        moves = [_with_card(cards, plan, k) for k in range(len(cards))]
        better = max(moves, key=score)
        if score(better) <= score(plan):
            break
        plan = better
    down = {pos for (pos, _), keep in zip(cards, plan, strict=True) if not keep}
    flips = tuple(_voluntary(cards, down))
    total = own.total(steps.with_flips(shelf, flips)) if flips else baseline
    if total <= baseline:
        total, flips = baseline, ()
    names = tuple(shelf.at(pos).card.name for pos in flips)  # type: ignore[union-attr]
    return BestFlips(own.player.name, flips, names, total, total - baseline, exact=False)


def _with_card(cards: list[tuple[Pos, BookCard]], plan: tuple[bool, ...], k: int
               ) -> tuple[bool, ...]:
    """``plan`` with card ``k`` turned: flipped if it was kept, else kept with the kept
    cards out of order with it flipped."""
    if plan[k]:
        return (*plan[:k], False, *plan[k + 1:])
    key = cards[k][1].key  # ``follows`` by the cards' keys, each read once
    keys = [card.key for _, card in cards]
    return tuple(j == k or (keep and (key > keys[j] if j < k else keys[j] > key))
                 for j, keep in enumerate(plan))


def _heaviest_increasing(cards: list[tuple[Pos, BookCard]], weights: list[int]) -> list[bool]:
    """Which cards to keep: the increasing sequence in reading order of the largest
    total weight (cards of negative weight left out)."""
    n = len(cards)
    best = [0] * n
    before = [-1] * n
    keys = [card.key for _, card in cards]  # ``follows`` by the keys, each read once
    for i, key in enumerate(keys):
        if weights[i] <= 0:
            best[i] = -1
            continue
        top, at = 0, -1
        for j in range(i):
            if best[j] > top and key > keys[j]:
                top, at = best[j], j
        best[i], before[i] = top + weights[i], at
    keep = [False] * n
    i = max(range(n), key=best.__getitem__, default=-1)
    if i < 0 or best[i] <= 0:
        return keep
    while i >= 0:
        keep[i] = True
        i = before[i]
    return keep


def _voluntary(cards: list[tuple[Pos, BookCard]], down: set[Pos]) -> list[Pos]:
    """The fewest voluntary flips that leave exactly ``down`` face down after A1."""
    last: tuple[str, int] | None = None  # the key of the last card left face up
    flips = []
    for pos, card in cards:
        key = card.key
        if pos in down:
            if last is None or key > last:  # ``card.follows`` the last one
                flips.append(pos)
        else:
            last = key
    return flips


def _offer(states: dict, key: tuple, value: tuple) -> None:
    old = states.get(key)
    if old is None or value[1] < old[1]:
        states[key] = value


def _prune(states: dict, signs: list[int | None]) -> dict:
    """Drop states dominated by another with the same last card and near-artifact flips.

    Within a group (and equal counts where a category's direction is unknown), a
    state is dominated when another is at least as good in every category, with
    no more voluntary flips. Sorted best first, a state can only be dominated by
    one already kept (a skyline pass), so each is compared with the kept ones only.
    """
    free = [k for k, sign in enumerate(signs) if sign is None]
    ranked = [k for k, sign in enumerate(signs) if sign is not None]
    groups: dict[tuple, list[tuple[tuple[int, ...], int, tuple, tuple]]] = {}
    for key, value in states.items():
        tally = key[1]
        better = tuple(tally[k] * signs[k] for k in ranked)  # type: ignore[operator]
        group = (key[0], key[2], tuple(tally[k] for k in free))
        groups.setdefault(group, []).append((better, value[1], key, value))
    kept: dict = {}
    ge = operator.ge
    for members in groups.values():
        members.sort(key=lambda m: (-sum(m[0]), m[1], m[0]))
        front: list[tuple[tuple[int, ...], int]] = []
        for better, flips, key, value in members:
            for b, f in front:  # a plain loop and map(): this is the search's inner loop
                if f <= flips and all(map(ge, b, better)):
                    break
            else:
                front.append((better, flips))
                kept[key] = value
    return kept


def brute_force_best_flips(
    inspection: Inspection, index: int, *, points: ArtifactPoints = artifact_points
) -> tuple[int, int]:
    """Best (total, fewest flips) by trying every flip set: the reference for small shelves."""
    own = OwnTotal(inspection, index, points)
    shelf = own.player.shelf
    cards = [pos for pos, _ in _face_up_books(shelf)]
    best = (own.inspection.forms[index].total, 0)
    for size in range(1, len(cards) + 1):
        for flips in _subsets(cards, size):
            total = own.total(steps.with_flips(shelf, flips))
            if total > best[0]:
                best = (total, size)
    return best


def _subsets(cards: list[Pos], size: int) -> Iterator[tuple[Pos, ...]]:
    return combinations(cards, size)

