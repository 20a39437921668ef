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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def _first_command_env(cache: Path) -> dict[str, str]:
    """A subprocess's environment as after an install: no per-user cache (``cache``
    its empty home), the package's prebuilt records on, this checkout imported."""
    env = {**os.environ, "EXLIBRIS_NO_CACHE": "1", "XDG_CACHE_HOME": str(cache),
           "PYTHONPATH": str(ROOT)}
    env.pop("EXLIBRIS_NO_PREBUILT", None)
    return env


def test_a_first_validate_with_no_cache_validates_no_shipped_model(tmp_path: Path) -> None:
    """The package vouches that every shipped file reads into its model: a first
    ``validate`` builds no pydantic validator (nor looks for pydantic's plugins), and
    says what a validating one says."""
    if prebuilt.typed_key() != json.loads(prebuilt.FILE.read_bytes()).get("typed"):
        pytest.skip("prebuilt.json was written beside another pydantic: every file is "
                    "validated here (test_another_pydantic_validates_every_file)")
    env = _first_command_env(tmp_path)
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


def _vouched() -> int:
    """The file count ``checked`` holds (skips the test where ``typed`` cannot hold)."""
    stamp = json.loads(prebuilt.FILE.read_bytes()).get("checked")
    if not prebuilt.typed() or not isinstance(stamp, dict):
        pytest.skip("prebuilt.json was written beside another pydantic")
    return int(stamp["files"])


def test_a_first_validate_reads_no_model_and_checks_no_effect(tmp_path: Path) -> None:
    """The package vouches that the shipped files are clean (``checked``): a first
    ``validate`` with no cache imports neither the checker nor the models (nor
    pydantic), and says what a checking one says."""
    files = _vouched()
    env = _first_command_env(tmp_path)
    script = ("import json, sys\nfrom click.testing import CliRunner\n"
              "from exlibris.cli.main import cli\n"
              "result = CliRunner().invoke(cli, sys.argv[1:])\n"
              "print(json.dumps([result.output, result.exit_code, sorted(m for m in (\n"
              "    'exlibris.validation', 'exlibris.dsl.checker', 'exlibris.catalog',\n"
              "    'exlibris.dsl.ast', 'pydantic') if m in sys.modules)]))\n")

    def run(*args: str, **more: str) -> list[Any]:
        done = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT,
                              env={**env, **more}, capture_output=True, text=True,
                              check=True, timeout=300)
        return list(json.loads(done.stdout.strip().splitlines()[-1]))

    said, status, imported = run("validate", EXLIBRIS_NO_PREBUILT="1")
    assert (said, status) == (f"{files} files checked, no problems.\n", 0)
    assert "exlibris.dsl.checker" in imported
    assert run("validate") == [said, 0, []]
    as_json = run("validate", "--json", EXLIBRIS_NO_PREBUILT="1")
    assert run("validate", "--json") == [as_json[0], 0, []]


def _copy_shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped content and rules folders, used as the shipped ones; its
    content folder."""
    import shutil

    from exlibris import paths

    shutil.copytree(content_dir(), tmp_path / "content")
    shutil.copytree(rules_dir(), tmp_path / "rules")
    paths.content_dir.cache_clear()
    monkeypatch.setattr(paths, "data_root", lambda: tmp_path)
    return tmp_path / "content"


@pytest.fixture
def forget_content_dir() -> Iterator[None]:
    from exlibris import paths

    yield
    paths.content_dir.cache_clear()


@pytest.mark.usefixtures("forget_content_dir")
def test_the_vouching_holds_for_the_shipped_set_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same files in another place are vouched for; a changed byte, one more file,
    a file reached through a link are not."""
    files = _vouched()
    content = _copy_shipped(tmp_path, monkeypatch)
    assert prebuilt.checked() == files
    location = content / "locations" / "book-collector.yaml"
    text = location.read_bytes()
    location.write_bytes(text + b"# an author's note\n")
    assert prebuilt.checked() is None
    location.write_bytes(text)
    assert prebuilt.checked() == files
    extra = content / "locations" / "zz-another.yaml"
    extra.write_bytes(text)
    assert prebuilt.checked() is None
    extra.unlink()
    location.unlink()
    location.symlink_to(tmp_path / "elsewhere.yaml")
    (tmp_path / "elsewhere.yaml").write_bytes(text)
    assert prebuilt.checked() is None


@pytest.mark.usefixtures("forget_content_dir")
def test_a_changed_set_or_checker_is_checked_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the package does not vouch for the files as they are, ``validate`` checks
    them (and finds an author's mistake in a shipped file)."""
    from exlibris import validation

    _vouched()
    monkeypatch.setenv("EXLIBRIS_NO_CACHE", "1")
    content = _copy_shipped(tmp_path, monkeypatch)
    checks = []
    real = validation.validate
    monkeypatch.setattr(validation, "validate", lambda *a: checks.append(a) or real(*a))
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    assert CliRunner().invoke(cli, ["validate"]).exit_code == 0 and not checks
    monkeypatch.setattr(prebuilt, "checker_key", lambda: "another checker")
    assert CliRunner().invoke(cli, ["validate"]).exit_code == 0 and len(checks) == 1
    monkeypatch.undo()
    monkeypatch.setenv("EXLIBRIS_NO_CACHE", "1")
    from exlibris import paths

    paths.content_dir.cache_clear()
    content = _copy_shipped(tmp_path / "again", monkeypatch)
    location = content / "locations" / "book-collector.yaml"
    location.write_text(location.read_text(encoding="utf-8").replace("shelve(", "shelvee("),
                        encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate"])
    assert result.exit_code == 2 and "shelvee" in result.output


def test_the_checker_key_names_every_module_validation_imports() -> None:
    """``checked`` is passed over when any code the check ran is changed: the key holds
    ``validation.py`` and every module of the package it may import."""
    from test_import_graph import import_graph

    graph = import_graph()
    found, todo = set(), ["exlibris.validation"]
    while todo:
        module = todo.pop()
        if module not in found:
            found.add(module)
            todo.extend(graph[module])
    package = ROOT / "exlibris"
    named = set()
    for module in found:
        path = ROOT / Path(*module.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        named.add(path.relative_to(package).as_posix())
    assert named <= set(prebuilt.CHECKER), sorted(named - set(prebuilt.CHECKER))
