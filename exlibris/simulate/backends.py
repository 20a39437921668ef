"""Where batches of games run: in this process, in a local process pool, or on Ray.

A backend takes batches of :class:`GameSpec` and hands each :class:`BatchResult`
to ``done`` in the order of the batches (a batch that finishes early waits for
those before it), so the files a run writes as it goes are the same whatever the
number of workers. At most a few batches per worker are in flight or waiting, so
an interruption loses little and the memory held by results stays small.

The local pool's workers are forked from this process where that is safe (Linux,
no other thread running yet): they start with its imports and its checked catalog,
in milliseconds; elsewhere they are spawned and load the catalog from the cache
(``shipped_cache.py``). Batches shrink as the run nears its end (a share of the games
left), so the workers finish together.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from exlibris.limits import RAY_CONNECT_SECONDS
from exlibris.simulate.plan import GameSpec
from exlibris.simulate.play import BatchResult, play_batch, worker_init

Done = Callable[[BatchResult], None]
Launched = Callable[[], None]
Batch = Sequence[GameSpec]
IN_FLIGHT_PER_WORKER = 4  # batches a worker has in flight or finished, not yet handed on
WORKER_END_SECONDS = 5.0  # a terminated worker's time to end before it is killed
SIGNAL_POLL_SECONDS = 0.1  # how soon a noted Ctrl-C or SIGTERM ends a pool's run
LOCAL_OBJECT_STORE = 256 * 1024 * 1024  # rows are small; leave memory to the games


class BackendError(RuntimeError):
    """The backend could not start (Ray missing, no cluster at the address...)."""


class WorkerLost(RuntimeError):
    """A worker died during the run (killed, out of memory, a Ray node lost): not a
    usage mistake; the finished games are kept for ``--resume``."""


def default_workers() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def batches(specs: Iterable[GameSpec], games: int, size: Callable[[int], int]
            ) -> Iterator[list[GameSpec]]:
    """``specs`` (``games`` of them) in lists, each of ``size(games not yet in a
    batch)``, taken as they come (the plan is never built)."""
    left = games
    batch: list[GameSpec] = []
    wanted = size(left)
    for spec in specs:
        batch.append(spec)
        if len(batch) >= wanted:
            yield batch
            left -= len(batch)
            batch = []
            wanted = size(left)
    if batch:
        yield batch


class InOrder:
    """Hands results to ``done`` in the order of their batches' numbers (0, 1, ...),
    holding those that finish early."""

    def __init__(self, done: Done) -> None:
        self.done = done
        self.next = 0
        self.held: dict[int, BatchResult] = {}

    def put(self, number: int, result: BatchResult) -> None:
        self.held[number] = result
        while self.next in self.held:
            self.done(self.held.pop(self.next))
            self.next += 1

    def __len__(self) -> int:
        return len(self.held)


def run_inline(work: Iterator[Batch], done: Done, events: str = "",
               launched: Launched | None = None) -> None:
    """One worker: this process."""
    if launched is not None:
        launched()
    for batch in work:
        done(play_batch(batch, events))


def pool_context() -> Any:
    """``fork`` on Linux while this process runs no other thread (a thread's lock
    held at the fork would stay held in the child); ``spawn`` otherwise."""
    import multiprocessing
    import threading

    if sys.platform == "linux" and threading.active_count() == 1 \
            and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run_pool(work: Iterator[Batch], done: Done, workers: int,
             content: tuple[str, ...] = (), events: str = "",
             launched: Launched | None = None) -> None:
    """``workers`` processes, forked or spawned (:func:`pool_context`), each of which
    has the catalog compiled once, in its initializer; ``launched`` is called once
    they are started (a progress bar's thread may start then). Ctrl-C and SIGTERM
    are acted on between the pool's steps (:class:`DeferredSignals`): the workers
    are ended, the pool shut down, then the signal has its usual effect."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    pending: dict[Future[BatchResult], int] = {}
    order = InOrder(done)
    with DeferredSignals() as signals:
        pool = ProcessPoolExecutor(workers, mp_context=pool_context(), initializer=worker_init,
                                   initargs=(content, os.getpid()))

        def collect() -> None:
            finished, _ = wait(pending, timeout=SIGNAL_POLL_SECONDS,
                               return_when=FIRST_COMPLETED)
            for future in finished:
                order.put(pending.pop(future), future.result())
            signals.check()

        tell = launched  # once, after the first task: a fork pool's workers start then
        try:
            for number, batch in enumerate(work):
                while len(pending) + len(order) >= workers * IN_FLIGHT_PER_WORKER:
                    collect()
                signals.check()
                pending[pool.submit(play_batch, batch, events)] = number
                if tell is not None:
                    tell, told = None, tell
                    told()
            if tell is not None:
                tell()
            while pending:
                collect()
        except BrokenProcessPool as exc:
            raise WorkerLost(f"a worker process died: {exc}") from None
        except BaseException:  # a signal, or done's error: the games in play are not waited for
            _end_workers(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class _Signalled(BaseException):
    """A signal noted by :class:`DeferredSignals`, on its way out of the pool's loop."""


class DeferredSignals:
    """While the block runs (on the main thread), SIGINT and SIGTERM are noted, not
    acted on; :meth:`check` ends the block when one was. On leaving, the handlers
    before are put back and the noted signal is raised again, so it has the effect it
    would have had (``KeyboardInterrupt``, the CLI's ``Stopped``, or death).

    A handler's exception raised wherever the main thread is would land inside
    ``concurrent.futures``' bookkeeping now and then, with a future's lock held; the
    pool's manager thread then waits on that lock forever, and so does the shutdown
    that joins it. Noted here, a signal is acted on only where no lock is held."""

    def __init__(self) -> None:
        self.noted: int | None = None
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> DeferredSignals:
        import signal

        for number in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(number) is signal.SIG_IGN:
                continue  # ignored stays ignored
            try:
                self.previous[number] = signal.signal(number, self._note)
            except ValueError:  # not the main thread: signals are not ours to handle
                break
        return self

    def _note(self, signum: int, frame: Any) -> None:
        if self.noted is None:
            self.noted = signum
            return
        self._restore()  # a second signal, the pool stuck: acted on at once
        self._act(signum)

    def check(self) -> None:
        """End the block if a signal was noted."""
        if self.noted is not None:
            raise _Signalled()

    def __exit__(self, *exc: object) -> None:
        self._restore()
        if self.noted is not None:
            self._act(self.noted)

    def _restore(self) -> None:
        import signal

        for number, handler in self.previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        self.previous = {}

    @staticmethod
    def _act(signum: int) -> None:
        """The signal again, now that its handler before is back: that handler raises
        (or the default ends the process); one that returns is taken for Ctrl-C."""
        import signal

        signal.raise_signal(signum)
        raise KeyboardInterrupt


def _end_workers(pool: Any) -> None:
    """Terminate the pool's worker processes (an interrupted run keeps what finished;
    a batch in play would otherwise run to its end, minutes for a search bot), wait
    until they are gone, then close this process's end of the pool's result pipe.

    A worker ended while it wrote a result leaves part of it in the pipe; the pool's
    manager thread, reading it, would wait for the rest forever, and with it the
    shutdown that joins that thread and the interpreter's exit. With no worker left
    and this end closed, that read ends (the pool counts itself broken, as it is)."""
    from multiprocessing.connection import wait

    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with suppress(Exception):
            process.terminate()
    sentinels = []
    for process in processes:
        with suppress(Exception):
            sentinels.append(process.sentinel)
    deadline = time.monotonic() + WORKER_END_SECONDS
    while sentinels and time.monotonic() < deadline:
        for ended in wait(sentinels, timeout=max(0.0, deadline - time.monotonic())):
            sentinels.remove(ended)  # type: ignore[arg-type]
    for process in processes:
        if process.sentinel in sentinels:  # did not end on SIGTERM
            with suppress(Exception):
                process.kill()
    if sentinels:
        wait(sentinels, timeout=WORKER_END_SECONDS)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        with suppress(Exception):
            writer.close()


def _source_root() -> str:
    """The folder holding the ``exlibris`` package this process imported."""
    import exlibris

    return str(Path(exlibris.__file__).resolve().parent.parent)


def start_ray(address: str | None, workers: int) -> Any:
    """Connect to the Ray cluster at ``address``, or start a local Ray with ``workers``
    CPUs (no dashboard). A local Ray's workers import exlibris from where this
    process did; a cluster's nodes must have exlibris installed."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        raise BackendError('the ray backend needs Ray: pip install "exlibris[ray]"')
    if address is not None:
        check_listening(address)
        use_token_if_any()  # before Ray is imported: it reads its settings then
    import ray

    if ray.is_initialized():
        return ray
    captured = ""
    try:
        with _captured_stderr() as read:
            try:
                if address is not None:
                    ray.init(address=address, logging_level="WARNING", log_to_driver=False)
                else:
                    path = os.pathsep.join(
                        p for p in (_source_root(), os.environ.get("PYTHONPATH")) if p)
                    # address "local": a new Ray of its own, never a cluster found
                    # running on this machine (or the stale file of a dead one)
                    ray.init(address="local", num_cpus=workers, include_dashboard=False,
                             logging_level="WARNING", log_to_driver=False,
                             object_store_memory=LOCAL_OBJECT_STORE,
                             runtime_env={"env_vars": {"PYTHONPATH": path}})
            finally:
                captured = read()
    except Exception as exc:  # Ray raises many kinds; each ends the same way here
        where = f"at {address}" if address else "locally"
        raise BackendError(f"could not start Ray {where}: "
                           f"{_ray_reason(exc, captured)}") from None
    return ray


def use_token_if_any() -> None:
    """A client of a cluster that asks for a token: Ray 2.60 turns token
    authentication on for a cluster ``ray.init()`` starts, and for ``ray start`` with
    ``RAY_AUTH_MODE=token`` or a token already in ``~/.ray/auth_token``; a client
    reads the token only with ``RAY_AUTH_MODE=token``. Set that when the user
    set no mode and a token file is there (a cluster without authentication
    accepts such a client too)."""
    if os.environ.get("RAY_AUTH_MODE"):
        return
    token = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    if os.environ.get("RAY_AUTH_TOKEN") or Path(token).is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


@contextmanager
def _captured_stderr() -> Iterator[Callable[[], str]]:
    """Ray's C++ core writes its retry warnings to file descriptor 2: keep them out of
    the terminal while connecting, for the error message to quote."""
    import tempfile

    try:
        saved = os.dup(2)
    except OSError:
        yield lambda: ""
        return
    with tempfile.TemporaryFile(mode="w+b") as sink:
        os.dup2(sink.fileno(), 2)
        restored = False

        def read() -> str:
            nonlocal restored
            if not restored:
                os.dup2(saved, 2)
                restored = True
            sink.seek(0)
            return sink.read(200_000).decode("utf-8", "replace")

        try:
            yield read
        finally:
            read()
            os.close(saved)


def _ray_reason(exc: BaseException, captured: str = "") -> str:
    """Ray's error in one line, with the cause and the fix where they are known."""
    text = " ".join(str(exc).split())[:400] or type(exc).__name__
    said = (text + " " + captured).lower()
    if "unauthenticated" in said or "authtoken" in said or "auth token" in said:
        return (f"{text}: the cluster refused this client's token (Ray's token "
                "authentication, RAY_AUTH_MODE=token: on for a `ray start` cluster "
                "given that mode or a token file). Run exlibris with the cluster's RAY_AUTH_MODE "
                "and its token (RAY_AUTH_TOKEN, or the file ~/.ray/auth_token of the "
                "machine that started it), or start the cluster and exlibris with "
                "RAY_AUTH_MODE=disabled (docs/simulate.md)")
    return text


def _host_port(address: str) -> tuple[str, int] | None:
    """The host and port of a Ray address (``auto`` and ``local`` have none)."""
    bare = address.split("://", 1)[-1].strip()
    host, sep, port = bare.rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()):
        return None
    if len(port) > 5 or not 0 < int(port) < 65536:  # digits counted before int()
        raise BackendError(f"--address: the port {port[:20]!r} is not a port (1 to 65535)")
    return host.strip("[]") or "127.0.0.1", int(port)


def check_listening(address: str, timeout: float = RAY_CONNECT_SECONDS) -> None:
    """Fail fast (``BackendError``) when nothing listens at a Ray address: Ray itself
    retries for minutes."""
    import socket

    where = _host_port(address)
    if where is None:
        return
    try:
        with socket.create_connection(where, timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__.replace("Error", " error").lower()
        raise BackendError(f"could not connect to Ray at {address}: nothing answers at "
                           f"{where[0]}:{where[1]} ({reason}); is the cluster started "
                           "(ray start --head)?") from None


def run_ray(work: Iterator[Batch], done: Done, workers: int, address: str | None,
            events: str = "", launched: Launched | None = None) -> None:
    """Each batch is one Ray task; a Ray worker process keeps its compiled catalog
    between tasks (it is a module-level cache in :mod:`exlibris.simulate.play`)."""
    ray = start_ray(address, workers)
    if launched is not None:
        launched()
    task = ray.remote(num_cpus=1, max_retries=0)(play_batch)
    slots = max(1, int(ray.cluster_resources().get("CPU", workers))) * IN_FLIGHT_PER_WORKER
    pending: list[Any] = []
    numbers: dict[Any, int] = {}
    order = InOrder(done)

    def collect() -> None:
        nonlocal pending
        finished, pending = ray.wait(pending, num_returns=1)
        for ref in finished:
            try:
                result = ray.get(ref)
            except ray.exceptions.RayError as exc:  # a worker died, exlibris missing...
                first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
                raise WorkerLost(f"a Ray task failed ({type(exc).__name__}: {first})"
                                 ) from None
            order.put(numbers.pop(ref), result)

    try:
        for number, batch in enumerate(work):
            while len(pending) + len(order) >= slots:
                collect()
            ref = task.remote(list(batch), events)
            numbers[ref] = number
            pending.append(ref)
        while pending:
            collect()
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def run(backend: str, work: Iterator[Batch], done: Done, *, workers: int,
        address: str | None = None, content: tuple[str, ...] = (),
        events: str = "", launched: Launched | None = None) -> None:
    """Play every batch of ``work`` on ``backend`` (``local`` or ``ray``); ``content``
    is compiled in each pool worker as it starts (Ray workers do it on first use);
    ``events`` (``jsonl``, ``csv``): the batches bring their events rows too, in that
    format; ``launched`` is called once, when the workers are up."""
    if backend == "ray":
        run_ray(work, done, workers, address, events, launched)
    elif workers <= 1:
        run_inline(work, done, events, launched)
    else:
        run_pool(work, done, workers, content, events, launched)


def batch_size(backend: str, games: int, workers: int) -> int:
    """Games a batch when ``games`` are left: a share of them (batches shrink as the
    run ends, so no worker waits long for the last batch of another), at most 16
    locally (a smooth progress bar, little lost on Ctrl-C); larger on Ray, where a
    task costs milliseconds (kept under 10% of a game's time)."""
    if backend == "ray":
        return max(4, min(64, games // (workers * 4) or 1))
    return max(1, min(16, -(-games // (workers * 4))))

