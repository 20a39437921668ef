"""``--seats``: a comma-separated list of agents, each checked (``agents.bot_kind``)."""

from __future__ import annotations

import click


def parse_seats(value: str) -> list[str]:
    """The agents ``value`` names, lower-cased; ``BadParameter`` for an empty list or an
    agent that is not one (an unknown bot, a budget past its bounds)."""
    from exlibris.agents import bot_kind

    seats = [s.strip().lower() for s in value.split(",") if s.strip()]
    if not seats:
        raise click.BadParameter("name at least one agent", param_hint="--seats")
    for seat in seats:
        wrong = bot_kind(seat)
        if wrong is not None:
            raise click.BadParameter(wrong, param_hint="--seats")
    return seats
