"""A run's provenance: the manifest written beside its rows (``OUT.manifest.json``).

It holds the exlibris version, the command, the plan (cells, games, seed, seats)
and the SHA-256 of every rules and content file the games read (the shipped
ones by their path under the data folder, an author's by their resolved path).
``--resume`` compares the files: rows made under other rules are refused, naming
the file that changed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from exlibris.limits import MAX_FILE_BYTES
from exlibris.safefile import FileRefused, read_limited

FORMAT = 1


def manifest_path(out: Path) -> Path:
    return out.with_name(out.name + ".manifest.json")


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(read_limited(path, MAX_FILE_BYTES)).hexdigest()
    except FileRefused:
        return "unreadable"


def file_hashes(content: Iterable[str] = ()) -> dict[str, str]:
    """``{name: sha256}`` for every shipped rules and content file and every file
    of an author's ``content`` (files and folders, resolved paths)."""
    from exlibris.catalog import own_files
    from exlibris.paths import content_dir, data_root, rules_dir
    from exlibris.sources import yaml_files

    root = data_root()
    hashes = {str(p.relative_to(root)): _digest(p)
              for p in yaml_files([rules_dir(), content_dir()])}
    for path in own_files(tuple(Path(p) for p in content)):
        hashes[str(path.resolve())] = _digest(path)
    return dict(sorted(hashes.items()))


def build(plan: dict[str, Any], content: Iterable[str] = (),
          command: list[str] | None = None) -> dict[str, Any]:
    import exlibris

    return {"format": FORMAT, "exlibris": exlibris.__version__,
            "command": list(sys.argv if command is None else command),
            "plan": plan, "files": file_hashes(content)}


def changed_files(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The files whose hash differs between two manifests, or that only one has."""
    a, b = old.get("files") or {}, new.get("files") or {}
    if not isinstance(a, dict):
        return ["(the manifest's file list is damaged)"]
    return sorted(name for name in set(a) | set(b) if a.get(name) != b.get(name))


def read(path: Path) -> dict[str, Any]:
    """The manifest at ``path``; ``ValueError`` naming the file if it is damaged."""
    try:
        data = json.loads(read_limited(path, MAX_FILE_BYTES * 10).decode("utf-8"))
    except FileRefused as exc:
        raise ValueError(f"{path}: {exc}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ValueError(f"{path}:1: not a run manifest ({str(exc)[:120]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}:1: not a run manifest of this exlibris")
    wrong = shape_problem(data)
    if wrong is not None:
        raise ValueError(f"{path}:1: a damaged run manifest: {wrong}")
    return data


MAX_CELLS = 10_000  # cells of a plan (variants times player counts)
MAX_FILES = 100_000  # files a manifest hashes
MAX_TEXT = 4_096  # one string of a manifest (a variant, a seat, a file's name)


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _texts(value: Any, most: int) -> bool:
    return isinstance(value, list) and len(value) <= most and all(
        isinstance(v, str) and len(v) <= MAX_TEXT for v in value)


def shape_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with the shape of a manifest's fields (None: nothing): the plan
    an object of cells ``[variant, players]``, games, seed, seats and rotate; files a
    mapping of names to hashes; every number and list bounded."""
    from exlibris.limits import MAX_SEED, MAX_SIM_GAMES

    plan = data.get("plan")
    if not isinstance(plan, dict):
        return "'plan' is not an object"
    cells = plan.get("cells")
    if not isinstance(cells, list) or not 0 < len(cells) <= MAX_CELLS or not all(
            isinstance(c, list) and len(c) == 2 and isinstance(c[0], str)
            and len(c[0]) <= MAX_TEXT and _whole(c[1], 1, 5) for c in cells):
        return "'plan' 'cells' is not a list of [variant, players]"
    if not _whole(plan.get("games"), 1, MAX_SIM_GAMES):
        return f"'plan' 'games' is not a whole number from 1 to {MAX_SIM_GAMES}"
    if not _whole(plan.get("seed"), -MAX_SEED, MAX_SEED):
        return "'plan' 'seed' is not a seed"
    if not _texts(plan.get("seats"), 100) or not plan["seats"]:
        return "'plan' 'seats' is not a list of seats"
    if not isinstance(plan.get("rotate"), bool):
        return "'plan' 'rotate' is not true or false"
    files = data.get("files")
    if not isinstance(files, dict) or len(files) > MAX_FILES or not all(
            len(k) <= MAX_TEXT and isinstance(v, str) and len(v) <= 64
            for k, v in files.items()):
        return "'files' is not a mapping of file names to hashes"
    if not isinstance(data.get("exlibris"), str) or len(data["exlibris"]) > 100:
        return "'exlibris' is not a version"
    command = data.get("command")
    if command is not None and not _texts(command, 10_000):
        return "'command' is not a list of words"
    return None


def text(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=1) + "\n"
