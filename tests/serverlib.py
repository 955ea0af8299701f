"""Real parts for the server's tests: a `nomv serve` process on a loopback port, a PostgreSQL
that the tests start themselves (initdb and pg_ctl in a temporary folder), and API clients.

PostgreSQL: found on PATH or in /usr/lib/postgresql/*/bin (Debian's package).  As root it runs
as the `postgres` user (it refuses root).  Without it the PostgreSQL tests are skipped, unless
NOMV_REQUIRE_POSTGRES=1 (set by .ci/run), which makes them fail.
"""
from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from nomv.limits import slowdown
from nomv.server.localpg import Postgres, postgres_bin  # noqa: F401  (a cluster of the tests' own)

ROOT = Path(__file__).resolve().parent.parent
#: Cheap password hashing: the tests make dozens of accounts, all from 127.0.0.1.
FAST = ["--argon2", "64,1", "--registrations-per-hour", "100000"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_names = itertools.count(1)


def name(prefix: str = "u") -> str:
    """A new user name for this test session."""
    return f"{prefix}{os.getpid() % 1000}x{next(_names)}"


# -- nomv serve ------------------------------------------------------------------------------------

class Server:
    """`nomv serve` in a subprocess.  ``restart()`` keeps the database and the port."""

    def __init__(self, db: str, home: Path, *args: str, env: dict | None = None):
        self.db, self.home, self.args = db, home, list(args)
        self.port = free_port()
        self.env = {**os.environ, "XDG_DATA_HOME": str(home), "SDL_VIDEODRIVER": "dummy",
                    "PYTHONUNBUFFERED": "1", **(env or {})}
        for var in ("NOMV_PATH", "NOMV_LUA", "NOMV_TIME_LIMIT", "NOMV_MEMORY_MB"):
            if var not in (env or {}):
                self.env.pop(var, None)
        self.process: subprocess.Popen | None = None
        self.log = home / f"server-{self.port}.log"
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(self.log, "a", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "nomv", "serve", "--db", self.db, "--port", str(self.port),
             "--log-level", "warning", *FAST, *self.args],
            env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        # (a server starts in a few seconds; on a machine shared by many test runs, load average
        # 40 on 2 cores, it took 135 s, main's as well as this one)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nomv serve ended with {self.process.returncode}:\n{self.output()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop(kill=True)        # (not left running behind the failed test)
        raise RuntimeError(f"nomv serve did not answer:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def stop(self, kill: bool = False) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self, kill: bool = True, before_start=None) -> None:
        self.stop(kill=kill)
        if before_start is not None:
            before_start()
        self.start()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None and \
            httpx.get(self.url + "/api/health", timeout=10).status_code == 200


class Api:
    """An API client: one person (or a spectator, without a name)."""

    def __init__(self, server: Server, who: str | None = None, password: str = "password-1",
                 register: bool = True, email: str | None = None, cookie: bool = False):
        self.server = server
        self.name = who
        self.http = httpx.Client(base_url=server.url, timeout=60)
        self.token = None
        if who is not None:
            if register:
                body = {"name": who, "password": password}
                if email:
                    body["email"] = email
                r = self.http.post("/api/users", json=body)
                assert r.status_code == 201, r.text
            r = self.http.post("/api/login", json={"name": who, "password": password})
            assert r.status_code == 200, r.text
            self.token = r.json()["token"]
            if not cookie:   # a bot: the bearer token, and no cookie
                self.http.cookies.clear()
                self.http.headers["Authorization"] = f"Bearer {self.token}"

    def get(self, path: str, **kw) -> httpx.Response:
        return self.http.get(path, **kw)

    def post(self, path: str, body: dict | None = None, **kw) -> httpx.Response:
        return self.http.post(path, json=body, **kw)

    def ok(self, method: str, path: str, body=None, status: int = 200):
        r = self.http.request(method, path, json=body)
        assert r.status_code == status, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()

    def match(self, match_id: int) -> dict:
        return self.ok("GET", f"/api/matches/{match_id}")

    def move(self, match_id: int, ply: int, move) -> httpx.Response:
        return self.post(f"/api/matches/{match_id}/moves", {"ply": ply, "move": move})

    def ws(self, match_id: int):
        from websockets.sync.client import connect
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return connect(f"{self.server.ws_url}/api/matches/{match_id}/live", additional_headers=headers,
                       open_timeout=30)

    def close(self) -> None:
        self.http.close()


def legal(match: dict) -> list[list[str]]:
    """The legal moves of an answer (the match as its viewer sees it), each a list of steps."""
    return [m["steps"] for m in match["legal_moves"]]


def challenge(creator: Api, others: list[Api], game: str, seats: list[str], **body) -> int:
    """A match between people, every challenge accepted: its id."""
    created = creator.ok("POST", "/api/matches", {"game": game, "seats": seats, **body}, status=201)
    for other in others:
        if other.name != creator.name:
            other.ok("POST", f"/api/matches/{created['id']}/accept")
    return created["id"]


def wait_for(check, timeout: float = 30, what: str = "the condition"):
    """Polls check() until it returns something true (the server works in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Watch:
    """Watches the server while a flood runs (issue 27: `/api/health` answers within a second
    during every flood, and other people's requests go through).

    Asks /api/health every 0.1 s and, given a logged-in person who is not part of the flood,
    their GET /api/me (which needs a request thread, as ordinary requests do).  Entering waits
    for one answer of each (the server was well before the flood); from then on until the
    block ends, it keeps the slowest answer of each (one that fails or times out counts as
    10 s) and counts the requests asked: `check()` asserts both bounds, and that each was
    asked at least once during the flood (a flood too short to be watched fails, rather than
    passing unseen).  A flood made of quick sequential requests goes on with `keep()` until
    the watch has asked enough."""

    def __init__(self, server: Server, person: Api | None = None):
        self.server, self.person = server, person
        self.health = self.me = 0.0
        self.during = {"health": 0, "me": 0}
        self._answered = {"health": threading.Event(), "me": threading.Event()}
        self._flooding = threading.Event()
        self._stop = threading.Event()
        kinds = ["health"] + (["me"] if person is not None else [])
        self._threads = [threading.Thread(target=self._ask, args=(k,), daemon=True) for k in kinds]

    @property
    def asked(self) -> int:
        """How many times /api/health was asked during the flood so far."""
        return self.during["health"]

    def _ask(self, what: str) -> None:
        client = httpx.Client(base_url=self.server.url, timeout=10)
        if what == "me":
            assert self.person is not None
            client.headers["Authorization"] = f"Bearer {self.person.token}"
        path = "/api/health" if what == "health" else "/api/me"
        while not self._stop.is_set():
            flooding = self._flooding.is_set()
            started = time.monotonic()
            try:
                ok = client.get(path).status_code == 200
            except httpx.HTTPError:
                ok = False
            took = time.monotonic() - started if ok else 10.0
            if flooding:
                setattr(self, what, max(getattr(self, what), took))
                self.during[what] += 1
            self._answered[what].set()
            self._stop.wait(0.1)
        client.close()

    def __enter__(self) -> "Watch":
        for thread in self._threads:
            thread.start()
        for what in ("health", "me")[:len(self._threads)]:
            if not self._answered[what].wait(60):
                self._stop.set()
                raise AssertionError(f"the watch had no answer to its {what} before the flood")
        self._flooding.set()
        return self

    def __exit__(self, *exc) -> None:
        self._flooding.clear()
        self._stop.set()
        for thread in self._threads:
            thread.join(15)

    def keep(self, call, answers: int = 3, timeout: float = 60) -> list:
        """Calls call() again and again (the flood going on) until the watch has asked each of
        its questions ``answers`` times during the flood; the results of the calls."""
        results = [call()]
        deadline = time.monotonic() + timeout
        while any(self.during[k] < answers for k in ("health", "me")[:len(self._threads)]):
            if time.monotonic() > deadline:
                raise AssertionError(f"the watch asked only {self.during} times in {timeout} s of flood")
            results.append(call())
        return results

    def check(self, health: float = 1.0, me: float = 3.0) -> None:
        """Asserts what the flood left others: /api/health within ``health`` seconds and the
        person's GET /api/me within ``me`` (its thread is shared: more room), each asked; times
        on the project's machine, given room on a slower one (:func:`machine_factor`)."""
        health, me = health * machine_factor(), me * machine_factor()
        assert self.during["health"] >= 1, "/api/health was never asked during the flood: too short to watch"
        assert self.health < health, f"/api/health took {self.health:.2f} s during the flood"
        if self.person is not None:
            assert self.during["me"] >= 1, "GET /api/me was never asked during the flood: too short to watch"
            assert self.me < me, f"GET /api/me took {self.me:.2f} s during the flood"


def machine_factor() -> float:
    """How many times slower than the project's machine (two cores, NOMV_SLOWER unset) this one
    acts: NOMV_SLOWER, times two where the tests have one core (the server, its workers and the
    flood then share it).  A stall is the flood's length (tens of seconds), not a few seconds."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 2)
    return slowdown() * max(1.0, 2 / cores)


class Collector:
    """Reads a match's WebSocket in a thread and keeps every message."""

    def __init__(self, api: Api, match_id: int):
        import contextlib
        import json
        self.messages: list[dict] = []
        self._stack = contextlib.ExitStack()
        self.connection = self._stack.enter_context(api.ws(match_id))
        self._json = json
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed
        try:
            for text in self.connection:
                self.messages.append(self._json.loads(text))
        except (ConnectionClosed, OSError):
            pass

    def wait(self, predicate, timeout: float = 30):
        return wait_for(lambda: next((m for m in reversed(self.messages) if predicate(m)), None),
                        timeout, "a WebSocket message")

    def close(self) -> None:
        self._stack.close()
        self._thread.join(5)


# -- a real SMTP server on the loopback address ---------------------------------------------------------

class Mailbox:
    """aiosmtpd's handler: keeps every message the server sends."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        from email import message_from_bytes
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list:
        return [m for m in self.messages if m["To"] == address]


def smtp_server():
    """A fixture's body: an SMTP server on 127.0.0.1 (aiosmtpd), its Mailbox, while it runs;
    the mailbox's ``port`` is the server's."""
    from aiosmtpd.controller import Controller
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    box.port = controller.port
    try:
        yield box
    finally:
        controller.stop()


# -- the API's own description ----------------------------------------------------------------------

class Described:
    """The server's /openapi.json, to hold real answers against: every answer's status must be
    documented for its route, and its body must fit the schema documented for that status
    (answer models forbid undocumented keys: their schemas say ``additionalProperties: false``)."""

    def __init__(self, server: Server):
        self.doc = httpx.get(server.url + "/openapi.json", timeout=30).json()

    def operation(self, method: str, path: str) -> dict:
        """The operation of a concrete path (/api/matches/7/moves) and method."""
        import re
        for template, operations in self.doc["paths"].items():
            if method.lower() not in operations:
                continue
            parts = re.split(r"[{][^}]+[}]", template)
            pattern = "^" + "([^/]+)".join(re.escape(part) for part in parts) + "$"
            if re.match(pattern, path.split("?")[0]):
                return operations[method.lower()]
        raise AssertionError(f"{method} {path} is not on the OpenAPI page")

    def schema(self, name: str) -> dict:
        """A schema of the page's components, by name, whose references resolve."""
        return {"$ref": f"#/components/schemas/{name}", "components": self.doc["components"]}

    def check(self, schema: dict, body) -> None:
        """Raises with what does not fit."""
        import jsonschema
        jsonschema.Draft202012Validator({**schema, "components": self.doc["components"]}).validate(body)

    def check_answer(self, method: str, path: str, response: httpx.Response) -> None:
        """The answer is documented: its status for the route, its body by that status's schema."""
        op = self.operation(method, path)
        documented = op["responses"].get(str(response.status_code))
        assert documented is not None, (f"{method} {path} answered {response.status_code}, which its "
                                        f"OpenAPI entry does not list: {sorted(op['responses'])}")
        content = documented.get("content")
        media = response.headers.get("content-type", "").split(";")[0].strip()
        if not content:
            assert not response.content, f"{method} {path}: a body where none is documented"
            return
        assert media in content, f"{method} {path}: {media} where the page says {sorted(content)}"
        if media == "application/json":
            try:
                self.check(content[media]["schema"], response.json())
            except Exception as exc:
                raise AssertionError(f"{method} {path} {response.status_code}: the answer does not fit "
                                     f"its schema: {str(exc)[:1500]}") from None


# -- PostgreSQL --------------------------------------------------------------------------------------

def postgres_or_skip() -> Postgres:
    try:
        return Postgres()
    except FileNotFoundError:
        message = "PostgreSQL is not installed (initdb not found; apt-get install postgresql)"
        if os.environ.get("NOMV_REQUIRE_POSTGRES") == "1":
            pytest.fail(message + ", and NOMV_REQUIRE_POSTGRES=1")
        pytest.skip(message)
