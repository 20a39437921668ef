"""How far a run is: a rolling rate and the time left from it, and progress lines
for a standard error that is not a terminal (CI, nohup, a log file).

The rate is measured over the last ``window`` seconds of finished batches, not
since the start: the first batches of a run (or those kept by ``--resume``) arrive
all at once and would make the run look hundreds of times faster than it is.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import TextIO

WINDOW = 30.0  # seconds of history behind the rate
LINE_EVERY = 5.0  # seconds between two progress lines


class Rate:
    """Games a second over the recent past, and the time left at that rate."""

    def __init__(self, total: int, done: int = 0, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.done = done
        self.window = window
        self.clock = clock
        self.start = clock()
        self.history: deque[tuple[float, int]] = deque([(self.start, done)])

    def add(self, games: int) -> None:
        self.done += games
        now = self.clock()
        self.history.append((now, self.done))
        while len(self.history) > 2 and now - self.history[1][0] >= self.window:
            self.history.popleft()

    @property
    def per_second(self) -> float | None:
        """None until some time has passed with games finished."""
        (t0, d0), (t1, d1) = self.history[0], self.history[-1]
        if t1 - t0 < 0.5 or d1 == d0:
            return None
        return (d1 - d0) / (t1 - t0)

    @property
    def seconds_left(self) -> float | None:
        rate = self.per_second
        if rate is None:
            return None
        return max(0, self.total - self.done) / rate


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class Lines:
    """A progress line every ``every`` seconds (and one at the end) on ``out``."""

    def __init__(self, out: TextIO, every: float = LINE_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.out = out
        self.every = every
        self.clock = clock
        self.rate: Rate | None = None
        self.failed = 0
        self.last = clock()

    def started(self, total: int, kept: int) -> None:
        self.rate = Rate(total, kept, clock=self.clock)
        self.last = self.clock()
        if kept:
            self._line(f"{kept} games kept from before")

    def progress(self, games: int, failed: int) -> None:
        assert self.rate is not None
        self.rate.add(games)
        self.failed += failed
        now = self.clock()
        if now - self.last >= self.every or self.rate.done >= self.rate.total:
            self.last = now
            self._line(self.text())

    def text(self) -> str:
        assert self.rate is not None
        r = self.rate
        speed = r.per_second
        share = 100 * r.done / r.total if r.total else 100.0
        return (f"{r.done}/{r.total} games ({share:.0f}%), "
                f"{f'{speed:.1f}' if speed else '-'} games/s, "
                f"{duration(r.seconds_left)} left, {self.failed} failed")

    def _line(self, text: str) -> None:
        self.out.write(f"simulate: {text}\n")
        self.out.flush()
