"""A game script in a child process that the host can kill: the hard time limit.

The count hook in ``host.lua`` stops a script that runs too long, but LuaJIT never calls hooks
inside compiled code, so ``while true do end`` would freeze the program.  A
:class:`WorkerEngine` serves exactly the requests of :class:`~nomv.engine.LuaEngine` from a child
process and kills that process when a request runs past the time limit (plus a short grace, so
that the hook, which knows the script's line, usually speaks first).  The next request starts a
fresh worker and loads the script again.

States stay in the worker; the parent holds :class:`RemoteState` handles.  A handle from a
worker that was killed is *stale*: using it raises :class:`StaleStateError`, and
:class:`~nomv.game.Position` rebuilds its states by replaying its moves.

Loops that legitimately run long (playouts, perft, a search) re-arm the limit at each game or
node; the worker reports those beats on its pipe, so only a single period without a beat counts
against the limit.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import Any

from .engine import LuaEngine, resolve_limits, runtime_name
from .errors import LimitError, ScriptError

#: Extra seconds the parent waits past the limit before killing: the in-Lua hook, which can
#: name the line, normally fires first.
GRACE = 0.25
#: How often the parent looks at a busy worker (seconds).
POLL = 0.02
#: A worker kept off the processor is stopped after this many times the limit in real time.
WALL_FACTOR = 4

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_seconds(pid: int, otherwise: float) -> float:
    """The CPU time a process has used (Linux /proc), else ``otherwise``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS   # utime + stime
    except (OSError, IndexError, ValueError):
        return otherwise


#: Requests whose errors the script side reports under another name: the name of the hook that
#: runs (a worker killed inside a request must name the same hook as Lua's own time limit).
HOOK_OF_REQUEST = {"notations": "notation", "move_count": "moves", "random_moves": "random_move"}


class StaleStateError(ScriptError):
    """A state handle from a worker process that has since been killed (an internal signal:
    :class:`~nomv.game.Position` catches it and replays its moves)."""


class StateRef:
    """What crosses the pipe for a state: its number in the worker's table."""

    __slots__ = ("id",)

    def __init__(self, id: int):
        self.id = id

    def __reduce__(self):
        return (StateRef, (self.id,))


class RemoteState:
    """A state living in a worker process.  Dropping the last reference frees it there."""

    __slots__ = ("id", "epoch", "_garbage", "__weakref__")

    def __init__(self, id: int, epoch: int, garbage: list[int]):
        self.id, self.epoch, self._garbage = id, epoch, garbage

    def __del__(self):
        try:
            self._garbage.append(self.id)
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        return f"<state {self.id} of worker {self.epoch}>"


# -- the child's side -----------------------------------------------------------------------------

def _error_data(exc: ScriptError) -> tuple:
    # Exceptions with their own __init__ do not pickle faithfully: send the fields.
    return (type(exc).__name__, exc.message, exc.line, exc.hook, exc.kind)


def _serve(conn) -> None:
    """The worker's main loop: wait for a script, load it, then answer requests until the pipe
    closes.  Runs in the child process."""
    def beat() -> None:
        conn.send(("beat", None, time.process_time()))

    try:
        source, path, runtime, time_limit, memory_limit = conn.recv()
    except (EOFError, OSError):
        return  # a spare worker that was never used
    # The time limit of loading starts now: starting Python and importing lupa do not count.
    beat()
    states: dict[int, Any] = {}
    next_id = 0

    try:
        engine = LuaEngine(source, path, runtime, time_limit, memory_limit)
    except ScriptError as exc:
        conn.send(("error", _error_data(exc), time.process_time()))
        return
    engine._call("set_beat", beat)
    conn.send(("ok", engine.description, time.process_time()))
    table_type = type(engine.table({}))

    def here(arg):
        return states[arg.id] if isinstance(arg, StateRef) else arg

    def keep(value):
        nonlocal next_id
        if isinstance(value, table_type):
            next_id += 1
            states[next_id] = value
            return StateRef(next_id)
        return value
    while True:
        try:
            method, args, freed = conn.recv()
        except (EOFError, OSError):
            return
        for i in freed:
            states.pop(i, None)
        try:
            if method == "batch":
                value = []
                over = False  # after a request that ran over a limit, the rest are skipped
                for name, item_args in args[0]:
                    if over:
                        value.append(("skipped", None))
                        continue
                    conn.send(("doing", name, 0.0))  # so that a kill names the right hook
                    (status, result), = engine.batch([(name, [here(a) for a in item_args])])
                    over = isinstance(result, LimitError)
                    value.append((status, _error_data(result) if status == "error" else keep(result)))
            else:
                value = keep(getattr(engine, method)(*[here(a) for a in args]))
            reply = ("ok", value)
        except ScriptError as exc:
            reply = ("error", _error_data(exc))
        except Exception as exc:  # a bug on our side: report it rather than die silently
            reply = ("error", _error_data(ScriptError(
                f"internal error in the worker: {type(exc).__name__}: {exc}", path, hook=method)))
        conn.send(reply + (time.process_time(),))


def _exit_with_parent() -> None:
    """Ends this worker when its parent dies, even in the middle of a long Lua loop (which
    would otherwise finish first): lupa lets other threads run while Lua runs."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.25)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="nomv-worker-watch", daemon=True).start()


def main(argv: list[str]) -> None:
    """``python -m nomv.worker READ_FD WRITE_FD`` (started by :func:`_new_process`)."""
    import signal
    from multiprocessing.connection import Connection
    # Ctrl+C is for the parent, which stops us by closing the pipe or killing us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()
    read_fd, write_fd = int(argv[0]), int(argv[1])
    reader, writer = Connection(read_fd, writable=False), Connection(write_fd, readable=False)

    class Duplex:  # one object with both ends, as _serve expects
        send, recv = writer.send, reader.recv

    _serve(Duplex())


# -- starting workers -------------------------------------------------------------------------------
# A worker is a fresh interpreter (not a fork: the parent may have threads, a window and Lua
# runtimes of its own), started with `python -c` so that nothing of the user's main module runs
# again.  Starting one takes ~0.1 s, so one spare is kept ready for the next game.

_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spare: tuple | None = None
_spare_lock = threading.Lock()


def _new_process() -> tuple:
    from multiprocessing.connection import Connection
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import nomv.worker as w; w.main(sys.argv[2:])")
    process = subprocess.Popen([sys.executable, "-c", code, _PACKAGE_ROOT, str(to_child_r), str(from_child_w)],
                               pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL,
                               close_fds=True)
    os.close(to_child_r)
    os.close(from_child_w)
    return process, Connection(to_child_w, readable=False), Connection(from_child_r, writable=False)


def _take_process() -> tuple:
    """A started worker process (the spare if it is ready), and a new spare for next time."""
    global _spare
    with _spare_lock:
        taken = _spare if _spare is not None and _spare[0].poll() is None else None
        _spare = _new_process()
    return taken or _new_process()


class WorkerEngine:
    """The requests of :class:`~nomv.engine.LuaEngine`, served by a child process that is killed
    when a request runs over the time limit.  Use from one thread at a time."""

    def __init__(self, source: str, path: str, runtime: str | None = None,
                 time_limit: float | None = None, memory_limit: int | None = None):
        self.runtime = runtime_name(runtime)
        self.path = path
        self.source = source
        self.time_limit, self.memory_limit = resolve_limits(time_limit, memory_limit)
        #: Bumped each time a worker starts; handles from an older worker are stale.
        self.epoch = 0
        #: How many workers were killed for running over the limit (for tests and the GUI).
        self.kills = 0
        self._process = self._send = self._recv = None
        self._garbage: list[int] = []
        self._cpu = 0.0  # the worker's CPU time at its last reply
        self._lock = threading.Lock()
        self.description: dict[str, Any] = self._start()

    # -- the worker's life ------------------------------------------------------------------

    def _start(self) -> dict:
        process, send, receive = _take_process()
        self.epoch += 1
        self._process, self._send, self._recv = process, send, receive
        self._garbage = []
        self._cpu = 0.0  # a new process: its first beat gives its CPU time
        try:
            send.send((self.source, self.path, self.runtime, self.time_limit, self.memory_limit))
        except OSError:
            pass  # it died at once: _receive says so
        return self._receive("load")

    def close(self) -> None:
        """Stops the worker process (a later request starts a new one)."""
        process = self._process
        self._process = None
        for conn in (self._send, self._recv):
            if conn is not None:
                conn.close()
        self._send = self._recv = None
        if process is not None:
            try:
                process.wait(0.5)  # it exits by itself once its pipe is closed
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _kill(self) -> None:
        process = self._process
        self._process = None
        if process is not None:
            process.kill()
            process.wait()
        self.close()

    def _receive(self, request: str) -> Any:
        """Waits for the reply to ``request``, killing the worker if it goes silent too long.

        "Too long" is counted like the hook inside Lua counts it, in the worker's CPU time, so
        that a busy machine does not stop a script that is only waiting for a processor; a
        worker that gets no processor at all is stopped after several times the limit."""
        receive, process = self._recv, self._process
        since = time.monotonic()       # the last sign of progress: the request or a beat
        since_cpu = self._cpu          # the worker's CPU time then
        limit = self.time_limit
        while True:
            try:
                if receive.poll(POLL):
                    status, value, cpu = receive.recv()
                    if status == "beat":
                        since, since_cpu = time.monotonic(), cpu
                        continue
                    if status == "doing":
                        request = value
                        continue
                    self._cpu = cpu
                    break
            except (EOFError, OSError):
                status, value = "died", None
                break
            if process.poll() is not None:
                status, value = "died", None
                break
            waited = time.monotonic() - since
            if limit > 0 and waited > limit + GRACE and (
                    waited > WALL_FACTOR * limit + GRACE
                    or _cpu_seconds(process.pid, since_cpu + waited) - since_cpu > limit + GRACE):
                self._kill()
                self.kills += 1
                raise LimitError(f"took longer than {limit:g} seconds (the time limit); stopped",
                                 self.path, hook=HOOK_OF_REQUEST.get(request, request), kind="time")
        if status == "ok":
            return value
        if status == "error":
            name, message, line, hook, kind = value
            cls = LimitError if name == "LimitError" else ScriptError
            raise cls(message, self.path, line, hook, kind)
        raise self._ended(process, request)

    def _ended(self, process, request: str) -> ScriptError:
        """The error for a worker that died under a request (killed from outside, or crashed)."""
        try:
            code = process.wait(1)
        except subprocess.TimeoutExpired:
            code = None
        self._kill()
        if code is not None and code < 0:
            how = f"was killed by signal {-code}"
        else:
            how = f"ended unexpectedly (exit code {code})"
        return ScriptError(f"the script's worker process {how}", self.path, hook=HOOK_OF_REQUEST.get(request, request))

    def request(self, method: str, *args: Any) -> Any:
        with self._lock:
            if self._process is None:
                self.description = self._start()
            for a in args:
                if isinstance(a, RemoteState) and a.epoch != self.epoch:
                    raise StaleStateError("this state belonged to a worker that was stopped",
                                          self.path, hook=method)
            freed, self._garbage[:] = list(self._garbage), []
            wire = [StateRef(a.id) if isinstance(a, RemoteState) else a for a in args]
            try:
                self._send.send((method, wire, freed))
            except (OSError, ValueError):
                # It died before the request reached it: say how, as when it dies under one.
                raise self._ended(self._process, method) from None
            value = self._receive(method)
            return self._local(value)

    def _local(self, value: Any) -> Any:
        if isinstance(value, StateRef):
            return RemoteState(value.id, self.epoch, self._garbage)
        return value

    def batch(self, requests: list[tuple[str, tuple]]) -> list[tuple[str, Any]]:
        """Like :meth:`LuaEngine.batch`, in one round trip to the worker."""
        for name, _args in requests:
            if name.startswith("_") or name in ("batch", "table") or not hasattr(LuaEngine, name):
                raise ValueError(f"{name!r} cannot be batched")
        wire = [(name, [StateRef(a.id) if isinstance(a, RemoteState) else a for a in args])
                for name, args in requests]
        with self._lock:
            if self._process is None:
                self.description = self._start()
        for name, args in requests:
            for a in args:
                if isinstance(a, RemoteState) and a.epoch != self.epoch:
                    raise StaleStateError("this state belonged to a worker that was stopped",
                                          self.path, hook=name)
        out = []
        for status, value in self.request("batch", wire):
            if status == "error":
                name, message, line, hook, kind = value
                cls = LimitError if name == "LimitError" else ScriptError
                out.append(("error", cls(message, self.path, line, hook, kind)))
            else:
                out.append(("ok", self._local(value)))
        return out

    def __getattr__(self, name: str):
        # Every public request of LuaEngine, served remotely.
        if name.startswith("_") or not callable(getattr(LuaEngine, name, None)) or name == "table":
            raise AttributeError(name)
        return lambda *args: self.request(name, *args)


def isolation_default() -> bool:
    """Whether games run in a worker process unless told otherwise (``NOMV_ISOLATE=0`` turns it
    off, e.g. to profile a script in-process)."""
    return os.environ.get("NOMV_ISOLATE", "1") not in ("0", "no", "false", "off")


__all__ = ["WorkerEngine", "RemoteState", "StaleStateError", "isolation_default", "GRACE"]
