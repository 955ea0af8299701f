"""Every route of the API timed, one request at a time (``nomv bench --serve --routes``): the
route table of the tests (tests/test_server_scale.py), each route called as the caller it is
meant for, so that a change that makes any answer slower shows, beside its server's CPU.

What a call needs that it uses up (a fresh match to move in, an invitation, a session to end)
is made before the timed calls, untimed.  Tic-tac-toe, as in the tests: the routes' own cost,
not a game's.
"""
from __future__ import annotations

import asyncio
import itertools
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

_names = itertools.count(1)


@dataclass
class Call:
    method: str
    path: str
    body: Any = None
    headers: dict[str, str] | None = None


class Client:
    """One aiohttp session against one server, with a few accounts."""

    def __init__(self, session, url: str):
        self.session = session
        self.url = url
        self.tag = f"r{random.randrange(10**6)}"

    async def call(self, c: Call) -> tuple[int, bytes]:
        async with self.session.request(c.method, self.url + c.path, json=c.body, headers=c.headers or {}) as r:
            return r.status, await r.read()

    async def ok(self, c: Call, want: tuple[int, ...] = (200, 201)) -> Any:
        import orjson
        status, body = await self.call(c)
        if status not in want:
            raise RuntimeError(f"{c.method} {c.path}: {status} {body[:200]!r}")
        return orjson.loads(body) if body else None

    def name(self) -> str:
        return f"{self.tag}u{next(_names)}"

    async def account(self) -> tuple[str, dict[str, str]]:
        who = self.name()
        await self.ok(Call("POST", "/api/users", {"name": who, "password": "password-1"}))
        token = (await self.ok(Call("POST", "/api/login", {"name": who, "password": "password-1"})))["token"]
        return who, {"Authorization": f"Bearer {token}"}


async def _routes(c: Client, n: int) -> list[tuple[str, Callable[[], Awaitable[list[Call]]]]]:
    """(name, a maker of n calls) for every route."""
    alice, a = await c.account()
    bob, b = await c.account()
    carol, cc = await c.account()
    sha = (await c.ok(Call("GET", "/api/games/tictactoe")))["sha256"]

    async def fresh(status: str = "active") -> int:
        created = await c.ok(Call("POST", "/api/matches", {"game": "tictactoe", "seats": [alice, bob]}, a))
        if status == "active":
            await c.ok(Call("POST", f"/api/matches/{created['id']}/accept", None, b))
        return created["id"]

    async def moved() -> int:
        match_id = await fresh()
        await c.ok(Call("POST", f"/api/matches/{match_id}/moves", {"ply": 0, "move": "b2"}, a))
        return match_id

    async def ended() -> int:
        match_id = await fresh()
        await c.ok(Call("POST", f"/api/matches/{match_id}/resign", None, a))
        return match_id

    async def invite() -> str:
        created = await c.ok(Call("POST", "/api/matches", {"game": "tictactoe", "seats": [alice, "open"]}, a))
        return created["invite"].rsplit("/", 1)[1]

    async def session() -> dict[str, str]:
        token = (await c.ok(Call("POST", "/api/login", {"name": carol, "password": "password-1"})))["token"]
        return {"Authorization": f"Bearer {token}"}

    import nomv
    import orjson
    pos = nomv.Game.load("tictactoe").start(seed=3)
    pos.play("b2")
    record = orjson.loads(nomv.Record.from_position(pos).to_text())

    def same(call: Call) -> Callable[[], Awaitable[list[Call]]]:
        async def make() -> list[Call]:
            return [call] * n
        return make

    def each(make_one: Callable[[], Awaitable[Call]]) -> Callable[[], Awaitable[list[Call]]]:
        async def make() -> list[Call]:
            return [await make_one() for _ in range(n)]
        return make

    async def one_of(kind: str) -> Call:
        if kind == "move":
            return Call("POST", f"/api/matches/{await fresh()}/moves", {"ply": 0, "move": "b2"}, a)
        if kind == "resign":
            return Call("POST", f"/api/matches/{await fresh()}/resign", None, a)
        if kind == "draw":
            return Call("POST", f"/api/matches/{await fresh()}/draw", {"action": "offer"}, a)
        if kind == "takeback":
            return Call("POST", f"/api/matches/{await moved()}/takeback", {"action": "ask"}, a)
        if kind == "accept":
            return Call("POST", f"/api/matches/{await fresh('waiting')}/accept", None, b)
        if kind == "decline":
            return Call("POST", f"/api/matches/{await fresh('waiting')}/decline", None, b)
        if kind == "cancel":
            return Call("POST", f"/api/matches/{await fresh('waiting')}/cancel", None, a)
        if kind == "join":
            return Call("POST", f"/api/invites/{await invite()}", None, cc)
        if kind == "logout":
            return Call("POST", "/api/logout", None, await session())
        if kind == "script":       # (a user's uploads an hour are limited, refused ones too)
            return Call("POST", "/api/scripts", {"source": "return {"}, (await c.account())[1])
        if kind == "user":
            return Call("POST", "/api/users", {"name": c.name(), "password": "password-1"})
        raise ValueError(kind)

    def fixed(kind: str) -> Callable[[], Awaitable[list[Call]]]:
        return each(lambda: one_of(kind))

    active, over, ticket = await fresh(), await ended(), await invite()
    return [
        ("GET /api/health", same(Call("GET", "/api/health"))),
        ("POST /api/users", fixed("user")),
        ("POST /api/login", same(Call("POST", "/api/login", {"name": alice, "password": "password-1"}))),
        ("GET /api/me", same(Call("GET", "/api/me", None, a))),
        ("PATCH /api/me", same(Call("PATCH", "/api/me", {"notify": True}, a))),
        ("POST /api/me/password (wrong)", same(Call("POST", "/api/me/password", {"old": "not-mine-1", "new": "password-2"}, a))),
        ("GET /api/me/matches", same(Call("GET", "/api/me/matches", None, a))),
        ("GET /api/users/{name}", same(Call("GET", f"/api/users/{bob}"))),
        ("GET /api/games", same(Call("GET", "/api/games"))),
        ("GET /api/games/{name}", same(Call("GET", "/api/games/tictactoe"))),
        ("GET /api/games/{name}/standings", same(Call("GET", "/api/games/tictactoe/standings"))),
        ("GET /api/games/{name}/preview", same(Call("GET", "/api/games/tictactoe/preview"))),
        ("GET /api/scripts/{sha256}", same(Call("GET", f"/api/scripts/{sha}"))),
        ("POST /api/scripts (refused)", fixed("script")),
        ("POST /api/matches", same(Call("POST", "/api/matches", {"game": "tictactoe", "seats": [alice, bob]}, a))),
        ("GET /api/matches", same(Call("GET", "/api/matches"))),
        ("GET /api/challenges", same(Call("GET", "/api/challenges"))),
        ("GET /api/matches/{id} (player)", same(Call("GET", f"/api/matches/{active}", None, a))),
        ("GET /api/matches/{id} (spectator)", same(Call("GET", f"/api/matches/{active}"))),
        ("GET /api/matches/{id} (ended)", same(Call("GET", f"/api/matches/{over}", None, a))),
        ("GET /api/matches/{id}/positions/{ply}", same(Call("GET", f"/api/matches/{active}/positions/0", None, a))),
        ("POST /api/matches/{id}/moves", fixed("move")),
        ("POST /api/matches/{id}/resign", fixed("resign")),
        ("POST /api/matches/{id}/draw", fixed("draw")),
        ("POST /api/matches/{id}/takeback", fixed("takeback")),
        ("POST /api/matches/{id}/accept", fixed("accept")),
        ("POST /api/matches/{id}/decline", fixed("decline")),
        ("POST /api/matches/{id}/cancel", fixed("cancel")),
        ("GET /api/matches/{id}/record", same(Call("GET", f"/api/matches/{over}/record"))),
        ("GET /api/invites/{token}", same(Call("GET", f"/api/invites/{ticket}"))),
        ("POST /api/invites/{token}", fixed("join")),
        ("POST /api/records", same(Call("POST", "/api/records", {"record": record, "seats": [alice, bob]}, a))),
        ("GET /api/matches/{id}/live (HTTP)", same(Call("GET", f"/api/matches/{active}/live"))),
        ("POST /api/logout", fixed("logout")),
    ]


async def _timed(c: Client, calls: list[Call], cpu: Callable[[], float]) -> tuple[list[float], float, set[int]]:
    """Each call one after the other: their latencies, the server's CPU for all, the statuses."""
    latencies, statuses = [], set()
    before = cpu()
    for call in calls:
        t = time.perf_counter()
        status, _body = await c.call(call)
        latencies.append(time.perf_counter() - t)
        statuses.add(status)
    return latencies, cpu() - before, statuses


def time_routes(servers: list[tuple[str, str, Callable[[], float]]], n: int = 60, rounds: int = 3,
                progress=lambda text: None) -> list[dict[str, Any]]:
    """Each route on each server (label, url, the server's CPU seconds so far), ``n`` calls in
    ``rounds`` turns alternating between the servers (the machine's load drifts alike for
    both): a row per route with each server's median and 90th percentile latency and CPU per call."""
    return asyncio.run(_time_routes(servers, n, rounds, progress))


async def _time_routes(servers, n: int, rounds: int, progress) -> list[dict[str, Any]]:
    import aiohttp
    import orjson
    per_round = max(1, n // rounds)
    async with aiohttp.ClientSession(json_serialize=lambda o: orjson.dumps(o).decode(),
                                     timeout=aiohttp.ClientTimeout(total=120)) as session:
        clients = [Client(session, url) for _label, url, _cpu in servers]
        tables = [await _routes(client, per_round) for client in clients]
        # (a warm-up: the first calls load scripts and fill caches)
        for client, table in zip(clients, tables):
            for _name, make in table:
                for call in (await make())[:2]:
                    await client.call(call)
        rows = []
        for k, (route, _make) in enumerate(tables[0]):
            progress(f"timing {route}")
            figures: list[dict[str, Any]] = [{"latencies": [], "cpu": 0.0, "statuses": set()} for _ in servers]
            for _round in range(rounds):
                for j, (client, table) in enumerate(zip(clients, tables)):
                    calls = await table[k][1]()
                    latencies, cpu, statuses = await _timed(client, calls, servers[j][2])
                    figures[j]["latencies"] += latencies
                    figures[j]["cpu"] += cpu
                    figures[j]["statuses"] |= statuses
            row: dict[str, Any] = {"route": route}
            for (label, _url, _cpu), f in zip(servers, figures):
                values = sorted(f["latencies"])
                row[label] = {"median_ms": round(1000 * statistics.median(values), 2),
                              "p90_ms": round(1000 * values[int(0.9 * (len(values) - 1))], 2),
                              "cpu_ms": round(1000 * f["cpu"] / len(values), 2),
                              "statuses": sorted(f["statuses"])}
            rows.append(row)
        return rows
