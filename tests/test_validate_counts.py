"""`exlibris validate` counts in words: one file, one problem."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from exlibris.cli.main import cli

BROKEN = Path(__file__).parent / "broken"


def test_one_file_and_one_problem_are_singular() -> None:
    result = CliRunner().invoke(cli, ["validate", str(BROKEN / "dsl-unknown-category-code.yaml")])
    assert result.exit_code == 2
    assert "1 file checked, 1 problem." in result.stderr


def test_a_clean_single_file_says_one_file(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text("kind: variant\nid: v\nname: V\nextends: standard\n"
                                     "text: A test.\n", "utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "v.yaml")])
    assert result.exit_code == 0, result.output
    assert "1 file checked, no problems." in result.output
