"""``nomv check`` of an uploaded script in a process of its own, under a budget of CPU time.

The check plays random games at every ply (in worker processes of its own, each call under the
server's time and memory limits), so a legal but slow script makes it long: 900 plies of 0.15 s
each is over two minutes a game.  Run here, it costs the server process nothing (not a request
thread, not the GIL), and the whole of it, the checker and its workers together, is stopped once
it has used ``budget`` seconds of CPU (or four times that in real time, on a machine too busy to
give it any): the upload is then refused, and says why.

The checker runs as ``python -c ...`` in a new session, so that its workers are in its process
group: their CPU time is counted with its own, and one signal stops them all.  One is started
ahead, ready for the next check.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ..limits import Limits

#: How the checker's messages name the uploaded file.
SHOWN_AS = "upload.lua"
#: The most messages an answer carries (the first ones, errors before warnings).
MAX_DIAGNOSTICS = 200
#: Real time allowed, as a multiple of the CPU budget (a check waiting for a processor).
WALL_FACTOR = 4
#: How often the budget is looked at (seconds).
POLL = 0.2


class CheckStopped(Exception):
    """The check was stopped: over its budget, or the server is stopping."""


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def group_cpu(pgid: int) -> float | None:
    """CPU seconds used by the processes of a process group (each one's own and its waited-for
    children's), from Linux's /proc; None where there is no /proc."""
    total = 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue   # it ended meanwhile
        if int(fields[2]) == pgid:
            total += sum(int(x) for x in fields[11:15])   # utime stime cutime cstime
    return total / _TICKS


class _Spare:
    """A checker process started ahead of its check (Python, nomv's checker and a worker
    process take a second to start): it waits for its request on stdin."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready: subprocess.Popen | None = None

    @staticmethod
    def _start() -> subprocess.Popen:
        code = "import sys; sys.path.insert(0, sys.argv[1]); from nomv.server.checking import main; main()"
        root = str(Path(__file__).resolve().parents[2])
        return subprocess.Popen([sys.executable, "-c", code, root], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL,
                                stderr=None if os.environ.get("NOMV_DEBUG") else subprocess.DEVNULL,
                                start_new_session=True, close_fds=True)

    def take(self) -> subprocess.Popen:
        """A started checker process, and another started for next time."""
        with self._lock:
            taken = self._ready if self._ready is not None and self._ready.poll() is None else None
            self._ready = self._start()
        return taken or self._start()

    def close(self) -> None:
        with self._lock:
            ready, self._ready = self._ready, None
        if ready is not None and ready.poll() is None:
            ready.kill()
            ready.wait()


_spare = _Spare()


def close_spare() -> None:
    """Stops the checker process started ahead (the server stops)."""
    _spare.close()


def run_check(source: str, *, playouts: int, fast_games: int = 0, extremes: bool, limits: Limits, budget: float,
              stop: threading.Event | None = None) -> tuple[list[dict[str, Any]], float]:
    """The checker's messages on ``source`` (each ``Diagnostic.to_json()`` with ``text``, named
    SHOWN_AS), and the CPU seconds the check used.  CheckStopped past ``budget`` seconds of CPU,
    or when ``stop`` is set."""
    with tempfile.TemporaryDirectory(prefix="nomv-upload-") as folder:
        script = Path(folder) / SHOWN_AS
        script.write_text(source, encoding="utf-8")
        request = {"script": str(script), "out": str(Path(folder) / "report.json"), "playouts": playouts,
                   "fast_games": fast_games, "extremes": extremes, "time": limits.time, "memory": limits.memory}
        process = _spare.take()
        before = group_cpu(process.pid) or 0.0      # (its start is not the check's)
        started = time.monotonic()
        used = 0.0
        try:
            assert process.stdin is not None
            try:
                process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
                process.stdin.close()
            except OSError:
                pass   # it died: said below, as a check without a report
            while process.poll() is None:
                # (often, at first: most checks take a second or two)
                pause = min(POLL, 0.02 + (time.monotonic() - started) / 10)
                if stop is None:
                    time.sleep(pause)
                elif stop.wait(pause):
                    raise CheckStopped("the server is stopping")
                measured = group_cpu(process.pid)
                wall = time.monotonic() - started
                used = measured - before if measured is not None else wall
                if used > budget:
                    raise CheckStopped(f"nomv check used {used:.0f} s of CPU on this script, more than the "
                                       f"{budget:g} s this server gives a check")
                if wall > WALL_FACTOR * budget:
                    raise CheckStopped(f"nomv check ran {wall:.0f} s on this script (it had used {used:.0f} s "
                                       f"of CPU: the server is busy), more than {WALL_FACTOR} times the "
                                       f"{budget:g} s this server gives a check")
        finally:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except OSError:
                    pass
                process.wait()
        try:
            report = json.loads((Path(folder) / "report.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise RuntimeError(f"the checker ended without a report (exit code {process.returncode})") from None
    if "crash" in report:
        raise RuntimeError(report["crash"])
    return report["diagnostics"], used


def main() -> None:
    """The checker's process: made ready (the checker imported, a worker process started), it
    waits for its request on stdin, checks the script and writes its messages as JSON."""
    import signal as signals
    signals.signal(signals.SIGINT, signals.SIG_IGN)   # Ctrl+C is for the server, which stops us
    from .. import worker
    from ..checker import check
    worker.warm()
    line = sys.stdin.readline()
    if not line:
        return      # not needed after all (the server stopped)
    request = json.loads(line)
    out = Path(request["out"])
    try:
        path = request["script"]
        report = check(path, playouts=request["playouts"], seconds=0, coverage=False,
                       stats_games=request["fast_games"],
                       extremes=request["extremes"], limits=Limits(request["time"], request["memory"]), jobs=1)
        diagnostics = []
        for d in report.diagnostics:
            data = d.to_json()
            data["path"] = SHOWN_AS
            data["text"] = str(d).replace(path, SHOWN_AS)
            data["message"] = data["message"].replace(path, SHOWN_AS)
            diagnostics.append(data)
        diagnostics.sort(key=lambda d: d["severity"] != "error")   # (stable: in order otherwise)
        result: dict[str, Any] = {"diagnostics": diagnostics[:MAX_DIAGNOSTICS]}
    except Exception as exc:   # the checker itself broke: say so
        result = {"crash": f"{type(exc).__name__}: {exc}"}
    out.write_text(json.dumps(result), encoding="utf-8")
