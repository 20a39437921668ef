"""The per-user cache of the shipped files (``exlibris/shipped_cache.py``): where it
lives, what it holds, and that a damaged, stale or unwritable cache is passed over."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris import shipped_cache
from exlibris.cli.main import cli
from exlibris.shipped_cache import sealed, unsealed
from exlibris.yamlsafe import load_yaml_file, load_yaml_text

ROOT = Path(__file__).resolve().parent.parent
# the shipped files validate reads: every YAML file of content/ and rules/
SHIPPED = sum(1 for folder in ("content", "rules") for _ in (ROOT / folder).rglob("*.yaml"))
CLEAN = f"{SHIPPED} files checked, no problems.\n"


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("EXLIBRIS_NO_CACHE", raising=False)
    shipped_cache._shipped.cache_clear()
    yield tmp_path / "cache"
    shipped_cache._shipped.cache_clear()


def _validate() -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["validate"])
    return result.exit_code, result.output


def _cache_files(home: Path) -> list[Path]:
    return sorted((home / "exlibris").glob("shipped-*.json"))


def test_validate_fills_a_private_json_cache_and_answers_from_it(cache_home: Path) -> None:
    assert _validate() == (0, CLEAN)
    [file] = _cache_files(cache_home)
    assert stat.S_IMODE(os.stat(cache_home / "exlibris").st_mode) == 0o700
    stored = json.loads(unsealed(file.read_bytes()))
    assert stored["validated"] == SHIPPED and len(stored["files"]) == SHIPPED
    shipped_cache._shipped.cache_clear()  # a new process
    assert shipped_cache.validated_files() == SHIPPED
    assert _validate() == (0, CLEAN)


def test_a_cached_file_loads_as_the_parsed_one(cache_home: Path) -> None:
    path = ROOT / "content" / "locations" / "wishing-well.yaml"
    cached = load_yaml_file(path, display_name="x.yaml")
    assert _cache_files(cache_home)
    parsed = load_yaml_text(path.read_text(), "x.yaml")
    assert (cached.filename, cached.text, cached.data) == (parsed.filename, parsed.text,
                                                            parsed.data)
    assert cached.record() == parsed.record()
    assert cached.content_position(("effect",)) == parsed.content_position(("effect",))


@pytest.mark.parametrize("positions", ["{not json", "[1, 2]", 5, None])
def test_damaged_positions_are_read_from_the_file(cache_home: Path, positions: object) -> None:
    path = ROOT / "content" / "locations" / "wishing-well.yaml"
    load_yaml_file(path)
    [file] = _cache_files(cache_home)
    stored = json.loads(unsealed(file.read_bytes()))
    stored["files"][str(path.resolve())]["positions"] = positions
    file.write_bytes(sealed(json.dumps(stored)))
    shipped_cache._shipped.cache_clear()
    parsed = load_yaml_text(path.read_text(), "x.yaml")
    cached = load_yaml_file(path, display_name="x.yaml")
    assert cached.data == parsed.data
    for where in [("effect",), ("name",), ("rulings", 0)]:
        assert cached.position(where) == parsed.position(where)
        assert cached.content_position(where) == parsed.content_position(where)
        assert cached.key_position(where) == parsed.key_position(where)


@pytest.mark.parametrize("damage", [b"", b"{not json", b'{"key": 1}', b"[]", b"\xff\xfe"])
def test_a_damaged_cache_is_passed_over(cache_home: Path, damage: bytes) -> None:
    _validate()
    [file] = _cache_files(cache_home)
    file.write_bytes(damage)
    shipped_cache._shipped.cache_clear()
    assert shipped_cache.validated_files() is None
    assert _validate() == (0, CLEAN)


def test_an_unwritable_or_shared_cache_folder_is_not_used(cache_home: Path) -> None:
    cache_home.mkdir()
    (cache_home / "exlibris").write_text("a file where the folder would be")
    assert _validate() == (0, CLEAN)
    (cache_home / "exlibris").unlink()
    (cache_home / "exlibris").mkdir(mode=0o777)
    os.chmod(cache_home / "exlibris", 0o777)  # others may write: never read or written
    shipped_cache._shipped.cache_clear()
    assert _validate() == (0, CLEAN)
    assert not _cache_files(cache_home)


@pytest.mark.parametrize("share", ["file", "owner"])
def test_a_cache_file_others_may_write_or_own_is_not_read(
        cache_home: Path, share: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _validate()
    [file] = _cache_files(cache_home)
    if share == "file":
        os.chmod(file, 0o666)
    else:
        uid = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    shipped_cache._shipped.cache_clear()
    assert shipped_cache.validated_files() is None
    assert _validate() == (0, CLEAN)


def test_no_cache_when_turned_off(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXLIBRIS_NO_CACHE", "1")
    assert _validate() == (0, CLEAN)
    assert not (cache_home / "exlibris").exists()


def test_a_changed_shipped_file_misses(cache_home: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    for part in ("content", "rules"):
        shutil.copytree(ROOT / part, data / part)
    monkeypatch.setattr(shipped_cache, "content_dir", lambda: data / "content")
    monkeypatch.setattr(shipped_cache, "rules_dir", lambda: data / "rules")
    path = data / "content" / "locations" / "wishing-well.yaml"
    assert load_yaml_file(path).data["name"] == "Wishing Well"
    key = shipped_cache._shipped().key
    path.write_text(path.read_text().replace("name: Wishing Well", "name: Wishing Pond"))
    shipped_cache._shipped.cache_clear()
    assert load_yaml_file(path).data["name"] == "Wishing Pond"
    assert shipped_cache._shipped().key != key
    assert len(_cache_files(cache_home)) == 1  # the stale one is removed


def test_an_own_file_is_never_cached(cache_home: Path, tmp_path: Path) -> None:
    own = tmp_path / "mine.yaml"
    own.write_text("kind: location\n")
    assert shipped_cache.lookup(own, lambda text, name: {}) is None
