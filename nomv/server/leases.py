"""Leases: one process at a time does a thing (searches a computer seat's move), even with
several server processes on one database, and even when one of them dies.

A lease is a row (name, holder, until).  Taking it succeeds when there is no row, the row has
expired, or this process already holds it; the database settles a race (two inserts of one
name: the primary key refuses the second; two updates: the row lock of ``FOR UPDATE`` on
PostgreSQL, the write lock of ``BEGIN IMMEDIATE`` on SQLite).  A process that dies holding a
lease lets it expire: another takes it then.
"""
from __future__ import annotations

import os
import secrets
import socket

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from .store import Store, leases, now


class Leases:
    def __init__(self, store: Store, holder: str | None = None):
        self.store = store
        #: Who this process is, in the rows it holds (host, process, and a random part: a
        #: process id may come back after a restart).
        self.holder = holder or f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"

    def take(self, name: str, seconds: float) -> bool:
        """Takes (or renews) the lease for ``seconds``; False when another holds it."""
        t = now()
        try:
            with self.store.write() as db:
                row = db.execute(sa.select(leases.c.holder, leases.c.until)
                                 .where(leases.c.name == name).with_for_update()).first()
                if row is None:
                    db.execute(leases.insert().values(name=name, holder=self.holder, until=t + seconds))
                    return True
                if row.holder != self.holder and row.until > t:
                    return False
                db.execute(leases.update().where(leases.c.name == name)
                           .values(holder=self.holder, until=t + seconds))
                return True
        except IntegrityError:   # another process inserted it first
            return False

    def release(self, name: str) -> None:
        """Gives the lease up (only if this process holds it)."""
        with self.store.write() as db:
            db.execute(leases.delete().where(leases.c.name == name, leases.c.holder == self.holder))

    def holder_of(self, name: str) -> str | None:
        """Who holds the lease now (None: nobody, or it expired)."""
        with self.store.read() as db:
            row = db.execute(sa.select(leases.c.holder, leases.c.until).where(leases.c.name == name)).first()
        return row.holder if row is not None and row.until > now() else None

    def forget_expired(self, older_than: float = 3600.0) -> None:
        """Deletes leases expired long ago (a process died holding them, and the thing they
        guarded moved on)."""
        with self.store.write() as db:
            db.execute(leases.delete().where(leases.c.until < now() - older_than))
