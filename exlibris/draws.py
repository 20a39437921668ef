"""Random draws the engine makes often, as plain functions of a ``random.Random``.

``below(rng, n)`` is ``rng.randrange(n)`` and ``shuffle(rng, items)`` is
``rng.shuffle(items)``: the same results and the same generator state after, for any
seed (``tests/test_draws.py`` checks both against ``random.Random``). They are here
so the compiled build (``hatch_build.py``) runs them in C: ``random.py``'s methods
stay interpreted Python, two frames a draw. A generator of another class (one that
overrides how it draws) is asked through its own methods.
"""

from __future__ import annotations

import random

_RANDOM = random.Random  # ``type(rng) is _RANDOM``: a pointer test in the compiled build


def below(rng: random.Random, n: int) -> int:
    """A whole number from 0 to ``n - 1`` (``n`` at least 1), as ``rng.randrange(n)``."""
    if type(rng) is not _RANDOM:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:  # rejection sampling: the draw random.Random makes
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[object]) -> None:
    """Shuffle ``items`` in place, as ``rng.shuffle(items)``."""
    if type(rng) is not _RANDOM:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):  # Fisher-Yates, from the end
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
