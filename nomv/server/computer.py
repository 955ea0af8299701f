"""Computer seats: they move by themselves, searching on threads of their own, at most
``searches`` at once.  Each thread has its own :class:`~nomv.server.engines.Searcher` (its own
worker processes), so a search never holds up a person's move, and a person's move never waits
for a search.  The move a search finds is played like a person's, checked against the version
of the match it was searched for: if the match moved on meanwhile (a takeback, a resignation),
it is dropped.
"""
from __future__ import annotations

import logging
import queue
import threading

from .engines import Engines
from .errors import ApiError
from .matches import Matches

log = logging.getLogger("nomv.server")


class Computer:
    def __init__(self, matches: Matches, engines: Engines, searches: int):
        self.matches = matches
        self.engines = engines
        self._queue: queue.Queue = queue.Queue()
        self._pending: set[int] = set()
        self._lock = threading.Lock()
        #: Match id -> seat, while a search runs.
        self.thinking: dict[int, int] = {}
        self._threads = [threading.Thread(target=self._run, name=f"nomv-computer-{i}", daemon=True)
                         for i in range(max(1, searches))]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()
        for match_id in self.matches.computer_turns():   # matches left waiting by a restart
            self.wake(match_id)

    def wake(self, match_id: int) -> None:
        with self._lock:
            if match_id in self._pending:
                return
            self._pending.add(match_id)
        self._queue.put(match_id)

    def close(self) -> None:
        """Stops the threads; a search under way is not waited for long (its move would be
        dropped anyway: the next start searches again)."""
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=1)

    def _run(self) -> None:
        searcher = self.engines.searcher()
        try:
            while True:
                match_id = self._queue.get()
                if match_id is None:
                    return
                with self._lock:
                    self._pending.discard(match_id)
                try:
                    self._turn(searcher, match_id)
                except Exception as exc:   # never let one match stop the computer players
                    log.exception("match %s: the computer player failed", match_id)
                    self.matches.computer_errors[match_id] = f"the computer player failed: {exc}"
        finally:
            searcher.close()

    def _turn(self, searcher, match_id: int) -> None:
        job = self.matches.computer_job(match_id)
        if job is None:
            return
        key, load_moves, seat, spec, seed = job
        self.thinking[match_id] = seat
        try:
            steps, expects = searcher.choose(key, load_moves, seat, spec, seed)
        except ApiError as exc:
            self.matches.computer_errors[match_id] = exc.message
            self.matches.live.publish(match_id, {"kind": "computer failed", "version": key.version})
            return
        finally:
            self.thinking.pop(match_id, None)
        self.matches.computer_move(match_id, key.version, seat, steps, expects)
