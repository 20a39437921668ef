"""``exlibris.draws`` draws exactly what ``random.Random`` draws (results and state)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from exlibris.draws import below, shuffle


@given(seed=st.integers(0, 2**64), sizes=st.lists(st.integers(1, 2**70), min_size=1,
                                                    max_size=30))
def test_below_is_randrange(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**64), length=st.integers(0, 300))
def test_shuffle_is_random_shuffle(seed: int, length: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, reference = list(range(length)), list(range(length))
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference
    assert ours.getstate() == theirs.getstate()


def test_another_generator_class_is_asked_itself() -> None:
    class Fixed(random.Random):
        def randrange(self, *args: object, **kw: object) -> int:
            return 0

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle(Fixed(1), items)
    assert items == [3, 2, 1]
    assert below(Fixed(1), 10) == 0
