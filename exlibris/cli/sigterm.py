"""SIGTERM turned into an exception while a long command runs, so that it stops as
Ctrl-C stops it (files kept, pool shut down, the way to go on printed)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def sigterm_raises(stopped: Callable[[int], BaseException]) -> Iterator[None]:
    """While the block runs, SIGTERM raises ``stopped(signal number)``; the handler
    before is put back after. Off the main thread (a test runner's worker) signals
    cannot be handled there, and nothing changes."""
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise stopped(signum)

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
