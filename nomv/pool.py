"""A pool of worker processes that serves the positions of many games.

Each :class:`~nomv.worker.WorkerProcess` of an :class:`EnginePool` holds one runtime per script
asked of it and the states of any number of positions, so a server plays thousands of matches
on a few processes.  :meth:`EnginePool.engine` hands out the engine of a script on the next
process in turn; a :class:`~nomv.game.Position` keeps its engine, and when that process was
stopped (a script ran over its limit) takes a new one from the pool and replays its moves into
it.  The desktop gives each game a pool of one process of its own: a hang in one game's script
stops only that game.

>>> from nomv import Game
>>> pool = EnginePool(processes=2)
>>> game = Game.load("tictactoe", pool=pool)
>>> a, b = game.start(seed=1), game.start(seed=2)
>>> a.play("b2") and b.play("a1") and None
>>> len(pool.running())      # the two positions went to the two processes
2
>>> pool.close()
"""
from __future__ import annotations

import threading

from .limits import Limits
from .runtime import runtime_name
from .worker import WorkerEngine, WorkerProcess, script_key

__all__ = ["EnginePool"]


class EnginePool:
    """``processes`` worker processes, each started when first needed, all under ``limits``."""

    def __init__(self, processes: int = 1, limits: Limits | None = None):
        if processes < 1:
            raise ValueError(f"a pool needs at least one process, got {processes}")
        self.limits = limits or Limits()
        self._workers = [WorkerProcess(self.limits) for _ in range(processes)]
        self._engines: dict[tuple[int, str], WorkerEngine] = {}
        self._turn = 0
        self._lock = threading.Lock()

    @property
    def processes(self) -> int:
        return len(self._workers)

    @property
    def workers(self) -> list[WorkerProcess]:
        """The pool's worker processes (each says its scripts' Lua memory: ``lua_bytes``)."""
        return list(self._workers)

    def engine(self, source: str, path: str, runtime: str | None = None,
               process: int | None = None) -> WorkerEngine:
        """The script's engine on the next process in turn, or on process number ``process``
        (modulo their number: a server pins a match to the thread that serves it).  Each
        process loads a script once; its engine is shared by every position placed there."""
        if process is not None:
            return self._engine_on(process % len(self._workers), source, path, runtime)
        with self._lock:
            index = self._turn % len(self._workers)
            self._turn += 1
        return self._engine_on(index, source, path, runtime)

    def _engine_on(self, index: int, source: str, path: str, runtime: str | None) -> WorkerEngine:
        key = (index, script_key(source, path, runtime_name(runtime)))
        with self._lock:
            engine = self._engines.get(key)
        if engine is None:
            engine = WorkerEngine(self._workers[index], source, path, runtime)  # loads the script
            with self._lock:
                engine = self._engines.setdefault(key, engine)
        return engine

    def release(self, engine: WorkerEngine) -> None:
        """Unloads a script from every process of the pool (its states go with it)."""
        with self._lock:
            gone = [k for k in self._engines if k[1] == engine.key]
            for k in gone:
                del self._engines[k]
        for worker in self._workers:
            worker.unload(engine.key)

    def running(self) -> list[int]:
        """The process ids of the pool's running processes."""
        return [pid for pid in (w.pid for w in self._workers) if pid is not None]

    def close(self) -> None:
        """Stops every process (a later request starts them again)."""
        for worker in self._workers:
            worker.close()

    def __enter__(self) -> "EnginePool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
