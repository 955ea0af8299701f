"""``nomv bench --serve``: the server under load, measured on this machine.

It starts its own servers (``nomv serve`` processes on loopback ports; for PostgreSQL, a
cluster of its own in a temporary folder) and simulated players: pairs of accounts playing
random Trinim matches through the JSON API as fast as the server answers, some of them
watching their match's WebSocket.  Bounded in number (``--players``) and time (``--seconds``
per configuration).  Printed: moves/s, the latency of a move (p50, p99) and of its push to the
opponent's WebSocket, errors, the server's memory, and afterwards whether every move that got
a 200 is in the database exactly once.  The aims of issue 16 are printed met or not.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .localpg import Postgres, free_port

LAYOUT = "b/bb/bgr/grgg/rbgrr"
AIMS = {"matches": 500, "players": 1000, "p99_ms": 100.0, "moves_per_second": 300.0}
#: Cheap password hashing for the bench's thousand accounts (the server's default costs 64 MiB
#: and 3 passes a login, which is what it is for, and not what this measures), all made from
#: 127.0.0.1 (more than the default quota of one address).
FAST_HASH = ("--argon2", "64,1", "--registrations-per-hour", "1000000")
#: Simulated players sharing one HTTP client (its pool of connections).
PLAYERS_PER_CLIENT = 20


@dataclass
class Figures:
    config: str
    matches: int = 0
    seconds: float = 0.0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    memory_mb: float = 0.0
    stored: int = -1
    duplicated: int = -1
    landed: int = 0
    rate: float | None = None     # the moves a second offered (None: as fast as answered)

    def summary(self) -> dict[str, Any]:
        def pct(values: list[float], q: float) -> float | None:
            if not values:
                return None
            values = sorted(values)
            return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 1)
        rate = self.moves / self.seconds if self.seconds else 0.0
        return {"config": self.config, "matches": self.matches, "players": 2 * self.matches, "offered": self.rate,
                "seconds": round(self.seconds, 1), "moves": self.moves, "moves_per_second": round(rate, 1),
                "move_p50_ms": pct(self.latencies, 0.5), "move_p99_ms": pct(self.latencies, 0.99),
                "push_p50_ms": pct(self.pushes, 0.5), "push_p99_ms": pct(self.pushes, 0.99),
                "errors": self.errors, "server_memory_mb": round(self.memory_mb),
                "moves_with_200": self.landed, "moves_stored": self.stored,
                "lost": None if self.stored < 0 else max(0, self.landed - self.stored),
                "duplicated": self.duplicated}


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants (Linux /proc), in MB."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, StopIteration, ValueError):
            continue
    return total / 1024


class ServerProcess:
    """One ``nomv serve`` on a loopback port, its output in a file."""

    def __init__(self, db: str, home: Path, extra: tuple[str, ...] = ()):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "XDG_DATA_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        self.log = home / f"server-{self.port}.log"
        with open(self.log, "w", encoding="utf-8") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "nomv", "serve", "--db", db, "--port", str(self.port), "--log-level",
                 "warning", *FAST_HASH, *extra], env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)

    def wait_ready(self) -> None:
        import httpx
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nomv serve ended: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("nomv serve did not answer within 60 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


async def _players(urls: list[str], matches: int, figures: Figures, seconds: float, watch_share: float,
                   rate: float | None = None) -> None:
    import httpx
    import websockets

    # A few players per client: httpx's pool looks through all its connections for each
    # request, so one pool of hundreds cost the bench more CPU than the server it measured
    # (on a 2-core machine the two share the cores).
    shards = max(1, -(-2 * matches // (PLAYERS_PER_CLIENT * len(urls))))
    # (connections idle for 3 s are not reused: the server closes them after 5, and one reused
    # as it was closed made a request fail)
    limits = httpx.Limits(max_connections=2 * PLAYERS_PER_CLIENT, max_keepalive_connections=2 * PLAYERS_PER_CLIENT,
                          keepalive_expiry=3)
    clients = [httpx.AsyncClient(base_url=urls[j % len(urls)], timeout=30, limits=limits)
               for j in range(shards * len(urls))]
    client_urls = [urls[j % len(urls)] for j in range(len(clients))]
    sem = asyncio.Semaphore(100)
    tag = f"b{os.getpid() % 1000}{random.randrange(1000)}"

    def count_error(kind: str) -> None:
        figures.errors[kind] = figures.errors.get(kind, 0) + 1

    async def retried(call, ok=(200, 201)):
        """A set-up request, tried again when a kept-alive connection was closed under it (the
        server closes idle ones; the client may reuse one at that moment)."""
        for attempt in range(5):
            try:
                r = await call()
            except httpx.TransportError:
                count_error("connection (set-up, retried)")
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            if r.status_code in ok:
                return r
            r.raise_for_status()
        raise RuntimeError("the server did not answer the bench's set-up requests")

    async def account(i: int) -> tuple[str, str, int]:
        who = f"{tag}p{i}"
        client_index = i % len(clients)
        client = clients[client_index]
        async with sem:
            await retried(lambda: client.post("/api/users", json={"name": who, "password": "password-1"}),
                          ok=(201, 409))   # (409: made by an earlier try whose answer was lost)
            r = await retried(lambda: client.post("/api/login", json={"name": who, "password": "password-1"}))
        return who, r.json()["token"], client_index

    people = await asyncio.gather(*(account(i) for i in range(2 * matches)))

    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    async def start(k: int) -> int:
        (a, ta, ca), (b, tb, cb) = people[2 * k], people[2 * k + 1]
        async with sem:
            r = await retried(lambda: clients[ca].post("/api/matches", headers=auth(ta), json={
                "game": "trinim", "seats": [a, b], "options": {"layout": LAYOUT}}))
            match_id = r.json()["id"]
            await retried(lambda: clients[cb].post(f"/api/matches/{match_id}/accept", headers=auth(tb)), ok=(200, 409))
        return match_id

    ids = await asyncio.gather(*(start(k) for k in range(matches)))
    figures.matches = matches
    sent_at: dict[tuple[int, int], float] = {}
    stop_at = time.monotonic() + seconds
    rng = random.Random(1)

    async def watch(match_id: int, token: str, client_index: int) -> None:
        url = client_urls[client_index].replace("http://", "ws://") + f"/api/matches/{match_id}/live"
        try:
            async with websockets.connect(url, additional_headers=auth(token), open_timeout=30) as ws:
                while time.monotonic() < stop_at + 2:
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=1)
                    except asyncio.TimeoutError:
                        continue
                    ply = json.loads(text)["match"]["ply"]
                    sent = sent_at.pop((match_id, ply), None)
                    if sent is not None:
                        figures.pushes.append(time.monotonic() - sent)
        except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
            count_error("websocket")

    # With a rate, each match moves every `pace` seconds (its first move at a random point of
    # that), so that the server is offered `rate` moves a second whatever it answers: the
    # latency of a move is then the server's at that load.  Without one, every player moves as
    # soon as it is answered, and the latency is the length of the queue (Little's law: the
    # matches in play over the moves a second).
    pace = matches / rate if rate else 0.0

    async def play(k: int, match_id: int) -> None:
        seats = people[2 * k], people[2 * k + 1]
        next_at = time.monotonic() + rng.random() * pace
        while time.monotonic() < stop_at:
            if pace:
                await asyncio.sleep(max(0.0, min(next_at, stop_at) - time.monotonic()))
                next_at += pace
                if time.monotonic() >= stop_at:
                    break
            try:
                # the player to move looks at the position (as a page or a bot does), then moves
                who = seats[0]
                r = await clients[who[2]].get(f"/api/matches/{match_id}", headers=auth(who[1]))
                state = r.json()
                if state.get("status") != "active":
                    return
                who = seats[state["to_move"] - 1]
                if who is not seats[0]:
                    r = await clients[who[2]].get(f"/api/matches/{match_id}", headers=auth(who[1]))
                    state = r.json()
                move = rng.choice(state["legal"])
                sent_at[(match_id, state["ply"] + 1)] = t = time.monotonic()
                r = await clients[who[2]].post(f"/api/matches/{match_id}/moves", headers=auth(who[1]),
                                               json={"ply": state["ply"], "move": move})
                if r.status_code == 200:
                    figures.latencies.append(time.monotonic() - t)
                    figures.moves += 1
                    figures.landed += 1
                else:
                    count_error(str(r.status_code))
            except (httpx.HTTPError, KeyError, ValueError) as exc:
                count_error(type(exc).__name__)

    watchers = [asyncio.create_task(watch(ids[k], people[2 * k + 1][1], people[2 * k + 1][2]))
                for k in range(int(matches * watch_share))]
    await asyncio.sleep(0.5)          # the watchers connect
    began = time.monotonic()
    stop_at = began + seconds
    await asyncio.gather(*(play(k, match_id) for k, match_id in enumerate(ids)))
    figures.seconds = time.monotonic() - began
    await asyncio.gather(*watchers)
    for client in clients:
        await client.aclose()


def _check_database(db: str, figures: Figures) -> None:
    """How many moves are stored (not taken back), and whether any ply is there twice."""
    query_count = "SELECT count(*) FROM moves WHERE taken_back_at IS NULL"
    query_dup = ("SELECT count(*) FROM (SELECT match_id, ply FROM moves WHERE taken_back_at IS NULL "
                 "GROUP BY match_id, ply HAVING count(*) > 1) AS twice")
    if db.startswith("sqlite"):
        import sqlite3
        with sqlite3.connect(db.split("///", 1)[1]) as conn:
            figures.stored = conn.execute(query_count).fetchone()[0]
            figures.duplicated = conn.execute(query_dup).fetchone()[0]
    else:
        import psycopg
        with psycopg.connect(db) as conn:
            figures.stored = conn.execute(query_count).fetchone()[0]   # type: ignore[index]
            figures.duplicated = conn.execute(query_dup).fetchone()[0]   # type: ignore[index]


def measure(config: str, matches: int, seconds: float, watch_share: float = 0.1,
            progress=lambda text: None, rate: float | None = None) -> dict[str, Any]:
    """One configuration: ``sqlite`` (one process), ``postgresql`` (one) or ``postgresql x2``."""
    home = Path(tempfile.mkdtemp(prefix="nomv-bench-serve-"))
    cluster = None
    servers: list[ServerProcess] = []
    figures = Figures(config, rate=rate)
    try:
        if config.startswith("postgresql"):
            progress("starting a PostgreSQL cluster of the bench's own")
            cluster = Postgres()
            db = cluster.database()
        else:
            db = f"sqlite:///{home}/server.sqlite3"
        processes = 2 if config.endswith("x2") else 1
        progress(f"{config}: starting {processes} server process{'es' if processes > 1 else ''}")
        servers = [ServerProcess(db, home) for _ in range(processes)]
        for server in servers:
            server.wait_ready()
        progress(f"{config}: {2 * matches} players, {matches} Trinim matches, {seconds:g} s"
                 + (f", {rate:g} moves/s offered" if rate else ""))
        asyncio.run(_players([s.url for s in servers], matches, figures, seconds, watch_share, rate))
        figures.memory_mb = sum(tree_rss_mb(s.process.pid) for s in servers)
        _check_database(db, figures)
    finally:
        for server in servers:
            server.stop()
        if cluster is not None:
            cluster.stop()
    return figures.summary()


def run(matches: int = 500, seconds: float = 20.0, configs: tuple[str, ...] = ("sqlite", "postgresql", "postgresql x2"),
        progress=lambda text: None, rate: float | None = None) -> list[dict[str, Any]]:
    return [measure(c, matches, seconds, progress=progress, rate=rate) for c in configs]


def format_table(rows: list[dict[str, Any]]) -> str:
    out = [f"{'configuration':<16}{'moves/s':>9}{'move p50':>10}{'p99':>8}{'push p50':>10}{'p99':>8}"
           f"{'errors':>8}{'memory':>9}  stored / 200s"]
    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v:.0f} ms"

    for r in rows:
        errors = sum(r["errors"].values())
        name = r["config"] + (f" @{r['offered']:g}/s" if r.get("offered") else "")
        out.append(f"{name:<16}{r['moves_per_second']:>9.0f}{ms(r['move_p50_ms']):>10}{ms(r['move_p99_ms']):>8}"
                   f"{ms(r['push_p50_ms']):>10}{ms(r['push_p99_ms']):>8}{errors:>8}{r['server_memory_mb']:>6} MB"
                   f"  {r['moves_stored']} / {r['moves_with_200']}, {r['duplicated']} twice")
    out.append("")
    out.append(f"aims (issue 16, a 2-core machine): {AIMS['matches']} matches ({AIMS['players']} players), "
               f"p99 of a move under {AIMS['p99_ms']:.0f} ms, at least {AIMS['moves_per_second']:.0f} moves/s, "
               "nothing lost or doubled")
    for r in rows:
        checks = [("matches", r["matches"] >= AIMS["matches"]),
                  ("p99", r["move_p99_ms"] is not None and r["move_p99_ms"] < AIMS["p99_ms"]),
                  ("moves/s", r["moves_per_second"] >= AIMS["moves_per_second"]),
                  ("nothing lost or doubled", r["lost"] == 0 and r["duplicated"] == 0)]
        out.append(f"  {r['config']:<16}" + ", ".join(f"{name} {'met' if ok else 'NOT met'}" for name, ok in checks))
    return "\n".join(out)
