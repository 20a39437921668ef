"""How scenarios name assistants: ``standard``, a special assistant's id, and
``KIND#N`` for the N-th assistant of that kind a player has (``standard#2``).

A player's assistants are listed special first, then standard, as the library
draft deals them; an Expanded Archives card given in ``setup`` (``card:witch``)
comes in the order written.
"""

from __future__ import annotations

from collections.abc import Sequence

from exlibris.engine.state import Assistant

CARD_PREFIX = "card:"  # setup: an Expanded Archives special assistant card
TEMP_PREFIX = "temp:"  # setup: a temporary assistant (EXP-TEMP-01): its card stays in the deck


def kind_of(assistant: Assistant) -> str:
    """``standard`` or the special assistant's id."""
    return "standard" if assistant.spec is None else assistant.spec.id


def split_kind(written: str) -> tuple[str, int | None]:
    """``standard#2`` -> (``standard``, 2); ``snowman`` -> (``snowman``, None)."""
    kind, _, number = written.partition("#")
    return kind, int(number) if number.isdigit() and int(number) > 0 else None


def matching(assistants: Sequence[Assistant], written: str) -> list[Assistant]:
    """The assistants a name in a scenario may stand for, in the player's order."""
    kind, number = split_kind(written)
    same = [a for a in assistants if kind_of(a) == kind]
    if number is None:
        return same
    return same[number - 1:number]


def owned_kind(setup_entry: str) -> str:
    """The kind an ``assistants:`` entry of ``setup`` gives (``card:witch`` -> ``witch``)."""
    return setup_entry.removeprefix(CARD_PREFIX).removeprefix(TEMP_PREFIX)
