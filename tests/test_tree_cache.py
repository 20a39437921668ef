"""The shipped effects' syntax trees in the per-user cache (``dsl/tree_cache.py``,
``dsl/ast_json.py``): they read back as Lark parses them, a game started from a
filled cache does not import Lark, and a damaged, stale or foreign file is passed
over (the text is parsed by Lark as with no cache)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from exlibris import shipped_cache
from exlibris.dsl import ast_json, lark_parser, tree_cache
from exlibris.dsl.parser import parse_program, parse_trigger
from exlibris.shipped_cache import sealed, unsealed
from exlibris.yamlsafe import load_yaml_file

ROOT = Path(__file__).resolve().parent.parent
WELL = ROOT / "content" / "locations" / "wishing-well.yaml"


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("EXLIBRIS_NO_CACHE", raising=False)
    shipped_cache._shipped.cache_clear()
    tree_cache.clear()
    yield tmp_path / "cache" / "exlibris"
    shipped_cache._shipped.cache_clear()
    tree_cache.clear()


def _filled(home: Path) -> Path:
    load_yaml_file(WELL)  # the shipped files' cache, which the trees are read from
    tree_cache.lookup("program", "draw(1)")  # the first lookup writes the trees
    [file] = home.glob("trees-*.json")
    tree_cache.clear()  # a new process
    return file


def _effect() -> str:
    return str(load_yaml_file(WELL).data["effect"])


def _same(tree: object, text: str, start: str) -> bool:
    """The tree and Lark's, with every line and column (the nodes' == leaves them out)."""
    return bool(ast_json.encode(tree) == ast_json.encode(lark_parser.parse(text, start)))


def test_every_shipped_tree_reads_back_as_lark_parses_it(cache_home: Path) -> None:
    _filled(cache_home)
    texts = [t for r in (shipped_cache.records() or {}).values()
             for t in tree_cache.texts(r["data"])]
    assert len(texts) > 100
    for start, text in texts:
        tree = tree_cache.lookup(start, text)
        assert tree is not None and _same(tree, text, start), text
        assert tree is not tree_cache.lookup(start, text)  # a fresh copy each time


def test_trees_are_made_of_the_classes_of_ast_py() -> None:
    """A class of a node's name that is not ``ast.py``'s (as ``dataclass(slots=True)``
    leaves behind until collected) is never what a tree is read into."""
    from exlibris.dsl import ast

    stale = type("May", (ast.May,), {"__slots__": ()})  # noqa: F841 (kept alive)
    ast_json._classes.cache_clear()
    tree = ast_json.decode(ast_json.encode(lark_parser.parse("may:\n    draw(1)\n", "program")))
    nodes = list(ast.walk(tree))
    assert any(type(n).__name__ == "May" for n in nodes)
    assert all(type(n) is getattr(ast, type(n).__name__) for n in nodes)


def test_a_game_from_a_filled_cache_does_not_import_lark(tmp_path: Path) -> None:
    code = ("import sys\n"
            "from exlibris.agents.random_agent import RandomAgent\n"
            "from exlibris.catalog import load_catalog\n"
            "from exlibris.engine.flow import new_game\n"
            "from exlibris.model.variants import resolve_settings\n"
            "from exlibris import prebuilt\n"
            "if len(sys.argv) > 1: prebuilt._stored = lambda: {'records': {}, 'trees': {}}\n"
            "catalog = load_catalog()\n"
            "settings = resolve_settings('standard', catalog.variants)\n"
            "new_game(catalog, settings, [RandomAgent(1), RandomAgent(2)], seed=5)\n"
            "print('lark' in sys.modules)\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("EXLIBRIS_NO_CACHE", None)

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                              text=True, capture_output=True, check=True)
        return done.stdout.strip()

    # without the package's trees (prebuilt.py), the first game parses with Lark and
    # fills the cache
    assert run("without prebuilt") == "True"
    assert run("without prebuilt") == "False"
    env["XDG_CACHE_HOME"] = str(tmp_path / "other")
    assert run() == "False"  # with them, even the first game does not


# the right key, with trees no parse gives: an unknown class, a missing field, a float,
# not JSON text, a tree that is not text
_PLANTED = ['{"_": "system", "args": []}', '{"_": "Program"}',
            '{"_": "Program", "body": [1.5], "line": 1, "col": 1}', "{not json", 7,
            {"_": "Program", "body": [], "line": 1, "col": 1}]


@pytest.mark.parametrize("damage", [b"", b"{not json", b"[]", b'{"key": 1, "trees": {}}',
                                    *range(len(_PLANTED))])
def test_a_damaged_file_is_passed_over(cache_home: Path, damage: bytes | int) -> None:
    file = _filled(cache_home)
    key = json.loads(unsealed(file.read_bytes()))["key"]
    text = _effect()
    if isinstance(damage, int):
        file.write_bytes(sealed(json.dumps(
            {"key": key, "trees": {f"program\0{text}": _PLANTED[damage]}})))
    else:
        file.write_bytes(damage)
    tree = parse_program(text)
    assert _same(tree, text, "program")


def test_a_stale_file_is_replaced(cache_home: Path) -> None:
    file = _filled(cache_home)
    stale = cache_home / "trees-0123456789abcdef0123456789abcdef.json"
    file.rename(stale)
    data = json.loads(unsealed(stale.read_bytes()))
    data["key"] = "0" * 64
    stale.write_bytes(sealed(json.dumps(data)))
    text = _effect()
    assert _same(parse_program(text), text, "program")
    assert [p.name for p in cache_home.glob("trees-*.json")] == [file.name]


@pytest.mark.parametrize("share", ["folder", "file", "owner"])
def test_a_file_others_may_write_or_own_is_not_read(
        cache_home: Path, share: str, monkeypatch: pytest.MonkeyPatch) -> None:
    file = _filled(cache_home)
    key = json.loads(unsealed(file.read_bytes()))["key"]
    trigger = "after acquire by owner"  # not shipped: the planted tree must not be believed
    planted = json.dumps(ast_json.encode(parse_program("draw(1)")))
    file.write_bytes(sealed(json.dumps(
        {"key": key, "trees": {f"trigger\0{trigger}": planted}})))
    if share == "folder":
        os.chmod(cache_home, 0o777)
    elif share == "file":
        os.chmod(file, 0o666)
    else:
        uid = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    assert shipped_cache.read_private(file.name) is None
    tree = parse_trigger(trigger)
    assert _same(tree, trigger, "trigger")


def test_no_trees_without_the_shipped_cache(cache_home: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXLIBRIS_NO_CACHE", "1")
    text = _effect()
    assert tree_cache.lookup("program", text) is None
    assert _same(parse_program(text), text, "program")
    assert not cache_home.exists()


def test_the_package_version_is_the_installed_one() -> None:
    """Saves and caches name ``exlibris.__version__`` (importing ``importlib.metadata``
    for it would slow every game's start); it must be what the install says."""
    from importlib.metadata import version

    import exlibris

    assert exlibris.__version__ == version("exlibris")
