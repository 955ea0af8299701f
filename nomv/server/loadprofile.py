"""Where a server's time goes under ``nomv bench --serve --profile``: py-spy samples the server
process while the players play (every thread, only while it holds the GIL: the CPU the Python
process itself spends), and the samples are summed by area (the framework, the database, the
JSON, the match service...) and by function.

py-spy is a separate program (``pip install py-spy``); it reads the process from outside, so the
server runs as it always does.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

#: Areas, by the start of a sampled frame's file (py-spy names a library's files from their
#: package: ``json/encoder.py``, ``sqlalchemy/engine/base.py``, ``nomv/server/store.py``).  The
#: innermost frame that belongs to an area names the sample's area.
AREAS = [
    ("json (the standard library's)", "json/"),
    ("orjson", "orjson"),
    ("pydantic (validating answers)", "pydantic"),
    ("sqlalchemy", "sqlalchemy/"),
    ("sqlite3", "sqlite3/"),
    ("psycopg", "psycopg"),
    ("websockets", "websockets/"),
    ("uvicorn", "uvicorn/"),
    ("h11 / httptools", "h11/"),
    ("h11 / httptools", "httptools/"),
    ("fastapi", "fastapi/"),
    ("starlette", "starlette/"),
    ("anyio (request threads)", "anyio/"),
    ("asyncio", "asyncio/"),
    ("uvloop", "uvloop/"),
    ("argon2", "argon2/"),
    ("nomv: worker pool (pipes)", "nomv/pool.py"),
    ("nomv: worker pool (pipes)", "nomv/worker.py"),
    ("nomv: game", "nomv/game.py"),
    ("nomv: marks", "nomv/play/marks.py"),
    ("nomv.server.engines", "nomv/server/engines.py"),
    ("nomv.server.looks", "nomv/server/looks.py"),
    ("nomv.server.accounts", "nomv/server/accounts.py"),
    ("nomv.server.store", "nomv/server/store.py"),
    ("nomv.server.matches", "nomv/server/matches/"),
    ("nomv.server.api", "nomv/server/api/"),
    ("nomv.server.live", "nomv/server/live.py"),
    ("nomv.server.guard", "nomv/server/guard.py"),
    ("nomv.server (other)", "nomv/server/"),
    ("threads, locks, queues", "threading.py"),
    ("threads, locks, queues", "queue.py"),
    ("threads, locks, queues", "concurrent/"),
    ("multiprocessing", "multiprocessing/"),
    ("sockets", "socket.py"),
    ("sockets", "selectors.py"),
]


def available() -> bool:
    return shutil.which("py-spy") is not None


class Profiler:
    """py-spy recording a process for ``seconds``; :meth:`summary` once it ended."""

    def __init__(self, pid: int, seconds: float, rate: int = 100):
        if not available():
            raise RuntimeError("--profile needs py-spy: pip install py-spy")
        self.out = Path(tempfile.mkdtemp(prefix="nomv-profile-")) / "samples.txt"
        self.process = subprocess.Popen(
            ["py-spy", "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
             "--rate", str(rate), "--format", "raw", "--gil", "--nonblocking", "--output", str(self.out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def summary(self, top: int = 25) -> dict:
        try:
            _out, err = self.process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _out, err = self.process.communicate()
        if not self.out.exists():
            raise RuntimeError(f"py-spy recorded nothing: {err.decode(errors='replace')[-500:]}")
        return summarise(self.out.read_text(encoding="utf-8", errors="replace"), top)


def _frames(stack: str) -> list[str]:
    return [f for f in stack.split(";") if f]


def _file(frame: str) -> str:
    """``describe (nomv/server/matches/views.py:80)`` -> ``nomv/server/matches/views.py``."""
    return frame.rpartition(" (")[2].rstrip(")").rsplit(":", 1)[0]


def _area(frames: list[str]) -> str:
    for frame in reversed(frames):
        path = _file(frame)
        for name, start in AREAS:
            if path.startswith(start) or "/" + start in path:
                return name
    return "other"


def summarise(raw: str, top: int = 25) -> dict:
    """Shares of the samples (py-spy's raw format: ``frame;frame;... count`` a line) by area of
    the innermost known frame, and by function (self: the innermost frame; total: anywhere in
    the stack, nomv's own functions only)."""
    areas: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = _frames(stack)
        samples += n
        areas[_area(frames)] += n
        if frames:
            own[_short(frames[-1])] += n
        for frame in set(frames):
            if _file(frame).startswith("nomv/") and "nomv/__main__" not in frame and "nomv/cli.py" not in frame \
                    and "nomv/server/serve.py" not in frame:
                total[_short(frame)] += n

    def shares(counter: Counter[str], k: int) -> list[tuple[str, float]]:
        return [(name, round(100 * n / samples, 1)) for name, n in counter.most_common(k)] if samples else []
    return {"samples": samples, "areas": shares(areas, len(areas)), "self": shares(own, top),
            "nomv_total": shares(total, top)}


def _short(frame: str) -> str:
    """``describe (/x/y/nomv/server/matches/views.py:80)`` -> ``describe (nomv/server/matches/views.py:80)``."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    for cut in ("site-packages/", "/lib/python3", "nomv/"):
        k = where.find(cut)
        if k >= 0:
            where = where[k:] if cut == "nomv/" else where[k + len(cut):]
            break
    return f"{name} ({where})"


def format_summary(title: str, summary: dict) -> str:
    lines = [f"where the server's time goes, {title} ({summary['samples']} samples of its threads "
             "holding the GIL):", "  by area:"]
    lines += [f"    {share:5.1f}%  {name}" for name, share in summary["areas"]]
    lines.append("  functions, by their own time:")
    lines += [f"    {share:5.1f}%  {name}" for name, share in summary["self"]]
    lines.append("  nomv's functions, with what they call:")
    lines += [f"    {share:5.1f}%  {name}" for name, share in summary["nomv_total"]]
    return "\n".join(lines)
