"""Quotas over a sliding window, kept in the database (``quota_events``): so many events of one
key (``register:<address>``) in so many seconds.  A restart does not forget them, and every
server process on the database counts the same events.

The count and the new event are one write transaction; on PostgreSQL an advisory lock on the
key makes two processes that count at once take turns (SQLite's BEGIN IMMEDIATE already does).
"""
from __future__ import annotations

import zlib

import sqlalchemy as sa

from .errors import TooMany
from .store import Store, now, quota_events

#: Events older than this are deleted now and then (no window is longer).
LONGEST_WINDOW = 86400.0


def wait_text(seconds: float) -> str:
    """'try again in 3 minutes' (at least a minute)."""
    minutes = max(1, int(seconds // 60) + 1)
    return f"try again in {minutes} minute{'s' if minutes != 1 else ''}"


class Quotas:
    def __init__(self, store: Store):
        self.store = store

    def take(self, key: str, limit: int, window: float, what: str) -> None:
        """Counts one event of ``key``, or raises TooMany (429) when ``limit`` of them happened
        in the last ``window`` seconds; ``what`` says what is limited ("registrations from your
        address an hour")."""
        key = key[:120]
        t = now()
        with self.store.write() as db:
            if self.store.backend == "postgresql":
                db.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"),
                           {"k": zlib.crc32(key.encode("utf-8", "replace"))})
            rows = db.execute(sa.select(quota_events.c.at)
                              .where(quota_events.c.key == key, quota_events.c.at > t - window)
                              .order_by(quota_events.c.at).limit(max(1, limit))).all()
            if len(rows) >= limit:
                raise TooMany(f"at most {limit} {what}; {wait_text(rows[0].at + window - t)}",
                              retry_after=int(rows[0].at + window - t) + 1)
            db.execute(quota_events.insert().values(key=key, at=t))
            if int(t) % 64 == 0:   # now and then, what no window needs any more
                db.execute(quota_events.delete().where(quota_events.c.at < t - LONGEST_WINDOW))

    def count(self, key: str, window: float) -> int:
        with self.store.read() as db:
            return int(db.execute(sa.select(sa.func.count()).select_from(quota_events).where(
                quota_events.c.key == key[:120], quota_events.c.at > now() - window)).scalar_one())
