"""The match tables (``matches``, ``seats``, ``moves``) behind typed functions: every read gives
dataclasses, every write takes what it changes by name.  The only module of the match service
that writes SQL; the rest know rows as the dataclasses below.

Every change of a match checks the version it read (compare and set, :meth:`Changes.update`):
of two writers that read the same version, one lands and the other gets :class:`Lost`.  A move
is also a row whose (match, ply) is unique among the moves not taken back, so that the database
settles races between processes too.
"""
from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence, TypedDict

import sqlalchemy as sa

from ..snapshots import MatchKey
from ..store import Store, matches, moves, now, seats, users

#: A match's status: it waits for seats to be taken or accepted, runs, or is over.
WAITING, RUNNING = "waiting", "active"
ENDED = ("ended", "aborted")


class Lost(Exception):
    """The match row changed between reading and writing: another request won."""


@dataclass(frozen=True)
class MatchRow:
    """A row of ``matches``."""
    id: int
    script_sha256: str
    game: str
    options: dict[str, Any]
    variant: str | None
    players: int
    seed: int
    status: str
    ply: int
    version: int
    to_move: int | None
    outcome: dict[str, Any] | None
    rated: bool
    time_per_move: float | None
    deadline: float | None
    clock: dict[str, Any] | None     # a live time control (nomv.server.matches.clock.Fischer)
    invite: str | None
    draw_offer: list[int] | None
    takeback: dict[str, Any] | None
    created_by: int | None
    created_at: float
    updated_at: float

    @property
    def running(self) -> bool:
        return self.status == RUNNING

    @property
    def over(self) -> bool:
        return self.status in ENDED

    def overdue(self, t: float) -> bool:
        """Whether the player to move ran out of time at ``t``."""
        return self.running and self.deadline is not None and self.deadline < t


@dataclass
class SeatRow:
    """A seat of a match, with its user's name and mail settings when a user holds it."""
    seat: int
    kind: str                   # user, open, computer
    user_id: int | None = None
    user: str | None = None
    spec: str | None = None     # a computer seat's player, e.g. mcts:1s
    accepted: bool = False
    email: str | None = None
    notify: bool = False


@dataclass(frozen=True)
class MoveRow:
    """A move not taken back."""
    ply: int
    seat: int
    steps: list[str]
    notation: str
    played_at: float
    expects: float | None = None    # a computer player's estimate of its share of the points


@dataclass(frozen=True)
class Match:
    """A match as the database holds it: its row, its seats, and its moves not taken back."""
    row: MatchRow
    seats: list[SeatRow]
    moves: list[MoveRow]

    @property
    def id(self) -> int:
        return self.row.id

    def key(self) -> MatchKey:
        r = self.row
        return MatchKey(r.id, r.script_sha256, dict(r.options), int(r.seed), r.version, r.ply)

    def loader(self) -> Callable[[], list[list[str]]]:
        """The moves' steps, for the engines (which ask only when their position is behind)."""
        steps = [list(m.steps) for m in self.moves]
        return lambda: steps

    def seats_of(self, user_id: int | None) -> list[int]:
        """The seats a user holds (none for None: an anonymous spectator)."""
        if user_id is None:
            return []
        return [s.seat for s in self.seats if s.kind == "user" and s.user_id == user_id]

    def seat(self, number: int) -> SeatRow:
        return self.seats[number - 1]

    def changed(self, values: MatchChange, t: float, moves: list[MoveRow] | None = None) -> Match:
        """The match as a write of ``values`` at ``t`` left it (its moves then ``moves``), without
        reading it again: the seats do not change with a move, a draw, a takeback or the end."""
        row = dataclasses.replace(self.row, **values, version=self.row.version + 1, updated_at=t)
        return Match(row, self.seats, self.moves if moves is None else moves)


class MatchChange(TypedDict, total=False):
    """The columns of a match that a change may set (the version and time are set with it)."""
    status: str
    ply: int
    to_move: int | None
    outcome: dict[str, Any] | None
    rated: bool
    deadline: float | None
    clock: dict[str, Any] | None
    draw_offer: list[int] | None
    takeback: dict[str, Any] | None


@dataclass(frozen=True)
class NewMatch:
    """What a new match row holds."""
    script_sha256: str
    game: str
    options: dict[str, Any]
    variant: str | None
    players: int
    seed: int
    status: str
    to_move: int | None
    rated: bool
    time_per_move: float | None
    deadline: float | None
    invite: str | None
    created_by: int
    clock: dict[str, Any] | None = None


@dataclass(frozen=True)
class Listed:
    """A match in a list: its row and seats, without its moves."""
    row: MatchRow
    seats: list[SeatRow]


# -- reading ------------------------------------------------------------------------------------

# The queries of a match, made once: every request about a match runs them, and SQLAlchemy would
# build each statement and its cache key anew every time.
_MATCH = sa.select(matches).where(matches.c.id == sa.bindparam("match_id"))
_SEATS = (sa.select(seats, users.c.name, users.c.email, users.c.notify)
          .outerjoin(users, users.c.id == seats.c.user_id)
          .where(seats.c.match_id == sa.bindparam("match_id")).order_by(seats.c.seat))
_MOVES = (sa.select(moves.c.ply, moves.c.seat, moves.c.steps, moves.c.notation, moves.c.played_at,
                    moves.c.expects)
          .where(moves.c.match_id == sa.bindparam("match_id"), moves.c.taken_back_at.is_(None))
          .order_by(moves.c.ply))
_VERSION = sa.select(matches.c.version).where(matches.c.id == sa.bindparam("match_id"))
# The writes of every move, made once too: the columns a change sets come with its parameters.
_ADD_MOVE = moves.insert()
_UPDATE = matches.update().where(matches.c.id == sa.bindparam("b_id"), matches.c.version == sa.bindparam("b_version"))
_MATCH_FIELDS = [f.name for f in dataclasses.fields(MatchRow)]


def _match_row(row: Any) -> MatchRow:
    m = row._mapping
    return MatchRow(**{name: m[name] for name in _MATCH_FIELDS})


def _seat_row(row: Any) -> SeatRow:
    m = row._mapping
    return SeatRow(m["seat"], m["kind"], m["user_id"], m["name"], m["spec"], bool(m["accepted"]),
                   m.get("email"), bool(m.get("notify")))


def _move_row(row: Any) -> MoveRow:
    return MoveRow(row.ply, row.seat, list(row.steps), row.notation, row.played_at, row.expects)


def valid_id(match_id: object) -> bool:
    return isinstance(match_id, int) and not isinstance(match_id, bool) and 0 < match_id < 2**62


class MatchTables:
    """Reads of the match tables, each in a read transaction of its own, and :meth:`change`
    for writes."""

    def __init__(self, store: Store):
        self.store = store

    def load(self, match_id: int) -> Match | None:
        """The match, or None when there is no such match."""
        if not valid_id(match_id):
            return None
        with self.store.read() as db:
            row = db.execute(_MATCH, {"match_id": match_id}).first()
            if row is None:
                return None
            seat_rows = db.execute(_SEATS, {"match_id": match_id}).all()
            move_rows = db.execute(_MOVES, {"match_id": match_id}).all()
        return Match(_match_row(row), [_seat_row(s) for s in seat_rows], [_move_row(m) for m in move_rows])

    def version(self, match_id: int) -> int | None:
        """The match's version (None: no such match): one small query, to know whether what a
        process remembers of the match is current."""
        if not valid_id(match_id):
            return None
        with self.store.read() as db:
            found = db.execute(_VERSION, {"match_id": match_id}).scalar()
        return None if found is None else int(found)

    def by_invite(self, token: str) -> int | None:
        """The match an invitation token is for."""
        with self.store.read() as db:
            row = db.execute(sa.select(matches.c.id).where(matches.c.invite == token)).first()
        return None if row is None else int(row.id)

    def _listed(self, db: sa.Connection, rows: Sequence[Any]) -> list[Listed]:
        ids = [r.id for r in rows]
        seat_rows = db.execute(sa.select(seats, users.c.name).outerjoin(users, users.c.id == seats.c.user_id)
                               .where(seats.c.match_id.in_(ids))
                               .order_by(seats.c.match_id, seats.c.seat)).all() if ids else []
        by_match: dict[int, list[SeatRow]] = {}
        for s in seat_rows:
            by_match.setdefault(s.match_id, []).append(_seat_row(s))
        return [Listed(_match_row(r), by_match.get(r.id, [])) for r in rows]

    def of_user(self, user_id: int, limit: int) -> list[Listed]:
        """The ``limit`` matches a user holds a seat of that matter most to them: the running
        ones where it is their turn, the other running ones, the challenges they have to answer,
        the other waiting ones, then the rest; most recently changed first within each.  Chosen
        so in SQL, before the limit: a flood of challenges never pushes a running match out."""
        own = seats.alias("own")
        seated = sa.and_(own.c.match_id == matches.c.id, own.c.user_id == user_id)
        your_turn = sa.exists().where(seated, own.c.seat == matches.c.to_move)
        to_answer = sa.exists().where(seated, own.c.accepted == sa.false())
        rank = sa.case((sa.and_(matches.c.status == RUNNING, your_turn), 0), (matches.c.status == RUNNING, 1),
                       (sa.and_(matches.c.status == WAITING, to_answer), 2), (matches.c.status == WAITING, 3),
                       else_=4)
        with self.store.read() as db:
            mine = sa.select(seats.c.match_id).where(seats.c.user_id == user_id).distinct()
            rows = db.execute(sa.select(matches).where(matches.c.id.in_(mine))
                              .order_by(rank, matches.c.updated_at.desc()).limit(limit)).all()
            return self._listed(db, rows)

    def waiting_created_by(self, user_id: int) -> int:
        """How many matches the user created wait for players (challenges, open seats)."""
        with self.store.read() as db:
            return int(db.execute(sa.select(sa.func.count()).select_from(matches).where(
                matches.c.created_by == user_id, matches.c.status == WAITING)).scalar_one())

    def waiting_with_invitation(self, limit: int) -> list[Listed]:
        """Matches waiting for players that have an invitation, newest first."""
        with self.store.read() as db:
            rows = db.execute(sa.select(matches).where(matches.c.status == WAITING, matches.c.invite.is_not(None))
                              .order_by(matches.c.created_at.desc()).limit(limit)).all()
            return self._listed(db, rows)

    def recent(self, status: str | None, game: str | None, limit: int) -> list[MatchRow]:
        """The most recently changed matches, of one status or game if given."""
        query = sa.select(matches)
        if status:
            query = query.where(matches.c.status == status)
        if game:
            query = query.where(matches.c.game == game)
        with self.store.read() as db:
            return [_match_row(r) for r in db.execute(query.order_by(matches.c.updated_at.desc()).limit(limit))]

    def overdue(self, t: float) -> list[int]:
        """Running matches whose player to move ran out of time at ``t``."""
        with self.store.read() as db:
            return [row.id for row in db.execute(sa.select(matches.c.id).where(
                matches.c.status == RUNNING, matches.c.deadline.is_not(None), matches.c.deadline < t))]

    def computer_turns(self) -> list[tuple[int, int | None]]:
        """Running matches whose seat to move is a computer player's: (id, who created it)."""
        with self.store.read() as db:
            return [(row.id, row.created_by) for row in db.execute(
                sa.select(matches.c.id, matches.c.created_by)
                .join(seats, sa.and_(seats.c.match_id == matches.c.id, seats.c.seat == matches.c.to_move))
                .where(matches.c.status == RUNNING, seats.c.kind == "computer"))]

    @contextmanager
    def change(self) -> Iterator[Changes]:
        """A write transaction: it commits when the block ends without an exception.  A write
        that the database refuses as a duplicate (two moves for one ply, from two requests or
        two processes) is :class:`Lost`, like a version that moved on."""
        try:
            with self.store.write() as db:
                yield Changes(db)
        except sa.exc.IntegrityError:
            raise Lost() from None


class Changes:
    """The writes of one transaction on the match tables."""

    def __init__(self, db: sa.Connection):
        #: The transaction's connection, for the writes of other tables in it (ratings).
        self.db = db

    def open_matches_of(self, user_id: int) -> int:
        """How many matches the user created that wait for players or run; on PostgreSQL, the
        user's other such counts wait for this transaction (a quota counted then raised by one)."""
        if self.db.dialect.name == "postgresql":
            self.db.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": (1 << 40) + user_id})
        return int(self.db.execute(sa.select(sa.func.count()).select_from(matches).where(
            matches.c.created_by == user_id, matches.c.status.in_((WAITING, RUNNING)))).scalar_one())

    def insert(self, new: NewMatch, match_seats: list[SeatRow], played: list[MoveRow], t: float) -> int:
        """A new match with its seats and the moves it starts from (a continued record): its id."""
        inserted = self.db.execute(matches.insert().values(
            **dataclasses.asdict(new), ply=len(played), version=len(played), outcome=None,
            draw_offer=None, takeback=None, created_at=t, updated_at=t)).inserted_primary_key
        assert inserted is not None, "an insert gives its row's key"
        match_id = int(inserted[0])
        self.db.execute(seats.insert(), [{"match_id": match_id, "seat": s.seat, "kind": s.kind,
                                          "user_id": s.user_id, "spec": s.spec, "accepted": s.accepted}
                                         for s in match_seats])
        if played:
            self.db.execute(moves.insert(), [{"match_id": match_id, "ply": mv.ply, "seat": mv.seat,
                                              "steps": mv.steps, "notation": mv.notation,
                                              "played_at": mv.played_at, "taken_back_at": None,
                                              "expects": mv.expects} for mv in played])
        return match_id

    def update(self, m: Match, values: MatchChange, t: float | None = None) -> None:
        """Writes the match row if its version is still the one read (else :class:`Lost`); the
        version grows by one."""
        result = self.db.execute(_UPDATE, {"b_id": m.id, "b_version": m.row.version, **values,
                                           "version": m.row.version + 1, "updated_at": t or now()})
        if result.rowcount != 1:
            raise Lost()

    def seat(self, match_id: int, number: int, *, kind: str | None = None, user_id: int | None = None,
             accepted: bool | None = None) -> None:
        """Changes who holds a seat, or whether it is accepted."""
        values: dict[str, Any] = {}
        if kind is not None:
            values["kind"] = kind
        if user_id is not None:
            values["user_id"] = user_id
        if accepted is not None:
            values["accepted"] = accepted
        self.db.execute(seats.update().where(seats.c.match_id == match_id, seats.c.seat == number).values(**values))

    def add_move(self, match_id: int, move: MoveRow) -> None:
        """A move (IntegrityError when a move not taken back holds its ply)."""
        self.db.execute(_ADD_MOVE, {"match_id": match_id, "ply": move.ply, "seat": move.seat, "steps": move.steps,
                                    "notation": move.notation, "played_at": move.played_at,
                                    "taken_back_at": None, "expects": move.expects})

    def take_back(self, match_id: int, from_ply: int, t: float) -> None:
        """Marks the moves from ``from_ply`` on as taken back (they stay in the table)."""
        self.db.execute(moves.update().where(moves.c.match_id == match_id, moves.c.ply >= from_ply,
                                             moves.c.taken_back_at.is_(None)).values(taken_back_at=t))
