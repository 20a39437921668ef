"""The shipped files parsed ahead of time (``exlibris/prebuilt.py``): the committed
file is what the parsers make now, a first ``validate`` with no cache parses no
shipped file and no shipped effect and validates no shipped model (the package
vouches for them), and anything else is parsed and validated as before."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from exlibris import prebuilt, prebuilt_write
from exlibris.catalog import read_catalog
from exlibris.dsl import ast_json, lark_parser, tree_cache
from exlibris.model.construct import is_trusted
from exlibris.paths import content_dir, rules_dir
from exlibris.sources import yaml_files
from exlibris.validation import validate
from exlibris.yamlsafe import load_yaml_file, load_yaml_text

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_file_is_what_the_parsers_make_now() -> None:
    built = prebuilt_write.build()
    committed = json.loads(prebuilt.FILE.read_text(encoding="utf-8"))
    if isinstance(built["typed"], dict) and isinstance(committed.get("typed"), dict):
        # written beside another pydantic: the versions are the writer's (this install
        # then validates every file, test_another_pydantic_validates_every_file)
        built["typed"] = {**built["typed"], "pydantic": committed["typed"].get("pydantic"),
                          "pydantic-core": committed["typed"].get("pydantic-core")}
    assert prebuilt.FILE.read_text(encoding="utf-8") == prebuilt_write.text_of(built), \
        "exlibris/prebuilt.json is stale: run python -m exlibris.prebuilt_write"


_BUILT_MODELS = (
    "def every(cls):\n"
    "    for sub in cls.__subclasses__():\n"
    "        yield sub\n"
    "        yield from every(sub)\n"
    "from pydantic import BaseModel\n"
    "built = sorted(c.__name__ for c in every(BaseModel)\n"
    "               if c.__module__.startswith('exlibris') and c.__pydantic_complete__)\n")


def test_a_first_validate_with_no_cache_validates_no_shipped_model(tmp_path: Path) -> None:
    """The package vouches that every shipped file reads into its model: a first
    ``validate`` builds no pydantic validator (nor looks for pydantic's plugins), and
    says what a validating one says."""
    if prebuilt.typed_key() != json.loads(prebuilt.FILE.read_bytes()).get("typed"):
        pytest.skip("prebuilt.json was written beside another pydantic: every file is "
                    "validated here (test_another_pydantic_validates_every_file)")
    env = {**os.environ, "EXLIBRIS_NO_CACHE": "1", "XDG_CACHE_HOME": str(tmp_path),
           "PYTHONPATH": str(ROOT)}
    env.pop("EXLIBRIS_NO_PREBUILT", None)
    script = ("import sys\nfrom click.testing import CliRunner\n"
              "from exlibris.cli.main import cli\n"
              "result = CliRunner().invoke(cli, ['validate'])\n"
              + _BUILT_MODELS +
              "print(repr(result.output), built, 'importlib.metadata' in sys.modules)\n")

    def run(**more: str) -> str:
        return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env={**env, **more},
                              capture_output=True, text=True, check=True,
                              timeout=300).stdout.strip()

    validating = run(EXLIBRIS_NO_PREBUILT="1")
    said = validating.split(" [")[0]
    assert "no problems" in said and "'Location'" in validating
    assert run() == f"{said} [] False"


def test_another_pydantic_validates_every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXLIBRIS_NO_CACHE", "1")
    monkeypatch.delenv("EXLIBRIS_NO_PREBUILT", raising=False)
    prebuilt._stored.cache_clear()
    try:
        catalog, problems = read_catalog([content_dir(), rules_dir()])
        assert not problems and catalog.entries
        if prebuilt.typed():
            assert all(is_trusted(e.model) for e in catalog.entries)
        other = {**prebuilt.typed_key(), "pydantic": "2.0.0"}
        monkeypatch.setattr(prebuilt, "typed_key", lambda: other)
        assert not prebuilt.typed()
        catalog, problems = read_catalog([content_dir(), rules_dir()])
        assert not problems
        assert not any(is_trusted(e.model) for e in catalog.entries)
    finally:
        monkeypatch.undo()
        prebuilt._stored.cache_clear()


def test_the_stamp_is_given_only_to_records_that_validate() -> None:
    records = [prebuilt.record(hashlib.sha256(path.read_bytes()).hexdigest())
               for path in yaml_files([content_dir(), rules_dir()])]
    assert all(records)
    assert prebuilt_write.typed_stamp(records)
    wrong = {"data": {**records[0]["data"], "an_unknown_field": 1}}
    assert not prebuilt_write.typed_stamp([*records, wrong])
    variants = [r for r in records if r["data"]["kind"] == "variant"]
    orphan = {"data": {**variants[0]["data"], "id": "orphan", "extends": "nowhere"}}
    assert not prebuilt_write.typed_stamp([*records, orphan])


def test_every_shipped_file_and_text_is_in_it() -> None:
    files = yaml_files([content_dir(), rules_dir()])
    for path in files:
        raw = path.read_bytes()
        made = prebuilt.record(hashlib.sha256(raw).hexdigest())
        assert made == load_yaml_text(raw.decode("utf-8"), str(path)).record(), path
        for start, text in tree_cache.texts(made["data"]):
            stored = prebuilt.tree_text(start, text)
            assert stored is not None, (path, text)
            assert ast_json.decode(json.loads(stored)) == lark_parser.parse(text, start)


def test_a_first_validate_with_no_cache_parses_nothing_shipped(tmp_path: Path) -> None:
    env = {**os.environ, "EXLIBRIS_NO_CACHE": "1", "XDG_CACHE_HOME": str(tmp_path),
           "PYTHONPATH": str(ROOT)}
    script = ("import sys\nfrom click.testing import CliRunner\n"
              "from exlibris.cli.main import cli\n"
              "result = CliRunner().invoke(cli, ['validate'])\n"
              "print(result.exit_code, 'lark' in sys.modules, 'ruamel.yaml' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True, timeout=300)
    assert done.stdout.split() == ["0", "False", "False"]


def test_an_edited_file_is_parsed_and_its_mistake_told(tmp_path: Path) -> None:
    source = content_dir() / "locations" / "book-collector.yaml"
    text = source.read_text(encoding="utf-8")
    assert "shelve(" in text
    edited = tmp_path / "book-collector.yaml"
    edited.write_text(text.replace("shelve(", "shelvee("), encoding="utf-8")
    report = validate([edited])
    assert not report.ok
    assert any("shelvee" in p.message for p in report.problems)
    same = tmp_path / "same.yaml"
    same.write_text(text, encoding="utf-8")  # the same bytes: the same record as parsing
    assert load_yaml_file(same).record() == load_yaml_text(text, str(same)).record()


def test_a_file_made_by_other_code_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (content_dir() / "locations" / "book-collector.yaml").read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    assert prebuilt.record(sha) is not None
    monkeypatch.setattr(prebuilt, "code_key", lambda: "another version of the parsers")
    prebuilt._stored.cache_clear()
    try:
        assert prebuilt.record(sha) is None
        assert prebuilt.tree_text("program", "draw(1)") is None
    finally:
        monkeypatch.undo()
        prebuilt._stored.cache_clear()
