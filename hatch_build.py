"""Wheel build hook: on request, compile the engine's hot modules to C extensions with Cython.

A wheel is pure Python unless ``EXLIBRIS_COMPILE=1`` asks for the compiled engine
(``EXLIBRIS_COMPILE=1 pip install .``): a player gains nothing from it, and the
compile takes 3 to 8 minutes on two cores, against seconds for the pure wheel;
balance runs and search bots are about 1.5 times faster with it (README, "Set-up").
``EXLIBRIS_PURE_PYTHON=1`` still asks for a pure-Python wheel, and wins over
``EXLIBRIS_COMPILE``. A default build needs nothing beyond hatchling: Cython,
setuptools and the project's own dependencies are build dependencies only of a
compiled one (``dependencies``).

The modules stay plain Python in the repository and in the wheel; their compiled
copies sit beside them, and Python imports an extension module before a ``.py`` of
the same name. Which modules: ``[tool.hatch.build.targets.wheel.hooks.custom]
modules`` in ``pyproject.toml``. Their source is plain Python; the ``.pxd`` files
beside some of them, read only by Cython, declare classes with ``__slots__`` as
extension types with the same attributes (``docs/architecture.md``, "The compiled
build"). A compiled module behaves as the plain one
(``tests/test_compiled_engine.py`` plays the same games with both). The wheel also
gets the shipped effects' generated source compiled ahead of time
(``exlibris/dsl/precompiled.py``), written by running this checkout's package on
its own content (the hook's dependencies include the project's). Cython translates
the modules on every core (``nthreads``) and the C compiler builds them on every
core too (``build_ext.parallel``).

A compiled build falls back to a pure-Python wheel, with a warning, when there is no
C compiler or Cython fails. Editable installs and sdists are never compiled.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# 3.3 compiles ``match``; it miscompiles a ``def`` inside a ``case`` (write a module-level
# factory instead) in the modules compiled
CYTHON = "Cython>=3.3,<3.4"
SETUPTOOLS = "setuptools>=68"
PRECOMPILED = "exlibris._precompiled_effects"  # see exlibris/dsl/precompiled.py


def _set(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _pure() -> bool:
    """A pure-Python wheel: the default; ``EXLIBRIS_COMPILE=1`` asks for the compiled
    engine, unless ``EXLIBRIS_PURE_PYTHON=1`` (the former opt-out) says otherwise."""
    return _set("EXLIBRIS_PURE_PYTHON") or not _set("EXLIBRIS_COMPILE")


class CustomBuildHook(BuildHookInterface):
    """Adds the compiled modules to a wheel (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        # the project's own dependencies too: the build runs the package to write the
        # shipped effects' generated source (see _precompiled_effects)
        return [] if _pure() else [CYTHON, SETUPTOOLS, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or _pure():
            return
        modules: list[str] = list(self.config.get("modules", []))
        self._work = Path(tempfile.mkdtemp(prefix="exlibris-build-"))
        try:
            built = _compile(Path(self.root), modules, self._work, self.app.display_warning)
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


def _compile(root: Path, modules: list[str], work: Path, warn: Callable[[str], None]
             ) -> dict[str, Path]:
    """Compile ``modules`` (dotted names under ``root``) and the shipped effects'
    generated source; the wheel path of each extension module, and where it was built."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    flags = [] if sys.platform == "win32" else ["-g0"]  # no debug info: a smaller wheel
    extensions = [Extension(name, [str(Path(*name.split(".")).with_suffix(".py"))],
                            extra_compile_args=flags)
                  for name in modules]
    options: dict[str, Any] = {
        "build_dir": str(work / "c"), "quiet": True, "language_level": 3,
        "nthreads": os.cpu_count() or 1,
        # annotations are documentation here, as in plain Python: not C types
        "compiler_directives": {"annotation_typing": False, "binding": True}}
    cwd = os.getcwd()
    os.chdir(root)  # sources are named relative to the project
    try:
        compiled = cythonize(extensions, **options)
        try:
            compiled += cythonize([Extension(PRECOMPILED, [str(_precompiled_effects(root, work))],
                                             extra_compile_args=flags)], **options)
        except Exception as exc:  # the engine is still compiled; effects run as before
            warn(f"exlibris: the shipped effects are not compiled ahead of time "
                 f"({type(exc).__name__}: {exc})")
        dist = Distribution({"name": "exlibris", "ext_modules": compiled})
        build_ext = dist.get_command_obj("build_ext")
        build_ext.build_lib = str(work / "lib")
        build_ext.build_temp = str(work / "tmp")
        build_ext.parallel = os.cpu_count() or 1
        build_ext.ensure_finalized()
        build_ext.run()
        built = {}
        for ext in compiled:
            path = Path(build_ext.get_ext_fullpath(ext.name))
            built[path.relative_to(work / "lib").as_posix()] = path
        return built
    finally:
        os.chdir(cwd)


def _precompiled_effects(root: Path, work: Path) -> Path:
    """Write the module of the shipped effects' generated source (``dsl/precompiled.py``)
    by running this checkout's package on its own content."""
    out = work / "gen" / (PRECOMPILED.replace(".", "/") + ".py")
    out.parent.mkdir(parents=True, exist_ok=True)
    # this checkout first, then whatever the build environment put on the path (pip's
    # isolated environment is reached through PYTHONPATH)
    path = [str(root), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    env.pop("EXLIBRIS_CONTENT", None)  # the shipped content only
    done = subprocess.run([sys.executable, "-m", "exlibris.engine.shipped_sources", str(out)],
                          cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                           else f"exit status {done.returncode}")
    return out
