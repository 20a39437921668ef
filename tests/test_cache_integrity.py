"""Issue 39: a cache cannot change a result. Entries of the per-user cache files
(``shipped_cache.py``, ``dsl/tree_cache.py``) edited or damaged in every way, their
keys left alone, are detected by the digest each file carries and passed over: the
game is the game played with no cache, with no traceback. Every shipped record and
effect gives the same games cached and uncached."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ["play", "--seats", "greedy,greedy,greedy", "--variant", "expanded", "--seed", "7",
        "--json"]


def play(cache: Path | None, args: list[str] = GAME) -> str:
    """The game's JSON, played with the cache in ``cache`` (None: no cache)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cache is None:  # every file and text parsed (not the package's prebuilt.json)
        env["EXLIBRIS_NO_CACHE"] = "1"
        env["EXLIBRIS_NO_PREBUILT"] = "1"
    else:
        env["XDG_CACHE_HOME"] = str(cache)
        env.pop("EXLIBRIS_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-m", "exlibris", *args], env=env,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def uncached() -> str:
    return play(None)


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory, uncached: str) -> Path:
    """A cache folder as the game of ``GAME`` left it (its files written, then read)."""
    cache = tmp_path_factory.mktemp("filled")
    assert play(cache) == uncached
    assert play(cache) == uncached
    files = sorted(p.name.split("-")[0] for p in (cache / "exlibris").iterdir())
    assert files == ["shipped", "trees"]
    return cache


def _body(path: Path) -> tuple[bytes, dict[str, Any]]:
    digest, _, body = path.read_bytes().partition(b"\n")
    return digest, json.loads(body)


def _first(mapping: dict[str, Any], pattern: str) -> str:
    return next(k for k in mapping if re.search(pattern, k))


def _edit_record(data: dict[str, Any], how: Callable[[dict[str, Any]], None]) -> None:
    name = _first(data["files"], r"locations/.*\.yaml$")
    how(data["files"][name])


def _edit_tree(data: dict[str, Any], how: Callable[[str], str]) -> None:
    for key in list(data["trees"])[:40]:
        data["trees"][key] = how(data["trees"][key])


def _set_effect(record: dict[str, Any]) -> None:
    record["data"]["effect"] = "draw(5)"


def _number_as_text(record: dict[str, Any]) -> None:
    record["data"]["number"] = str(record["data"].get("number"))


# (which file, how its body is damaged), each with the file's key left alone
DAMAGES: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "a value": ("shipped", lambda d: _edit_record(d, _set_effect)),
    "a type": ("shipped", lambda d: _edit_record(d, _number_as_text)),
    "a shape": ("shipped", lambda d: _edit_record(d, lambda r: r.update(data=[1, 2]))),
    "positions gone": ("shipped", lambda d: _edit_record(d, lambda r: r.pop("positions"))),
    "an entry gone": ("shipped", lambda d: d["files"].pop(_first(d["files"], "yard-sale"))),
    "checks claimed": ("shipped", lambda d: d.update(validated=10**9, typed="forged")),
    "a node kind": ("trees", lambda d: _edit_tree(d, lambda t: t.replace(
        '"_":"Call"', '"_":"Unknown"', 1))),
    "a builtin's name": ("trees", lambda d: _edit_tree(d, lambda t: re.sub(
        r'"func":"\w+"', '"func":"__import__"', t, count=1))),
    "a number": ("trees", lambda d: _edit_tree(d, lambda t: re.sub(
        r'"value":\d+', '"value":99', t))),
    "a tree's shape": ("trees", lambda d: _edit_tree(d, lambda t: "[]")),
}


@pytest.mark.parametrize("damage,digest", [*((d, "kept") for d in sorted(DAMAGES)),
                                           ("a value", "dropped"), ("a node kind", "dropped")])
def test_a_damaged_cache_entry_never_changes_the_game(filled: Path, uncached: str,
                                                      tmp_path: Path, damage: str,
                                                      digest: str) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(filled, cache)
    which, how = DAMAGES[damage]
    (path,) = (cache / "exlibris").glob(f"{which}-*.json")
    old_digest, data = _body(path)
    key = data["key"]
    how(data)
    assert data["key"] == key
    body = json.dumps(data, separators=(",", ":")).encode()
    path.write_bytes(old_digest + b"\n" + body if digest == "kept" else body)
    assert play(cache) == uncached


@pytest.mark.parametrize("args", [
    ["play", "--seats", "greedy", "--variant", "solo-expanded", "--seed", "5", "--json"],
    pytest.param(["play", "--seats", "greedy,greedy,greedy,greedy,greedy", "--variant",
                  "five-player", "--seed", "11", "--json"], marks=pytest.mark.slow),
    pytest.param(["play", "--seats", "random,random,random", "--variant",
                  "beginner-all-locations", "--seed", "2", "--json"], marks=pytest.mark.slow),
])
def test_shipped_records_and_effects_give_the_same_games_cached_and_not(
        tmp_path: Path, args: list[str]) -> None:
    without = play(None, args)
    assert play(tmp_path / "cache", args) == without  # the cache written
    assert play(tmp_path / "cache", args) == without  # and read


def test_every_shipped_record_and_tree_reads_back_from_the_cache_as_parsed(
        filled: Path) -> None:
    """Every cached record is the file's parse, and every cached tree Lark's parse
    of its text: what the games above rest on, for the whole shipped set."""
    from exlibris.dsl import ast_json, lark_parser
    from exlibris.yamlsafe import load_yaml_text

    (records,) = (filled / "exlibris").glob("shipped-*.json")
    (trees,) = (filled / "exlibris").glob("trees-*.json")
    files = _body(records)[1]["files"]
    assert len(files) > 80
    for name, record in files.items():
        parsed = load_yaml_text(Path(name).read_text("utf-8"), name)
        assert record == json.loads(json.dumps(parsed.record())), name
    stored = _body(trees)[1]["trees"]
    assert len(stored) > 50
    for key, tree in stored.items():
        start, text = key.split("\0", 1)
        assert ast_json.decode(json.loads(tree)) == lark_parser.parse(text, start), key
