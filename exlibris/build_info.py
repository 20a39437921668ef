"""Whether this install runs the engine compiled (``hatch_build.py``) or as plain Python."""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES


def compiled_modules() -> list[str]:
    """The loaded ``exlibris`` modules that come from C extensions, by name."""
    suffixes = tuple(EXTENSION_SUFFIXES)
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("exlibris.")
                  and str(getattr(module, "__file__", None) or "").endswith(suffixes))


def engine_build() -> str:
    """``compiled (N modules)`` or ``pure Python``, for reports."""
    found = compiled_modules()
    return f"compiled ({len(found)} modules)" if found else "pure Python"
