"""The lobby: matches before they start.  Creating a match (with seats for people by name, open
seats taken through an invitation, and computer players), joining an open seat, accepting or
declining a challenge, cancelling a match that has not started; and the match starts once every
seat is taken and accepted.

A change of seats happens under the match's round lock (round.Rounds.held), like every other
change of a match, and checks the version it read.
"""
from __future__ import annotations

import secrets
from typing import Any, Callable

from ..accounts import Accounts, User
from ..catalogue import Catalogue, Entry
from ..engines import Engines
from ..errors import Conflict, Forbidden, Invalid, NotFound, TooMany
from ..settings import Settings
from ..store import now
from .clock import Fischer, deadline, time_control, time_per_move
from .notify import Notifier
from .repository import RUNNING, WAITING, Changes, Lost, Match, MatchChange, MatchTables, MoveRow, NewMatch, SeatRow
from .answers import Shown
from .round import Round, Rounds
from .seating import parse_seats


class Lobby:
    def __init__(self, tables: MatchTables, engines: Engines, catalogue: Catalogue, accounts: Accounts,
                 rounds: Rounds, notifier: Notifier, settings: Settings):
        self.tables = tables
        self.engines = engines
        self.catalogue = catalogue
        self.accounts = accounts
        self.rounds = rounds
        self.notifier = notifier
        self.settings = settings

    def game(self, name: str) -> Entry:
        """The catalogue's game a new match names (Invalid if there is none), its script stored."""
        try:
            entry = self.catalogue.find(name)
        except NotFound as exc:
            raise Invalid(exc.message) from None
        self.catalogue.store_script(entry)
        return entry

    def seats(self, raw: list[str], players: int, creator: User) -> list[SeatRow]:
        return parse_seats(raw, players, creator, self.accounts.by_name, self.settings)

    # -- new matches ---------------------------------------------------------------------------

    def create(self, user: User, game: str, options: dict[str, Any] | None, variant: str | None,
               seat_list: list[str], time_per_move: float | str | None, rated: bool | None,
               clock: Any = None) -> dict[str, Any]:
        """A new match: {"id", "status", "invite" (the token of its open seats, or None)}."""
        entry = self.game(game)
        seed = secrets.randbits(62)
        started = self.engines.start(entry.sha256, options or {}, variant, seed)
        match_seats = self.seats(seat_list, started["players"], user)
        return self.open(user, entry, started["options"], variant, started["players"], seed,
                         match_seats, started["to_move"], time_per_move, rated, [], clock=clock)

    def open(self, user: User, entry: Entry, options: dict[str, Any], variant: str | None, players: int,
             seed: int, match_seats: list[SeatRow], to_move: int | None, tpm: float | str | None,
             rated: bool | None, played: list[MoveRow],
             within: Callable[[Changes, dict[str, Any]], None] | None = None, clock: Any = None) -> dict[str, Any]:
        """Stores a new match (from its first position, or from the moves ``played`` of a
        continued record); it starts at once when no seat waits for anyone.  ``within(w,
        answer)`` runs in the transaction that stores it (a job ends there).  ``clock``: a live
        time control (base + increment), instead of a time per move."""
        control = time_control(clock)
        # (correspondence between people: the server's default time per move when the request
        # names none, as correspondence sites do; a match that waits for no one needs none)
        people = sum(s.kind != "computer" for s in match_seats)
        default = self.settings.default_time_per_move if control is None and people > 1 else None
        seconds = time_per_move(tpm, self.settings.min_time_per_move, default)
        if control is not None and seconds is not None:
            raise Invalid("a match has a live clock or a time per move, not both: leave one out")
        computers = any(s.kind == "computer" for s in match_seats)
        if rated and computers:
            raise Invalid("a match with computer players is not rated: leave out rated, or set it to false")
        if rated and played:
            raise Invalid("a match continued from a record is not rated (its seed is known)")
        rated = bool(rated if rated is not None else not computers and not played)
        active = all(s.accepted for s in match_seats)
        fischer = None if control is None else Fischer.new(*control, players)
        if fischer is not None and active:
            fischer = fischer.started(now())
        if not active:
            waiting = self.tables.waiting_created_by(user.id)
            if waiting >= self.settings.max_waiting:
                raise Forbidden(f"you have {waiting} matches waiting for players, the most one may have "
                                f"({self.settings.max_waiting}): cancel one, or wait for answers, first")
        invite = secrets.token_urlsafe(18) if any(s.kind == "open" for s in match_seats) else None
        new = NewMatch(script_sha256=entry.sha256, game=entry.name, options=options, variant=variant,
                       players=players, seed=seed, status=RUNNING if active else WAITING, to_move=to_move,
                       rated=rated, time_per_move=seconds,
                       deadline=(None if not active else fischer.deadline(match_seats, to_move) if fischer
                                 else deadline(match_seats, to_move, seconds)),
                       invite=invite, created_by=user.id, clock=fischer.row() if fischer else None)
        with self.tables.change() as w:
            # (each match costs memory while it runs: its position, what its viewers are shown)
            if w.open_matches_of(user.id) >= self.settings.max_matches:
                raise TooMany(f"you have {self.settings.max_matches} matches waiting for players or running, "
                              "the most this server keeps for one player: finish or cancel some first")
            match_id = w.insert(new, match_seats, played, now())
            answer = {"id": match_id, "status": new.status, "invite": invite}
            if within is not None:
                within(w, answer)
        m = self.tables.load(match_id)
        assert m is not None, "just stored"
        if active:
            self.notifier.changed(m, "start", acting=user)
        else:           # a challenge: the lobbies of its players, and the open challenges
            self.notifier.listed(m, "challenge")
        return answer

    # -- invitations and challenges ----------------------------------------------------------------

    def invitation(self, token: str) -> Match:
        """The match an invitation is for."""
        match_id = self.tables.by_invite(token)
        m = None if match_id is None else self.tables.load(match_id)
        if m is None:
            raise NotFound("no match has this invitation (it may be mistyped)")
        return m

    def invitation_info(self, token: str, lang: str = "en") -> dict[str, Any]:
        """What an invitation is for: the match's game, seats and open seats, worded in ``lang``."""
        m = self.invitation(token)
        return self.rounds.parts.views.listed({
            "id": m.id, "game": m.row.game, "status": m.row.status,
            "open_seats": [s.seat for s in m.seats if s.kind == "open"],
            "seats": [{"seat": s.seat, "kind": s.kind, "user": s.user, "spec": s.spec} for s in m.seats]},
            m.row, m.seats, [], lang)

    def join(self, user: User, token: str, seat: int | None = None) -> dict[str, Any]:
        """Takes an open seat of the invitation's match (the first, or ``seat``)."""
        match_id = self.invitation(token).id
        with self.rounds.held(match_id) as rnd:
            m = rnd.load()
            if m.row.status not in (WAITING, RUNNING):
                raise Conflict(f"this match is {m.row.status}")
            if m.seats_of(user.id):
                raise Conflict("you already play in this match")
            free = [s.seat for s in m.seats if s.kind == "open"]
            if not free:
                raise Conflict("every seat of this match is taken")
            if seat is not None and seat not in free:
                raise Invalid(f"seat {seat} is not open; open seats: {free}")
            number = seat if seat is not None else free[0]
            self._change(rnd, m, {}, seat=(number, user.id))
            m = rnd.load()
            if not self._start_if_ready(rnd, m, user):
                self.notifier.changed(m, "seat taken", acting=user)
        return {"id": match_id, "seat": number}

    def accept(self, user: User, match_id: int, lang: str = "en") -> Shown:
        """Accepts the challenge of a match that names the user: the match as they see it."""
        with self.rounds.held(match_id) as rnd:
            m = rnd.load()
            self._seated(m, user)
            pending = [s.seat for s in m.seats if s.kind == "user" and s.user_id == user.id and not s.accepted]
            if not pending:
                raise Conflict("you have no challenge to accept in this match")
            if m.row.status != WAITING:
                raise Conflict(f"this match is {m.row.status}")
            for number in pending:
                self._change(rnd, m, {}, accepted=number)
                m = rnd.load()
            if not self._start_if_ready(rnd, m, user):
                self.notifier.changed(m, "accepted", acting=user)
            return rnd.answer(user, lang=lang)

    def decline(self, user: User, match_id: int, lang: str = "en") -> Shown:
        """Declines the challenge of a match that names the user: it will not be played."""
        with self.rounds.held(match_id) as rnd:
            m = rnd.load()
            self._seated(m, user)
            if m.row.status != WAITING or not any(
                    s.kind == "user" and s.user_id == user.id and not s.accepted for s in m.seats):
                raise Conflict("you have no challenge to decline in this match")
            after = self._change(rnd, m, {"status": "declined", "to_move": None, "deadline": None})
            self.notifier.changed(after, "declined", acting=user)
            return rnd.answer(user, lang=lang)

    def cancel(self, user: User, match_id: int, lang: str = "en") -> Shown:
        """Cancels a match the user created, while it waits for players."""
        with self.rounds.held(match_id) as rnd:
            m = rnd.load()
            if m.row.created_by != user.id:
                raise Forbidden("only who created a match may cancel it")
            if m.row.status != WAITING:
                raise Conflict(f"only a match that has not started can be cancelled; this one is {m.row.status}")
            after = self._change(rnd, m, {"status": "cancelled", "to_move": None, "deadline": None})
            self.notifier.changed(after, "cancelled", acting=user)
            return rnd.answer(user, lang=lang)

    def _start_if_ready(self, rnd: Round, m: Match, user: User) -> bool:
        """Starts the match if every seat is taken and accepted: whether it did."""
        if m.row.status != WAITING or not all(s.accepted and s.kind != "open" for s in m.seats):
            return False
        values: MatchChange = {"status": RUNNING,
                               "deadline": deadline(m.seats, m.row.to_move, m.row.time_per_move)}
        fischer = Fischer.of(m.row.clock)
        if fischer is not None:
            fischer = fischer.started(now())
            values.update({"clock": fischer.row(), "deadline": fischer.deadline(m.seats, m.row.to_move)})
        user_ids = [s.user_id for s in m.seats if s.kind == "user"]
        if len(set(user_ids)) != len(user_ids):
            values["rated"] = False       # someone playing against themselves
        self.notifier.changed(self._change(rnd, m, values), "start", acting=user)
        return True

    @staticmethod
    def _seated(m: Match, user: User) -> None:
        """Forbidden unless the user has a seat in the match (someone else's match is not one
        to answer)."""
        if not any(s.kind == "user" and s.user_id == user.id for s in m.seats):
            raise Forbidden("this is not your match")

    def _change(self, rnd: Round, m: Match, values: MatchChange, seat: tuple[int, int] | None = None,
                accepted: int | None = None) -> Match:
        """Writes a change of the match (``seat``: (number, user id) takes an open seat;
        ``accepted``: a seat's challenge accepted); the match as it left it (seats as read: the
        round forgets what it remembered, and reads the match when next asked)."""
        t = now()
        try:
            with self.tables.change() as w:
                w.update(m, values, t)
                if seat is not None:
                    w.seat(m.id, seat[0], kind="user", user_id=seat[1], accepted=True)
                if accepted is not None:
                    w.seat(m.id, accepted, accepted=True)
        except Lost:
            raise Conflict("the match changed meanwhile; look again") from None
        finally:
            rnd.forget()
        return m.changed(values, t)
