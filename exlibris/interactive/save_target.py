"""Where a game may be saved: a folder that is there, and no file lost.

Before a game saves to a path: its folder must exist (only the default
autosave folder is created, under an existing ``$XDG_STATE_HOME`` or home
folder), a file already there must be a saved game, and another unfinished
game found there is kept under a numbered ``*.previous*.json``. The caller
holds the save's lock (``save_lock.py``) while it asks.
"""

from __future__ import annotations

import os
from pathlib import Path

from exlibris.interactive.record import (
    SaveError,
    SaveRecord,
    keep_previous,
    read_record,
    save,
)
from exlibris.safefile import FileRefused, create_new, output_problem
from exlibris.safefile import shown_path as _shown


def check_folder(path: Path, *, default: bool) -> None:
    """Raise ``save/unwritable`` unless a save can be written at ``path``; the folder
    of the default autosave (``default``) is created if need be."""
    if default:
        _make_state_folder(path.parent)
    problem = output_problem(path)
    if problem is None and not os.access(path.parent, os.W_OK | os.X_OK):
        problem = f"the folder {path.parent} cannot be written"
    if problem is not None:
        raise SaveError("save/unwritable", f"cannot save to {_shown(path)}: {problem}"
                        + ("; set XDG_STATE_HOME to a folder you can write, or choose "
                           "a file with --save" if default else ""))


def make_room(path: Path, record: SaveRecord, *, new_game: bool) -> Path | None:
    """Before ``record`` is saved at ``path``: refuse a file that is not a save
    (``save/not-a-save``), keep another unfinished game found there and return where
    it went. A finished game is replaced, and so is an earlier save of this very game
    (the same set-up, its decisions the first of ``record``'s) unless ``new_game``."""
    if not path.exists() and not path.is_symlink():
        return None
    try:
        old = read_record(path)
    except SaveError:
        raise SaveError("save/not-a-save", f"{_shown(path)} exists and is not a saved game; "
                        "it is left as it is: choose another file") from None
    if old.finished or (not new_game and same_game(old, record)):
        return None
    return keep_previous(path)


def same_game(old: SaveRecord, new: SaveRecord) -> bool:
    """Whether ``old`` is an earlier save of the game ``new`` records."""
    setup = ("seed", "seats", "names", "variant", "libraries", "library", "difficulty",
             "assistant")
    return (all(getattr(old, key) == getattr(new, key) for key in setup)
            and new.decisions[:len(old.decisions)] == old.decisions)


def _make_state_folder(folder: Path) -> None:
    """Create the autosave folder under ``$XDG_STATE_HOME`` or the home folder. A
    missing ``$XDG_STATE_HOME`` whose parent folder exists is made (0700, as the XDG
    base directory spec asks); a missing home, or a state folder that is a file, is
    said, never created."""
    from exlibris.paths import xdg_folder

    state = os.environ.get("XDG_STATE_HOME")
    base = xdg_folder("XDG_STATE_HOME")
    state = state if base != Path.home() else None
    try:
        if state and not base.exists() and base.parent.is_dir():
            base.mkdir(mode=0o700)
        if not base.is_dir():
            what = "XDG_STATE_HOME" if state else "your home folder"
            raise SaveError("save/unwritable", f"cannot make the autosave folder: {what} "
                            f"{_shown(base)} is not a folder; set XDG_STATE_HOME to a "
                            "folder you can write, or choose a file with --save")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError("save/unwritable", f"cannot make the autosave folder "
                        f"{_shown(folder)}: {exc.strerror}; set XDG_STATE_HOME to a folder "
                        "you can write, or choose a file with --save") from None


MAX_KEPT = 1000  # finished games kept for one seed


def keep_finished(record: SaveRecord, path: Path) -> Path | None:
    """Copy the finished game saved at ``path`` (the default autosave, which the next
    game replaces) to ``finished/seed-N.json`` beside it (``seed-N-2.json``... if
    taken; never overwriting) and return where; None if it cannot be written."""
    folder = path.parent / "finished"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        for n in range(1, MAX_KEPT + 1):
            kept = folder / (f"seed-{record.seed}.json" if n == 1 else
                             f"seed-{record.seed}-{n}.json")
            if not create_new(kept):
                continue  # taken (or a link there): never overwritten
            save(record, kept)  # claimed: no other game takes this name
            return kept
    except (OSError, SaveError, FileRefused):
        return None
    return None
