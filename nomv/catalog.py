"""Finding game scripts (bundled games, the user's games folder, NOMV_PATH, or a file path), and
the documentation that comes with nomv."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import GameNotFoundError, ScriptError
from .files import UnreadableFile, read_text_file
from .options import suggestion

#: The largest script nomv reads (the bundled games are under 60 kB).
MAX_SCRIPT_BYTES = 8 * 2**20


def read_script(path: str | Path) -> str:
    """A script's text: a regular file of UTF-8 text of at most MAX_SCRIPT_BYTES, else a
    :class:`ScriptError` naming the file (and the line of a byte that is not UTF-8)."""
    try:
        return read_text_file(path, MAX_SCRIPT_BYTES)
    except UnreadableFile as exc:
        raise ScriptError(exc.reason, exc.path, exc.line, hook="load") from None


@dataclass(frozen=True)
class Found:
    name: str
    path: Path
    origin: str  # "bundled", "user", "path" (NOMV_PATH) or "file"


def bundled_dir() -> Path:
    """The folder of bundled games: inside the installed package, else the source checkout's."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "games", here.parent / "games"):
        if candidate.is_dir():
            return candidate
    return here / "games"


def doc(name: str) -> Path:
    """A page of nomv's documentation (``tutorial.md``): the copy installed with the package
    (pip), else the source checkout's ``docs`` folder."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "docs", here.parent / "docs"):
        if (candidate / name).is_file():
            return candidate / name
    return here / "docs" / name


def user_dir() -> Path:
    """Where the user's own games live (``nomv new`` writes there)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "nomv" / "games"


def search_dirs() -> list[tuple[Path, str]]:
    dirs = [(Path(p), "path") for p in os.environ.get("NOMV_PATH", "").split(os.pathsep) if p]
    return dirs + [(user_dir(), "user"), (bundled_dir(), "bundled")]


def all_games() -> list[Found]:
    """Every game found by name, first match of each name winning (NOMV_PATH, user, bundled)."""
    seen: dict[str, Found] = {}
    for folder, origin in search_dirs():
        if folder.is_dir():
            for path in sorted(folder.glob("*.lua")):
                seen.setdefault(path.stem, Found(path.stem, path, origin))
    return sorted(seen.values(), key=lambda f: f.name)


def find(name: str) -> Found:
    """A game by name (``trinim``) or by path (``games/trinim.lua``, ``./my.lua``)."""
    path = Path(name)
    if name.endswith(".lua") or os.sep in name or (os.altsep and os.altsep in name):
        if path.is_file():
            return Found(path.stem, path, "file")
        raise GameNotFoundError(f"no such script file: {name}")
    for folder, origin in search_dirs():
        candidate = folder / f"{name}.lua"
        if candidate.is_file():
            return Found(name, candidate, origin)
    names = [f.name for f in all_games()]
    raise GameNotFoundError(f"no game named {name!r}{suggestion(name, names)}; games: {', '.join(names) or 'none'}")
