"""One seeded random stream for each purpose of a game's set-up.

A game's seed is split into streams by purpose (the location tiles, the Job Faire's
assistant deck, the first player, the libraries dealt, the categories, the book
deck, the artifact deck, then play itself), each seeded by a hash of the game's
seed and the purpose's name. A variant that changes one part of set-up (fewer
libraries, other tiles) then leaves every other part as the standard game deals
it: the same first player and the same starting hands, which is what makes
comparing variants on the same deals pair them (``simulate/figures.py``).
"""

from __future__ import annotations

import hashlib
import random

PURPOSES = ("tiles", "assistants", "first", "libraries", "categories", "deck", "artifacts",
            "play")


def stream_seed(seed: int, purpose: str) -> int:
    """The seed of ``purpose``'s stream in the game seeded ``seed``."""
    digest = hashlib.blake2b(f"exlibris-stream:{purpose}:{seed}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def use_stream(rng: random.Random, seed: int, purpose: str) -> None:
    """Seed the game's one generator for ``purpose`` (it stays one object, so a copy
    or a save of the game keeps a single state)."""
    rng.seed(stream_seed(seed, purpose))
