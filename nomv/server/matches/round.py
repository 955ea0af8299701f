"""The running match: one :class:`Round` per match in this process (as lila's round is one actor
per game), which owns its lock, the version it last saw, what its computer player is doing, and
every act that changes a running match: a move (a person's or a computer's), a resignation, a
draw, a takeback, the end on time.

Every change is one database transaction that checks the version it read (compare and set), and
a move is also a row whose (match, ply) is unique among the moves not taken back: of two moves
sent at once exactly one lands, whichever process took them.  Within this process the round's
lock keeps the requests of one match in order, so that the loser of a race is told at once
(409, with the position it did not see); matches never wait for each other's locks.

A round remembers the match as this process last read or wrote it (:meth:`Round.fresh`): with
SQLite this process is the database's only writer, so its memory is the truth between writes and
a look or a move reads nothing; with PostgreSQL (several processes) the version is read first,
one small query, and the match only when another process changed it.  For that version the
round keeps its answers, one per viewer class (nomv.server.matches.answers), built and
serialised once and handed to every viewer of the class: the mover's answer, the looks, and the
pushes to every WebSocket.

:class:`Rounds` keeps the rounds: the ones in use, and the ``keep`` most recently used beside
them, so that what a round knows outlives a request.
"""
from __future__ import annotations

import dataclasses
import itertools
import logging
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Literal

from ...play import policy, wording
from ...play.match import Result
from .. import ratings, reading
from ..accounts import User
from ..engines import Engines
from ..errors import ApiError, Busy, Conflict, Forbidden, Illegal, NotFound, Stale
from ..store import now
from .answers import Budget, Count, Shown
from .clock import Fischer, deadline
from .notify import Notifier
from .repository import Changes, Lost, Match, MatchChange, MatchTables, MoveRow
from .views import Views, estimates, viewer_class

#: People's acts (moves, resignations, offers) under way at once in this process, on one match
#: (holding or waiting for its lock) and by one user: each holds a request thread (the framework
#: has 40), and one user's flood of moves typed for a slow script held them all.  Over either,
#: 503 (try again).  (Room for a bot's burst: twenty moves at one ply over two processes.)
WAITING_PER_MATCH = 12
ACTS_PER_USER = 12

log = logging.getLogger("nomv.server")


@dataclass(frozen=True)
class Parts:
    """What every round works with (one of each per server)."""
    tables: MatchTables
    engines: Engines
    views: Views
    notifier: Notifier
    #: Whether this process is the database's only writer (SQLite): then what a round holds is
    #: the match until this process changes it, and nothing needs to be read to know it.
    sole_writer: bool = False
    #: How many answers were made (/api/health: each once per version and viewer class).
    made: Count = dataclasses.field(default_factory=Count)
    #: The bytes that the answers kept by all rounds may take (Services: a quarter of --cache-mb).
    kept: Budget = dataclasses.field(default_factory=lambda: Budget(64 * 2**20))


class Round:
    """One match in this process.  Its acts take :attr:`lock` themselves (a re-entrant lock:
    a move that finds the clock run out ends the match on time inside it)."""

    def __init__(self, match_id: int, parts: Parts):
        self.id = match_id
        self.lock = threading.RLock()
        #: The version of the match this process last read or wrote (None: not yet read).
        self.version: int | None = None
        #: The seat whose computer player is searching here, and why the last one could not move.
        self.thinking: int | None = None
        self.failure: str | None = None
        self._parts = parts
        self._pins = 0          # requests and searches using the round now (see Rounds)
        #: The match at :attr:`version` as this process last read or wrote it, and its answers
        #: by viewer class (under _memory: requests read them without the round's lock).
        self.current: Match | None = None
        self._answers: dict[tuple, Shown] = {}
        self._answer_bytes = 0  # what they take of parts.kept
        self._memory = threading.Lock()
        #: One answer made at a time: the viewers of a class asking at once wait and share it.
        self._making = threading.Lock()
        self._waiting = 0       # people's acts holding or waiting for the lock (WAITING_PER_MATCH)
        self._counting = threading.Lock()

    @contextmanager
    def _acting(self) -> Iterator[None]:
        """The lock, for a person's act; Busy when WAITING_PER_MATCH acts hold or wait for it
        already (each holds a request thread: a flood of one match's moves, each a slow call
        into its script, held them all)."""
        with self._counting:
            if self._waiting >= WAITING_PER_MATCH:
                raise Busy(f"match {self.id} has {self._waiting} requests under way; nothing was changed: "
                           "try again in a moment")
            self._waiting += 1
        try:
            with self.lock:
                yield
        finally:
            with self._counting:
                self._waiting -= 1

    # -- what this process knows of the match ----------------------------------------------------

    def load(self) -> Match:
        """The match read from the database."""
        m = self._parts.tables.load(self.id)
        if m is None:
            raise NotFound(f"no match {self.id}")
        self._hold(m)
        return m

    def _hold(self, m: Match) -> None:
        """Remembers ``m`` as the match now, unless a newer version is remembered already (a
        read that began before this process's own write)."""
        with self._memory:
            held = self.current
            if held is not None and m.row.version < held.row.version:
                return
            if held is None or m.row.version != held.row.version:
                self._drop_answers()
            self.current = m
            self.version = m.row.version

    def forget(self) -> None:
        """What the round remembers of the match is no longer sure (changed elsewhere)."""
        with self._memory:
            self.current = None
            self._drop_answers()

    def _drop_answers(self) -> None:
        """(under _memory)"""
        self._answers = {}
        self._parts.kept.give(self._answer_bytes)
        self._answer_bytes = 0

    def fresh(self, at_least: int | None = None) -> Match:
        """The match now: what the round remembers when it is sure to be current (this process
        is the only writer; or a push of ``at_least`` is not newer; or, with other writers, the
        database's version is the one remembered), else read from the database."""
        m = self.current
        if m is not None and (at_least is None or m.row.version >= at_least):
            if self._parts.sole_writer or at_least is not None or \
                    self._parts.tables.version(self.id) == m.row.version:
                return m
        return self.load()

    def answer(self, user: User | None, m: Match | None = None, lang: str = "en") -> Shown:
        """The match as ``user`` may see it now (None: an anonymous spectator), or as ``m`` left
        it, worded in ``lang``: the answer of the user's viewer class, made once per version."""
        if m is None:
            m = self.fresh()
            if m.row.overdue(now()):
                self.end_if_overdue()
                m = self.fresh()
        key = self._class(m, user, lang)
        found = self._kept(m, key)
        if found is not None:
            return found
        with self._making:
            found = self._kept(m, key)
            if found is not None:
                return found
            shown = Shown(self._parts.views.describe(m, user, self.thinking, self.failure, lang=lang),
                          m.row.deadline if m.row.running else None)
            self._parts.made.add()
            with self._memory:
                if self.current is not None and self.current.row.version == m.row.version \
                        and self._parts.kept.take(shown.size()):
                    self._answers[key] = shown
                    self._answer_bytes += shown.size()
            return shown

    def _kept(self, m: Match, key: tuple) -> Shown | None:
        with self._memory:
            return self._answers.get(key) if self.current is m else None

    def remembered(self, user: User | None, at_least: int | None = None, lang: str = "en") -> Shown | None:
        """The answer for ``user`` when it is made already and sure to be current (no query,
        no work: an event loop may ask), else None."""
        m = self.current
        if m is None or (at_least is not None and m.row.version < at_least) or m.row.overdue(now()):
            return None
        if at_least is None and not self._parts.sole_writer:
            return None          # (another process may have changed it: only a query can tell)
        with self._memory:
            return self._answers.get(self._class(m, user, lang)) if self.current is m else None

    def _class(self, m: Match, user: User | None, lang: str) -> tuple:
        running = m.row.running
        return (*viewer_class(m, user), lang, self.thinking if running else None, self.failure)

    def _seen(self, m: Match, user: User | None, lang: str = "en") -> dict[str, Any]:
        """The match as ``user`` sees ``m``, as a dict (for an error's answer)."""
        import orjson
        loaded: dict[str, Any] = orjson.loads(self.answer(user, m, lang).body())
        return loaded

    def _running(self, m: Match, user: User | None) -> list[int]:
        """The user's seats, when they play in the running match."""
        mine = m.seats_of(user.id if user else None)
        if not mine:
            raise Forbidden("you do not play in this match")
        if not m.row.running:
            raise Conflict(f"the match is {m.row.status}, not running")
        return mine

    # -- moves ---------------------------------------------------------------------------------

    def play(self, user: User, ply: int, move: list[str] | str, lang: str = "en") -> Shown:
        """A person's move, given the ply of the position they saw (pbmserv's move#): the match
        as they see it after the move.

        It starts from what the round remembers, read nothing: with other processes writing
        (PostgreSQL) that may be out of date, which the write itself finds out (it checks the
        version it read); then, and when a refusal was decided on it (a stale ply, not their
        turn, an illegal move: each may be true of the old position alone), the match is read
        and the move tried once more, so that nobody is refused on a position that is gone."""
        with self._acting():
            m = self.current
            sure = m is None or self._parts.sole_writer
            if m is None:
                m = self.load()
            try:
                return self._play(m, user, ply, move, lang)
            except (Conflict, Forbidden, Illegal):        # (Stale is a Conflict)
                if sure:
                    raise
            # (a write that lost its race read the match already)
            held = self.current
            return self._play(held if held is not None and held is not m else self.load(), user, ply, move, lang)

    def _play(self, m: Match, user: User, ply: int, move: list[str] | str, lang: str = "en") -> Shown:
        if m.row.overdue(now()):
            self.end_if_overdue()
            m = self.fresh()
        mine = self._running(m, user)
        if ply != m.row.ply:
            raise Stale(f"the match is at ply {m.row.ply}, not {ply}: someone moved since you looked",
                        ply=m.row.ply, match=self._seen(m, user, lang))
        if m.row.to_move not in mine:
            raise Forbidden(f"it is not your turn: seat {m.row.to_move} is to move")
        after = self._move(m, m.row.to_move, move, user, lang=lang)
        return self.answer(user, after, lang)

    def computer_move(self, version: int, seat: int, steps: list[str], expects: float | None) -> None:
        """The move a computer player found for the match at ``version``: dropped if the match
        moved on meanwhile (a takeback, a resignation)."""
        with self.lock:
            m = self.fresh()
            if m.row.version != version or not m.row.running or m.row.to_move != seat:
                return
            try:
                self._move(m, seat, steps, None, expects)
            except (Stale, Illegal) as exc:
                log.warning("match %s: the computer's move was refused: %s", self.id, exc.message)
            except ApiError as exc:    # the script failed playing it: the match shows why
                self.failure = exc.message
                self._parts.notifier.computer_failed(self.id, m.row.version)

    def _move(self, m: Match, seat: int, move: list[str] | str, user: User | None,
              expects: float | None = None, lang: str = "en") -> Match:
        """Plays and stores the move: the match as it left it."""
        p = self._parts
        key = m.key()
        # (the players' views after the move, made with it: their next looks are answered
        # from them, as are the pushes to whoever watches)
        played = p.engines.play(key, m.loader(), move, [s.seat for s in m.seats])
        if played.seat != seat:      # the script and the database disagree: rebuild and refuse
            p.engines.forget(key)
            raise Stale("the match changed meanwhile; look again", ply=m.row.ply)
        snap = played.snapshot
        outcome = None if snap.outcome is None else {**snap.outcome, "how": "game"}
        t = now()
        values: MatchChange = {"ply": m.row.ply + 1, "to_move": snap.to_move if outcome is None else None,
                               "draw_offer": None, "takeback": None}
        if outcome is not None:
            values.update({"status": "ended", "outcome": outcome, "deadline": None})
        else:
            values["deadline"] = deadline(m.seats, snap.to_move, m.row.time_per_move)
        fischer = Fischer.of(m.row.clock)
        if fischer is not None:
            fischer = fischer.moved(seat, t, m.seat(seat).kind == "user")
            if outcome is not None:
                fischer = fischer.stopped(None, t, False)
            else:
                values["deadline"] = fischer.deadline(m.seats, snap.to_move)
            values["clock"] = fischer.row()
        stored = MoveRow(m.row.ply, seat, played.steps, played.notation, t, expects)
        if outcome is not None:
            self._unless_too_short(m, [*m.moves, stored], values)
        try:
            with p.tables.change() as w:
                w.add_move(m.id, stored)
                if outcome is not None:
                    outcome = self._rate(w, m, values)
                    values["outcome"] = outcome
                w.update(m, values, t)
        except Lost:
            p.engines.forget(key)
            fresh = self.load()
            raise Stale(f"another move was stored first: the match is at ply {fresh.row.ply}",
                        ply=fresh.row.ply, match=self._seen(fresh, user, lang)) from None
        p.engines.landed(key, played)
        self.failure = None
        after = m.changed(values, t, [*m.moves, stored])
        self._changed(after, "move", user)
        return after

    # -- the end: resigning, agreeing a draw, running out of time ------------------------------------

    def resign(self, user: User, lang: str = "en") -> Shown:
        """The user loses; with more than two players, the others share the win."""
        with self._acting():
            m = self.fresh()
            mine = self._running(m, user)
            seat = policy.resigning_seat(mine, m.row.to_move)
            if seat is None:
                raise Conflict("you hold several seats and none of them is to move: resign on your turn")
            self._end(m, policy.resigned(len(m.seats), seat))
            return self.answer(user, lang=lang)

    def abort(self, user: User, lang: str = "en") -> Shown:
        """Ends the match with no result while some seat has not moved yet."""
        with self._acting():
            m = self.load()
            self._running(m, user)
            if {mv.seat for mv in m.moves} >= {s.seat for s in m.seats}:
                raise Conflict("every player has moved: resign or offer a draw instead of aborting")
            values: MatchChange = {"status": "aborted", "to_move": None, "deadline": None,
                                   "draw_offer": None, "takeback": None}
            fischer = Fischer.of(m.row.clock)
            t = now()
            if fischer is not None:
                to_move = m.row.to_move
                values["clock"] = fischer.stopped(to_move, t, to_move is not None
                                                  and m.seat(to_move).kind == "user").row()
            try:
                with self._parts.tables.change() as w:
                    w.update(m, values, t)
            except Lost:
                raise Conflict("the match changed meanwhile; look again") from None
            self._changed(m.changed(values, t), "aborted", user)
            return self.answer(user, lang=lang)

    def end_if_overdue(self) -> bool:
        """Ends the match if the player to move has run out of time."""
        with self.lock:
            m = self.fresh()
            if not m.row.overdue(now()) or m.row.to_move is None:
                return False
            try:
                self._end(m, policy.timed_out(len(m.seats), m.row.to_move))
            except Conflict:
                return False
            return True

    def _end(self, m: Match, result: Result) -> None:
        """Ends the match as the players ended it (nomv.play.policy: a resignation, a time run
        out, a draw agreed); the outcome keeps its words as its record tells them (English)."""
        text = reading.record_text(reading.match_view(m.row, m.seats, self._parts.views.entry(m).info, []), result)
        outcome = {**result.to_json(), "reason": text, "text": text}
        values: MatchChange = {"status": "ended", "outcome": outcome, "to_move": None, "deadline": None,
                               "draw_offer": None, "takeback": None}
        self._unless_too_short(m, m.moves, values)
        t = now()
        fischer = Fischer.of(m.row.clock)
        if fischer is not None:
            to_move = m.row.to_move
            person = to_move is not None and m.seat(to_move).kind == "user"
            if result.how == "timeout" and to_move is not None:    # the time it had is all used
                t_out = m.row.deadline if m.row.deadline is not None else t
                values["clock"] = fischer.stopped(to_move, max(t_out, fischer.since or t_out), person).row()
            else:
                values["clock"] = fischer.stopped(to_move, t, person).row()
        try:
            with self._parts.tables.change() as w:
                values["outcome"] = self._rate(w, m, values)
                w.update(m, values, t)
        except Lost:
            raise Conflict("the match changed meanwhile; look again") from None
        self._changed(m.changed(values, t), result.how)

    @staticmethod
    def _unless_too_short(m: Match, moves: list[MoveRow], values: MatchChange) -> None:
        """A rated match that ends after too few moves (ratings.too_short) ends unrated, and
        its outcome says why."""
        why = ratings.too_short([s.seat for s in m.seats], [mv.seat for mv in moves]) if m.row.rated else None
        outcome = values.get("outcome")
        if why is not None and outcome is not None:
            values["rated"] = False
            values["outcome"] = {**outcome, "unrated": why}

    @staticmethod
    def _rate(w: Changes, m: Match, values: MatchChange) -> dict[str, Any]:
        """Rates the players of a rated match that ends, in the transaction that ends it: its
        outcome (``values["outcome"]``) with each player's rating before and after (``ratings``)."""
        outcome = dict(values["outcome"] or {})
        if not values.get("rated", m.row.rated):
            return outcome
        user_ids = [s.user_id for s in m.seats if s.user_id is not None]
        if len(user_ids) != len(m.seats) or len(set(user_ids)) != len(user_ids):
            return outcome
        changes = ratings.update(w.db, m.row.game, user_ids, outcome["ranks"])
        return {**outcome, "ratings": [{"seat": s.seat, **changes[s.user_id]} for s in m.seats
                                       if s.user_id is not None]}

    # -- draws and takebacks ------------------------------------------------------------------

    def draw(self, user: User, action: Literal["offer", "accept", "decline"], lang: str = "en") -> Shown:
        """Drawn when every player has offered or accepted.  Computer players answer at once,
        as in the window (nomv.play.policy): each accepts when it expects half the points or
        less (its estimate with its last move); a declined offer is not stored, and the answer's
        ``message`` says who declined and why."""
        with self._acting():
            m = self.fresh()
            mine = self._running(m, user)
            offer = list(m.row.draw_offer or [])
            if action == "decline":
                if not offer:
                    raise Conflict("there is no draw offer to decline")
                self._change(m, {"draw_offer": None}, "draw declined", user)
                return self.answer(user, lang=lang)
            if action == "accept" and not offer:
                raise Conflict("there is no draw offer to accept")
            expects = estimates(m)
            computers = [s.seat for s in m.seats if s.kind == "computer"]
            answer = policy.computers_answer_draw([(seat, expects.get(seat)) for seat in computers])
            if not answer.accepted:
                assert answer.declined_by is not None, "a declined draw names who declined"
                self._parts.notifier.changed(m, "draw declined", acting=user)
                shown = self.answer(user, m, lang)
                seen = reading.match_view(m.row, m.seats, self._parts.views.entry(m).info, mine)
                # (the one answer that is its asker's alone: made for them, not kept)
                return Shown({**shown.data, "message": wording.draw_declined(seen, answer.declined_by,
                                                                               answer.expects, lang)},
                             m.row.deadline if m.row.running else None)
            offer = sorted(set(offer) | set(mine) | set(computers))
            if policy.draw_agreed(offer, [s.seat for s in m.seats]):
                self._end(m, policy.agreed_draw(len(m.seats)))
            else:
                self._change(m, {"draw_offer": offer}, "draw offered", user)
            return self.answer(user, lang=lang)

    def takeback(self, user: User, action: Literal["ask", "accept", "decline"], lang: str = "en") -> Shown:
        """``ask`` takes back the user's last move and every move after it once the others
        accept (computer players do, as the window's undo, unless it would show the future:
        _computers_agree)."""
        with self._acting():
            m = self.fresh()
            mine = self._running(m, user)
            request = m.row.takeback
            if action == "decline":
                if not request:
                    raise Conflict("there is no takeback to decline")
                self._change(m, {"takeback": None}, "takeback declined", user)
                return self.answer(user, lang=lang)
            if action == "accept":
                if not request:
                    raise Conflict("there is no takeback to accept")
                request = {**request, "agreed": sorted(set(request["agreed"]) | set(mine))}
            else:
                back_to = policy.takeback_ply([mv.seat for mv in m.moves], mine)
                if back_to is None:
                    raise Conflict("you have no move to take back")
                self._computers_agree(m, back_to)
                computers = {s.seat for s in m.seats if s.kind == "computer" and policy.computer_accepts_takeback()}
                request = {"by": m.moves[back_to].seat, "ply": back_to, "agreed": sorted(set(mine) | computers)}
            if set(request["agreed"]) >= {s.seat for s in m.seats}:
                self._take_back(m, request["ply"], request["by"])
            else:
                self._change(m, {"takeback": request}, "takeback asked", user)
            return self.answer(user, lang=lang)

    def _computers_agree(self, m: Match, back_to: int) -> None:
        """Computer players agree to take moves back, unless that would show the future: in a
        game with hidden information (the moves revealed something: a tile drawn, a card turned
        up) or when the moves drew chance (a die).  A person would take back, look, and play
        again knowing what comes; between people, the others decide whether to let them."""
        if not any(s.kind == "computer" for s in m.seats):
            return
        if (self._parts.views.entry(m).info or {}).get("hidden_information"):
            raise Conflict("the computer player declines: in a game with hidden information, taking "
                           "moves back would let you play them again knowing what they revealed")
        if self._parts.engines.drew_chance(m.key(), m.loader(), back_to):
            raise Conflict("the computer player declines: the moves to take back drew chance (a die, "
                           "a card); taking them back would show you what chance brings next")

    def _take_back(self, m: Match, back_to: int, seat: int) -> None:
        t = now()
        values: MatchChange = {"ply": back_to, "to_move": seat, "takeback": None, "draw_offer": None,
                               "deadline": deadline(m.seats, seat, m.row.time_per_move)}
        fischer = Fischer.of(m.row.clock)
        if fischer is not None:
            # (each seat keeps the time it has: the running clock's time so far is used)
            fischer = fischer.stopped(m.row.to_move, t, m.row.to_move is not None
                                      and m.seat(m.row.to_move).kind == "user").started(t)
            values.update({"clock": fischer.row(), "deadline": fischer.deadline(m.seats, seat)})
        try:
            with self._parts.tables.change() as w:
                w.take_back(m.id, back_to, t)
                w.update(m, values, t)
        except Lost:
            raise Conflict("the match changed meanwhile; look again") from None
        self._changed(m.changed(values, t, m.moves[:back_to]), "takeback")

    def _change(self, m: Match, values: MatchChange, kind: str, user: User | None) -> None:
        """A change of the match row alone (an offer made or withdrawn)."""
        t = now()
        try:
            with self._parts.tables.change() as w:
                w.update(m, values, t)
        except Lost:
            raise Conflict("the match changed meanwhile; look again") from None
        self._changed(m.changed(values, t), kind, user)

    def _changed(self, after: Match, kind: str, user: User | None = None) -> None:
        """Remembers the match as the change left it, makes the answers of those who follow it
        here (each viewer class once, on this thread, before they are told), and tells them."""
        self._hold(after)
        for watcher, lang in self._parts.notifier.live.watchers(self.id):
            self.answer(None if watcher is None else User(watcher, ""), after, lang)
        self._parts.notifier.changed(after, kind, acting=user)


class Rounds:
    """The rounds of this process: one per match, made when first needed; those in use and the
    ``keep`` most recently used stay (a round in use is never dropped: two rounds of one match
    would mean two locks)."""

    def __init__(self, parts: Parts, keep: int = 2000):
        self.parts = parts
        self.keep = max(1, keep)
        self._mutex = threading.Lock()
        self._rounds: OrderedDict[int, Round] = OrderedDict()
        self._acts: dict[int, int] = {}      # user id -> acts under way (ACTS_PER_USER)

    @contextmanager
    def pinned(self, match_id: int) -> Iterator[Round]:
        """The match's round, kept while the block runs (its lock is not taken)."""
        with self._mutex:
            rnd = self._rounds.get(match_id)
            if rnd is None:
                rnd = self._rounds[match_id] = Round(match_id, self.parts)
            self._rounds.move_to_end(match_id)
            rnd._pins += 1
        try:
            yield rnd
        finally:
            with self._mutex:
                rnd._pins -= 1
                if len(self._rounds) > self.keep:     # the least recently used idle ones go
                    idle = (k for k, r in self._rounds.items() if r._pins == 0)
                    for old in list(itertools.islice(idle, len(self._rounds) - self.keep)):
                        self._rounds.pop(old).forget()

    @contextmanager
    def _acting(self, user: User, match_id: int) -> Iterator[Round]:
        """The match's round for a person's act; Busy when ACTS_PER_USER of theirs are under way."""
        with self._mutex:
            if self._acts.get(user.id, 0) >= ACTS_PER_USER:
                raise Busy(f"you have {ACTS_PER_USER} requests under way; nothing was changed: try again "
                           "in a moment")
            self._acts[user.id] = self._acts.get(user.id, 0) + 1
        try:
            with self.pinned(match_id) as rnd:
                yield rnd
        finally:
            with self._mutex:
                self._acts[user.id] -= 1
                if not self._acts[user.id]:
                    del self._acts[user.id]

    @contextmanager
    def held(self, match_id: int) -> Iterator[Round]:
        """The match's round with its lock held: nothing else of this process changes the match
        while the block runs."""
        with self.pinned(match_id) as rnd, rnd.lock:
            yield rnd

    def count(self) -> int:
        with self._mutex:
            return len(self._rounds)

    def made(self) -> int:
        """How many answers were made since the start (each once per version and viewer class)."""
        return self.parts.made.value

    def kept_bytes(self) -> int:
        """About the bytes of the answers the rounds keep."""
        return self.parts.kept.used

    def forget_all(self) -> None:
        """Every round forgets the match it remembers (a user's name or settings changed: the
        seats remembered may show them as they were)."""
        with self._mutex:
            rounds = list(self._rounds.values())
        for rnd in rounds:
            rnd.forget()

    # -- the acts, each on its match's round ---------------------------------------------------------

    def show(self, match_id: int, user: User | None, lang: str = "en") -> Shown:
        with self.pinned(match_id) as rnd:
            return rnd.answer(user, lang=lang)

    def remembered(self, match_id: int, user: User | None, at_least: int | None = None,
                   lang: str = "en") -> Shown | None:
        """The answer for ``user`` when it is made already and sure to be current, else None
        (no query and no work: for an event loop)."""
        with self._mutex:
            rnd = self._rounds.get(match_id)
        return None if rnd is None else rnd.remembered(user, at_least, lang)

    def shown_at(self, match_id: int, user: User | None, at_least: int, lang: str = "en") -> Shown:
        """The answer for ``user`` at the version a push announced, or a newer one."""
        with self.pinned(match_id) as rnd:
            m = rnd.fresh(at_least)
            return rnd.answer(user, m if not m.row.overdue(now()) else None, lang)

    def earlier(self, match_id: int, ply: int, user: User | None) -> dict[str, Any]:
        with self.pinned(match_id) as rnd:
            return self.parts.views.earlier(rnd.fresh(), ply, user)

    def play(self, user: User, match_id: int, ply: int, move: list[str] | str, lang: str = "en") -> Shown:
        with self._acting(user, match_id) as rnd:
            return rnd.play(user, ply, move, lang)

    def resign(self, user: User, match_id: int, lang: str = "en") -> Shown:
        with self._acting(user, match_id) as rnd:
            return rnd.resign(user, lang)

    def abort(self, user: User, match_id: int, lang: str = "en") -> Shown:
        with self._acting(user, match_id) as rnd:
            return rnd.abort(user, lang)

    def draw(self, user: User, match_id: int, action: Literal["offer", "accept", "decline"],
             lang: str = "en") -> Shown:
        with self._acting(user, match_id) as rnd:
            return rnd.draw(user, action, lang)

    def takeback(self, user: User, match_id: int, action: Literal["ask", "accept", "decline"],
                 lang: str = "en") -> Shown:
        with self._acting(user, match_id) as rnd:
            return rnd.takeback(user, action, lang)

    def end_overdue(self) -> int:
        """Ends every match whose player to move ran out of time: how many ended."""
        ended = 0
        for match_id in self.parts.tables.overdue(now()):
            with self.pinned(match_id) as rnd:
                ended += rnd.end_if_overdue()
        return ended
