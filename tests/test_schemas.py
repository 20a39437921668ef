"""JSON Schemas: generated from the models, checked in, current, and usable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from exlibris.catalog import read_catalog
from exlibris.paths import content_dir, rules_dir
from exlibris.schemas import BASE_ID, DIALECT, SCHEMA_KINDS, rendered, schema_for

ROOT = Path(__file__).resolve().parent.parent


def test_checked_in_schemas_are_current() -> None:
    """Fails when a model changed and `exlibris schema` was not run."""
    for name, text in rendered().items():
        on_disk = (ROOT / "schemas" / name)
        assert on_disk.exists(), f"schemas/{name} is missing: run `exlibris schema`"
        assert on_disk.read_text("utf-8") == text, f"schemas/{name} is stale: run `exlibris schema`"


@pytest.mark.parametrize("kind", sorted(SCHEMA_KINDS))
def test_each_schema_is_valid_2020_12_with_a_stable_id(kind: str) -> None:
    schema = schema_for(kind)
    assert schema["$schema"] == DIALECT
    assert schema["$id"] == f"{BASE_ID}{kind}.json"
    assert "invalid" not in schema["$id"]
    Draft202012Validator.check_schema(schema)


def test_every_shipped_file_validates_against_its_schema_and_has_a_modeline() -> None:
    catalog, problems = read_catalog([content_dir(), rules_dir()])
    assert problems == []
    assert catalog.entries
    for entry in catalog.entries:
        first = entry.loaded.text.splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), entry.path
        target = (entry.path.parent / first.split("=", 1)[1]).resolve()
        assert target.name == f"{entry.model.kind}.json", entry.path
        assert target.exists(), entry.path
        schema = json.loads(target.read_text("utf-8"))
        errors = list(Draft202012Validator(schema).iter_errors(entry.loaded.data))
        assert errors == [], (entry.path, errors[:1])


def test_the_schema_catches_what_the_model_catches() -> None:
    validator = Draft202012Validator(schema_for("location"))
    bad = {"kind": "location", "id": "x", "name": "X", "number": 3, "timing": "soon",
           "spaces": [1], "solo": True, "text": "t", "effect": "draw(1)", "extra": 1}
    messages = " ".join(e.message for e in validator.iter_errors(bad))
    assert "soon" in messages and "extra" in messages


def test_every_shipped_scenario_validates_against_the_scenario_schema() -> None:
    from exlibris.scenario import scenario_files
    from exlibris.yamlsafe import load_yaml_file

    validator = Draft202012Validator(schema_for("scenario"))
    files = scenario_files([ROOT / "scenarios"])
    assert files
    for file in files:
        errors = list(validator.iter_errors(load_yaml_file(file).data))
        assert errors == [], (file, errors[:1])


def test_the_scenario_schema_has_the_loaders_fields() -> None:
    from exlibris.scenario import loader
    from exlibris.scenario.schema import Expect, PlayerSetup, ScenarioFile, Setup

    assert set(ScenarioFile.model_fields) == set(loader.TOP_FIELDS)
    assert set(Setup.model_fields) == set(loader.SETUP_FIELDS)
    assert set(PlayerSetup.model_fields) == set(loader.PLAYER_FIELDS)
    assert set(Expect.model_fields) == set(loader.EXPECT_FIELDS)
    from exlibris.scenario.schema import Inspection, PlayerForm

    assert set(Inspection.model_fields) == set(loader.INSPECTION_FIELDS)
    assert set(PlayerForm.model_fields) == set(loader.FORM_FIELDS)


def test_the_variant_schema_types_every_setting() -> None:
    validator = Draft202012Validator(schema_for("variant"))
    bad = {"kind": "variant", "id": "x", "name": "X", "text": "t", "extends": "standard",
           "settings": {"scoring": {"awards": 18}, "rulings": {"deck_runs_out": "reshufle"}}}
    messages = " ".join(e.message for e in validator.iter_errors(bad))
    assert "18" in messages and "reshufle" in messages


def test_schema_out_writes_every_schema(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    result = CliRunner().invoke(cli, ["schema", "--out", str(tmp_path / "schemas")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "schemas").iterdir()) == sorted(rendered())
