"""Every verb with every zone it accepts, played: each effect is a location of an
author's own, validated and then resolved by random seats from a position with cards
in every zone. An effect the checker accepts never fails in play; a card leaves a
shelf only while the shelf stays one group, and one put on a shelf goes to a legal
cell its new owner chooses (the shelf invariants are checked after every game)."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from typing import Any

import pytest

from exlibris.engine import flow
from exlibris.errors import UserInputError
from exlibris.model.shelf import is_connected
from exlibris.scenario.loader import load_scenario
from exlibris.scenario.position import build_game
from exlibris.sources import content_in_use

LOCATION = """kind: location
id: sweep
name: Sweep
number: 40
timing: instant
spaces: [1]
solo: false
text: sweep
effect: |
{body}
"""
SCENARIO = """kind: scenario
name: sweep
rules: expanded
content: [sweep.yaml]
setup:
  players:
    - {{name: Ann, hand: [A1, B1, C1, "*foul-vowel-towel"],
       shelf: ["{ann}"]}}
    - {{name: Bob, hand: [H1, I1], shelf: ["J1 K1 L1", ". M1 ."]}}
  first_player: Ann
  deck: [N1, O1, P1, Q1, R1, S1]
  discard: [T1, U1]
  artifact_deck: ["*phoenix-feather-quill"]
  locations:
    - {{id: sweep}}
    - {{id: book-seller, area: [V1, W1]}}
  placed:
    - Bob standard at book-seller space 1
script: []
expect: {{round: 1}}
"""
# Ann's shelf: a ring with an artifact, and a line whose middle card holds it together
SHAPES = ["D1 E1 F1\", \"G1 *mystical-crystal-see-all-ball .", "D1 E1 F1 G1"]
ZONES = ["hand", "shelf", "deck", "discard_pile", "rival.hand", "rival.shelf",
         "artifact_deck", "assistant_deck"]


def bodies() -> list[str]:
    found = []
    for z in ZONES:
        for a in ("1", "all"):
            found += [f"take({a}, from: {z})", f"give({a}, from: {z}, to: rival)",
                      f"give({a}, from: {z}, to: me)",
                      f"give({a}, from: {z}, to: rival, random: true)",
                      f"discard({a}, from: {z})", f"shelve({a}, from: {z})",
                      f"reveal({a}, from: {z})", f"tuck({a}, from: {z}, under: first(shelf))",
                      f"tuck({a}, from: {z}, under: shelf)"]
        found += [f"discard(1, from: hand, to: {z})", f"pay(1, from: {z})", f"flip({z})",
                  f"entomb(first({z}))", f"levitate(first({z}))",
                  f"levitate(first({z}), style: \"expanded\")", f"replace_shelved(first({z}))",
                  f"look({z})", f"show({z}, to: rival)", f"tuck(1, from: hand, under: {z})",
                  f"hire({z})", f"borrow({z})"]
        found += [f"trade(from: {z}, with: {z2})" for z2 in ZONES]
    found += [  # zones an effect makes: revealed cards, tucked and entombed cards, hires
        "x = reveal(2, from: deck)\ntrade(from: x, with: rival.shelf)",
        "x = reveal(all, from: rival.hand)\ntrade(from: x, with: shelf)",
        "take(1, from: tucked(shelf))", "discard(1, from: entombed(shelf))",
        "tuck(1, from: hand, under: shelf)\ntake(all, from: tucked(shelf))",
        "give(1, from: me.hires, to: rival)", "trade(from: me.hires, with: rival.hires)",
        "trade(from: rival.shelf, with: shelf)\ntrade(from: shelf, with: rival.shelf)",
        "discard(all, from: rival.shelf, to: shelf)",
        "tuck(all, from: rival.shelf, under: rival.shelf)"]
    for who in ("me.assistants", "rival.assistants", "assistants_here()",
                "first(empty_spaces(here)).occupant"):
        found += [f"return_assistant({who})", f"retire({who})", f"place_assistant({who})"]
    return found


class Seat:
    """Places at the Sweep first, then answers at random."""

    needs_view = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.placed = False

    def decide(self, view: Any, decision: Any) -> int:
        labels = decision.labels
        if not self.placed:
            for i, label in enumerate(labels):
                if "Sweep" in label and "standard" in label:
                    self.placed = True
                    return i
        return self.rng.randrange(len(labels))


def play(tmp: Path, body: str, shape: str, seeds: int) -> str | None:
    """None if the effect is refused or plays; else what failed."""
    (tmp / "sweep.yaml").write_text(LOCATION.format(body=textwrap.indent(body, "  ")))
    (tmp / "s.yaml").write_text(SCENARIO.format(ann=shape))
    try:
        scenario = load_scenario(tmp / "s.yaml")
    except UserInputError:
        return None  # the checker refused it, with FILE:LINE:COL
    for seed in range(seeds):
        with content_in_use(scenario.content):
            seat = Seat(seed)
            game = build_game(scenario, [seat, seat])
            try:
                flow.placement(game)
                flow.resolution(game)
            except Exception as exc:  # what the sweep looks for
                return f"seed {seed}: {type(exc).__name__}: {exc}"
            for player in game.state.players:
                cells = player.shelf.positions()
                if not is_connected(cells):
                    return f"seed {seed}: {player.name}'s shelf split: {sorted(cells)}"
    return None


@pytest.mark.parametrize("shape", SHAPES)
def test_every_verb_with_every_zone_plays_or_is_refused(tmp_path: Path, shape: str) -> None:
    failed = [f"{body}: {why}" for body in bodies()
              if (why := play(tmp_path, "rival = first(opponents_of(me))\n" + body, shape, 3))]
    assert not failed, "\n".join(failed)
