"""Levels of opponent (``exlibris play --level N``, ``agents/levels.py``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from exlibris.agents import bot_kind
from exlibris.agents.levels import LEVELS, level_seat
from exlibris.cli.main import cli


def test_every_level_is_a_seat_and_each_is_named_by_number_and_name() -> None:
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))
    assert len(LEVELS) >= 4
    for level in LEVELS:
        assert bot_kind(level.seat) is None
        assert level_seat(str(level.number)) == level_seat(level.name.upper()) == level.seat
    assert level_seat("0") is None and level_seat("grandmaster") is None


def _seats(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["play", "--seed", "3", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["seats"]


def test_a_level_sets_every_bot_seat_and_a_bot_seat_plays_the_first_level() -> None:
    assert _seats("--level", "casual", "--seats", "bot,bot") == ["greedy", "greedy"]
    assert _seats("--seats", "bot,random") == ["greedy", "random"]


@pytest.mark.parametrize(("args", "said"), [
    (["--level", "9"], "unknown level '9'; the levels are 1 casual (greedy)"),
    (["--level", "strong", "--seats", "human,greedy"], "write the bots' seats as bot"),
])
def test_a_wrong_level_is_refused_with_the_levels(args: list[str], said: str) -> None:
    result = CliRunner().invoke(cli, ["play", "--seed", "1", *args])
    assert result.exit_code == 2 and said in result.output
    assert "Traceback" not in result.output
