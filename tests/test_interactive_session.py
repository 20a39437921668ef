"""Saved games as records of decisions: resuming anywhere, undo, checks, speed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.table_out import table_text
from exlibris.interactive import record as saves
from exlibris.interactive.human import parse_answer
from exlibris.interactive.record import Entry, Failure, SaveError, SaveRecord
from exlibris.interactive.session import Session, UndoRequest


class Scripted:
    """A stand-in for the person: answers from a list, then always the first option."""

    needs_view = False

    def __init__(self, answers: list[int] | None = None) -> None:
        self.answers = list(answers or [])

    def decide(self, view: Any, decision: Decision) -> int:
        return self.answers.pop(0) if self.answers else 0


def new_record(seats: list[str], seed: int) -> SaveRecord:
    names = [f"{kind} {i + 1}" for i, kind in enumerate(seats)]
    return SaveRecord(seed=seed, seats=seats, names=names).stamp()


def play_through(record: SaveRecord, human: Any = None, path: Path | None = None
                 ) -> tuple[Session, str]:
    humans = {seat: human or Scripted() for seat, kind in enumerate(record.seats)
              if kind == "human"}
    session = Session(record, load_catalog(), humans=humans, save_path=path)
    session.run()
    return session, table_text(session.game)


def test_resuming_at_any_decision_ends_as_the_game_played_straight_through() -> None:
    straight, table = play_through(new_record(["human", "greedy", "random"], 3))
    decisions = straight.record.decisions
    # every tenth decision, the last one, and right after each bot's "flips" (the greedy
    # bot plans its flips there and carries the plan into its next decisions)
    points = set(range(0, len(decisions), 10)) | {len(decisions) - 1}
    points |= {i + 1 for i, e in enumerate(decisions) if e.kind == "flips"}
    assert any(decisions[k - 1].seat != 0 for k in points if k)  # some stop at a bot's answer
    for k in sorted(points):
        partial = SaveRecord(**{**vars(straight.record), "decisions": decisions[:k],
                                "finished": False})
        resumed, again = play_through(partial)
        assert again == table, f"resumed after decision {k}"
        assert resumed.record.decisions == decisions


def test_undo_plays_again_without_the_humans_last_decision() -> None:
    class UndoOnce(Scripted):
        def __init__(self) -> None:
            super().__init__()
            self.session: Session | None = None
            self.count = 0

        def decide(self, view: Any, decision: Decision) -> int:
            self.count += 1
            if self.count == 4:  # before the 4th answer: take back the 3rd
                assert self.session is not None
                self.session.undo(0)
            return 1 if self.count == 5 else 0

    human = UndoOnce()
    record = new_record(["human", "greedy"], 8)
    session = Session(record, load_catalog(), humans={0: human})
    human.session = session
    session.run()
    direct, table = play_through(new_record(["human", "greedy"], 8), Scripted([0, 0, 1]))
    assert table_text(session.game) == table
    assert session.record.decisions == direct.record.decisions


def test_undo_with_nothing_to_undo_is_refused() -> None:
    session = Session(new_record(["human", "greedy"], 1), load_catalog())
    assert session.undo(0) is False
    session.record.decisions.append(Entry(0, "library", 0, "x"))
    with pytest.raises(UndoRequest):
        session.undo(0)


def test_a_record_that_does_not_replay_is_a_mismatch(tmp_path: Path) -> None:
    session, _ = play_through(new_record(["human", "greedy"], 4))
    bad = session.record
    entry = bad.decisions[5]
    bad.decisions[5] = Entry(entry.seat, entry.kind, entry.index, "something else")
    bad.finished = False
    path = tmp_path / "save.json"
    with pytest.raises(SaveError) as caught:
        play_through(bad, path=path)
    assert caught.value.code == "save/mismatch" and "decision 6" in str(caught.value)
    assert not path.exists()  # nothing written before the record replayed


def test_the_record_round_trips_through_json(tmp_path: Path) -> None:
    session, _ = play_through(new_record(["human", "random"], 2), path=tmp_path / "s.json")
    loaded = saves.load(tmp_path / "s.json")
    assert loaded == session.record and loaded.finished
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary file left


@pytest.mark.parametrize("change, code", [
    (lambda d: d.update(version=99), "save/corrupt"),
    (lambda d: d.update(format="other"), "save/corrupt"),
    (lambda d: d["decisions"].append({"seat": 7, "kind": "x", "index": 0, "label": ""}),
     "save/corrupt"),
    (lambda d: d["decisions"].append({"seat": 0, "kind": "guess", "index": 0, "label": ""}),
     "save/corrupt"),  # not a DecisionKind
    (lambda d: d.pop("seed"), "save/corrupt"),
    (lambda d: d.update(seats=["human", "alien"]), "save/corrupt"),
    (lambda d: d.update(content="0" * 64), "save/mismatch"),
    (lambda d: d.update(exlibris="0.0.1"), "save/mismatch"),
])
def test_bad_records_are_refused(tmp_path: Path, change: Any, code: str) -> None:
    data = new_record(["human", "greedy"], 1).to_json()
    change(data)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError) as caught:
        saves.load(path)
    assert caught.value.code == code


entries = st.builds(Entry, st.integers(0, 4), st.sampled_from(list(DecisionKind)),
                    st.integers(0, 300), st.text(max_size=12))


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.one_of(entries, st.integers(0, 40), st.just("failure")),
                      max_size=30),
       names=st.lists(st.text(max_size=8), min_size=1, max_size=3))
def test_a_save_s_text_is_its_json_whatever_came_before(steps: list[Any],
                                                        names: list[str]) -> None:
    """A game's save text (``SaveText``) is ``json.dumps`` of its record at every save,
    its decisions' texts kept from the save before: decisions added, taken back (a
    number: the record cut to that length, then one added again), a failure set."""
    record = SaveRecord(seed=3, seats=["human"] * len(names), names=names)
    text = saves.SaveText()
    for step in steps:
        if isinstance(step, Entry):
            record.decisions.append(step)
        elif step == "failure":
            record.failure = Failure(len(record.decisions), "engine/x", "stopped \u00e9")
        else:
            del record.decisions[step:]
            record.decisions.append(Entry(0, DecisionKind.PLACE, step, "again"))
        assert text.of(record) == json.dumps(record.to_json(), indent=1)
    record.decisions = []
    assert text.of(record) == json.dumps(record.to_json(), indent=1)


def test_bots_answer_quickly() -> None:
    session, _ = play_through(new_record(["human", "greedy", "greedy", "greedy"], 6))
    assert session.bot_seconds < 1.0  # measured: well under 0.1 s


def test_answers_are_numbers_labels_or_commands() -> None:
    labels = ["place it at the Wishing Well", "place it at home", "done"]
    assert parse_answer("2", labels).index == 1
    assert parse_answer("  DONE ", labels).index == 2
    assert parse_answer("place it at h", labels).index == 1
    assert parse_answer("place", labels).problem is not None  # ambiguous
    assert parse_answer("4", labels).problem is not None
    assert parse_answer("xyzzy", labels).problem is not None
    assert [parse_answer(c, labels).command for c in "?usq"] == ["help", "undo", "save", "quit"]


def test_the_default_autosave_place(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert saves.default_path() == tmp_path / "exlibris" / "autosave.json"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert saves.default_path() == tmp_path / ".local" / "state" / "exlibris" / "autosave.json"
