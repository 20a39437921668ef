"""Models built from trusted data (``model/construct.py``) are the models validation
builds, and they are built only for the shipped set as a former command found it
(``shipped_cache.typed``) or as the package vouches for it (``prebuilt.typed``): a
changed file, or an author's own variant, is validated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from exlibris import prebuilt, shipped_cache
from exlibris.catalog import KINDS, read_catalog, shipped_catalog
from exlibris.model.construct import construct, is_trusted
from exlibris.model.rules import Settings, Variant
from exlibris.model.variants import resolve_settings
from exlibris.paths import content_dir, rules_dir
from exlibris.yamlsafe import load_yaml_file

ROOT = Path(__file__).resolve().parent.parent


def _shape(value: Any) -> Any:
    """Everything a model holds: its type, its fields and which were set, its extras."""
    if isinstance(value, BaseModel):
        return (type(value).__name__, sorted(value.model_fields_set),
                [(k, _shape(v)) for k, v in value.__dict__.items()],
                _shape(value.__pydantic_extra__))
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_shape(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(_shape(k), _shape(v)) for k, v in value.items()])
    return (type(value).__name__, value)


def _shipped_files() -> list[Path]:
    return sorted(p for folder in (content_dir(), rules_dir()) for p in folder.rglob("*.yaml"))


@pytest.mark.parametrize("path", _shipped_files(), ids=lambda p: p.stem)
def test_a_shipped_file_constructs_as_it_validates(path: Path) -> None:
    data = load_yaml_file(path).data
    model = KINDS[data["kind"]]
    validated = model.model_validate(data)
    built = construct(model, data)
    assert _shape(built) == _shape(validated)
    assert built == validated
    assert repr(built) == repr(validated)  # the abilities' cache key
    assert is_trusted(built) and not is_trusted(validated)


def test_every_shipped_variant_overlays_and_resolves_as_validated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    catalog, problems = read_catalog([rules_dir()])
    assert not problems
    variants = catalog.variants
    trusted = {i: construct(Variant, load_yaml_file(
        next(e.path for e in catalog.entries if e.id == i)).data) for i in variants}
    validated = {}
    for variant_id, variant in variants.items():
        dumped = variant.settings.model_dump(exclude_unset=True)
        assert json.dumps(variant.overlay) == json.dumps(dumped)  # order too
        validated[variant_id] = resolve_settings(variant_id, variants)
    monkeypatch.setattr(Settings, "model_validate", classmethod(
        lambda cls, data: pytest.fail("a trusted chain is validated")))
    for variant_id, was in validated.items():
        built = resolve_settings(variant_id, trusted)
        assert _shape(built) == _shape(was)
        assert json.dumps(built.model_dump()) == json.dumps(was.model_dump())


def test_a_chain_with_an_untrusted_variant_is_validated() -> None:
    catalog, _ = read_catalog([rules_dir()])
    trusted = {i: construct(Variant, v.model_dump(exclude_unset=True))
               for i, v in catalog.variants.items()}
    # an author's variant on trusted ones: the solo settings it half gives are found
    # wanting once merged (standard has none)
    mine = Variant.model_validate({"kind": "variant", "id": "mine", "name": "Mine",
                                   "extends": "standard", "text": "x",
                                   "settings": {"solo": {"difficulty": 3}}})
    with pytest.raises(ValidationError):
        resolve_settings("mine", {**trusted, "mine": mine})


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A per-user cache of its own, and no file the package vouches for (what the
    cache's own word on the shipped set is worth is the question)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("EXLIBRIS_NO_PREBUILT", "1")
    monkeypatch.delenv("EXLIBRIS_NO_CACHE", raising=False)
    shipped_cache._shipped.cache_clear()
    shipped_catalog.cache_clear()
    prebuilt._stored.cache_clear()
    yield tmp_path / "cache" / "exlibris"
    shipped_cache._shipped.cache_clear()
    shipped_catalog.cache_clear()
    prebuilt._stored.cache_clear()


def test_the_shipped_catalog_is_trusted_once_a_command_has_checked_it(
        cache_home: Path) -> None:
    first = shipped_catalog()
    assert not any(is_trusted(e.model) for e in first.entries)
    assert shipped_cache.typed()
    shipped_cache._shipped.cache_clear()  # a new process
    shipped_catalog.cache_clear()
    second = shipped_catalog()
    assert all(is_trusted(e.model) for e in second.entries)
    assert [_shape(e.model) for e in second.entries] == [_shape(e.model) for e in first.entries]


@pytest.mark.parametrize("typed", [True, "/elsewhere/pydantic/__init__.py:1:2\0none"])
def test_a_cache_that_does_not_say_so_is_validated(cache_home: Path, typed: object) -> None:
    """Not typed by this pydantic (another version may validate otherwise): validated."""
    shipped_catalog()
    [file] = cache_home.glob("shipped-*.json")
    stored = json.loads(shipped_cache.unsealed(file.read_bytes()) or b"")
    stored["typed"] = typed  # only the stamp of the pydantic installed now is believed
    file.write_bytes(shipped_cache.sealed(json.dumps(stored)))  # a digest that matches
    shipped_cache._shipped.cache_clear()
    shipped_catalog.cache_clear()
    assert not shipped_cache.typed()
    assert not any(is_trusted(e.model) for e in shipped_catalog().entries)


def test_a_game_from_a_filled_cache_builds_no_validator(tmp_path: Path) -> None:
    code = ("import sys\n"
            "from pydantic import BaseModel\n"
            "from exlibris.agents.random_agent import RandomAgent\n"
            "from exlibris.catalog import load_catalog\n"
            "from exlibris.engine.flow import new_game\n"
            "from exlibris.model.variants import resolve_settings\n"
            "catalog = load_catalog()\n"
            "settings = resolve_settings('standard', catalog.variants)\n"
            "new_game(catalog, settings, [RandomAgent(1), RandomAgent(2)], seed=5)\n"
            "def every(cls):\n"
            "    for sub in cls.__subclasses__():\n"
            "        yield sub\n"
            "        yield from every(sub)\n"
            "print(sorted(c.__name__ for c in every(BaseModel)\n"
            "             if c.__module__.startswith('exlibris') and c.__pydantic_complete__))\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "EXLIBRIS_NO_PREBUILT": "1"}  # no file the package vouches for
    env.pop("EXLIBRIS_NO_CACHE", None)

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                              capture_output=True, check=True)
        return done.stdout.strip()

    assert run() != "[]"  # the first command validates, and fills the cache
    assert run() == "[]"


def test_a_ruling_beyond_the_known_ones_constructs_as_it_validates() -> None:
    from exlibris.model.rules import Rulings

    data = {"deck_runs_out": "reshuffle", "a_new_ruling": 3}
    assert _shape(construct(Rulings, data)) == _shape(Rulings.model_validate(data))
