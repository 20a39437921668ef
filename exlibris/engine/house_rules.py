"""A variant's own abilities (``abilities:`` of its rules file): rules for everyone.

Every player carries them, as if each had one more special assistant that stands
nowhere. The carrier is a ``HouseRule`` per variant and seat, made once per process
(like cards, the same object in a game and in its copies, so the abilities' "once
per ..." memory follows a copy of the game). In the order of priority the house rules
come last: after the assistants and the artifacts, in seat order (docs/rulings.md,
"Rules for everyone").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from exlibris.model.content import Ability

HOUSE_ORDER = 2 * 10**9  # after assistants (their placement order) and artifacts (10**9 + 1)


class HouseRule:
    """The carrier of a variant's abilities for one seat (``this`` in their effects)."""

    __slots__ = ("id", "name", "seat")

    def __init__(self, variant: str, seat: int) -> None:
        self.id = variant
        self.name = f"the {variant} rules"
        self.seat = seat

    def __repr__(self) -> str:
        return f"HouseRule({self.id!r}, seat={self.seat})"


_CARRIERS: dict[tuple[str, int], HouseRule] = {}


def house_rule(variant: str, seat: int) -> HouseRule:
    """The one carrier of ``variant``'s abilities for ``seat``."""
    found = _CARRIERS.get((variant, seat))
    if found is None:
        found = _CARRIERS[(variant, seat)] = HouseRule(variant, seat)
    return found


def house_scores(abilities: Sequence[Ability], variant: str = "") -> tuple[Any, ...]:
    """The compiled end-of-game scores of a variant's abilities (the house rules line),
    each named as the triggers name its abilities (``VARIANT@rules#I``), so that an
    error names the rules file and line."""
    return _compiled_scores(variant, tuple((i, a.score) for i, a in enumerate(abilities)
                                           if a.score))


@cache
def _compiled_scores(variant: str, sources: tuple[tuple[int, str], ...]) -> tuple[Any, ...]:
    from exlibris.dsl.errors import source_name
    from exlibris.dsl.scoring import compile_score

    return tuple(compile_score(source, file="the variant's abilities",
                               name=source_name(f"{variant}@rules#{i}", "score"))
                 for i, source in sources)
