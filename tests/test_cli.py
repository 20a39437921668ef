"""The command line: help, validate, content, schema, python -m, a real install."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def test_help_lists_every_command() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for name in ("validate", "content", "schema", "score", "play"):
        assert name in result.output


def test_every_command_has_help() -> None:
    for name in ("validate", "content", "schema", "score", "play"):
        result = invoke(name, "--help")
        assert result.exit_code == 0, name
        assert len(result.output.splitlines()) > 3


def test_help_imports_no_heavy_module() -> None:
    code = ("import sys; from exlibris.cli.main import cli\n"
            "try:\n    cli(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('lark', 'pydantic', 'ruamel', 'rich', 'jsonschema') "
            "if m in sys.modules]\nprint(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_validate_shipped_content() -> None:
    result = invoke("validate")
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output


def test_validate_json(tmp_path: Path) -> None:
    bad = tmp_path / "x.yaml"
    bad.write_text("kind: location\nid: x\n")
    result = invoke("validate", "--json", str(bad))
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["ok"] is False
    assert data["problems"][0]["code"] == "schema/missing"
    assert data["problems"][0]["line"] == 1


def test_validate_a_users_new_location_against_shipped_ids(tmp_path: Path) -> None:
    good = tmp_path / "reading-room.yaml"
    good.write_text(
        "kind: location\nid: reading-room\nname: Reading Room\nnumber: 40\ntiming: instant\n"
        "spaces: [1, 3]\nsolo: true\ntext: Draw two cards for each Monster Manual in hand.\n"
        "effect: |\n  n = books(hand, @monster-manuals)\n  draw(2 * n)\n"
    )
    result = invoke("validate", str(good))
    assert result.exit_code == 0, result.output


def test_content_list_and_show() -> None:
    result = invoke("content", "list", "--kind", "location")
    assert result.exit_code == 0
    assert "wishing-well" in result.output and "#6" in result.output
    rows = json.loads(invoke("content", "list", "--json").output)
    assert {row["kind"] for row in rows} >= {"location", "library", "assistant", "artifact"}
    shown = invoke("content", "show", "wishing-well")
    assert shown.exit_code == 0 and "effect:" in shown.output
    assert json.loads(invoke("content", "show", "wishing-well", "--json").output)["number"] == 6
    missing = invoke("content", "show", "wishing-wel")
    assert missing.exit_code == 2 and "did you mean 'wishing-well'" in missing.stderr


def test_schema_check_is_clean() -> None:
    result = invoke("schema", "--check")
    assert result.exit_code == 0, result.output


def test_schema_writes_to_a_folder(tmp_path: Path) -> None:
    assert invoke("schema", "--out", str(tmp_path)).exit_code == 0
    assert (tmp_path / "location.json").exists()


def test_python_dash_m() -> None:
    result = subprocess.run([sys.executable, "-m", "exlibris", "--help"], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0 and "validate" in result.stdout


@pytest.mark.skipif(os.environ.get("EXLIBRIS_SKIP_INSTALL_TEST") == "1",
                    reason="set EXLIBRIS_SKIP_INSTALL_TEST=1 to skip the wheel install")
@pytest.mark.slow
@pytest.mark.parametrize("asked", [{}, {"EXLIBRIS_PURE_PYTHON": "1", "EXLIBRIS_COMPILE": "1"}],
                         ids=["default", "pure-python-wins-over-compile"])
def test_non_editable_install_works_from_any_directory(
        tmp_path: Path, asked: dict[str, str]) -> None:
    """A built wheel carries content, rules and schemas: validate and list work anywhere.
    By default (the README's `pip install .`) it is plain Python, not compiled
    (hatch_build.py); `EXLIBRIS_PURE_PYTHON=1` still asks for that, even with
    `EXLIBRIS_COMPILE=1` (which CI exports: the compiled one is test_compiled_engine's)."""
    target = tmp_path / "site"
    env = {k: v for k, v in os.environ.items()
           if k not in ("EXLIBRIS_COMPILE", "EXLIBRIS_PURE_PYTHON")}
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(ROOT)], check=True, capture_output=True,
                   env={**env, **asked}, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(target)}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for args in (["validate"], ["content", "list", "--kind", "artifact"]):
        result = subprocess.run([sys.executable, "-m", "exlibris", *args], capture_output=True,
                                text=True, cwd=elsewhere, env=env)
        assert result.returncode == 0, result.stderr
    assert (target / "exlibris" / "_data" / "content" / "books.yaml").exists()
    assert (target / "exlibris" / "_data" / "schemas" / "location.json").exists()
    assert not [p for p in (target / "exlibris").rglob("*") if p.suffix in (".so", ".pyd")]
