"""What the operator of a server can set.  ``nomv serve --help`` lists the same, with defaults."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .. import catalog
from ..limits import Limits


def data_dir() -> Path:
    """nomv's data folder (``~/.local/share/nomv`` on Linux): the window's autosave, the user's
    games folder, and the server's default database live there."""
    return catalog.user_dir().parent


def default_db_url() -> str:
    return f"sqlite:///{data_dir() / 'server.sqlite3'}"


@dataclass
class Settings:
    db: str = field(default_factory=default_db_url)
    host: str = "127.0.0.1"
    port: int = 8000
    #: The address people reach the server at, for links in e-mails and invitations
    #: (default: the address of the request, or http://HOST:PORT).
    public_url: str | None = None
    #: Limits of every call into a game script, the desktop's: CPU seconds, bytes of a game's
    #: Lua heap (a computer player's search tree lives there too).
    time_limit: float = 1.5
    memory_limit: int = 1 << 30
    #: Worker processes that run the games of people's matches (each holds many scripts and
    #: the positions of many matches); every search has one more of its own.
    processes: int = 2
    #: Computer seats: searches at once, and the strongest player a seat may ask for.
    searches: int = max(1, (os.cpu_count() or 2) // 2)
    computer_seconds: float = 3.0
    computer_iterations: int = 200_000
    #: Positions kept in memory (least recently used first out, also when they hold over
    #: cache_bytes); the rest are replayed from the database when needed.  Scripts kept loaded
    #: (each in every worker process).
    cache_positions: int = 2000
    cache_scripts: int = 16
    #: Uploaded scripts: size, how many a user may keep, upload attempts per user an hour, and
    #: the random games `nomv check` plays on each.
    max_script_bytes: int = 256 * 1024
    max_scripts: int = 20
    uploads_per_hour: int = 30
    check_playouts: int = 10
    check_extremes: bool = True
    #: ...and the fast random games (inside Lua, with the cheap checks: a dead end in one game in
    #: a hundred is found in all but one upload in a hundred), for the default options.
    check_fast_games: int = 500
    #: Jobs (an upload's check, a record's replay: nomv/server/jobs.py): runner threads per
    #: server process, and the CPU seconds one job may use.
    jobs: int = 1
    job_seconds: float = 60.0
    #: Records continued online: their most moves, and imports a user may try an hour.
    max_record_moves: int = 2000
    imports_per_hour: int = 30
    #: Accounts: registrations from one address an hour, and passwords hashed at once (argon2
    #: takes argon2_memory KiB each); more wait their turn, at most hash_queue of them.
    registrations_per_hour: int = 20
    hashes: int = 2
    hash_queue: int = 64
    #: Matches a user may have created that wait for players or run.
    max_matches: int = 100
    #: What the server process keeps of matches' positions (looks, views) in bytes, and the
    #: largest view of a position it sends (a bigger one is refused, like a script's failure).
    cache_bytes: int = 256 * 2**20
    max_look_bytes: int = 2**20
    #: The Lua memory all the games of one worker process may hold together; over it, the
    #: scripts least recently used are unloaded (0: no budget).
    worker_memory: int = 2 * 2**30
    #: WebSockets (each process counts its own): watchers of one match (its players are always
    #: let in), anonymous sockets from one address, sockets of one logged-in user.
    watchers_per_match: int = 200
    anonymous_sockets_per_address: int = 20
    sockets_per_user: int = 50
    #: Time per move: the shortest a match may ask for (seconds), and how often the server looks
    #: for players out of time.
    min_time_per_move: float = 60.0
    #: The time per move of a match between people that asks for none and has no live clock
    #: (None: no limit).
    default_time_per_move: float | None = 3 * 86400.0
    clock_interval: float = 5.0
    #: A session not used for this many days ends.
    session_days: float = 30.0
    #: "Your turn" e-mail through this SMTP server (smtp://user:password@host:port, smtps://
    #: for TLS from the start, ?starttls=1 to upgrade); None: no e-mail.
    smtp: str | None = None
    mail_from: str = "nomv@localhost"
    #: argon2 cost (memory in KiB, passes); tests may lower them.
    argon2_memory: int = 65536
    argon2_time: int = 3
    log_level: str = "info"
    #: The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (uvicorn's
    #: forwarded_allow_ips: addresses or networks, comma-separated, or "*" for any): the
    #: address a login counts against, and whether the session cookie is Secure.
    forwarded_allow_ips: str = "127.0.0.1"
    #: Seconds a connection may take to send a request's headers (from its opening or the
    #: previous answer), and to send the next part of a body, before it is closed or answered 408.
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    #: Matches a user created that may wait for players at once (challenges, open seats).
    max_waiting: int = 20
    #: Server processes on this machine (uvicorn's workers), sharing the database: PostgreSQL
    #: only (its LISTEN/NOTIFY carries the pushes between them).
    workers: int = 1

    @property
    def limits(self) -> Limits:
        return Limits(self.time_limit, self.memory_limit)

    @property
    def backend(self) -> str:
        return "postgresql" if self.db.startswith("postgresql") else "sqlite"
