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
from .leases import Leases
from .matches import Matches

log = logging.getLogger("nomv.server")


#: A computer turn's lease lasts this long, and is renewed every RENEW_SECONDS while the search
#: runs: a process that dies mid-search (kill -9, a power cut) holds it at most this long.
LEASE_SECONDS = 10.0
RENEW_SECONDS = 2.0
#: How often a process looks for computer turns nobody is searching (a process died).
SWEEP_SECONDS = 2.0


class Computer:
    def __init__(self, matches: Matches, engines: Engines, searches: int, leases: Leases):
        self.matches = matches
        self.engines = engines
        self.leases = leases
        self._held: set[str] = set()      # the leases of the searches under way here
        self._stop = threading.Event()
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
        threading.Thread(target=self._sweep, name="nomv-computer-sweep", daemon=True).start()
        threading.Thread(target=self._renew, name="nomv-computer-leases", daemon=True).start()

    def _renew(self) -> None:
        """Keeps the leases of the searches under way here alive."""
        while not self._stop.wait(RENEW_SECONDS):
            with self._lock:
                held = list(self._held)
            for name in held:
                try:
                    self.leases.take(name, LEASE_SECONDS)
                except Exception:   # noqa: BLE001 - the database is away: the next round
                    log.warning("cannot renew the lease %s", name, exc_info=True)

    def _sweep(self) -> None:
        """Wakes every computer turn now and then: those a restart left waiting, and those
        of a process that died searching them (its lease expires, then one here takes it)."""
        while not self._stop.is_set():
            try:
                for match_id in self.matches.computer_turns():
                    self.wake(match_id)
                self.leases.forget_expired()
            except Exception:   # noqa: BLE001 - the database is away for a while: next time
                log.warning("the computer players cannot read the matches now", exc_info=True)
            self._stop.wait(SWEEP_SECONDS)

    def wake(self, match_id: int) -> None:
        with self._lock:
            if match_id in self._pending:
                return
            self._pending.add(match_id)
        self._queue.put(match_id)

    def close(self) -> None:
        """Stops the threads; a search under way is not waited for long (its move would be
        dropped anyway: the next start searches again)."""
        self._stop.set()
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
        # Exactly one process searches this turn: the one holding its lease.
        lease = f"computer:{match_id}:{key.version}"
        if not self.leases.take(lease, LEASE_SECONDS):
            return
        with self._lock:
            self._held.add(lease)
        try:
            self._search(searcher, match_id, key, load_moves, seat, spec, seed)
        finally:
            with self._lock:
                self._held.discard(lease)
            self.leases.release(lease)

    def _search(self, searcher, match_id: int, key, load_moves, seat: int, spec: str, seed: int) -> None:
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
