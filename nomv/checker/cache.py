"""Reports of scripts checked before, kept so that ``nomv check`` run again on a folder checks
only the scripts that changed (an author who checks on every save changed one of them).

A report is kept under a key made of everything that decides it: the script's path and text,
the check's settings, and nomv itself (its own code, Python and Lua, and the version of lupa,
whose runtimes run the scripts).  The same key gives the same games (the seed is fixed), so the
report kept is the one a new check would give, but for the number of games a budget of CPU time
buys on a busier or quieter machine.  Reports that a busy machine may have decided (a call over
the time limit, E101; over the memory limit, E102) and reports of a check that failed in nomv
itself are not kept.  ``nomv check --fresh`` checks every script again.

The folder is the user's cache (``$XDG_CACHE_HOME/nomv/check``, ``~/.cache/nomv/check`` on
Linux); each report is a small JSON file, written whole or not at all.  A file that cannot be
read or does not match is ignored, and the script checked again.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .report import Diagnostic, ScriptReport

#: Changed when what a kept report holds changes: older files are then ignored.
FORMAT = 1
#: Codes whose reports are not kept: a busy machine may have decided them.
UNKEPT = frozenset({"E101", "E102"})
#: Kept reports at most; the oldest go first.
MOST = 2000

_fingerprint: str | None = None


def folder() -> Path:
    """Where reports are kept."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "nomv" / "check"


def nomv_fingerprint() -> str:
    """A digest of nomv's own code (every .py and .lua file of the package) and of lupa's
    version: another nomv may check the same script differently."""
    global _fingerprint
    if _fingerprint is None:
        from importlib.metadata import PackageNotFoundError, version
        package = Path(__file__).resolve().parent.parent
        digest = hashlib.sha256()
        try:
            digest.update(version("lupa").encode())
        except PackageNotFoundError:
            pass
        for path in sorted(p for p in package.rglob("*") if p.suffix in (".py", ".lua") and p.is_file()):
            digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes() + b"\0")
        _fingerprint = digest.hexdigest()
    return _fingerprint


def key(path: str, source: str, settings: tuple) -> str:
    """The key of the report of `path` holding `source`, checked with `settings`."""
    digest = hashlib.sha256()
    for part in (str(FORMAT), nomv_fingerprint(), os.environ.get("NOMV_SLOWER", ""), path, repr(settings), source):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def load(k: str) -> ScriptReport | None:
    """The report kept under key `k`, or None."""
    try:
        data = json.loads((folder() / f"{k}.json").read_text(encoding="utf-8"))
        if data.get("key") != k:
            return None
        fields = data["report"]
        fields["diagnostics"] = [Diagnostic(**d) for d in fields["diagnostics"]]
        report = ScriptReport(**fields)
        report.checked_at = data["at"]
        return report
    except (OSError, ValueError, TypeError, KeyError):
        return None


def keepable(report: ScriptReport) -> bool:
    return not any(d.code in UNKEPT or "this is a bug in nomv" in d.message for d in report.diagnostics)


def save(k: str, report: ScriptReport) -> None:
    """Keeps `report` under key `k` (quietly not, when the folder cannot be written)."""
    if not keepable(report):
        return
    data: dict[str, Any] = {"key": k, "at": time.time(), "report": dataclasses.asdict(report)}
    data["report"].pop("checked_at", None)
    where = folder()
    tmp = None
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, where / f"{k}.json")
        tmp = None
        _trim(where)
    except (OSError, TypeError, ValueError):
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _trim(where: Path) -> None:
    kept = list(where.glob("*.json"))
    if len(kept) <= MOST:
        return
    kept.sort(key=lambda p: p.stat().st_mtime)
    for p in kept[:len(kept) - MOST]:
        try:
            p.unlink()
        except OSError:
            pass
