"""What each module of the compiled build costs to build and what it can gain.

Not a test. Two tables, for the modules of ``pyproject.toml``'s compiled list (or
``--modules``):

* **cost** (needs Cython and setuptools): each module translated by Cython and its C
  compiled, one after the other in this process, as ``hatch_build.py`` does it (same
  directives, ``-O1`` or ``--opt``, which takes levels with commas to compile the same C
  at each): the size of its C, the CPU seconds of each step (Cython's in
  this process, the C compiler's from its child processes) and each module's share of
  the whole. ``--effects`` adds the shipped effects' generated source (``dsl/precompiled.py``),
  the module the build once compiled ahead of time; ``--keep DIR`` keeps the built
  extensions there.
* **share** (``--share``, plain Python, this checkout): the own time of each module's
  functions under cProfile (process time) in random two-player games and in ``mcts``
  against greedy games: the most that compiling the module can save of that work.

    python bench/compile_cost.py                              # cost of the listed modules
    python bench/compile_cost.py --effects --keep /tmp/ext    # and the shipped effects
    PYTHONPATH=. python bench/compile_cost.py --share --no-cost
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EFFECTS = "exlibris._precompiled_effects"  # dsl/precompiled.py: MODULE


def listed_modules() -> list[str]:
    """The compiled list of ``pyproject.toml``."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(data["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["modules"])


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cost(modules: list[str], effects: bool, keep: Path | None, levels: list[str]
         ) -> list[dict[str, Any]]:
    """Translate each module alone, then compile its C at each optimisation level of
    ``levels``; its C size and CPU seconds (``cc_s``: the level to its seconds).
    ``keep``: the extensions built at each level in ``keep/LEVEL`` (one level: in
    ``keep``)."""
    sys.path.insert(0, str(ROOT))
    import hatch_build

    work = Path(tempfile.mkdtemp(prefix="exlibris-cost-"))
    sources = {name: ROOT / Path(*name.split(".")).with_suffix(".py") for name in modules}
    if effects:
        sources[EFFECTS] = work / "gen" / "exlibris" / "_precompiled_effects.py"
        sources[EFFECTS].parent.mkdir(parents=True)
        subprocess.run([sys.executable, "-m", "exlibris.engine.shipped_sources",
                        str(sources[EFFECTS])], cwd=ROOT, check=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    rows = []
    try:
        for name, source in sources.items():
            started = time.process_time()
            c_file = hatch_build.translate(ROOT, name, source, work)
            row: dict[str, Any] = {"module": name, "c_kb": c_file.stat().st_size / 1024,
                                   "cython_s": time.process_time() - started, "cc_s": {}}
            for level in levels:
                children = _children_cpu()
                built = hatch_build.build(name, c_file, work / level.lstrip("-"), level)
                row["cc_s"][level] = _children_cpu() - children
                if keep is not None:
                    target = (keep / level if len(levels) > 1 else keep) \
                        / Path(*name.split(".")[:-1])
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(built, target)
            rows.append(row)
            print(f"  {name}: {row['c_kb']:.0f} KB of C, Cython {row['cython_s']:.1f} s, "
                  + ", ".join(f"{level} {s:.1f} s" for level, s in row["cc_s"].items()),
                  file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def _mcts_games(games: int) -> None:
    from exlibris.agents import make_bot
    from exlibris.agents.view import player_view
    from exlibris.catalog import load_catalog
    from exlibris.engine.flow import new_game, play
    from exlibris.validation import resolve_settings

    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    for seed in range(games):
        agents = [make_bot("mcts:30", seed * 10), make_bot("greedy", seed * 10 + 1)]
        play(new_game(catalog, settings, agents, seed=seed, views=player_view))


def _random_games(games: int) -> None:
    from exlibris.agents import RandomAgent
    from exlibris.agents.view import player_view
    from exlibris.catalog import load_catalog
    from exlibris.engine.flow import new_game, play
    from exlibris.validation import resolve_settings

    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    for seed in range(games):
        agents = [RandomAgent(seed * 10 + i) for i in range(2)]
        play(new_game(catalog, settings, agents, seed=seed, views=player_view))


def share(workload: Any, games: int) -> dict[str, float]:
    """Each exlibris module's share of the own time profiled in ``workload(games)``
    (after one warm-up game); the generated effects' code counts as ``<generated>``."""
    workload(1)
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    workload(games)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    by_module: dict[str, float] = {}
    total = 0.0
    package = str(ROOT / "exlibris") + os.sep
    for (file, _line, _function), (_cc, _nc, own, _cum, _callers) in stats.items():
        total += own
        if file.startswith(package):
            name = "exlibris." + file[len(package):-3].replace(os.sep, ".")
        elif file.startswith("<"):
            name = "<generated>" if file != "~" else "<builtins>"
        else:
            name = "<builtins>" if file == "~" else "<other>"
        by_module[name] = by_module.get(name, 0.0) + own
    return {name: own / total for name, own in by_module.items()}


def _print_cost(rows: list[dict[str, Any]], levels: list[str]) -> None:
    """The cost table: a row a module, the most costly first; C seconds at each level,
    and each module's share of the build at the first level."""
    def seconds(row: dict[str, Any], level: str) -> float:
        return float(row["cython_s"] + row["cc_s"][level])

    first = levels[0]
    total = {level: sum(seconds(r, level) for r in rows) for level in levels}
    print(f"{'module':42} {'C KB':>7} {'cython s':>9} "
          + " ".join(f"{'cc ' + level:>9}" for level in levels) + f" {'share':>6}")
    for r in sorted(rows, key=lambda r: -seconds(r, first)):
        print(f"{r['module']:42} {r['c_kb']:7.0f} {r['cython_s']:9.1f} "
              + " ".join(f"{r['cc_s'][level]:9.1f}" for level in levels)
              + f" {seconds(r, first) / total[first]:6.1%}")
    print(f"{'total':42} {sum(r['c_kb'] for r in rows):7.0f} "
          f"{sum(r['cython_s'] for r in rows):9.1f} "
          + " ".join(f"{sum(r['cc_s'][level] for r in rows):9.1f}" for level in levels))
    print("CPU s a build: " + ", ".join(f"{level} {total[level]:.1f}" for level in levels)
          + f"; load average {os.getloadavg()[0]:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", nargs="*", help="dotted names (default: the compiled list)")
    parser.add_argument("--effects", action="store_true", help="the shipped effects as well")
    parser.add_argument("--keep", type=Path, help="keep the built extensions in this folder")
    parser.add_argument("--opt", default="-O1",
                        help="the C compiler's level, or levels with commas: -O0,-O1,-O2 "
                             "(default -O1, the build's)")
    parser.add_argument("--no-cost", action="store_true", help="skip the cost table")
    parser.add_argument("--share", action="store_true", help="the profiled share table")
    parser.add_argument("--games", type=int, default=40, help="random games for --share")
    parser.add_argument("--mcts-games", type=int, default=2, help="mcts games for --share")
    args = parser.parse_args(argv)
    modules = args.modules if args.modules is not None else listed_modules()
    if not args.no_cost:
        levels = args.opt.split(",")
        rows = cost(modules, args.effects, args.keep, levels)
        _print_cost(rows, levels)
    if args.share:
        random_share = share(_random_games, args.games)
        mcts_share = share(_mcts_games, args.mcts_games)
        listed = set(listed_modules())
        names = sorted(set(random_share) | set(mcts_share),
                       key=lambda n: -(random_share.get(n, 0) + mcts_share.get(n, 0)))
        print(f"{'module (own time, cProfile)':42} {'random x2':>9} {'mcts':>7}  listed")
        for name in names:
            print(f"{name:42} {random_share.get(name, 0):9.1%} {mcts_share.get(name, 0):7.1%}"
                  f"  {'yes' if name in listed else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
