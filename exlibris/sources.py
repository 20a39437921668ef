"""Where content comes from: the author's paths (``--content``, ``EXLIBRIS_CONTENT``)
in use by this process, and the YAML files of a tree judged by their ``kind:`` line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from exlibris.limits import MAX_FILE_BYTES, MAX_FOLDER_DEPTH, MAX_FOLDER_ENTRIES
from exlibris.safefile import FileRefused, is_symlink_escape, read_limited


def yaml_files(paths: Iterable[Path]) -> list[Path]:
    """The YAML files named, or found (recursively, sorted) in the folders named.

    Hidden folders and files inside a folder (``.git/``, ``.github/``,
    ``.pre-commit-config.yaml``) are left out, and so are the paths git ignores inside
    a folder git keeps (a parked draft; :func:`ignored_files` lists them: a folder
    named that git ignores itself is read whole) and links that lead out of the
    folder (:func:`outside_links` lists them).
    """
    return [path for path, _ in yaml_targets(paths)]


def yaml_targets(paths: Iterable[Path]) -> list[tuple[Path, Path]]:
    """:func:`yaml_files`, each with the file it resolves to (resolving a path is a
    ``stat`` of each of its parts: a caller that needs both asks once)."""
    found: list[tuple[Path, Path]] = []
    for path in paths:
        if path.is_dir():
            root = _resolved(path)
            for file, inside in _walk(path):
                if root is not None and inside is not None:  # reached through no link:
                    found.append((file, root / inside))  # where its path says, under root
                    continue
                target = _resolved(file)
                if root is not None and target is not None and target.is_relative_to(root):
                    found.append((file, target))
        else:
            found.append((path, _resolved(path) or path))
    return found


def unlinked_files(folder: Path) -> list[tuple[Path, str]] | None:
    """The YAML files under ``folder`` (as :func:`yaml_files` finds them), each with its
    path inside the folder; None if a link leads to any of them (only resolving it says
    where it is, and whether it leads out: :func:`outside_links`)."""
    found = _walk(folder)
    inside = [(path, within) for path, within in found if within is not None]
    return inside if len(inside) == len(found) else None


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return None


def outside_links(paths: Iterable[Path]) -> list[Path]:
    """YAML files in the folders named that are symlinks (or under one) leading out of
    the folder: never read, reported by ``exlibris validate``. (A file reached through
    no link is where its path says, inside the folder: only the others are resolved.)"""
    found = []
    for path in paths:
        if path.is_dir():
            inside_root = _resolved(path) is not None
            found += [p for p, inside in _walk(path)
                      if not (inside_root and inside is not None) and is_symlink_escape(p, path)]
    return found


def _in_folder(folder: Path, *, filtered: bool = True) -> list[Path]:
    """The YAML files under ``folder``, hidden files and folders left out: walked without
    recursion, each folder once (a link back up is not a loop), an entry that vanishes
    or cannot be read passed over; past ``MAX_FOLDER_DEPTH`` levels or
    ``MAX_FOLDER_ENTRIES`` entries a ``UserInputError``. ``filtered``: the files git
    ignores inside a folder it keeps are left out (``ignored_in``)."""
    return [path for path, _ in _walk(folder, filtered=filtered)]


def _walk(folder: Path, *, filtered: bool = True) -> list[tuple[Path, str | None]]:
    """:func:`_in_folder`, each file with its path inside ``folder`` when no link
    leads to it (None when one does: only resolving it says where it is)."""
    found: list[tuple[Path, str | None]] = []
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[Path, int, str | None]] = [(folder, 0, "")]
    entries = 0
    while stack:
        current, depth, inside = stack.pop()
        try:
            info = current.stat()
            if (info.st_dev, info.st_ino) in seen:
                continue
            seen.add((info.st_dev, info.st_ino))
            with os.scandir(current) as listing:
                children = list(listing)
        except (OSError, ValueError):
            continue  # gone, or not readable: nothing of it is read
        entries += len(children)
        if entries > MAX_FOLDER_ENTRIES:
            _refuse(folder, "content/too-many-files",
                    f"more than {MAX_FOLDER_ENTRIES} files and folders under this folder; "
                    "name the folder that holds your content")
        for entry in children:
            try:
                is_dir = entry.is_dir()
                is_file = not is_dir and (entry.is_file() or entry.is_symlink())
                linked = entry.is_symlink()
            except OSError:
                continue
            within = None if inside is None or linked else \
                (f"{inside}/{entry.name}" if inside else entry.name)
            if is_dir and not entry.name.startswith("."):
                if depth >= MAX_FOLDER_DEPTH:
                    _refuse(Path(entry.path), "content/too-deep",
                            f"folders nested more than {MAX_FOLDER_DEPTH} deep")
                stack.append((Path(entry.path), depth + 1, within))
            elif (is_file and not entry.name.startswith(".")
                  and Path(entry.name).suffix in (".yaml", ".yml")):
                found.append((Path(entry.path), within))
    found.sort(key=lambda pair: pair[0])
    ignored = ignored_in(folder, [path for path, _ in found]) if filtered else set()
    return [pair for pair in found if pair[0] not in ignored] if ignored else found


def ignored_in(folder: Path, found: list[Path]) -> set[Path]:
    """Those of ``found`` (files under ``folder``) that are left out as git ignores
    them: none when ``folder`` is the package's own, or is itself ignored (a folder
    named on the command line is always read: only files found inside a folder git
    keeps are left out, as parked drafts)."""
    if not found or _shipped(folder):
        return set()
    ignored = git_ignored(folder, [folder, *found])
    return set() if folder in ignored else ignored


def ignored_files(paths: Iterable[Path]) -> list[Path]:
    """The YAML files under the folders named that are left out as git ignores them
    (what ``yaml_files`` leaves out, for a note that says so)."""
    left: list[Path] = []
    for path in paths:
        if path.is_dir():
            every = _in_folder(path, filtered=False)
            left.extend(sorted(ignored_in(path, every)))
    return left


def _refuse(path: Path, code: str, message: str) -> NoReturn:
    from exlibris.errors import Problem, UserInputError
    from exlibris.safefile import shown_path

    raise UserInputError([Problem(shown_path(path), 1, 1, code, message)])


def _shipped(folder: Path) -> bool:
    from exlibris.paths import content_dir, rules_dir

    return folder.resolve() in (content_dir().resolve(), rules_dir().resolve())


def git_ignored(folder: Path, files: list[Path]) -> set[Path]:
    """Those of ``files`` that git ignores, when ``folder`` is in a git work tree and
    git is installed (otherwise none): ``git check-ignore`` answers as git would."""
    import shutil
    import subprocess

    if not files or shutil.which("git") is None:
        return set()
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "check-ignore", "--stdin", "-z"],
            input="\0".join(str(p.resolve()) for p in files) + "\0",
            capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return set()
    if done.returncode not in (0, 1):  # 128: not a work tree
        return set()
    named = {str(p.resolve()): p for p in files}
    return {named[n] for n in done.stdout.split("\0") if n in named}


_KIND_LINE = re.compile(r"^kind:[ \t]*[\"']?([A-Za-z0-9_-]*)", re.MULTILINE)


def file_kind(path: Path) -> str | None:
    """The top-level ``kind:`` of a YAML file, found without parsing it (None if it has
    no ``kind:`` line; ``"?"`` if it cannot be read as text)."""
    try:
        text = read_limited(path, MAX_FILE_BYTES).decode("utf-8")
    except (FileRefused, UnicodeDecodeError):
        return "?"
    match = _KIND_LINE.search(text.replace("\r\n", "\n").replace("\r", "\n"))  # CR-only too
    return match.group(1) if match else None


CONTENT_ENV = "EXLIBRIS_CONTENT"
_active: tuple[Path, ...] = ()  # the author's paths in use (see use_content)


def content_paths(given: Iterable[Path] = ()) -> tuple[Path, ...]:
    """An author's content: the ``EXLIBRIS_CONTENT`` path list, then ``given``. A path
    no file can have (a NUL, too long) is a :class:`UserInputError`."""
    from exlibris.errors import Problem, UserInputError
    from exlibris.safefile import name_problem, shown_path

    listed = [Path(p) for p in os.environ.get(CONTENT_ENV, "").split(os.pathsep) if p]
    wrong = [Problem(shown_path(p), 1, 1, "content/bad-path",
                     f"{name_problem(p)} (from {CONTENT_ENV} or --content)")
             for p in [*listed, *given] if name_problem(p) is not None]
    if wrong:
        raise UserInputError(wrong[:5])
    paths: list[Path] = []
    for path in [*listed, *given]:
        resolved = path.resolve()
        if resolved not in paths:
            paths.append(resolved)
    return tuple(paths)


def use_content(paths: Iterable[Path]) -> None:
    """Make ``exlibris.catalog.load_catalog()`` (and all that reads it) include these
    files and folders; the CLI sets it from ``--content`` and ``EXLIBRIS_CONTENT``."""
    global _active
    _active = tuple(dict.fromkeys(Path(p).resolve() for p in paths))


def active_content() -> tuple[Path, ...]:
    """The author's paths in use (empty: the shipped content only)."""
    return _active


@contextmanager
def content_in_use(paths: Iterable[Path]) -> Iterator[None]:
    """Add ``paths`` to the author's content in use for the ``with`` block (a scenario's
    own content while it runs), then put back what was in use."""
    saved = _active
    use_content([*saved, *paths])
    try:
        yield
    finally:
        use_content(saved)


def sort_files(paths: Iterable[Path]) -> tuple[list[Path], list[Path], list[Path]]:
    """An author's YAML files as (content, scenarios, other): each file is judged by its
    ``kind:``. A file without one found in a folder (a table,
    ``.pre-commit-config.yaml``) is "other"; a file with an unknown kind, or one named
    on its own, counts as content, so that its mistake is reported."""
    content: list[Path] = []
    scenarios: list[Path] = []
    other: list[Path] = []
    seen: set[Path] = set()
    for given in paths:
        for path, target in yaml_targets([given]):
            if target in seen:  # a file named and inside a folder named: once
                continue
            seen.add(target)
            kind = file_kind(path)
            if kind == "scenario":
                scenarios.append(path)
            elif kind is None and given.is_dir():  # a file named on its own is judged
                other.append(path)
            else:
                content.append(path)
    return content, scenarios, other
