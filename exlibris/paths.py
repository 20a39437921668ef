"""Where the shipped content, rules and schemas live.

An installed wheel carries them in ``exlibris/_data/``; a source checkout keeps
them at the top of the repository.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_root() -> Path:
    """The folder that holds ``content/``, ``rules/`` and ``schemas/``."""
    bundled = _PACKAGE / "_data"
    if (bundled / "content").is_dir():
        return bundled
    return _PACKAGE.parent


@cache  # one Path: the inspection asks for it at every game's end
def content_dir() -> Path:
    return data_root() / "content"


def rules_dir() -> Path:
    return data_root() / "rules"


def schemas_dir() -> Path:
    return data_root() / "schemas"
