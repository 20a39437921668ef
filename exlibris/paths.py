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


def xdg_folder(variable: str, *default: str) -> Path:
    """``$variable`` (an XDG base folder such as ``XDG_CACHE_HOME``), else the home
    folder joined with ``default``. As the XDG base directory spec asks, a value
    that is not an absolute path is ignored, and so is one no folder can have (a
    NUL, too long: ``safefile.name_problem``)."""
    import os

    from exlibris.safefile import name_problem

    value = os.environ.get(variable, "")
    if value and os.path.isabs(value) and name_problem(value) is None:
        return Path(value)
    return Path.home().joinpath(*default)
