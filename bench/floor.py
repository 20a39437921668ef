"""A pure-Python floor for the engine benchmark: a flat game loop of the same shape.

Not exlibris: a hand-written stand-in with the engine's shape and none of its
generality, so that ``engine_bench.py`` can report the engine's speed as a ratio
to code that does the least work a game of this kind needs, measured in the same
process (the machine is shared, so bare times mean little).

The floor plays two to five seats over rounds. Each round it deals cards to
location areas, lets every seat place assistants one at a time (a decision over
the open location spaces), then resolves each visit: the visitor takes cards to
hand and shelves some of them (a decision over the legal cells of a grid shelf,
kept as a set of free neighbours), and the round ends when a shelf reaches its
threshold. Every decision is a list of legal options built afresh and a seeded
random pick, as the engine's random bot does. Nothing is cached across decisions
that the engine recomputes, and nothing is done that the engine skips.

    python bench/floor.py --games 300
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

LOCATIONS = 8          # tiles on the town board
SPACES = 2             # spaces a tile
ASSISTANTS = 3         # assistants a seat places each round
HAND = 5
THRESHOLD = {2: 16, 3: 15, 4: 14, 5: 13}  # final-round shelf size


@dataclass(frozen=True, slots=True)
class Card:
    letter: str
    order: int
    books: tuple[str, ...]


def make_deck(rng: random.Random) -> list[Card]:
    cats = "HMRSCT"
    deck = [Card(chr(65 + i % 26), i // 26 + 1, tuple(rng.choice(cats) for _ in range(2 + i % 3)))
            for i in range(152)]
    rng.shuffle(deck)
    return deck


class Shelf:
    """Cells on a grid; a card goes on the bottom row or on top of a card. The
    legal cells are kept up to date on each shelve (the least work there is)."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], Card] = {}
        self.open: list[tuple[int, int]] = [(0, 0)]

    def shelve(self, card: Card, cell: tuple[int, int]) -> None:
        self.cells[cell] = card
        self.open.remove(cell)
        r, c = cell
        for new in ((r + 1, c), (0, c - 1), (0, c + 1)) if r == 0 else ((r + 1, c),):
            if new not in self.cells and new not in self.open:
                self.open.append(new)


def play_game(seed: int, players: int) -> int:
    """One game; returns the decisions taken."""
    rng = random.Random(seed)
    deck = make_deck(rng)
    discard: list[Card] = []
    hands = [[deck.pop() for _ in range(HAND)] for _ in range(players)]
    shelves = [Shelf() for _ in range(players)]
    decisions = 0
    last_round = False
    first = 0
    while True:
        areas = [[deck.pop() for _ in range(3)] if len(deck) >= 3 else [] for _ in range(LOCATIONS)]
        occupied: dict[tuple[int, int], int] = {}
        visits: list[tuple[int, int]] = []
        for _ in range(ASSISTANTS):
            for k in range(players):
                seat = (first + k) % players
                options = [(loc, sp) for loc in range(LOCATIONS) for sp in range(SPACES)
                           if (loc, sp) not in occupied]
                loc, sp = options[rng.randrange(len(options))]
                decisions += 1
                occupied[loc, sp] = seat
                visits.append((loc, seat))
        for loc, seat in sorted(visits):
            area = areas[loc]
            if area:
                options = list(range(len(area)))
                taken = area.pop(options[rng.randrange(len(options))])
                decisions += 1
                hands[seat].append(taken)
            hand = hands[seat]
            if hand:
                cells = shelves[seat].open
                choices = [(i, cell) for i in range(len(hand)) for cell in cells]
                choices.append((-1, (0, 0)))
                i, cell = choices[rng.randrange(len(choices))]
                decisions += 1
                if i >= 0:
                    shelves[seat].shelve(hand.pop(i), cell)
            while len(hand) > HAND:
                discard.append(hand.pop(rng.randrange(len(hand))))
        for area in areas:
            discard.extend(area)
        if last_round or not deck:
            break
        last_round = any(len(s.cells) >= THRESHOLD[players] for s in shelves)
        first = (first + 1) % players
    return decisions


def run(games: int, players: int, seed: int = 0) -> tuple[float, int]:
    """Play ``games`` games; return (seconds, decisions)."""
    decisions = 0
    t = time.perf_counter()
    for i in range(seed, seed + games):
        decisions += play_game(i, players)
    return time.perf_counter() - t, decisions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    seconds, decisions = run(args.games, args.players)
    print(f"floor: {args.games} games, {decisions / args.games:.1f} decisions a game, "
          f"{decisions / seconds:,.0f} decisions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
