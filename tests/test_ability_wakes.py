"""An ability never wakes itself: two abilities that wake each other stop after one
round trip (docs/language.md says so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts and leaves the process with the shipped content only."""
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())

ECHO = """kind: assistant
id: echo-{x}
name: Echo {x}
edition: expanded
solo: false
text: After you draw, draw a card.
abilities:
  - timing: reaction
    when: after draw by owner
    text: After you draw, draw a card.
    effect: |
      draw(1)
"""

SCENARIO = """kind: scenario
name: Two abilities that wake each other stop after one round trip
text: The home action draws A1; the echoes draw A2 to A5 and stop.
content: [echo-a.yaml, echo-b.yaml]
setup:
  players:
    - {name: Ann, library: garden-of-education,
       assistants: ["card:echo-a", "card:echo-b", standard]}
    - {name: Bob, library: igloo-of-information}
  first_player: Ann
  deck: [A1, A2, A3, A4, A5, A6, A7, A8]
  locations: [diviners-hut, wishing-well]
script:
  - Ann: place standard assistant on home space 1
expect:
  deck: [A6, A7, A8]
  events:
    - {event: draw, seat: Ann, cards: [A1]}
    - {event: draw, seat: Ann, cards: [A2]}
    - {event: draw, seat: Ann, cards: [A3]}
    - {event: draw, seat: Ann, cards: [A4]}
    - {event: draw, seat: Ann, cards: [A5]}
"""


def test_two_abilities_that_wake_each_other_stop_after_one_round_trip(tmp_path: Path
                                                                      ) -> None:
    for x in "ab":
        (tmp_path / f"echo-{x}.yaml").write_text(ECHO.format(x=x), "utf-8")
    (tmp_path / "wake.yaml").write_text(SCENARIO, "utf-8")
    result = CliRunner().invoke(cli, ["scenario", "run", str(tmp_path / "wake.yaml")])
    assert result.exit_code == 0, result.output
    assert "1 passed" in result.output


def test_the_language_reference_states_the_rule() -> None:
    text = (ROOT / "docs" / "language.md").read_text("utf-8")
    assert "**An ability never wakes itself.**" in text
    assert "after one round trip" in text
