"""The end of a game: the winner line names the tiebreak, the form fits 80 columns."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import Session
from exlibris.scoring.inspection import rank
from exlibris.scoring.report import outcome_lines

ZERO = {"entombed": 0, "prominent": 0, "banned": 0, "variety": 0,
        "focus": 0, "artifacts": 0, "volunteers": 0}


def finished(seats: list[str], seed: int = 4):  # type: ignore[no-untyped-def]
    record = SaveRecord(seed=seed, seats=seats, names=[f"P{i + 1}" for i in range(len(seats))])
    session = Session(record.stamp(), load_catalog(), log_events=False)
    return session.run().inspection


def tied(inspection, **per_form):  # type: ignore[no-untyped-def]
    forms = tuple(replace(f, **ZERO, stability=59, **{k: v[i] for k, v in per_form.items()})
                  for i, f in enumerate(inspection.forms))
    ranking, winners = rank(forms, inspection.rules)
    return replace(inspection, forms=forms, ranking=ranking, winners=winners)


def test_a_tie_on_the_total_names_the_tiebreak_that_settled_it() -> None:
    base = finished(["greedy", "greedy"])
    names = [f.name for f in base.forms]
    books = [f.books for f in base.forms]
    if books[0] == books[1]:
        line = outcome_lines(tied(base, banned_books=[4, 2], hand=[0, 0]))[0]
        assert line == (f"Winner: {names[1]} — tied on 59 with {names[0]}; wins on fewer "
                        "banned books (2 to 4)")
    else:
        line = outcome_lines(tied(base))[0]
        more = 0 if books[0] > books[1] else 1
        assert line == (f"Winner: {names[more]} — tied on 59 with {names[1 - more]}; wins on "
                        f"more books on face-up shelf cards ({books[more]} to "
                        f"{books[1 - more]})")


def test_no_tie_no_tiebreak_words() -> None:
    line = outcome_lines(finished(["greedy", "random"]))[0]
    assert line.startswith("Winner: ") and "tied" not in line


def test_the_end_form_fits_80_columns(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["play", "--seats", "greedy,random,greedy,random",
                                      "--seed", "3"])
    assert result.exit_code == 0
    form = result.output[result.output.index("Official Library"):]
    assert max(len(line) for line in form.splitlines()) <= 80
