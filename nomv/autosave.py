"""Where nomv keeps a game in progress between runs, for the window and the terminal alike:
the autosave (written after every move), the games a new one replaced, and the offer of an
unfinished game at start-up.  No pygame here."""
from __future__ import annotations

import time
from pathlib import Path

from . import catalog
from .errors import NomvError
from .record import Record


def data_dir() -> Path:
    """nomv's data folder (~/.local/share/nomv on Linux): the autosave and replaced games."""
    return catalog.user_dir().parent


def autosave_path() -> Path:
    """Where the game in progress is saved after every move."""
    return data_dir() / "autosave.json"


def pending_autosave(path: Path | None = None) -> Record | None:
    """The unfinished game autosaved by an earlier run, to offer at start-up (None if there is
    none, it is finished, or the file cannot be read).  Also removes the temporary files of
    writes that a kill interrupted (Record.save writes a temporary file, then renames it)."""
    path = path or autosave_path()
    for stale in path.parent.glob(f".{path.name}.*"):
        try:
            if time.time() - stale.stat().st_mtime > 60:  # not another window's write in progress
                stale.unlink()
        except OSError:
            pass
    try:
        saved = Record.load(path) if path.is_file() else None
    except NomvError:
        return None
    if saved is not None and saved.moves and saved.result is None:
        return saved
    return None


def replaced_dir(autosave: Path) -> Path:
    """Where the games that new ones replaced are kept: beside the autosave."""
    return autosave.parent / "replaced"
