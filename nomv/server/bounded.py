"""Work that costs a lot of memory or CPU a call (hashing a password: argon2 takes 64 MiB), done
by a few threads of its own rather than the request threads.

A request awaits its turn on the event loop, so a flood of such requests (eighty registrations at
once) neither holds the request threads (the rest of the server goes on) nor runs more than
``workers`` calls at once (the memory they take is bounded).  Past ``queue`` requests waiting,
more are refused at once (503, try again): a queue without end would only answer too late.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TypeVar

from .errors import Busy

T = TypeVar("T")


class Bounded:
    def __init__(self, workers: int, queue: int, what: str, name: str = "nomv-bounded"):
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self.what = what
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix=name)
        self._waiting = 0
        self._lock = threading.Lock()

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on one of the threads, awaited; Busy when too many wait already."""
        with self._lock:
            if self._waiting >= self.workers + self.queue:
                raise Busy(f"the server is busy {self.what}; try again in a moment")
            self._waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, lambda: work(*args))
        finally:
            with self._lock:
                self._waiting -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
