"""Shared fixtures, and the reset of process state that keeps tests independent of order."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from exlibris import catalog, sources

ROOT = Path(__file__).resolve().parent.parent
# What an author may have set that changes the content every command reads.
AUTHOR_ENVIRONMENT = ("EXLIBRIS_CONTENT",)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``'s workers: twice the cores, four more at most. A fifth of the
    suite's time is spent waiting on the commands, terminals and clusters it drives,
    which other workers' tests fill (README, "Set-up": the whole suite's minutes on
    2 cores with 4 workers and with 2)."""
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    return cores + min(cores, 4)


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The shipped catalog's cache goes to a folder of this run, never the real home
    (subprocesses inherit it too)."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(autouse=True)
def _fresh_process_state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test starts as a fresh process would, whatever ran before it in this worker,
    and leaves nothing behind: the shipped content alone in use (a command run through
    CliRunner keeps its ``--content`` in use: ``sources.use_content``), the catalogs of
    an author's content forgotten, an empty state folder of its own (autosaves never go
    to the real home, nor pile up there until a game has no room: ``save/no-room``),
    the environment and working folder as they were."""
    environment = dict(os.environ)
    folder = os.getcwd()
    for name in AUTHOR_ENVIRONMENT:
        os.environ.pop(name, None)
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    sources.use_content(())
    catalog._load.cache_clear()
    try:
        yield
    finally:
        sources.use_content(())
        catalog._load.cache_clear()
        os.environ.clear()
        os.environ.update(environment)
        os.chdir(folder)
