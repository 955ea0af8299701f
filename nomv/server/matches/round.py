"""The running match: one :class:`Round` per match in this process (as lila's round is one actor
per game), which owns its lock, the version it last saw, what its computer player is doing, and
every act that changes a running match: a move (a person's or a computer's), a resignation, a
draw, a takeback, the end on time.

Every change is one database transaction that checks the version it read (compare and set), and
a move is also a row whose (match, ply) is unique among the moves not taken back: of two moves
sent at once exactly one lands, whichever process took them.  Within this process the round's
lock keeps the requests of one match in order, so that the loser of a race is told at once
(409, with the position it did not see); matches never wait for each other's locks.

:class:`Rounds` keeps the rounds: the ones in use, and the ``keep`` most recently used beside
them, so that what a round knows outlives a request.  That is where a match's state in this
process belongs as it grows: the version a push carries, the answers built once per version and
per viewer class (views.viewer) and handed to every viewer of that class.
"""
from __future__ import annotations

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
from .clock import Fischer, deadline
from .notify import Notifier
from .repository import Changes, Lost, Match, MatchChange, MatchTables, MoveRow
from .views import Views, estimates

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

    # -- reading ------------------------------------------------------------------------------

    def load(self) -> Match:
        m = self._parts.tables.load(self.id)
        if m is None:
            raise NotFound(f"no match {self.id}")
        self.version = m.row.version
        return m

    def show(self, user: User | None, lang: str = "en") -> dict[str, Any]:
        """The match as ``user`` may see it now (None: an anonymous spectator), worded in ``lang``."""
        m = self.load()
        if m.row.overdue(now()):
            self.end_if_overdue()
            m = self.load()
        return self._describe(m, user, lang)

    def _describe(self, m: Match, user: User | None, lang: str = "en") -> dict[str, Any]:
        return self._parts.views.describe(m, user, self.thinking, self.failure, lang=lang)

    def _running(self, m: Match, user: User | None) -> list[int]:
        """The user's seats, when they play in the running match."""
        mine = m.seats_of(user.id if user else None)
        if not mine:
            raise Forbidden("you do not play in this match")
        if not m.row.running:
            raise Conflict(f"the match is {m.row.status}, not running")
        return mine

    # -- moves ---------------------------------------------------------------------------------

    def play(self, user: User, ply: int, move: list[str] | str, lang: str = "en") -> dict[str, Any]:
        """A person's move, given the ply of the position they saw (pbmserv's move#)."""
        with self._acting():
            m = self.load()
            if m.row.overdue(now()):
                self.end_if_overdue()
                m = self.load()
            mine = self._running(m, user)
            if ply != m.row.ply:
                raise Stale(f"the match is at ply {m.row.ply}, not {ply}: someone moved since you looked",
                            ply=m.row.ply, match=self._describe(m, user, lang))
            if m.row.to_move not in mine:
                raise Forbidden(f"it is not your turn: seat {m.row.to_move} is to move")
            return self._move(m, m.row.to_move, move, user, lang=lang)

    def computer_move(self, version: int, seat: int, steps: list[str], expects: float | None) -> None:
        """The move a computer player found for the match at ``version``: dropped if the match
        moved on meanwhile (a takeback, a resignation)."""
        with self.lock:
            m = self.load()
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
              expects: float | None = None, lang: str = "en") -> dict[str, Any]:
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
                        ply=fresh.row.ply, match=self._describe(fresh, user, lang)) from None
        p.engines.landed(key, played)
        self.failure = None
        after = m.changed(values, t, [*m.moves, stored])
        self.version = after.row.version
        p.notifier.changed(after, "move", acting=user)
        return {"ply": after.row.ply, "move": played.notation, "steps": played.steps,
                "status": after.row.status, "outcome": after.row.outcome}

    # -- the end: resigning, agreeing a draw, running out of time ------------------------------------

    def resign(self, user: User, lang: str = "en") -> dict[str, Any]:
        """The user loses; with more than two players, the others share the win."""
        with self._acting():
            m = self.load()
            mine = self._running(m, user)
            seat = policy.resigning_seat(mine, m.row.to_move)
            if seat is None:
                raise Conflict("you hold several seats and none of them is to move: resign on your turn")
            self._end(m, policy.resigned(len(m.seats), seat))
            return self.show(user, lang)

    def abort(self, user: User, lang: str = "en") -> dict[str, Any]:
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
            return self.show(user, lang)

    def end_if_overdue(self) -> bool:
        """Ends the match if the player to move has run out of time."""
        with self.lock:
            m = self.load()
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

    def draw(self, user: User, action: Literal["offer", "accept", "decline"], lang: str = "en") -> dict[str, Any]:
        """Drawn when every player has offered or accepted.  Computer players answer at once,
        as in the window (nomv.play.policy): each accepts when it expects half the points or
        less (its estimate with its last move); a declined offer is not stored, and the answer's
        ``message`` says who declined and why."""
        with self._acting():
            m = self.load()
            mine = self._running(m, user)
            offer = list(m.row.draw_offer or [])
            if action == "decline":
                if not offer:
                    raise Conflict("there is no draw offer to decline")
                self._change(m, {"draw_offer": None}, "draw declined", user)
                return self.show(user, lang)
            if action == "accept" and not offer:
                raise Conflict("there is no draw offer to accept")
            expects = estimates(m)
            computers = [s.seat for s in m.seats if s.kind == "computer"]
            answer = policy.computers_answer_draw([(seat, expects.get(seat)) for seat in computers])
            if not answer.accepted:
                assert answer.declined_by is not None, "a declined draw names who declined"
                self._parts.notifier.changed(m, "draw declined", acting=user)
                out = self.show(user, lang)
                seen = reading.match_view(m.row, m.seats, self._parts.views.entry(m).info, mine)
                out["message"] = wording.draw_declined(seen, answer.declined_by, answer.expects, lang)
                return out
            offer = sorted(set(offer) | set(mine) | set(computers))
            if policy.draw_agreed(offer, [s.seat for s in m.seats]):
                self._end(m, policy.agreed_draw(len(m.seats)))
            else:
                self._change(m, {"draw_offer": offer}, "draw offered", user)
            return self.show(user, lang)

    def takeback(self, user: User, action: Literal["ask", "accept", "decline"], lang: str = "en") -> dict[str, Any]:
        """``ask`` takes back the user's last move and every move after it once the others
        accept (computer players do, as the window's undo, unless it would show the future:
        _computers_agree)."""
        with self._acting():
            m = self.load()
            mine = self._running(m, user)
            request = m.row.takeback
            if action == "decline":
                if not request:
                    raise Conflict("there is no takeback to decline")
                self._change(m, {"takeback": None}, "takeback declined", user)
                return self.show(user, lang)
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
            return self.show(user, lang)

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
        self.version = after.row.version
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
                        del self._rounds[old]

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

    # -- the acts, each on its match's round ---------------------------------------------------------

    def show(self, match_id: int, user: User | None, lang: str = "en") -> dict[str, Any]:
        with self.pinned(match_id) as rnd:
            return rnd.show(user, lang)

    def earlier(self, match_id: int, ply: int, user: User | None) -> dict[str, Any]:
        with self.pinned(match_id) as rnd:
            return self.parts.views.earlier(rnd.load(), ply, user)

    def play(self, user: User, match_id: int, ply: int, move: list[str] | str, lang: str = "en") -> dict[str, Any]:
        with self._acting(user, match_id) as rnd:
            return rnd.play(user, ply, move, lang)

    def resign(self, user: User, match_id: int, lang: str = "en") -> dict[str, Any]:
        with self._acting(user, match_id) as rnd:
            return rnd.resign(user, lang)

    def abort(self, user: User, match_id: int, lang: str = "en") -> dict[str, Any]:
        with self._acting(user, match_id) as rnd:
            return rnd.abort(user, lang)

    def draw(self, user: User, match_id: int, action: Literal["offer", "accept", "decline"],
             lang: str = "en") -> dict[str, Any]:
        with self._acting(user, match_id) as rnd:
            return rnd.draw(user, action, lang)

    def takeback(self, user: User, match_id: int, action: Literal["ask", "accept", "decline"],
                 lang: str = "en") -> dict[str, Any]:
        with self._acting(user, match_id) as rnd:
            return rnd.takeback(user, action, lang)

    def end_overdue(self) -> int:
        """Ends every match whose player to move ran out of time: how many ended."""
        ended = 0
        for match_id in self.parts.tables.overdue(now()):
            with self.pinned(match_id) as rnd:
                ended += rnd.end_if_overdue()
        return ended
