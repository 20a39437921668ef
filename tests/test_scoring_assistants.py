"""The table's ``assistants:`` extension: end-of-game points of the special assistants a
player holds, from their content ``score:`` (SA-OWL-3, SCORE-B6-1, EXP-TEMP-05)."""

from __future__ import annotations

import pytest

from exlibris.errors import UserInputError
from exlibris.scoring.inspection import inspect_table
from exlibris.scoring.table import parse_table_text

# Two artifacts on Ann's shelf, one entombed stack on Bea's.
TABLE = """\
variant: expanded
prominent: F
banned: R
players:
  - name: Ann
    focus: H
    hand: 0
{ann}    shelf: |
      A1:CFRS  *foul-vowel-towel  B2:HH
      .        *sands-of-our-fathers  C3:MM
  - name: Bea
    focus: H
    hand: 0
{bea}    shelf: |
      K2:CC+M3:FFS  D1:HH
"""


def inspect(ann: str = "", bea: str = "", settings: str = "") -> dict[str, object]:
    text = TABLE.format(ann=ann, bea=bea)
    table, rules = parse_table_text(text, "t.yaml")
    if settings:
        from exlibris.scoring.settings import ScoringRules
        rules = ScoringRules.for_players(2, {"entombed_to_holder": False})
    return {form.name: form for form in inspect_table(table, rules).forms}


def test_the_owl_collector_adds_two_per_shelved_artifact_to_b6() -> None:
    without = inspect()["Ann"]
    held = inspect(ann="    assistants: [owl-collector]\n")["Ann"]
    assert held.artifacts - without.artifacts == 2 * 2
    assert held.total - without.total == 4


def test_an_assistant_without_a_score_adds_nothing() -> None:
    assert inspect(ann="    assistants: [wizard, ghost]\n")["Ann"] == inspect()["Ann"]


def test_entombed_points_go_to_the_holder_of_the_mummy_when_the_table_says() -> None:
    assert inspect()["Bea"].entombed == 2  # no assistants field: scored from the shelf
    assert inspect(bea="    assistants: [mummy]\n")["Bea"].entombed == 2
    assert inspect(bea="    assistants: []\n")["Bea"].entombed == 0  # a temp Mummy left
    assert inspect(bea="    assistants: []\n", settings="shelf")["Bea"].entombed == 2


@pytest.mark.parametrize(("line", "code"), [
    ("    assistants: [owl-colector]\n", "table/unknown-assistant"),
    ("    assistants: [owl-collector, owl-collector]\n", "table/duplicate-assistant"),
    ("    assistants: owl-collector\n", "table/wrong-type"),
])
def test_bad_assistant_lists_are_reported_at_their_place(line: str, code: str) -> None:
    with pytest.raises(UserInputError) as info:
        parse_table_text(TABLE.format(ann=line, bea=""), "t.yaml")
    problem = info.value.problems[0]
    assert problem.code == code
    assert problem.line == 8
