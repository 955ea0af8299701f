"""Computer seats: they move by themselves, searching on threads of their own, at most
``searches`` at once.  Each thread has its own :class:`~nomv.server.engines.Searcher` (its own
worker processes), so a search never holds up a person's move, and a person's move never waits
for a search.  The move a search finds is played like a person's, checked against the version
of the match it was searched for: if the match moved on meanwhile (a takeback, a resignation),
it is dropped.

Every search is bounded in time (the server's longest, ``computer_seconds``, even for a seat
that asks for a number of iterations), and the turns waiting for a search are served in turn
per player (who created each match): one player's dozen matches against the computer make
another's wait for one search at most, not a dozen.
"""
from __future__ import annotations

import logging
import secrets
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass

from .engines import Engines, Searcher
from .errors import ApiError
from .leases import Leases
from .matches.repository import MatchTables
from .matches.round import Round, Rounds
from .matches.seating import agent_spec
from .snapshots import MatchKey, MovesLoader

log = logging.getLogger("nomv.server")


#: A computer turn's lease lasts this long, and is renewed every RENEW_SECONDS while the search
#: runs: a process that dies mid-search (kill -9, a power cut) holds it at most this long.
LEASE_SECONDS = 10.0
RENEW_SECONDS = 2.0
#: How often a process looks for computer turns nobody is searching (a process died).
SWEEP_SECONDS = 2.0


class FairQueue:
    """Matches waiting for a search, served in turn per owner (the player who created each):
    each owner's in the order they came; next, always the owner served least recently (one
    never served first), so that a player who just had a search waits for the others' turns.
    Thread-safe; get() waits, and gives None once closed."""

    def __init__(self) -> None:
        self._by_owner: dict[int | None, deque[int]] = {}
        self._served: OrderedDict[int | None, None] = OrderedDict()   # owners, least recently served first
        self._ready = threading.Condition()
        self._closed = False

    def put(self, match_id: int, owner: int | None) -> None:
        with self._ready:
            self._by_owner.setdefault(owner, deque()).append(match_id)
            self._ready.notify()

    def get(self) -> int | None:
        with self._ready:
            while not self._by_owner and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            owner = next((o for o in self._by_owner if o not in self._served), None)
            if owner is None or owner not in self._by_owner:
                owner = next(o for o in self._served if o in self._by_owner)
            waiting = self._by_owner[owner]
            match_id = waiting.popleft()
            if not waiting:
                del self._by_owner[owner]
            self._served.pop(owner, None)
            self._served[owner] = None         # served now: last in line
            while len(self._served) > 10_000:  # (owners long gone)
                self._served.popitem(last=False)
            return match_id

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify_all()


@dataclass(frozen=True)
class Turn:
    """A computer seat to move: what its search needs."""
    key: MatchKey
    moves: MovesLoader
    seat: int
    spec: str          # the computer player, as nomv.ai.make_agent takes it
    seed: int


class Computer:
    def __init__(self, tables: MatchTables, rounds: Rounds, engines: Engines, searches: int, leases: Leases,
                 seconds: float = 3.0):
        self.tables = tables
        self.rounds = rounds
        self.engines = engines
        self.leases = leases
        #: The longest a search may think (CPU seconds of its worker process), whatever its seat says.
        self.seconds = seconds
        self._held: set[str] = set()      # the leases of the searches under way here
        self._stop = threading.Event()
        self._queue = FairQueue()
        self._pending: set[int] = set()
        self._lock = threading.Lock()
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
                for match_id, owner in self.tables.computer_turns():
                    self.wake(match_id, owner)
                self.leases.forget_expired()
            except Exception:   # noqa: BLE001 - the database is away for a while: next time
                log.warning("the computer players cannot read the matches now", exc_info=True)
            self._stop.wait(SWEEP_SECONDS)

    def wake(self, match_id: int, owner: int | None = None) -> None:
        """A computer seat of the match (created by ``owner``) is to move."""
        with self._lock:
            if match_id in self._pending:
                return
            self._pending.add(match_id)
        self._queue.put(match_id, owner)

    def close(self) -> None:
        """Stops the threads; a search under way is not waited for long (its move would be
        dropped anyway: the next start searches again)."""
        self._stop.set()
        self._queue.close()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=1)

    def _run(self) -> None:
        searcher = self.engines.searcher(self.seconds)
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
                    with self.rounds.pinned(match_id) as rnd:
                        rnd.failure = f"the computer player failed: {exc}"
        finally:
            searcher.close()

    def turn(self, match_id: int) -> Turn | None:
        """The search to make when a computer seat is to move in the match, else None."""
        m = self.tables.load(match_id)
        if m is None or not m.row.running or m.row.to_move is None:
            return None
        seat = m.seat(m.row.to_move)
        if seat.kind != "computer":
            return None
        # The search's own randomness is fresh, never the match's seed: the moves a computer
        # plays would give that seed away (and with it every die and draw to come).
        return Turn(m.key(), m.loader(), seat.seat, agent_spec(seat), secrets.randbits(31))

    def _turn(self, searcher: Searcher, match_id: int) -> None:
        turn = self.turn(match_id)
        if turn is None:
            return
        # Exactly one process searches this turn: the one holding its lease.
        lease = f"computer:{match_id}:{turn.key.version}"
        if not self.leases.take(lease, LEASE_SECONDS):
            return
        with self._lock:
            self._held.add(lease)
        try:
            # (the round is kept while its computer player searches: it shows who is thinking)
            with self.rounds.pinned(match_id) as rnd:
                self._search(searcher, rnd, turn)
        finally:
            with self._lock:
                self._held.discard(lease)
            self.leases.release(lease)

    def _search(self, searcher: Searcher, rnd: Round, turn: Turn) -> None:
        rnd.thinking = turn.seat
        try:
            steps, expects = searcher.choose(turn.key, turn.moves, turn.seat, turn.spec, turn.seed)
        except ApiError as exc:
            rnd.failure = exc.message
            self.rounds.parts.notifier.computer_failed(rnd.id, turn.key.version)
            return
        finally:
            rnd.thinking = None
        rnd.computer_move(turn.key.version, turn.seat, steps, expects)
