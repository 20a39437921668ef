"""JSON text that is always JSON: a number that is not finite (NaN, an infinity,
as a spread of one value gives) is written ``null``, never ``NaN``."""

from __future__ import annotations

import json
import math
from typing import Any


def finite(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps`` of ``value`` with ``null`` where a number is undefined."""
    return json.dumps(finite(value), allow_nan=False, **options)
