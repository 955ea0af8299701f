"""The database: the truth of the server.  Memory only caches it.

SQLAlchemy Core (no ORM): the tables below, and the connection helpers the services use.  The
schema is made and changed only by the Alembic migrations in ``migrations/versions`` (run by
``nomv serve`` at start); ``tests/test_server_store.py`` checks that they give exactly these
tables.  SQLite (the default, a file in nomv's data folder) and PostgreSQL run the same code.

A match is its script, options, seed and moves.  Moves are only ever added: a takeback marks
the moves it takes back (``taken_back_at``) rather than deleting them, and a partial unique
index on (match, ply) over the moves not taken back lets the database settle races: of two
moves for the same ply, exactly one is stored.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Callable, Iterator

import sqlalchemy as sa
from sqlalchemy import (JSON, BigInteger, Boolean, Column, Float, ForeignKey, Index, Integer,
                        MetaData, String, Table, Text, event)

MIGRATIONS = Path(__file__).with_name("migrations")

metadata = MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    # The name folded to lower case: names are unique ignoring case.
    Column("name_key", String(40), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("email", String(254), nullable=True),
    Column("notify", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    # Only the SHA-256 of a session token is stored: a copy of the database logs nobody in.
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=False),
)

scripts = Table(
    "scripts", metadata,
    Column("sha256", String(64), primary_key=True),
    Column("name", String(200), nullable=False),        # the script's own name field
    Column("catalogue", String(250), nullable=False, index=True),  # trinim, alice/mygame
    Column("origin", String(16), nullable=False),       # bundled, server, upload
    Column("author_id", Integer, ForeignKey("users.id"), nullable=True, index=True),
    Column("source", Text, nullable=False),
    Column("size", Integer, nullable=False),
    Column("info", JSON, nullable=False),               # title, players, options, variants
    Column("created_at", Float, nullable=False),
)

matches = Table(
    "matches", metadata,
    Column("id", Integer, primary_key=True),
    Column("script_sha256", String(64), ForeignKey("scripts.sha256"), nullable=False),
    Column("game", String(250), nullable=False),        # the catalogue name it was started as
    Column("options", JSON, nullable=False),            # as chosen (a variant's preset included)
    Column("variant", String(200), nullable=True),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    # waiting (for seats to be taken or accepted), active, ended, cancelled, declined, aborted
    Column("status", String(16), nullable=False),
    Column("ply", Integer, nullable=False),
    # Bumped by every change; every write checks it (compare and set).
    Column("version", Integer, nullable=False),
    Column("to_move", Integer, nullable=True),
    Column("outcome", JSON, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("time_per_move", Float, nullable=True),
    Column("deadline", Float, nullable=True),
    # a live time control: {"base": s, "increment": s, "left": [s per seat], "since": t | null}
    Column("clock", JSON, nullable=True),
    Column("invite", String(64), nullable=True, unique=True),
    Column("draw_offer", JSON, nullable=True),          # the seats that offered or accepted
    Column("takeback", JSON, nullable=True),            # {"by": seat, "ply": n, "agreed": [...]}
    Column("created_by", Integer, ForeignKey("users.id"), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_matches_status_deadline", "status", "deadline"),
    Index("ix_matches_created_by_status", "created_by", "status"),   # a player's quota of matches
)

seats = Table(
    "seats", metadata,
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),         # user, open, computer
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True, index=True),
    Column("spec", String(200), nullable=True),         # a computer seat's player, e.g. mcts:1s
    Column("accepted", Boolean, nullable=False),
)

moves = Table(
    "moves", metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("ply", Integer, nullable=False),             # 0 for the first move
    Column("seat", Integer, nullable=False),
    Column("steps", JSON, nullable=False),
    Column("notation", Text, nullable=False),
    Column("played_at", Float, nullable=False),
    Column("taken_back_at", Float, nullable=True),
    # A computer player's move: the share of the points it expects (0..1), else null.
    Column("expects", Float, nullable=True),
    Index("uq_moves_match_id_ply_live", "match_id", "ply", unique=True,
          sqlite_where=sa.text("taken_back_at IS NULL"),
          postgresql_where=sa.text("taken_back_at IS NULL")),
)

ratings = Table(
    "ratings", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(250), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)


# One process at a time does some things (searching a computer seat's move): it holds the
# lease of that name until a time, renewed while it works; a process that dies lets it expire.
leases = Table(
    "leases", metadata,
    Column("name", String(100), primary_key=True),
    Column("holder", String(100), nullable=False),
    Column("until", Float, nullable=False),
)

# Failed logins, by "name:<name key>" and "addr:<address>": the rate limit of logins is the
# database's, so that it holds across processes and restarts.
login_failures = Table(
    "login_failures", metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(120), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_login_failures_key_at", "key", "at"),
)


# Long work of a user's (the check of an uploaded script, the replay of an imported record),
# done off the request threads by a job runner of any server process (nomv/server/jobs.py).  A
# user has at most one job unfinished (the partial unique index), so the database settles two
# submissions at once; the runner that holds a job renews ``lease_until`` while it works, and
# another process takes over a job whose lease ran out (its process died).
jobs = Table(
    "jobs", metadata,
    Column("id", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),         # upload, import
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("state", String(16), nullable=False),        # queued, running, done, failed
    Column("payload", JSON, nullable=False),            # what the work needs (emptied once ended)
    Column("status", Integer, nullable=True),           # the HTTP status of its answer, once ended
    Column("result", JSON, nullable=True),              # that answer (or the error's)
    Column("holder", String(100), nullable=True),       # the process running it
    Column("lease_until", Float, nullable=True),
    Column("attempts", Integer, nullable=False),        # runs started (a process died under it)
    Column("created_at", Float, nullable=False),
    Column("started_at", Float, nullable=True),
    Column("finished_at", Float, nullable=True),
    Index("uq_jobs_user_id_unfinished", "user_id", unique=True,
          sqlite_where=sa.text("finished_at IS NULL"), postgresql_where=sa.text("finished_at IS NULL")),
    Index("ix_jobs_state_created_at", "state", "created_at"),
)

# Events counted against a quota over a sliding window, by key ("register:<address>"): the
# database's, so that a restart or another process does not forget them (nomv/server/quotas.py).
quota_events = Table(
    "quota_events", metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(120), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_quota_events_key_at", "key", "at"),
)


#: Where now() reads the time: the system's clock (a test of time controls puts a clock it
#: moves by hand here, in its own process).
clock: Callable[[], float] = time.time


def now() -> float:
    return clock()


def engine_url(url: str) -> str:
    """``postgresql://...`` means psycopg 3 (SQLAlchemy would pick psycopg2 by default)."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


def libpq_url(url: str) -> str:
    """The URL psycopg itself takes (``postgresql://``), from SQLAlchemy's form."""
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


def database_reason(exc: BaseException) -> str:
    """The first line of what the database (or its driver) said, for a message."""
    return str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]


class Store:
    """The database connection: ``read()`` and ``write()`` give a connection in a transaction.

    SQLite runs in WAL mode with ``synchronous=FULL``: a transaction that committed (a move that
    was answered 200) is on the disk, and survives a power cut or a crash of the machine.  With
    NORMAL it would survive a crash of the program only: a power cut could take the last
    transactions back (measured: docs/deploy.md).  ``synchronous`` is for measuring that."""

    def __init__(self, url: str, synchronous: str = "FULL"):
        self.url = url
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous is FULL or NORMAL, got {synchronous!r}")
        self.synchronous = synchronous
        url = engine_url(url)
        self.backend = "sqlite" if url.startswith("sqlite") else "postgresql"
        if self.backend == "sqlite":
            path = url.split("///", 1)[1] if "///" in url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            # A pool as large as the request threads (anyio's 40): a connection made anew runs
            # the PRAGMAs below, and the default pool of 5 made one for most requests under load.
            self.engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False},
                                           pool_size=40, max_overflow=10)
            self._sqlite_transactions()
        else:
            self.engine = sa.create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
        # SQLite has one writer at a time.  Writers of this process wait for each other here, in
        # turn, rather than in SQLite's busy handler, which sleeps between tries (up to 100 ms
        # each): under load some writes waited seconds there while others got in.
        self._writing: threading.RLock | nullcontext = threading.RLock() if self.backend == "sqlite" else nullcontext()

    def _sqlite_transactions(self) -> None:
        # pysqlite starts transactions late and by itself; take over (SQLAlchemy's recipe), so
        # that a write transaction takes the write lock at once (BEGIN IMMEDIATE): a read
        # followed by a write could otherwise fail when another writer got in between.
        @event.listens_for(self.engine, "connect")
        def connect(dbapi_connection, _record):
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute(f"PRAGMA synchronous={self.synchronous}")
            cursor.close()

        @event.listens_for(self.engine, "begin")
        def begin(conn):
            immediate = conn.get_execution_options().get("nomv_write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    def migrate(self) -> None:
        """Brings the schema up to the newest migration (creates it in an empty database)."""
        from alembic import command
        from alembic.config import Config
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.connect().execution_options(nomv_write=True) as conn:
            with conn.begin():
                if self.backend == "postgresql":
                    # Processes starting together on one database migrate one after the other
                    # (the lock ends with the transaction); SQLite's BEGIN IMMEDIATE does it there.
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(7461226)"))
                config.attributes["connection"] = conn
                command.upgrade(config, "head")

    @contextmanager
    def read(self) -> Iterator[sa.Connection]:
        """A read-only transaction that sees one snapshot of the database throughout (on
        PostgreSQL, REPEATABLE READ: under READ COMMITTED a match row and its moves, read one
        after the other, could come from either side of another process's move)."""
        with self.engine.connect() as conn:
            if self.backend == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    @contextmanager
    def write(self) -> Iterator[sa.Connection]:
        """A transaction that commits when the block ends without an exception."""
        with self._writing, self.engine.connect().execution_options(nomv_write=True) as conn:
            with conn.begin():
                yield conn

    def close(self) -> None:
        self.engine.dispose()
