"""Caches keyed by what they depend on: an author's entry with a shipped entry's id
and another effect is seen at once, in the same process, and the shipped entry again
after it (compiled location effects, compiled abilities, artifact scores, the
artifacts that hold tucked cards, artifact aliases).

Each scenario is run three times in one process: as shipped, with its own content
replacing one shipped entry (its expectations changed to the new effect), and as
shipped again; each run must pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from exlibris.scenario import load_scenario, run_scenario
from exlibris.scoring.artifacts import artifact_aliases, tucking_artifact_ids
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SCENARIOS = ROOT / "scenarios"

# (shipped scenario, shipped content file, (old, new) in the content,
#  [(old, new)] in the scenario's expectations)
OVERRIDES = {
    "a location's effect": (
        "locations/01-diviners-hut-draws-per-assistant-placed-and-takes-first-player.yaml",
        "locations/diviners-hut.yaml",
        ("draw(me.placed_this_round)\n", "draw(me.placed_this_round + 1)\n"),
        [("hands: {Ann: [A1, B1, C1], Bob: [A2]}", "hands: {Ann: [A1, B1, C1, D1], Bob: [A2]}"),
         ("deck: [D1]", "deck: []"),
         ("cards: [B1, C1]}", "cards: [B1, C1, D1]}")]),
    "an assistant's ability": (
        "assistant-cards/social-butterfly-draws-and-shelves.yaml",
        "assistants/social-butterfly.yaml",
        ("may draw(draws)", "may draw(2 * draws)"),
        [("hands: {Ann: [A1]}", "hands: {Ann: [A1, D1]}"), ("deck: [D1]", "deck: []"),
         ("cards: [C1]}", "cards: [C1, D1]}")]),
    "an artifact's score": (
        "artifacts/end-of-game-artifacts-and-the-owl-collector-score-at-b6.yaml",
        "artifacts/foul-vowel-towel.yaml",
        ("    score: count(shelf where it.is_book and it.vowel and not it.face_down)",
         '    score: "100"'),
        [("{name: Ann, artifacts: 9}", "{name: Ann, artifacts: 106}")]),
}


@pytest.fixture(autouse=True)
def _shipped_content_only() -> Iterator[None]:
    use_content(())
    yield
    use_content(())


def replaced(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def passes(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    assert result.passed, result.difference


@pytest.mark.parametrize("what", sorted(OVERRIDES))
def test_an_authors_entry_with_a_shipped_id_is_seen_in_the_same_process(
        what: str, tmp_path: Path) -> None:
    scenario, entry, change, expectations = OVERRIDES[what]
    shipped = SCENARIOS / scenario
    (tmp_path / "own").mkdir()
    (tmp_path / "own" / Path(entry).name).write_text(
        replaced((CONTENT / entry).read_text("utf-8"), *change), "utf-8")
    text = shipped.read_text("utf-8")
    for old, new in expectations:
        text = replaced(text, old, new)
    mine = tmp_path / "scenario.yaml"
    mine.write_text(text + "content: [own]\n", "utf-8")

    passes(shipped)
    passes(mine)
    passes(shipped)
    # and the shipped expectations do not hold with the author's entry
    (tmp_path / "unchanged.yaml").write_text(shipped.read_text("utf-8") + "content: [own]\n",
                                             "utf-8")
    assert not run_scenario(load_scenario(tmp_path / "unchanged.yaml")).passed


def test_tucking_artifacts_and_aliases_follow_the_content_in_use(tmp_path: Path) -> None:
    crystal = (CONTENT / "artifacts" / "mystical-crystal-see-all-ball.yaml").read_text("utf-8")
    own = tmp_path / "own"
    own.mkdir()
    (own / "mystical-crystal-see-all-ball.yaml").write_text(
        crystal.replace("tuck(1, from: deck, under: this)", "draw(1)")
        .replace("score: 2 * count(tucked(this))", 'score: "2"'), "utf-8")
    (own / "jar.yaml").write_text(
        crystal.replace("id: mystical-crystal-see-all-ball", "id: jar")
        .replace("name: The Mystical Crystal See-All Ball", "name: The Tucking Jar"), "utf-8")

    def seen() -> tuple[bool, bool, str | None]:
        tucking = tucking_artifact_ids() or frozenset()
        return ("mystical-crystal-see-all-ball" in tucking, "jar" in tucking,
                artifact_aliases().get("tucking-jar"))

    assert seen() == (True, False, None)
    use_content([own])
    assert seen() == (False, True, "jar")
    use_content(())
    assert seen() == (True, False, None)
