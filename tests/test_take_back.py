"""Issue 27, "when the engine fails": a game that an author's content stops is saved
with its failure; `play` (and `play --resume`) offers to take back the latest decision
a person made, and `replay` says the game cannot go on, never to continue it.

The failure is real content: an author's Diviner's Hut whose effect builds a list
past the limit of ``exlibris.limits`` (``--content``, a folder in a temporary dir).
At seed 5 you place an assistant there with your third decision (decision 4 stops).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exlibris.cli.main import cli
from exlibris.interactive import record as saves
from exlibris.limits import MAX_EFFECT_LIST
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent
HUT = "place standard assistant at Diviner's Hut (#1) space 1"
HOME = "place standard assistant on home space 1"
STOPPED = "the game stopped at decision 4: "
# where it stopped: the author's file, line and column, and the statement as written
AT = "diviners-hut.yaml:18:5: the effect of diviners-hut stopped at `seen = seen + seen`: "


def at_the_hut(text: str) -> bool:
    """Whether ``text`` says ``AT`` (however the terminal wrapped it: a long path may be
    cut anywhere)."""
    return "".join(AT.split()) in "".join(text.split())


def hostile_hut(folder: Path) -> Path:
    """An author's folder whose Diviner's Hut doubles a list past the list limit."""
    folder.mkdir(parents=True, exist_ok=True)
    shipped = (ROOT / "content" / "locations" / "diviners-hut.yaml").read_text("utf-8")
    doubled = "effect: |\n  seen = [1]\n  repeat 64 times:\n    seen = seen + seen\n"
    assert MAX_EFFECT_LIST < 2 ** 64
    (folder / "diviners-hut.yaml").write_text(shipped.replace("effect: |\n", doubled, 1),
                                              "utf-8")
    return folder


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


@pytest.fixture
def author(tmp_path: Path) -> Path:
    return hostile_hut(tmp_path / "author")


def invoke(*args: str, lines: str = "") -> Result:
    use_content(())  # each command starts as a fresh process would
    return CliRunner().invoke(cli, list(args), input=lines)


def start(author: Path, save: Path, lines: str, seats: str = "human,greedy") -> Result:
    return invoke("play", "--content", str(author), "--seats", seats, "--seed", "5",
                  "--save", str(save), lines=lines)


def stopped_save(author: Path, save: Path) -> Result:
    """The game stopped at the hut, and the offer declined."""
    result = start(author, save, f"1\n{HUT}\n2\n")
    assert result.exit_code == 2, result.output
    return result


def saved(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.read_text("utf-8"))


def test_take_back_after_an_engine_error_and_go_on(author: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = start(author, save, f"1\n{HUT}\n1\n{HOME}\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The game stopped at decision 4: " in out and at_the_hut(out)
    assert "[engine/effect].\nTake back your latest decision" in out
    assert "1. take back your decision 3: place standard assistant at Diviner's Hut" in out
    assert f"Taking back: {HUT}" in out
    record = saved(save)
    assert "failure" not in record  # the game went on: the failure is gone
    assert [d["label"] for d in record["decisions"]][2] == HOME


def test_stopping_at_the_offer_keeps_the_failure_and_never_says_resume_as_it_is(
        author: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = stopped_save(author, save)
    assert "Traceback" not in result.output
    assert f"exlibris play: {STOPPED}" in result.stderr and AT in result.stderr
    assert "[engine/effect]. The game is saved to" in result.stderr
    assert "offers again to take back the latest decision a person made" in result.stderr
    assert "stops at the same point" not in result.output
    assert "Resume with" not in result.output
    record = saved(save)
    assert len(record["decisions"]) == 3 and not record["finished"]
    assert record["failure"]["decision"] == 4
    assert record["failure"]["code"] == "engine/effect"
    assert f"the limit in effects is {MAX_EFFECT_LIST}" in record["failure"]["message"]


def test_the_end_of_input_at_the_offer_stops_too(author: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = start(author, save, f"1\n{HUT}\n")
    assert result.exit_code == 2, result.output
    assert saved(save)["failure"]["decision"] == 4


def test_resume_of_a_failed_save_says_so_and_offers_again(author: Path, tmp_path: Path
                                                          ) -> None:
    save = tmp_path / "game.json"
    stopped_save(author, save)
    again = invoke("play", "--resume", str(save), lines=f"what\n1\n{HOME}\nq\n")
    assert again.exit_code == 0, again.output
    out = again.output
    head = " ".join(out[:out.index("Autosave:")].split())
    assert "Resuming at decision 4" in head and "The" + STOPPED[3:] in head \
        and at_the_hut(head)
    assert "you may take back the latest decision a person made" in head
    assert "Type 1 (or u) to take it back, 2 (or q) to stop." in out  # "what" asks again
    assert f"Taking back: {HUT}" in out
    record = saved(save)
    assert "failure" not in record and record["decisions"][2]["label"] == HOME


def test_resume_and_stop_again_keeps_the_failure(author: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    stopped_save(author, save)
    again = invoke("play", "--resume", str(save), lines="q\n")
    assert again.exit_code == 2, again.output
    assert "offers again to take back" in again.stderr and "Resume with" not in again.output
    assert saved(save)["failure"]["decision"] == 4


def test_hot_seat_takes_back_the_latest_decision_of_any_person(author: Path,
                                                              tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke("play", "--content", str(author), "--seats", "human,human", "--names",
                    "Ada,Bo", "--seed", "5", "--save", str(save),
                    lines=f"1\n1\n{HOME}\n1\n{HUT}\nu\nq\n")
    assert result.exit_code == 0, result.output
    assert "Take back Bo's latest decision and choose again?" in result.output
    assert "1. take back Bo's decision 5: place standard assistant at Diviner's" in \
        result.output
    record = saved(save)
    assert "failure" not in record and len(record["decisions"]) == 4  # Bo's is gone


def test_replay_of_a_failed_save_says_it_cannot_go_on(author: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    stopped_save(author, save)
    result = invoke("replay", "--all", str(save))
    assert result.exit_code == 2, result.output
    assert "Decision 3 of 3" in result.output
    assert "You used Diviner's Hut (#1)." in result.output  # the table where it stopped
    assert f"exlibris replay: {save}: {STOPPED}" in result.stderr and AT in result.stderr
    assert "It cannot go on from here." in result.stderr
    assert "--resume" not in result.output and "Continue" not in result.output


def test_replay_of_a_save_recording_a_failure_never_says_continue(tmp_path: Path) -> None:
    """The record ends where the save says the game stopped: `replay` believes it."""
    save = tmp_path / "game.json"
    assert invoke("play", "--seats", "human,greedy", "--seed", "5", "--save", str(save),
                  lines="1\nq\n").exit_code == 0
    plain = invoke("replay", "--all", str(save))
    assert "Continue it with: exlibris play --resume" in plain.output
    record = saved(save)
    record["failure"] = {"decision": len(record["decisions"]) + 1, "code": "engine/rules",
                         "message": "a situation the rules do not cover"}
    save.write_text(json.dumps(record), "utf-8")
    result = invoke("replay", "--all", str(save))
    assert result.exit_code == 2, result.output
    assert "a situation the rules do not cover [engine/rules]. It cannot go on" in \
        result.stderr
    assert "--resume" not in result.output and "Continue" not in result.output


def test_a_bot_game_that_fails_cannot_go_on_and_says_so(author: Path, tmp_path: Path
                                                        ) -> None:
    save = tmp_path / "bots.json"
    result = start(author, save, "", seats="greedy,random")
    assert result.exit_code == 2, result.output
    assert "but it cannot go on: no person has made a decision to take back" in result.stderr
    assert "--resume" not in result.output
    failure = saved(save)["failure"]
    assert failure["decision"] == len(saved(save)["decisions"]) + 1
    again = invoke("play", "--resume", str(save))
    assert again.exit_code == 2 and "cannot go on" in again.stderr
    assert "--resume" not in again.output
    replayed = invoke("replay", "--all", str(save))
    assert replayed.exit_code == 2 and "It cannot go on from here." in replayed.stderr


def test_a_save_without_failure_is_written_without_the_field(tmp_path: Path) -> None:
    """Saves of games that did not fail stay readable by builds before the field."""
    save = tmp_path / "game.json"
    assert invoke("play", "--seats", "human,greedy", "--seed", "5", "--save", str(save),
                  lines="1\nq\n").exit_code == 0
    assert "failure" not in saved(save)
    assert saves.load(save).failure is None


@pytest.mark.parametrize(("failure", "says"), [
    ("stopped", "'failure' must be null or have exactly: decision, code, message"),
    ({"decision": 4, "code": "engine/effect"}, "exactly: decision, code, message"),
    ({"decision": "4", "code": "engine/effect", "message": "x"}, "must be a whole number"),
    ({"decision": 9, "code": "engine/effect", "message": "x"},
     "'failure' is at decision 9, but the record ends before decision 4"),
    ({"decision": 4, "code": "<b>", "message": "x"}, "'failure' code must look like"),
    ({"decision": 4, "code": "engine/effect", "message": "x\x1b[2J"},
     "'failure' message must not hold control characters"),
    ({"decision": 4, "code": "engine/effect", "message": ["x"]}, "'failure' message must be"),
])
def test_a_bad_failure_field_is_a_clear_error(author: Path, tmp_path: Path, failure: object,
                                              says: str) -> None:
    save = tmp_path / "game.json"
    stopped_save(author, save)
    record = saved(save)
    record["failure"] = failure
    save.write_text(json.dumps(record), "utf-8")
    for command in (["play", "--resume", str(save)], ["replay", "--all", str(save)]):
        result = invoke(*command, lines="q\n")
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output and "[save/corrupt]" in result.stderr
        assert says in result.stderr, result.stderr
    assert saved(save)["failure"] == failure  # nothing on disk changed


def test_a_finished_save_with_a_failure_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert invoke("play", "--seats", "human,greedy", "--seed", "5", "--save", str(save),
                  lines="1\nq\n").exit_code == 0
    record = saved(save)
    record["finished"] = True
    record["failure"] = {"decision": len(record["decisions"]) + 1, "code": "engine/rules",
                         "message": "x"}
    save.write_text(json.dumps(record), "utf-8")
    result = invoke("replay", "--all", str(save))
    assert result.exit_code == 2
    assert "'failure' is set but the save says the game is finished" in result.stderr


def test_a_save_whose_record_goes_past_the_stop_does_not_replay(author: Path,
                                                                tmp_path: Path) -> None:
    """A record edited to go on past where the game stops is refused, not made into a
    failure at the wrong decision; nothing on disk changes."""
    save = tmp_path / "game.json"
    stopped_save(author, save)
    record = saved(save)
    del record["failure"]
    record["decisions"].append({"seat": 1, "kind": "place", "index": 0, "label": "x"})
    save.write_text(json.dumps(record), "utf-8")
    before = save.read_text("utf-8")
    result = invoke("play", "--resume", str(save), lines="1\n")
    assert result.exit_code == 2, result.output
    assert "decision 4 does not replay: the game stops before it (" in result.stderr \
        and AT in result.stderr and "[save/mismatch]" in result.stderr
    assert "take back" not in result.output
    assert save.read_text("utf-8") == before
