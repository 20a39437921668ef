"""Print a stand-in book deck (``content/books.yaml``) that meets the published totals.

The printed card list of Ex Libris is not in the rulebooks, so this script builds a
plausible deck that satisfies every figure they do give (clauses SETUP-02, SETUP-03):

* 152 book cards carrying 510 books in all;
* exactly 85 books of each of the six categories;
* every card carries 2, 3 or 4 books;
* per letter the cards are numbered 1..N and each shows ``of: N``.

The letter counts below are chosen by hand (common initial letters get more cards;
M has 8 cards and N has 3, matching the rulebook's M 8/8 and N 3/3 example). The
books are dealt by a seeded ``random.Random`` instance, never the global generator,
so the output is the same on every run:

    python scripts/make_stand_in_deck.py > content/books.yaml
"""

from __future__ import annotations

import random
import sys
from collections import Counter

SEED = 20170510
CODES = "CFHMRS"
TOTAL_CARDS = 152
TOTAL_BOOKS = 510
PER_CATEGORY = 85
MAX_SAME_ON_CARD = 2

# Cards per initial letter (sums to 152).
# fmt: off
LETTERS: dict[str, int] = {
    "A": 9, "B": 9, "C": 10, "D": 8, "E": 5, "F": 7, "G": 7, "H": 7, "I": 4,
    "J": 3, "K": 3, "L": 7, "M": 8, "N": 3, "O": 4, "P": 8, "Q": 2, "R": 7,
    "S": 12, "T": 10, "U": 3, "V": 3, "W": 7, "X": 1, "Y": 2, "Z": 3,
}
# fmt: on
# Cards by number of books: 16 x 2 + 66 x 3 + 70 x 4 = 510.
SIZES: dict[int, int] = {2: 16, 3: 66, 4: 70}

HEADER = """\
# yaml-language-server: $schema=../schemas/books.json
# STAND-IN DECK: the printed card list is not in the rulebooks. This deck is
# generated to meet every published total (152 cards, 510 books, 85 per category,
# 2 to 4 books per card, per-letter orders 1..N); letters and books are invented.
# Regenerate with:  python scripts/make_stand_in_deck.py > content/books.yaml
# Each card: letter, order among its letter's cards, how many share the letter,
# and its books as one category code each (C F H M R S).
kind: books
id: stand-in-deck
name: Stand-in book deck
stand_in: true
cards:
"""


def _bad(card: list[str]) -> bool:
    return max(Counter(card).values()) > MAX_SAME_ON_CARD


def deal_books(rng: random.Random) -> list[str]:
    """Deal the 510 books onto cards, at most two of one category per card."""
    tokens = [code for code in CODES for _ in range(PER_CATEGORY)]
    rng.shuffle(tokens)
    sizes = [size for size, count in sorted(SIZES.items()) for _ in range(count)]
    rng.shuffle(sizes)
    cards: list[list[str]] = []
    start = 0
    for size in sizes:
        cards.append(tokens[start : start + size])
        start += size
    # Repair cards holding three or more books of one category by swapping
    # books with other cards; both cards must be fine after a swap.
    for _ in range(100_000):
        bad = [i for i, card in enumerate(cards) if _bad(card)]
        if not bad:
            break
        i = bad[0]
        j = rng.randrange(len(cards))
        a = rng.randrange(len(cards[i]))
        b = rng.randrange(len(cards[j]))
        if i == j or cards[i][a] == cards[j][b]:
            continue
        cards[i][a], cards[j][b] = cards[j][b], cards[i][a]
        if _bad(cards[j]):  # the swap only moved the problem: undo it
            cards[i][a], cards[j][b] = cards[j][b], cards[i][a]
    else:  # pragma: no cover - the repair always converges for these totals
        raise SystemExit("could not repair the deck")
    return ["".join(sorted(card, key=CODES.index)) for card in cards]


def build() -> list[dict[str, object]]:
    rng = random.Random(SEED)
    books = deal_books(rng)
    deck: list[dict[str, object]] = []
    position = 0
    for letter in sorted(LETTERS):
        count = LETTERS[letter]
        for order in range(1, count + 1):
            deck.append({"letter": letter, "order": order, "of": count, "books": books[position]})
            position += 1
    check(deck)
    return deck


def check(deck: list[dict[str, object]]) -> None:
    assert len(deck) == TOTAL_CARDS, len(deck)
    all_books = "".join(str(card["books"]) for card in deck)
    assert len(all_books) == TOTAL_BOOKS, len(all_books)
    tally = Counter(all_books)
    assert all(tally[code] == PER_CATEGORY for code in CODES), tally
    assert set(tally) == set(CODES), tally
    assert all(2 <= len(str(card["books"])) <= 4 for card in deck)
    by_letter: dict[str, list[dict[str, object]]] = {}
    for card in deck:
        by_letter.setdefault(str(card["letter"]), []).append(card)
    for letter, cards in by_letter.items():
        n = len(cards)
        assert [card["order"] for card in cards] == list(range(1, n + 1)), letter
        assert all(card["of"] == n for card in cards), letter


def main() -> None:
    out = [HEADER]
    for card in build():
        out.append(
            f"  - {{letter: {card['letter']}, order: {card['order']}, "
            f"of: {card['of']}, books: {card['books']}}}\n"
        )
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
