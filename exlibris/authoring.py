"""Skeletons of new content files for authors (``exlibris new KIND ID``).

Each skeleton is a commented file that validates as written: a first line that
points editors at the author's own copy of the schemas (``exlibris schema --out``),
the fields its kind needs, and comments saying what to change.
"""

from __future__ import annotations

import os
from pathlib import Path

KINDS = ("location", "assistant", "artifact", "variant", "scenario")

_TEMPLATES: dict[str, str] = {
    "location": """\
kind: location
id: {id}
name: {name}
number: {number}          # resolution order; each location needs its own number
timing: instant           # instant: acts when visited; delayed: at resolution
spaces: [1, 3]            # one space per entry: the least player count that opens it
solo: false
text: >-
  Draw a card; you may shelve a card from your hand.
# The effect, in the effect language (docs/language.md). `me` is the visitor.
effect: |
  draw(1)
  shelve(up to 1, from: hand)
""",
    "assistant": """\
kind: assistant
id: {id}
name: {name}
edition: expanded
solo: false
text: After you shelve a card, you may draw a card (once per round).
abilities:
  - keyword: Bookish
    timing: reaction      # on-placement, reaction, ongoing or end-of-game
    # when: [after|before|instead of|modify] EVENT [by SUBJECT] [at PLACE]
    #       [once per turn|round|game] [during PHASE] [if CONDITION]
    when: after shelve by owner once per round
    text: After you shelve a card, you may draw a card. Once per round.
    effect: |
      may draw(1)
""",
    "artifact": """\
kind: artifact
id: {id}
name: {name}
timing: end-of-game
solo: false
text: One point for each Monster Manuals book next to this artifact.
abilities:
  - timing: end-of-game
    text: One point for each Monster Manuals book next to this artifact.
    # `this` is the artifact's card, `shelf` the cards of its owner's shelf
    score: books(adjacent(this), @monster-manuals)
""",
    "variant": """\
kind: variant
id: {id}
name: {name}
extends: standard         # the rules this variant changes; name only what changes
text: A shorter game.
settings:
  final_round:
    shelf_cards: {{2: 13, 3: 11, 4: 9}}   # shelf cards that start the final round
""",
    "scenario": """\
kind: scenario
name: {name}
# rules: standard         # a variant id (yours too, with --content or `content:`)
# content: [..]           # your own content files or folders, relative to this file
setup:
  players:
    - {{name: Ann, library: garden-of-education, hand: [A1]}}
    - {{name: Bob, library: igloo-of-information}}
  locations: [diviners-hut]
# One line per decision, by the label the player sees; `exlibris scenario run -v`
# shows the options where the script stops.
script: []
expect:
  hands: {{Ann: [A1]}}
  next_decision: {{player: Ann}}
""",
}


def modeline(kind: str, folder: Path, schemas: Path) -> str:
    """The editor's schema line, relative from the file's folder to ``schemas``."""
    relative = Path(os.path.relpath(schemas.resolve(), folder.resolve())).as_posix()
    return f"# yaml-language-server: $schema={relative}/{kind}.json\n"


def skeleton(kind: str, entry_id: str, *, folder: Path, schemas: Path,
             number: int = 1) -> str:
    """The text of a new file of ``kind`` named ``entry_id``."""
    name = entry_id.replace("-", " ").title()
    body = _TEMPLATES[kind].format(id=entry_id, name=name, number=number)
    return modeline(kind, folder, schemas) + body


def free_number(taken: set[int]) -> int:
    """The lowest location number nobody uses."""
    return next(n for n in range(1, 100) if n not in taken)
