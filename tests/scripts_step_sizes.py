"""Makes ``scripts/step_sizes.py`` importable by the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "scripts" / "step_sizes.py"
_SPEC = importlib.util.spec_from_file_location("step_sizes", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
_MODULE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_MODULE)
measure = _MODULE.measure
