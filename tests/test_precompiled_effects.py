"""Effects compiled ahead of time (``dsl/precompiled.py``) are the effects games run.

* the shipped sources (``engine/shipped_sources.py``) hold the generated text of every
  effect and condition that games of every mode run;
* games with the factories (executed as plain Python here; ``bench/compile_cost.py
  --effects`` compiles the same text with Cython, the wheel no longer does) play
  exactly as games that ``exec`` the generated source, and use the factories;
* a source too deep for a factory is left out of the module, and a checkout has none.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.dsl import compiler, precompiled, pysource
from exlibris.dsl.compiler import HELPERS
from exlibris.engine import flow
from exlibris.engine.shipped_sources import shipped_sources
from exlibris.validation import resolve_settings

ROOT = Path(__file__).resolve().parent.parent
MODES = [("standard", 2), ("standard", 4), ("expanded", 3), ("artifactorium", 2),
         ("job-faire", 3), ("solo", 1), ("solo-expanded", 1), ("beginner", 2)]


def test_games_of_every_mode_run_only_shipped_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: set[compiler._Compiled] = set()
    for cls in (compiler.Handler, compiler.ExprHandler):
        call = cls.__call__

        def recorded(self: Any, *args: Any, _call: Any = call) -> Any:
            ran.add(self)
            return _call(self, *args)

        monkeypatch.setattr(cls, "__call__", recorded)
    catalog = load_catalog()
    for variant, players in MODES:
        settings = resolve_settings(variant, catalog.variants)
        for seed in range(3):
            game = flow.new_game(catalog, settings, [RandomAgent(seed * 10 + i)
                                                     for i in range(players)],
                                 seed=seed, variant=variant)
            flow.play(game)
    texts = {source.text for source in shipped_sources()}
    generated = {source.text for handler in ran if (source := handler.generated()) is not None}
    assert len(generated) > 30
    assert generated <= texts


GAMES = textwrap.dedent("""
    import hashlib, json, sys
    from exlibris.dsl import compiler, precompiled
    compiler.PYTHON_AFTER = 0  # every handler runs its generated source at once
    if sys.argv[1] == "factories":
        from exlibris.dsl.compiler import HELPERS
        from exlibris.engine.shipped_sources import shipped_sources
        namespace = {}
        exec(precompiled.module_text(shipped_sources(), HELPERS), namespace)
        precompiled._loaded = dict(namespace["TABLE"])
        used = []
        for text, make in list(precompiled._loaded.items()):
            precompiled._loaded[text] = lambda *a, _m=make, **k: used.append(1) or _m(*a, **k)
    from exlibris.agents import RandomAgent
    from exlibris.catalog import load_catalog
    from exlibris.engine import flow
    from exlibris.engine.events import EventLog
    from exlibris.validation import resolve_settings
    catalog = load_catalog()
    digest = hashlib.sha256()
    for variant, players in %r:
        settings = resolve_settings(variant, catalog.variants)
        for seed in range(2):
            game = flow.new_game(catalog, settings, [RandomAgent(seed * 10 + i)
                                 for i in range(players)], seed=seed, variant=variant,
                                 log=EventLog(enabled=True))
            outcome = flow.play(game)
            digest.update(json.dumps(game.log.records, sort_keys=True, default=str).encode())
            digest.update(repr(outcome).encode())
    print(digest.hexdigest(), len(used) if sys.argv[1] == "factories" else 0)
""") % (MODES,)


def test_games_with_the_factories_play_as_games_without() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("EXLIBRIS_CONTENT", None)
    runs = {}
    for mode in ("exec", "factories"):
        done = subprocess.run([sys.executable, "-c", GAMES, mode], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        runs[mode] = done.stdout.split()
    assert runs["factories"][0] == runs["exec"][0]
    assert int(runs["factories"][1]) > 30  # linked through the factories


def test_a_source_too_deep_for_a_factory_is_left_out() -> None:
    deep = pysource.Source("def _run(env):\n    return " + "(" * 300 + "1" + ")" * 300)
    plain = pysource.Source("def _run(env):\n    return _k0", consts=[7])
    namespace: dict[str, Any] = {}
    exec(precompiled.module_text([deep, plain], HELPERS), namespace)
    assert list(namespace["TABLE"]) == [plain.text]
    assert namespace["TABLE"][plain.text](7)(None) == 7


def test_a_handler_with_a_factory_runs_it_from_its_first_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a build with factories, a handler whose generated text has one never warms up
    as closures; one without keeps warming up (``compiler._Compiled._precompiled``)."""
    from exlibris.dsl.parser import parse_program

    catalog = load_catalog()
    game = flow.new_game(catalog, resolve_settings("standard", catalog.variants),
                         [RandomAgent(1), RandomAgent(2)], seed=1)
    names = game.names(0)
    hand = len(game.player(0).hand.cards)
    ahead = compiler.compile_program(parse_program("x = count(hand) + 1\n"), python_after=50)
    other = compiler.compile_program(parse_program("x = count(hand) + 2\n"), python_after=50)
    text = compiler._source_of(ahead._tree).text
    made: list[int] = []
    namespace: dict[str, Any] = {}
    exec(precompiled.module_text([compiler._source_of(ahead._tree)], HELPERS), namespace)
    make = namespace["TABLE"][text]
    monkeypatch.setattr(precompiled, "_loaded",
                        {text: lambda *a, **k: made.append(1) or make(*a, **k)})
    for _ in range(3):
        assert ahead(game.rt, game.player(0), names).vars == {"x": hand + 1}
        assert other(game.rt, game.player(0), names).vars == {"x": hand + 2}
    assert made == [1] and ahead._closures is None  # linked once, at the first call
    assert other._closures is not None and other._code is None  # still warming up
