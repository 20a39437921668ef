"""The compiled install's time as a ratio to the pure install's, measured in one run.

Not a test. Makes two fresh virtual environments in a temporary folder (not timed),
then times, one after the other, the README's two installs of this checkout in them:
``pip install .`` (the pure-Python wheel) and ``EXLIBRIS_COMPILE=1 pip install .``
(the compiled engine, ``hatch_build.py``). Both are the whole command a user types: pip's
isolated build environment (hatchling; Cython and setuptools too for the compiled
one), the wheel's build and the project's dependencies, from the same package indexes
and with pip's cache off for both (``--no-cache-dir``), so neither reuses what the
other downloaded or built. Prints each install's seconds (wall and CPU, children
included), the ratio of the walls, and the load average before and after; the
compiled build's progress lines (``pip -v``, both installs run with it) as they come.

    python bench/install_time.py
    python bench/install_time.py --keep-compiled /tmp/venv-compiled   # keep that venv

Each compiled install takes a minute or more of both cores: run it under ``nice``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def install(venv: Path, tree: Path, compiled: bool) -> dict[str, Any]:
    """Make ``venv`` (not timed), then time ``pip install TREE`` in it."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("EXLIBRIS_COMPILE", "EXLIBRIS_PURE_PYTHON", "PYTHONPATH", "VIRTUAL_ENV")}
    if compiled:
        env["EXLIBRIS_COMPILE"] = "1"
    command = [str(venv / "bin" / "python"), "-m", "pip", "install", "-v", "--no-cache-dir",
               str(tree)]
    load = os.getloadavg()[0]
    started, cpu = time.monotonic(), _children_cpu()
    with subprocess.Popen(command, env=env, cwd=tempfile.gettempdir(), text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as pip:
        assert pip.stdout is not None
        tail: list[str] = []
        for line in pip.stdout:
            tail = [*tail[-30:], line]
            if line.lstrip().startswith("exlibris:"):
                print("   ", line.strip(), flush=True)
    seconds, cpu = time.monotonic() - started, _children_cpu() - cpu
    if pip.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{''.join(tail)}")
    probe = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import exlibris.engine.flow, exlibris.agents.mcts, "
                            "exlibris.build_info as b; print(b.engine_build())"],
                           env=env, cwd=tempfile.gettempdir(), text=True,
                           capture_output=True, check=True)
    return {"seconds": seconds, "cpu_seconds": cpu, "load_before": load,
            "engine": probe.stdout.strip()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout installed")
    parser.add_argument("--keep-compiled", type=Path,
                        help="make the compiled install's venv here and keep it")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.keep_compiled is not None and args.keep_compiled.exists():
        parser.error(f"{args.keep_compiled} exists: give a new folder")
    with tempfile.TemporaryDirectory(prefix="exlibris-install-") as temp:
        rows = {}
        for name, compiled in (("pure", False), ("compiled", True)):
            venv = args.keep_compiled if compiled and args.keep_compiled else Path(temp) / name
            print(f"{name}: pip install {args.tree} in a fresh venv ...", flush=True)
            rows[name] = install(venv, args.tree, compiled)
    ratio = rows["compiled"]["seconds"] / rows["pure"]["seconds"]
    load = os.getloadavg()
    if args.json:
        print(json.dumps({**rows, "ratio": ratio, "load_after": list(load)}, indent=2))
        return 0
    for name, row in rows.items():
        print(f"{name:9} {row['seconds']:7.1f} s wall {row['cpu_seconds']:7.1f} s CPU  "
              f"load before {row['load_before']:.1f}  ({row['engine']})")
    print(f"compiled over pure: {ratio:.1f}x; load average after "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
