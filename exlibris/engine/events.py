"""Events: every change of state, in order, as JSON-ready records.

The log is off by default (bots playing thousands of games pay nothing for
it); ``--log FILE`` turns it on and writes one JSON object per line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO


class EventLog:
    """An append-only list of ``{"n": i, "event": kind, ...}`` records."""

    __slots__ = ("enabled", "records")

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        self.records: list[dict[str, Any]] = []

    def add(self, kind: str, /, **data: Any) -> None:
        self.records.append({"n": len(self.records), "event": kind, **data})

    def write(self, out: TextIO) -> None:
        for record in self.records:
            out.write(json.dumps(record, sort_keys=True) + "\n")

    def save(self, path: Path | str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            self.write(out)
