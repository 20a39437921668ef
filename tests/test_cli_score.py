"""`exlibris score`: the readable form, --json, --best-flips and errors, through click."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.cli.score import _color

TABLES = Path(__file__).parent / "tables"
SPEC = str(TABLES / "spec-example.yaml")


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, ["score", *args], env=env)


def test_json_on_the_spec_example() -> None:
    result = run("--json", SPEC)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    data = json.loads(result.stdout)
    jacob, jamie = data["players"]
    assert jacob == {
        "name": "Jacob", "flipped": ["A1", "B3"],
        "tally": {"corrupted-codices": 0, "fantastical-fictions": 0, "historic-volumes": 2,
                  "monster-manuals": 0, "reference-texts": 2, "spells-and-potions": 2},
        "books": 6, "stability": 4, "entombed": 0, "prominent": 15, "banned": 0,
        "variety": 0, "focus": 4, "artifacts": 0, "total": 23,
    }
    assert jamie["total"] == 15
    assert list(data) == ["variant", "players", "ranking", "winners"]
    assert list(jacob) == ["name", "flipped", "tally", "books", "stability", "entombed",
                           "prominent", "banned", "variety", "focus", "artifacts", "total"]
    assert data["ranking"] == ["Jacob", "Jamie"] and data["winners"] == ["Jacob"]


def test_readable_form_on_the_spec_example() -> None:
    result = run(SPEC)
    assert result.exit_code == 0
    out = result.stdout
    assert "\x1b[" not in out  # not a terminal: plain text
    assert re.search(r"\| Total\s+\|\s+23 \|\s+15 \|", out)
    assert re.search(r"\| A1 flipped\s+\| A1, B3 \|\s+B1 \|", out)
    assert re.search(r"\| B2 prominent works\s+\|\s+15 \|\s+9 \|", out)
    assert "Winner: Jacob" in out and "Ranking: 1. Jacob (23), 2. Jamie (15)" in out
    assert out.splitlines()[0] == "Official Library Inspection Form (standard, 2 players)"


def test_solo_form_and_json(tmp_path: Path) -> None:
    text = run(str(TABLES / "spec-solo.yaml")).stdout
    assert "Public library" in text
    # plain solo has neither the Job Faire nor the Artifactorium: no rows for them
    assert "B6 volunteers" not in text and "B7 artifacts" not in text
    expanded = tmp_path / "expanded.yaml"
    expanded.write_text((TABLES / "spec-solo.yaml").read_text().replace(
        "variant: solo", "variant: solo-expanded"))
    shown = run(str(expanded)).stdout
    assert "B6 volunteers" in shown and "B7 artifacts" in shown
    assert "Winner: the public library (18 against Scooter's 7" in text
    data = json.loads(run("--json", str(TABLES / "spec-solo.yaml")).stdout)
    assert data["win"] is False and data["public_library"]["total"] == 18
    assert list(data) == ["variant", "players", "ranking", "winners", "public_library", "win"]


def test_best_flips() -> None:
    text = run("--best-flips", str(TABLES / "spec-solo.yaml")).stdout
    assert "Scooter: flip A1, B2 -> 10 (+3)" in text
    data = json.loads(run("--json", "--best-flips", SPEC).stdout)
    assert data["players"][0]["best_flips"] == {"flip": [], "total": 23, "gain": 0}
    assert set(data["players"][1]["best_flips"]) == {"flip", "total", "gain"}


def test_color_only_on_a_terminal_without_no_color(monkeypatch) -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert _color(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not _color(Tty())
    assert not _color(object())


def bad(tmp_path: Path, text: str) -> tuple[str, str]:
    path = tmp_path / "t.yaml"
    path.write_text(text)
    result = run("--json", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    return str(path), result.stderr


@pytest.mark.parametrize(
    ("change", "where", "code"),
    [
        (("prominent: reference-texts", "prominent: reference-text"), "2:12",
         "table/unknown-category"),
        (("B2:HR", "B2HR "), "9:14", "table/malformed-token"),
        ((".      B2:HR", "*foul-towel  B2:HR"), "9:7", "table/unknown-artifact"),
        (("C4:RH", "C4:RH\n      D1:CC  D2:CC  D3:CC\n      E1:CC  E2:CC  E3:CC"), "12:7",
         "table/too-many-rows"),
        (("B1:HH  E3:SS", "B1:HH  C1:SS"), "16:17", "table/duplicate-card"),
        (("      .      B2:HR  C1:SS\n      A1:CC  B3:FM  C4:RH",
          "      B2:HR  .      C1:SS\n      .      .      C4:RH"), "9:21",
         "table/disconnected-shelf"),
    ],
)
def test_errors_through_the_cli(tmp_path: Path, change: tuple[str, str], where: str,
                                code: str) -> None:
    text = Path(SPEC).read_text().replace(*change, 1)
    path, stderr = bad(tmp_path, text)
    lines = stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{path}:{where}: ") and lines[0].endswith(f"[{code}]")


def test_several_problems_one_line_each(tmp_path: Path) -> None:
    text = Path(SPEC).read_text().replace("B2:HR", "B2:HX").replace("focus: S", "focus: Z")
    _, stderr = bad(tmp_path, text)
    assert len(stderr.splitlines()) == 2


def test_yaml_syntax_error_is_one_line(tmp_path: Path) -> None:
    _, stderr = bad(tmp_path, "prominent: [R\n")
    assert len(stderr.splitlines()) == 1 and "[yaml/syntax]" in stderr


def test_missing_file(tmp_path: Path) -> None:
    result = run(str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{tmp_path / 'nope.yaml'}:1:1: ")


def test_help() -> None:
    result = CliRunner().invoke(cli, ["score", "--help"])
    assert result.exit_code == 0 and "--best-flips" in result.output and "--json" in result.output


def test_off_a_terminal_the_form_fits_80_columns(tmp_path: Path) -> None:
    names = ["Bartholomew Quill", "Henrietta Vellum", "Cornelius Folio",
             "Philippa Marginalia", "Maximilian Spine"]
    players = "".join(f"  - name: {name}\n    focus: S\n    hand: 2\n    shelf: A{i}:CC  B{i}:FM\n"
                      for i, name in enumerate(names, 1))
    table = tmp_path / "five.yaml"
    table.write_text(f"variant: five-player\nprominent: R\nbanned: null\nplayers:\n{players}")
    for args in ([str(table)], ["--best-flips", str(table)]):
        out = run(*args).stdout
        assert max(len(line) for line in out.splitlines()) <= 80, out
        assert "A2 Reference Texts (prominent)" in out  # the steps are never broken
        assert "Maximilian Spine (" in out.replace("\n  ", " ")  # the ranking, wrapped
    assert json.loads(run("--json", str(table)).stdout)["players"][4]["name"] == names[4]


def test_score_reads_a_variants_modules_as_the_catalog_resolves_them() -> None:
    """`score` hides a module's rows by the variant's modules, read from its rules
    files alone (no catalog loaded): the same set the catalog resolves, for every
    shipped variant, and None for a variant nobody knows."""
    from exlibris.cli.play import variant_modules as resolved
    from exlibris.paths import rules_dir
    from exlibris.scoring.table import variant_modules

    ids = sorted(p.stem for p in rules_dir().glob("*.yaml"))
    assert len(ids) >= 10
    for variant in ids:
        assert variant_modules(variant) == resolved(variant), variant
    assert variant_modules("no-such-variant") is None
