"""A PostgreSQL cluster of nomv's own, in a temporary folder on a loopback port: for the
server's tests and for ``nomv bench --serve``, which measure against a real PostgreSQL without
touching any the machine already runs.  As root it runs as the ``postgres`` user (PostgreSQL
refuses root).  Needs PostgreSQL's programs (initdb, pg_ctl): on PATH or in Debian's
/usr/lib/postgresql/*/bin.
"""
from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


class Postgres:
    """A PostgreSQL cluster in a temporary folder, on a loopback port (FileNotFoundError when
    PostgreSQL is not installed)."""

    def __init__(self):
        bindir = postgres_bin()
        if bindir is None:
            raise FileNotFoundError("initdb")
        self.bindir = bindir
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="nomv-pg-"))
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-A", "trust", "-U", "nomv", "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")
        self.data = data
        self._databases = itertools.count(1)

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder, timeout=120)

    def database(self) -> str:
        """A new empty database: its URL."""
        import psycopg
        name = f"nomv{next(self._databases)}"
        with psycopg.connect(f"postgresql://nomv@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://nomv@127.0.0.1:{self.port}/{name}"

    def restart(self, down_seconds: float = 0.0) -> None:
        """Restarts the cluster as an administrator would (``pg_ctl stop -m fast``: open
        connections break, what was committed stays) after ``down_seconds`` down.  (Not
        ``immediate``: this cluster runs with fsync and synchronous_commit off, for speed, so a
        crash would lose the last commits, PostgreSQL's doing and not nomv's.)"""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "stop")
        time.sleep(down_seconds)
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
