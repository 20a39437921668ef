"""The JSON Schemas and `exlibris validate` agree on every value of the broken corpus:
a file the schema refuses is refused by the models, and one the schema accepts gets
past them (whatever the later checks say of it). Rules across fields that a JSON
Schema cannot state (a book card's order within its letter's count) are the
models' alone, and `validate` reports them."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from exlibris.catalog import KINDS
from exlibris.errors import UserInputError
from exlibris.schemas import schema_for
from exlibris.yamlsafe import load_yaml_file

BROKEN = Path(__file__).parent / "broken"
FILES = sorted(BROKEN.rglob("*.yaml"))


def _typed(path: Path) -> tuple[str, dict] | None:
    try:
        data = load_yaml_file(path).data
    except UserInputError:
        return None  # not YAML: neither the schema nor the models see it
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        return None
    return data["kind"], data


def test_the_corpus_has_files_of_every_kind_the_models_type() -> None:
    kinds = {found[0] for p in FILES if (found := _typed(p)) is not None}
    assert {"location", "assistant", "artifact", "variant", "module"} <= kinds


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(BROKEN)))
def test_the_schema_and_the_models_agree(path: Path) -> None:
    found = _typed(path)
    if found is None:
        pytest.skip("not a typed file")
    kind, data = found
    schema_errors = [e.message for e in Draft202012Validator(schema_for(kind)).iter_errors(data)]
    try:
        KINDS[kind].model_validate(data)
        model_errors: list[str] = []
    except ValidationError as exc:
        model_errors = [e["msg"] for e in exc.errors() if e["type"] != "value_error"]
    assert bool(schema_errors) == bool(model_errors), (schema_errors, model_errors)
