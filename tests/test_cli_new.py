"""`exlibris new KIND ID`: skeletons that validate, pass their schema, and name their
schema folder relative to where they are written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from exlibris.authoring import KINDS
from exlibris.cli.main import cli
from exlibris.schemas import schema_for
from exlibris.sources import use_content
from exlibris.yamlsafe import load_yaml_file


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    monkeypatch.chdir(tmp_path)
    use_content(())
    yield
    use_content(())


def new(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["new", *args])


def test_every_skeleton_validates_and_passes_its_scenario(tmp_path: Path) -> None:
    for kind in KINDS:
        result = new(kind, f"my-{kind}", "--dir", "content")
        assert result.exit_code == 0, result.output
    assert CliRunner().invoke(cli, ["schema", "--out", "schemas"]).exit_code == 0
    checked = CliRunner().invoke(cli, ["validate", "content"])
    assert checked.exit_code == 0, checked.output
    assert f"{len(KINDS)} files checked, no problems." in checked.output
    ran = CliRunner().invoke(cli, ["scenario", "run", "content"])
    assert ran.exit_code == 0 and "1 passed, 0 failed" in ran.output
    for kind in KINDS:
        path = tmp_path / "content" / f"my-{kind}.yaml"
        first = path.read_text("utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema=../schemas/{kind}.json"
        schema = json.loads((tmp_path / "schemas" / f"{kind}.json").read_text("utf-8"))
        assert schema == schema_for(kind)
        errors = list(Draft202012Validator(schema).iter_errors(load_yaml_file(path).data))
        assert errors == [], (kind, errors[:1])


def test_a_new_location_takes_a_free_number() -> None:
    assert new("location", "first-nook").exit_code == 0
    assert "number: 23 " in Path("first-nook.yaml").read_text("utf-8")
    assert new("location", "second-nook", "--content", ".").exit_code == 0
    assert "number: 24 " in Path("second-nook.yaml").read_text("utf-8")


def test_a_new_location_sees_the_folder_it_is_written_to_without_content() -> None:
    assert new("location", "first-nook").exit_code == 0
    assert new("location", "second-nook").exit_code == 0  # no --content: the folder
    assert "number: 24 " in Path("second-nook.yaml").read_text("utf-8")
    Path("tiles").mkdir()
    Path("tiles/third-nook.yaml").write_text(
        Path("first-nook.yaml").read_text("utf-8").replace("first-nook", "third-nook")
        .replace("number: 23", "number: 40"), "utf-8")
    assert new("location", "fourth-nook", "--dir", "tiles").exit_code == 0
    assert "number: 23 " in Path("tiles/fourth-nook.yaml").read_text("utf-8")


@pytest.mark.parametrize(("args", "words"), [
    (("location", "Reading Nook"), "is not an id"),
    (("location", "wishing-well"), "already the id of a location"),
    (("artifact", "standard"), "already the id of a variant"),
])
def test_mistakes_are_refused(args: tuple[str, str], words: str) -> None:
    result = new(*args)
    assert result.exit_code == 2 and words in result.stderr
    assert os.listdir(".") == []


def test_an_existing_file_is_never_overwritten() -> None:
    Path("mine.yaml").write_text("keep me\n", "utf-8")
    result = new("variant", "mine")
    assert result.exit_code == 2 and "exists" in result.stderr
    assert Path("mine.yaml").read_text("utf-8") == "keep me\n"
