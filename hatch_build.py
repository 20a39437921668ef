"""Wheel build hook: on request, compile the engine's hot modules to C extensions with Cython.

A wheel is pure Python unless ``EXLIBRIS_COMPILE=1`` asks for the compiled engine
(``EXLIBRIS_COMPILE=1 pip install .``; ``pip install -v`` shows a line as each
module is built): a player gains nothing from it, and the compile takes minutes on
two cores, against seconds for the pure wheel (``bench/README.md``, "The compiled
build"). ``EXLIBRIS_PURE_PYTHON=1`` still asks for a pure-Python wheel, and
wins over ``EXLIBRIS_COMPILE``. A default build needs nothing beyond hatchling:
Cython and setuptools are build dependencies only of a compiled one
(``dependencies``).

The modules stay plain Python in the repository and in the wheel; their compiled
copies sit beside them, and Python imports an extension module before a ``.py`` of
the same name. Which modules: ``[tool.hatch.build.targets.wheel.hooks.custom]
modules`` in ``pyproject.toml``, chosen by what each costs to build and saves
(``bench/compile_cost.py``). Their source is plain Python; the ``.pxd`` files beside
some of them, read only by Cython, declare classes with ``__slots__`` as extension
types with the same attributes (``docs/architecture.md``, "The compiled build"). A
compiled module behaves as the plain one (``tests/test_compiled_engine.py`` plays the
same games with both).

Each module is built by a worker process, Cython's translation then the C compiler;
as many workers as cores (``EXLIBRIS_COMPILE_JOBS`` to say otherwise), each taking
the largest module left as it finishes one, so that no module is left building alone
at the end, and each paying Cython's start-up once rather than once a module. The C
compiler's level is the config's ``level`` (``-O1``: within 2% of ``-O2``'s speed for
0.65 of its build CPU; ``-O0`` code runs slower than plain Python), or a module's own in a
``levels`` table: what each level costs to build and gains is in ``bench/README.md``
("Levels and workers").

A compiled build falls back to a pure-Python wheel, with a warning, when there is no
C compiler or Cython fails. Editable installs and sdists are never compiled.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

# 3.3 compiles ``match``; it miscompiles a ``def`` inside a ``case`` (write a module-level
# factory instead) in the modules compiled
CYTHON = "Cython>=3.3,<3.4"
SETUPTOOLS = "setuptools>=68"
# the C compiler's level of a module with none in the config's ``levels`` (``level``
# there says otherwise): the trade of build seconds against the engine's speed is in
# bench/README.md, "The compiled build"
LEVEL = "-O1"
LEVELS = ("-O0", "-O1", "-O2", "-O3")
DIRECTIVES = {"annotation_typing": False, "binding": True}  # annotations are documentation


def _set(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _pure() -> bool:
    """A pure-Python wheel: the default; ``EXLIBRIS_COMPILE=1`` asks for the compiled
    engine, unless ``EXLIBRIS_PURE_PYTHON=1`` (the former opt-out) says otherwise."""
    return _set("EXLIBRIS_PURE_PYTHON") or not _set("EXLIBRIS_COMPILE")


def _jobs() -> int:
    wanted = os.environ.get("EXLIBRIS_COMPILE_JOBS", "").strip()
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a worker (``_serve``) by an interpreter without hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """Adds the compiled modules to a wheel (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return [] if _pure() else [CYTHON, SETUPTOOLS]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or _pure():
            return
        modules: list[str] = list(self.config.get("modules", []))
        levels = module_levels(self.config)
        self._work = Path(tempfile.mkdtemp(prefix="exlibris-build-"))
        try:
            built = compile_all(Path(self.root), modules, self._work, self.app.display_info,
                                levels)
        except Exception as exc:  # any failure: a working pure-Python wheel instead
            self.app.display_warning(
                f"exlibris: the engine is not compiled ({type(exc).__name__}: {exc}); "
                "building a pure-Python wheel, which works the same, only slower")
            return
        for inside, path in built.items():
            build_data["force_include"][str(path)] = inside
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)


def module_levels(config: dict[str, Any]) -> dict[str, str]:
    """Each listed module's C compiler level from the hook's config: ``levels`` (a
    module to its level), else ``level``, else ``LEVEL``. A level that is not ``-O0`` to
    ``-O3``, or a module in ``levels`` that is not in ``modules``, is a ValueError."""
    modules = list(config.get("modules", []))
    default = str(config.get("level", LEVEL))
    given = dict(config.get("levels", {}))
    if unlisted := sorted(set(given) - set(modules)):
        raise ValueError(f"levels names modules not in modules: {', '.join(unlisted)}")
    levels = {name: str(given.get(name, default)) for name in modules}
    if wrong := sorted({level for level in [default, *levels.values()] if level not in LEVELS}):
        raise ValueError(f"unknown level {', '.join(wrong)}: one of {', '.join(LEVELS)}")
    return levels


def source_of(root: Path, name: str) -> Path:
    return root / Path(*name.split(".")).with_suffix(".py")


def flags(level: str) -> list[str]:
    """The C compiler's flags at optimisation ``level`` (``-O0``, ``-O1``, ``-O2``): no
    debug info (a smaller wheel), and the level last, since the last ``-O`` wins over
    Python's own ``-O3``. None on Windows, whose compiler takes other flags."""
    return [] if sys.platform == "win32" else ["-g0", level]


def compile_all(root: Path, modules: list[str], work: Path, say: Callable[[str], None],
                levels: dict[str, str] | None = None) -> dict[str, Path]:
    """Compile ``modules`` (dotted names under ``root``), each at its level in
    ``levels`` (else ``LEVEL``), by ``_jobs()`` workers at once that take the largest
    source left; the wheel path of each extension module, and where it was built. Says a
    line as each one is done."""
    levels = levels or {}
    order = sorted(modules, key=lambda name: -source_of(root, name).stat().st_size)
    jobs = max(1, min(_jobs(), len(order)))
    say(f"exlibris: compiling {len(order)} modules with Cython, {jobs} at a time")
    started = time.monotonic()
    waiting = deque(order)
    lock = threading.Lock()
    done: queue.Queue[tuple[str, Path | str]] = queue.Queue()
    workers: list[subprocess.Popen[str]] = []

    def serve(log: Path) -> None:
        """One worker process, fed the next module as it finishes one."""
        with log.open("w") as errors:
            worker = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), str(root), str(work)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True)
        with lock:
            workers.append(worker)
        assert worker.stdin is not None and worker.stdout is not None
        with worker:
            while True:
                with lock:
                    if not waiting:
                        return
                    name = waiting.popleft()
                try:
                    worker.stdin.write(f"{name} {levels.get(name, LEVEL)}\n")
                    worker.stdin.flush()
                except OSError:  # the worker died
                    pass
                kind, _, said = worker.stdout.readline().rstrip("\n").partition(" ")
                if kind != "built":
                    tail = log.read_text(errors="replace").strip().splitlines()[-20:]
                    done.put((name, "\n".join([*tail, said or "the worker stopped"])))
                    return
                done.put((name, Path(said)))

    threads = [threading.Thread(target=serve, args=(work / f"worker-{i}.log",), daemon=True)
               for i in range(jobs)]
    for thread in threads:
        thread.start()
    built: dict[str, Path] = {}
    try:
        for _ in order:
            name, path = done.get()
            if isinstance(path, str):
                raise RuntimeError(f"{name}: {path}")
            built[path.relative_to(work / "lib").as_posix()] = path
            say(f"exlibris: compiled {name} at {levels.get(name, LEVEL)} "
                f"({len(built)}/{len(order)}, {time.monotonic() - started:.0f} s)")
    finally:
        with lock:
            waiting.clear()
            for worker in workers:
                if worker.poll() is None and len(built) < len(order):
                    worker.kill()
        for thread in threads:
            thread.join()
    return built


def translate(root: Path, name: str, source: Path, work: Path) -> Path:
    """Cython's C for module ``name`` from ``source``, in ``work/c``."""
    from Cython.Build import cythonize
    from setuptools import Extension

    cwd = os.getcwd()
    os.chdir(root)  # sources are named relative to the project, as Cython wants them
    try:
        path = os.path.relpath(source, root)
        [extension] = cythonize([Extension(name, [path])],
                                build_dir=str(work / "c"), quiet=True, language_level=3,
                                compiler_directives=DIRECTIVES)
        return root / extension.sources[0] if not os.path.isabs(extension.sources[0]) \
            else Path(extension.sources[0])
    finally:
        os.chdir(cwd)


def build(name: str, c_file: Path, work: Path, level: str = LEVEL) -> Path:
    """The extension module ``name`` compiled from ``c_file`` at ``level``, under
    ``work/lib``."""
    from setuptools import Distribution, Extension

    dist = Distribution({"name": "exlibris", "ext_modules": [
        Extension(name, [str(c_file)], extra_compile_args=flags(level))]})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "tmp" / name)
    command.ensure_finalized()
    command.run()
    return Path(command.get_ext_fullpath(name))


def _serve(argv: list[str]) -> int:
    """A worker: ``python hatch_build.py ROOT WORK`` reads ``NAME LEVEL`` lines, builds
    each module, and answers a line for each, ``built PATH`` or ``failed WHY``. What
    Cython, setuptools and the compiler print goes to standard error. One process for
    many modules: Cython's start-up (most of a second of CPU) is paid once."""
    root, work = Path(argv[0]), Path(argv[1])
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        name, level = line.split()
        try:
            path = build(name, translate(root, name, source_of(root, name), work), work, level)
        except BaseException as exc:  # said to the parent, which stops the build
            answers.write(f"failed {type(exc).__name__}: {' '.join(str(exc).split())}\n")
        else:
            answers.write(f"built {path}\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(_serve(sys.argv[1:]))
