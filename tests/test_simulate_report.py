"""The report's contents: per-unit rates, the game-design measures, paired
comparisons, and the run's provenance on the page (and, where a headless Chromium
is installed, a screenshot of it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.simulate import figures as fig
from exlibris.simulate import rows
from exlibris.simulate.plan import Cell
from exlibris.simulate.runner import RunConfig, simulate


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("report")
    page = folder / "r.html"
    result = CliRunner().invoke(cli, [
        "simulate", "--games", "6", "--players", "3", "--seats", "greedy,random",
        "--variant", "artifactorium", "--variant", "standard", "--variant", "job-faire",
        "--workers", "1", "--out", str(folder / "r.jsonl"), "--events",
        str(folder / "e.jsonl"), "--report", str(page), "--json"])
    assert result.exit_code == 0, result.output
    return page, json.loads(result.stdout)


def test_the_report_has_a_table_for_every_kind_of_unit(report) -> None:  # type: ignore[no-untyped-def]
    page, data = report
    text = page.read_text()
    for label in ("location visited", "special assistant held", "artifact held",
                  "library", "special assistants held", "seat position (1 plays first)",
                  "agent"):
        assert f"<th>{label}</th>" in text, label
    artifactorium = next(c for c in data["cells"] if c["variant"] == "artifactorium")
    assert artifactorium["win_rate"]["artifact"]
    for entry in artifactorium["win_rate"]["location"]:
        assert {"without", "p_holm", "share_of_seats"} <= set(entry)
    assert "with minus without [95%]" in text and "p (Holm)" in text


def test_the_report_gives_the_measures_and_the_run(report) -> None:  # type: ignore[no-untyped-def]
    page, data = report
    text = page.read_text()
    measures = data["cells"][0]["measures"]
    assert 0 <= measures["balance"] <= 1 and 0 <= measures["seat_p"] <= 1
    assert measures["seat_df"] == 2
    for phrase in ("balance ", "chi-squared", "degrees of freedom", "completion",
                   "decisiveness", "decisions a turn", "options a decision",
                   "skill ladder of the bots that played", "seed 1", "bots greedy,random",
                   "exlibris 0.", "command: <code>exlibris simulate"):
        assert phrase in text, phrase
    assert data["comparisons"][0]["first"] == "standard"  # not the first on the command line


def test_the_report_pairs_the_comparisons_and_says_how_often_the_winner_changed(
        report) -> None:  # type: ignore[no-untyped-def]
    page, data = report
    text = page.read_text()
    for comparison in data["comparisons"]:
        assert comparison["paired_games"] == 6 and comparison["same_first_player"] == 1.0
        assert 0 <= comparison["winner_changed"] <= 1
    assert "the winner changed on" in text and "95% interval, paired" in text
    assert "unpaired, for reference" in text


def test_events_rows_say_what_happened_inside_the_games(report) -> None:  # type: ignore[no-untyped-def]
    page, _ = report
    events = [json.loads(line) for line in (page.parent / "e.jsonl").read_text().splitlines()]
    kinds = {e["event"] for e in events}
    assert {"place", "activate"} <= kinds and "hire" in kinds  # job-faire games hire
    table = rows.read(page.parent / "r.jsonl")
    visits = sum(r["visits"] for r in table)
    assert visits == sum(1 for e in events if e["event"] == "place" and e["what"] != "home")
    assert sum(r["hires"] for r in table) == sum(1 for e in events if e["event"] == "hire")


def test_a_significant_change_is_not_drawn_in_the_fair_share_colours() -> None:
    from exlibris.simulate.report import _comparison_html

    comparison = {"variant": "w", "first": "v", "players": 2, "paired_games": 10,
                  "winner_changed": 0.1, "same_first_player": 1.0, "measures": [
                      {"measure": "mean total", "kind": "mean", "first": 10.0, "value": 8.0,
                       "difference": -2.0, "low": -3.0, "high": -1.0, "paired": True,
                       "unpaired_low": -4.0, "unpaired_high": 0.5, "significant": True}]}
    html = _comparison_html(comparison)
    assert 'class="down"' in html and 'class="above"' not in html
    assert 'class="below"' not in html


def test_library_and_assistant_one_thing_is_noted() -> None:
    table = simulate(RunConfig([Cell("standard", 2)], 3, 2, ["random"])).rows
    cell = fig.figures(table)["cells"][0]
    assert cell["library_is_assistant"] is True
    jobs = simulate(RunConfig([Cell("job-faire", 2)], 3, 2, ["greedy"])).rows
    assert fig.figures(jobs)["cells"][0]["library_is_assistant"] is False


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="no headless Chromium")
def test_a_headless_browser_draws_the_report(report) -> None:  # type: ignore[no-untyped-def]
    page, _ = report
    shot = page.with_suffix(".png")
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--window-size=1200,3000", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, timeout=120, check=False)
    from PIL import Image

    with Image.open(shot) as image:
        assert image.size == (1200, 3000)
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50  # text and plots, not a blank page


def test_rows_carry_the_score_by_round_and_its_lead_changes() -> None:
    table = simulate(RunConfig([Cell("standard", 3)], 3, 5, ["greedy", "random"])).rows
    for row in table:
        assert row["score_by_round"][-1] == row["total"]
    for start in range(0, len(table), 3):
        game = table[start:start + 3]
        by_round = list(zip(*(r["score_by_round"] for r in game), strict=True))
        assert game[0]["lead_changes"] == rows.lead_changes(by_round)
        for seat, row in enumerate(game):
            assert row["behind"] == max(max(t) - t[seat] for t in by_round)
    measures = fig.figures(table)["cells"][0]["measures"]
    assert measures["lead_changes"]["n"] == 3 and 0 <= measures["won_from_behind"] <= 1
    assert rows.lead_changes([[1, 0], [0, 1], [1, 1], [2, 1]]) == 2


def test_simulate_report_reads_rows_of_an_older_run(tmp_path: Path) -> None:
    table = simulate(RunConfig([Cell("standard", 2)], 2, 1, ["random"])).rows
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({**{c: r[c] for c in rows.CORE},
                                       "specials": ";".join(r["specials"])}) + "\n"
                           for r in table))
    result = CliRunner().invoke(cli, ["simulate", "report", str(old), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["cells"][0]["games"] == 2


@pytest.mark.parametrize("name", ["fewer-rows-than-seats.jsonl", "more-wins-than-seats.jsonl"])
def test_a_report_on_rows_that_disagree_is_figures_or_one_error(name: str) -> None:
    """Rows the long fuzz run made (tests/broken_rows): a game with fewer rows than
    seats, and rows whose wins outnumber the seats they are counted over, once ended
    the report in IndexError and 'math domain error'."""
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    path = Path(__file__).resolve().parent / "broken_rows" / name
    result = CliRunner().invoke(cli, ["simulate", "report", str(path), "--json"])
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
