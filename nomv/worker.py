"""Game scripts in a child process that the host can kill: the hard time limit.

The count hook in host.lua stops a script that runs too long, but LuaJIT never calls hooks
inside compiled code, so ``while true do end`` would freeze the program.  A
:class:`WorkerProcess` is one child interpreter holding the runtimes of any number of scripts
(one :class:`~nomv.runtime.HostRuntime` per script) and the states of any number of positions.
The parent kills it when a request runs past the time limit (plus a short grace, so that the
hook, which knows the script's line, usually speaks first); the next request starts a fresh
process and loads the scripts again as they are asked for.

A :class:`WorkerEngine` is the :class:`~nomv.engine.Engine` of one script on one worker
process.  States stay in the worker; the parent holds :class:`RemoteState` handles.  A handle
from a process that was stopped is *stale*: using it raises
:class:`~nomv.errors.StaleStateError`, and :class:`~nomv.game.Position` replays its moves into a
live worker.  Worker processes are grouped in pools (:mod:`nomv.pool`).

Loops that legitimately run long (playouts, perft, a search) re-arm the limit at each game or
node; the worker reports those beats on its pipe, so only a single period without a beat counts
against the limit.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from .engine import EngineBase
from .errors import LimitError, ScriptError, StaleStateError
from .limits import Limits, slowdown
from .runtime import HostRuntime, RawReply, runtime_name

__all__ = ["WorkerProcess", "WorkerEngine", "RemoteState", "GRACE", "isolation_default"]

#: Extra seconds the parent waits past the limit before killing: the in-Lua hook, which can
#: name the line, normally fires first.
GRACE = 0.25
#: How often the parent looks at a busy worker (seconds).
POLL = 0.02
#: A worker kept off the processor is stopped after this many times the limit in real time...
WALL_FACTOR = 4
#: ...when it got less than this share of a processor meanwhile (stopped, or starved): one that
#: runs, however slowly on a busy machine, reaches its CPU limit and is stopped there, by the hook
#: that names the script's line when it can (so at most 1/STARVED_SHARE times the limit).
STARVED_SHARE = 0.05
#: Seconds a new worker process may take to start (Python and nomv's modules) before its first
#: request's clock starts; a process that takes longer is given up.
STARTUP = 60

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int, otherwise: float) -> float:
    """The CPU time a process has used (Linux /proc), else ``otherwise``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS   # utime + stime
    except (OSError, IndexError, ValueError):
        return otherwise


def over_time(waited: float, used: float, limit: float) -> bool:
    """Whether a request has run past ``limit`` seconds (> 0) when it has taken ``waited`` seconds
    of real time and ``used`` seconds of the worker's CPU since its last sign of progress.

    >>> over_time(2.0, 1.0, 0.5), over_time(2.0, 0.3, 0.5)   # over in CPU; a busy machine's slow run
    (True, False)
    >>> over_time(2.5, 0.0, 0.5), over_time(2.5, 0.2, 0.5)   # stopped off the processor; starved, but running
    (True, False)
    """
    if waited <= limit + GRACE:
        return False
    if used > limit + GRACE:
        return True
    return waited > WALL_FACTOR * limit + GRACE and used < STARVED_SHARE * waited


#: Requests whose errors the script side reports under another name: the name of the hook that
#: runs (a worker killed inside a request must name the same hook as Lua's own time limit).
HOOK_OF_REQUEST = {"notations": "notation", "move_count": "moves", "random_moves": "random_move",
                   "steps_moves": "steps",
                   "move_generation": "playout", "profile": "playout"}


class StateRef:
    """What crosses the pipe for a state: its number in the worker's table."""

    __slots__ = ("id",)

    def __init__(self, id: int):
        self.id = id

    def __reduce__(self) -> tuple[Any, ...]:
        return (StateRef, (self.id,))


class RemoteState:
    """A state living in a worker process.  Dropping the last reference frees it there."""

    __slots__ = ("id", "worker", "epoch", "_garbage", "__weakref__")

    def __init__(self, id: int, worker: "WorkerProcess", epoch: int, garbage: list[int]):
        self.id, self.worker, self.epoch, self._garbage = id, worker, epoch, garbage

    def __del__(self) -> None:
        try:
            self._garbage.append(self.id)
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        return f"<state {self.id} of worker {self.epoch}>"


def _error_fields(exc: ScriptError) -> tuple[Any, ...]:
    # Exceptions with their own __init__ do not pickle faithfully: send the fields.
    return (type(exc).__name__, exc.message, exc.line, exc.hook, exc.kind, exc.code)


def _error_from(fields: tuple[Any, ...], path: str) -> ScriptError:
    name, message, line, hook, kind, code = fields
    cls = LimitError if name == "LimitError" else ScriptError
    return cls(message, path, line, hook, kind, code)


# -- the child's side -----------------------------------------------------------------------------

def _serve(conn: Any) -> None:
    """The worker's main loop: load scripts and answer requests about them until the pipe
    closes.  Runs in the child process.

    Messages: ``("load", key, source, path, runtime, limits)``, ``("unload", key)``,
    ``("memory", None)`` (the Lua memory of each script), ``("call", key, (request, args),
    freed)`` and ``("batch", key, calls, freed)``; each but unload gets ``(status, value,
    cpu_time, lua_bytes)`` (lua_bytes: the Lua memory of every script in the process), after
    any number of ``("beat", ...)`` (a long loop makes progress) and ``("doing", request, ...)``
    (the request of a batch that runs now)."""
    def send(message: tuple[Any, ...]) -> None:
        try:
            conn.send(message)
        except OSError:
            # The parent closed the pipe (it stopped this game, or it ended): nothing is waiting
            # for the answer, and nobody must see a traceback.
            os._exit(0)

    def beat() -> None:
        send(("beat", None, time.process_time()))

    runtimes: dict[str, HostRuntime] = {}
    states: dict[int, tuple[str, Any]] = {}   # handle -> (script key, Lua table)
    next_id = 0

    def lua_bytes() -> int:
        return sum(r.memory_used() for r in runtimes.values())

    def here(key: str, arg: Any) -> Any:
        if not isinstance(arg, StateRef):
            return arg
        owner, value = states[arg.id]
        if owner != key:
            raise ScriptError("a state of another game script was passed to this one",
                              runtimes[key].path)
        return value

    def keep(key: str, runtime: HostRuntime, value: Any) -> Any:
        nonlocal next_id
        if isinstance(value, tuple):          # several values (a play_steps reply)
            return tuple(keep(key, runtime, v) for v in value)
        if runtime.is_handle(value):
            next_id += 1
            states[next_id] = (key, value)
            return StateRef(next_id)
        return value

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        kind, key = message[0], message[1]
        if kind == "load":
            _, _, source, path, runtime, limits = message
            beat()  # the time limit of loading starts now (not when the process started)
            try:
                loaded = HostRuntime(source, path, runtime, limits)
                loaded.set_beat(beat)
                runtimes[key] = loaded
                reply: tuple[str, Any] = ("ok", loaded.description)
            except ScriptError as exc:
                reply = ("error", _error_fields(exc))
            except Exception as exc:  # a bug on our side: report it rather than die
                reply = ("error", _error_fields(ScriptError(
                    f"internal error in the worker: {type(exc).__name__}: {exc}", path, hook="load")))
            send(reply + (time.process_time(), lua_bytes()))
            continue
        if kind == "unload":
            runtimes.pop(key, None)
            for i in [i for i, (owner, _) in states.items() if owner == key]:
                del states[i]
            _give_back_memory()
            continue
        if kind == "memory":
            send(("ok", {k: r.memory_used() for k, r in runtimes.items()}, time.process_time(), lua_bytes()))
            continue
        payload, freed = message[2], message[3]
        for i in freed:
            states.pop(i, None)
        runtime = runtimes.get(key)
        try:
            if runtime is None:
                raise ScriptError("the script is not loaded in this worker", hook="load")
            if kind == "batch":
                calls = [(call[0], tuple(here(key, a) for a in call[1]), *call[2:]) for call in payload]
                replies = runtime.run(calls, before=lambda name: send(("doing", name, 0.0)))
                value: Any = [(r.status, _error_fields(r.value) if r.status == "error"
                               else keep(key, runtime, r.value)) for r in replies]
            else:
                name, args = payload
                value = keep(key, runtime, runtime.call(name, *[here(key, a) for a in args]))
            reply = ("ok", value)
        except ScriptError as exc:
            reply = ("error", _error_fields(exc))
        except Exception as exc:  # a bug on our side: report it rather than die silently
            reply = ("error", _error_fields(ScriptError(
                f"internal error in the worker: {type(exc).__name__}: {exc}")))
        send(reply + (time.process_time(), lua_bytes()))


def _give_back_memory() -> None:
    """After a script is unloaded: its runtime freed now (lupa's objects may be in cycles), and
    the memory returned to the system where the C library can (glibc's malloc_trim), so that the
    process's size goes down with what it holds."""
    import gc
    gc.collect()
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass   # not glibc: the memory is reused by the next scripts instead


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
    """``python -c ... READ_FD WRITE_FD`` (started by :func:`_new_process`)."""
    import signal
    # Ctrl+C is for the parent, which stops us by closing the pipe or killing us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()
    read_fd, write_fd = int(argv[0]), int(argv[1])
    reader, writer = Connection(read_fd, writable=False), Connection(write_fd, readable=False)

    class Duplex:  # one object with both ends, as _serve expects
        send, recv = writer.send, reader.recv

    _serve(Duplex())


# -- starting processes -----------------------------------------------------------------------------
# A worker is a fresh interpreter (not a fork: the parent may have threads, a window and Lua
# runtimes of its own), started with `python -c` so that nothing of the user's main module runs
# again.  Starting one takes ~0.1 s, so one spare is kept ready for the next game.

_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_Started = tuple[subprocess.Popen, Connection, Connection]   # type: ignore[type-arg]
_spare: _Started | None = None
_spare_lock = threading.Lock()


def _new_process() -> _Started:
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    code = "import sys; sys.path.insert(0, sys.argv[1]); import nomv.worker as w; w.main(sys.argv[2:])"
    process = subprocess.Popen([sys.executable, "-c", code, _PACKAGE_ROOT, str(to_child_r), str(from_child_w)],
                               pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL,
                               # Whatever goes wrong in a worker reaches the user as a message
                               # through the pipe; a traceback on the terminal would be noise
                               # (NOMV_DEBUG=1 shows it, for nomv's own bugs).
                               stderr=None if os.environ.get("NOMV_DEBUG") else subprocess.DEVNULL,
                               close_fds=True)
    os.close(to_child_r)
    os.close(from_child_w)
    return process, Connection(to_child_w, readable=False), Connection(from_child_r, writable=False)


def _take_process() -> _Started:
    """A started worker process (the spare if it is ready), and a new spare for next time."""
    global _spare
    with _spare_lock:
        taken = _spare if _spare is not None and _spare[0].poll() is None else None
        _spare = _new_process()
    return taken or _new_process()


def _end_spare() -> None:
    # The spare would end by itself once it sees its pipe closed, but only after it has started
    # (imports: a moment on a slow machine): it must not outlive the program that made it.
    global _spare
    with _spare_lock:
        spare, _spare = _spare, None
    if spare is not None:
        process = spare[0]
        try:
            process.kill()
            process.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            pass


atexit.register(_end_spare)


def warm() -> None:
    """Starts the spare worker process now, for a process that will soon need one (a check
    waiting for its script)."""
    global _spare
    with _spare_lock:
        if _spare is None or _spare[0].poll() is not None:
            _spare = _new_process()


def script_key(source: str, path: str, runtime: str) -> str:
    """A script's name in a worker: the same script, path and runtime share one runtime."""
    return hashlib.sha256(f"{runtime}\0{path}\0{source}".encode("utf-8", "surrogatepass")).hexdigest()


# -- the parent's side ---------------------------------------------------------------------------------

class WorkerProcess:
    """One worker process, started when first needed and again after it was stopped.  It
    holds the runtimes of the scripts asked of it; several threads may use it (one request at
    a time)."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        #: Bumped each time a process starts; handles from an older process are stale.
        self.epoch = 0
        #: How many times the process was killed for running over the time limit.
        self.kills = 0
        self._process: subprocess.Popen | None = None   # type: ignore[type-arg]
        self._send: Connection | None = None
        self._recv: Connection | None = None
        self._garbage: list[int] = []
        self._loaded: set[str] = set()               # scripts loaded into the running process
        self._descriptions: dict[str, dict[str, Any]] = {}   # what loading each one gave
        self._cpu: float | None = None  # the process's CPU time at its last reply (None: not started)
        #: The Lua memory of every script in the process, at its last reply.
        self.lua_bytes = 0
        self._lock = threading.RLock()

    @property
    def pid(self) -> int | None:
        """The process id of the running process, or None while none runs."""
        process = self._process
        return process.pid if process is not None else None

    # -- requests ------------------------------------------------------------------------------

    def load(self, engine: "WorkerEngine") -> dict[str, Any]:
        """Loads the engine's script (if this process has not yet); returns its description."""
        with self._lock:
            return self._ensure_loaded(engine)

    def call(self, engine: "WorkerEngine", request: str, args: tuple[Any, ...]) -> Any:
        with self._lock:
            self._ensure_loaded(engine)
            wire = tuple(self._wire(engine, request, a) for a in args)
            return self._local(self._exchange(engine, ("call", engine.key, (request, wire)), request))

    def batch(self, engine: "WorkerEngine", calls: list[tuple[Any, ...]]) -> list[RawReply]:
        with self._lock:
            self._ensure_loaded(engine)
            wire = [(call[0], tuple(self._wire(engine, call[0], a) for a in call[1]), *call[2:])
                    for call in calls]
            first = calls[0][0] if calls else "batch"
            replies = self._exchange(engine, ("batch", engine.key, wire), first)
            return [RawReply(status, _error_from(value, engine.path) if status == "error" else self._local(value))
                    for status, value in replies]

    def memory(self) -> dict[str, int]:
        """The Lua memory of each script loaded in the process (by script key); nothing when it
        does not run."""
        with self._lock:
            if self._process is None or self._send is None:
                return {}
            try:
                self._send.send(("memory", None))
            except (OSError, ValueError):
                return {}
            try:
                value: dict[str, int] = self._receive_plain()
            except (EOFError, OSError):
                return {}
            return value

    def _receive_plain(self) -> Any:
        """The reply to a request of the host's own (no script runs: no time limit to watch)."""
        assert self._recv is not None
        while True:
            message = self._recv.recv()
            if message[0] in ("beat", "doing"):
                continue
            self._cpu, self.lua_bytes = message[2], message[3]
            return message[1]

    def unload(self, key: str) -> None:
        """Drops a script's runtime and states from the process."""
        with self._lock:
            if key in self._loaded and self._send is not None:
                try:
                    self._send.send(("unload", key))
                except OSError:
                    pass
            self._loaded.discard(key)
            self._descriptions.pop(key, None)

    def _ensure_loaded(self, engine: "WorkerEngine") -> dict[str, Any]:
        """Starts the process if none runs, and loads the engine's script into it if it is not
        there yet (a new process loads each script again when it is first asked for)."""
        if self._process is None:
            self._start()
        if engine.key not in self._loaded:
            message = ("load", engine.key, engine.source, engine.path, engine.runtime, self.limits)
            self._descriptions[engine.key] = self._exchange(engine, message, "load", pack_garbage=False)
            self._loaded.add(engine.key)
        return self._descriptions[engine.key]

    def _wire(self, engine: "WorkerEngine", request: str, arg: Any) -> Any:
        if isinstance(arg, RemoteState):
            if arg.worker is not self or arg.epoch != self.epoch:
                raise StaleStateError("this state belonged to a worker process that was stopped",
                                      engine.path, hook=request)
            return StateRef(arg.id)
        return arg

    def _local(self, value: Any) -> Any:
        if isinstance(value, tuple):
            return tuple(self._local(v) for v in value)
        if isinstance(value, StateRef):
            return RemoteState(value.id, self, self.epoch, self._garbage)
        return value

    def _exchange(self, engine: "WorkerEngine", message: tuple[Any, ...], request: str,
                  pack_garbage: bool = True) -> Any:
        """Sends one message (with the handles freed since the last) and waits for its reply."""
        if pack_garbage:
            freed: list[int] = []
            while self._garbage:
                freed.append(self._garbage.pop())
            message = message + (freed,)
        assert self._send is not None
        try:
            self._send.send(message)
        except (OSError, ValueError):
            # It died before the request reached it: say how, as when it dies under one.
            raise self._ended(engine, request) from None
        return self._receive(engine, request)

    # -- the process's life ------------------------------------------------------------------------

    def _start(self) -> None:
        process, send, receive = _take_process()
        self.epoch += 1
        self._process, self._send, self._recv = process, send, receive
        self._garbage = []
        self._loaded = set()
        self._cpu = None  # a new process: its first beat gives its CPU time
        self.lua_bytes = 0

    def close(self) -> None:
        """Stops the process at once, whatever it is doing (a later request starts a new one).
        A request under way in another thread (a search, a hanging script) ends with an error
        there."""
        if self._lock.acquire(blocking=False):
            try:
                self._close()
            finally:
                self._lock.release()
            return
        # Busy: kill it rather than wait for it.  The thread waiting for its answer sees it die,
        # reports that, and cleans up (closing its pipes).
        process = self._process
        if process is not None:
            try:
                process.kill()
            except OSError:
                pass

    def _close(self) -> None:
        process = self._process
        self._process = None
        self._loaded = set()
        self.lua_bytes = 0
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

    def _kill(self) -> None:
        process = self._process
        self._process = None
        if process is not None:
            process.kill()
            process.wait()
        self._close()

    def __del__(self) -> None:
        try:
            self._close()
        except Exception:
            pass

    def _receive(self, engine: "WorkerEngine", request: str) -> Any:
        """Waits for the reply to ``request``, killing the process if it goes silent too long.

        "Too long" is counted like the hook inside Lua counts it, in the process's CPU time, so
        that a busy machine does not stop a script that is only waiting for a processor; a
        process that gets no processor at all is stopped after several times the limit."""
        receive, process = self._recv, self._process
        assert receive is not None and process is not None
        since = time.monotonic()       # the last sign of progress: the request or a beat
        since_cpu = self._cpu          # the process's CPU time then (None: not heard from yet)
        limit = self.limits.time / slowdown()    # (the whole limit, but when acting as a slower machine)
        while True:
            try:
                if receive.poll(POLL):
                    message = receive.recv()
                    status, value, cpu = message[:3]
                    if status == "beat":
                        since, since_cpu = time.monotonic(), cpu
                        continue
                    if status == "doing":
                        request = value
                        continue
                    self._cpu, self.lua_bytes = cpu, message[3]
                    break
            except (EOFError, OSError):
                status, value = "died", None
                break
            if process.poll() is not None:
                status, value = "died", None
                break
            waited = time.monotonic() - since
            if since_cpu is None:
                # A new process still starting: that is not the script's time.  The clock starts
                # with the first beat, which the process sends as it takes the load request.
                if limit > 0 and waited > STARTUP:
                    self._kill()
                    raise ScriptError(f"the script's worker process did not start within {STARTUP} seconds",
                                      engine.path, hook=HOOK_OF_REQUEST.get(request, request))
                continue
            if limit > 0 and waited > limit + GRACE and over_time(
                    waited, cpu_seconds(process.pid, since_cpu + waited) - since_cpu, limit):
                self._kill()
                self.kills += 1
                stopped = LimitError(f"took longer than {self.limits.time:g} seconds (the time limit); stopped",
                                     engine.path, hook=HOOK_OF_REQUEST.get(request, request), kind="time")
                stopped.process_ended = "stopped"
                raise stopped
        if status == "ok":
            return value
        if status == "error":
            raise _error_from(value, engine.path)
        raise self._ended(engine, request)

    def _ended(self, engine: "WorkerEngine", request: str) -> ScriptError:
        """The error for a process that died under a request (killed from outside, or crashed)."""
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(1)
            except subprocess.TimeoutExpired:
                code = None
        self._kill()
        if code is not None and code < 0:
            how = f"was killed by signal {-code}"
        else:
            how = f"ended unexpectedly (exit code {code})"
        died = ScriptError(f"the script's worker process {how}", engine.path,
                           hook=HOOK_OF_REQUEST.get(request, request))
        died.process_ended = "died"
        return died


class WorkerEngine(EngineBase):
    """The engine of one script on one :class:`WorkerProcess` (made by an
    :class:`~nomv.pool.EnginePool`).  Its states live in that process."""

    def __init__(self, worker: WorkerProcess, source: str, path: str, runtime: str | None = None):
        self.worker = worker
        self.source, self.path = source, path
        self.runtime = runtime_name(runtime)
        self.limits = worker.limits
        self.key = script_key(source, path, self.runtime)
        self.description: dict[str, Any] = {}
        self.description = worker.load(self)

    @property
    def kills(self) -> int:
        """How many times this engine's worker process was killed for running over the limit."""
        return self.worker.kills

    @property
    def epoch(self) -> int:
        return self.worker.epoch

    @property
    def process_id(self) -> int | None:
        return self.worker.pid

    def _send(self, request: str, args: tuple[Any, ...]) -> Any:
        return self.worker.call(self, request, args)

    def _send_batch(self, calls: list[tuple[Any, ...]]) -> list[RawReply]:
        return self.worker.batch(self, calls)


def isolation_default() -> bool:
    """Whether games run in a worker process unless told otherwise (``NOMV_ISOLATE=0`` turns it
    off, e.g. to profile a script in-process)."""
    return os.environ.get("NOMV_ISOLATE", "1") not in ("0", "no", "false", "off")
