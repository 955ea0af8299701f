"""The simulated players of ``nomv bench --serve``: what pages and bots do to a server.

Two models, each a pair of accounts per Trinim match, playing random legal moves:

* ``page``: what the match page does.  Each player keeps the match's WebSocket open; when a
  message says it is their turn, they send a move chosen from the legal moves that message
  carried, with its ply, and read nothing else (no GET between moves).  The move goes over the
  WebSocket (``moves="ws"``, as the page sends it) or as ``POST .../moves`` (``"http"``); a
  server that takes no moves on its sockets (an earlier revision's: its pushes carry no
  ``version`` beside the match) is sent them over HTTP.  When a match ends, its creator starts a
  rematch and both open its WebSocket.
* ``bot``: a bot that polls.  No WebSocket: each player asks for the match every ``poll``
  seconds and moves when it is their turn.

With a ``rate``, each match moves at an even pace, so that the server is offered that many
moves a second in all, whatever it answers: the latency is then the server's at that load.
Without one, every player moves as soon as it may.

The clients are aiohttp with orjson, one connection pool for all of them: an httpx client spent
more CPU per move than the server it measured.  The process's own CPU is counted (the bench
reports it beside the server's), and every answer and push is timed and weighed.

Only old API shapes are relied on (``legal_moves[i]["steps"]``, a push's ``match``), so that the
same players measure a server of an earlier revision side by side.
"""
from __future__ import annotations

import asyncio
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any

LAYOUT = "b/bb/bgr/grgg/rbgrr"
#: A page that has heard nothing of its match for this long (beyond the pace of its moves)
#: looks at it again, and counts it: a push that never came.
STALL_SECONDS = 10.0


@dataclass
class Tally:
    """What the players saw."""
    moves: int = 0                 # moves answered 200 in the measured window
    landed: int = 0                # moves answered 200, in all (to compare with the database)
    latencies: list[float] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)       # a move's POST to the opponent's message
    errors: dict[str, int] = field(default_factory=dict)
    answer_bytes: list[int] = field(default_factory=list)   # the move's answer
    push_bytes: list[int] = field(default_factory=list)     # every WebSocket message
    look_bytes: list[int] = field(default_factory=list)     # a GET of the match
    requests: int = 0              # HTTP requests of the measured window
    rematches: int = 0
    stalls: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


@dataclass
class Player:
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Load:
    """Players of ``matches`` matches against the servers at ``urls`` (several: the players are
    shared out among them, as behind a proxy)."""

    def __init__(self, urls: list[str], matches: int, model: str = "page", rate: float | None = None,
                 poll: float = 1.0, seed: int = 1, moves: str = "ws"):
        if model not in ("page", "bot"):
            raise ValueError(f"no load model {model!r}: page or bot")
        if moves not in ("ws", "http"):
            raise ValueError(f"moves go over 'ws' or 'http', not {moves!r}")
        self.moves = moves
        #: How the moves went (ws, or http: asked, or the server takes none on its sockets).
        self.moved_over: set[str] = set()
        self.urls = urls
        self.matches = matches
        self.model = model
        self.rate = rate
        self.poll = poll
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.measuring = False
        self.stop_at = float("inf")
        self.sent_at: dict[tuple[int, int], float] = {}
        self.sockets = 0               # WebSockets open now
        self._tags = itertools.count(1)
        self._tag = f"b{random.randrange(10**6)}"

    # -- the set-up ---------------------------------------------------------------------------

    async def _retried(self, call, ok=(200, 201)) -> Any:
        """A set-up request, tried again after a broken connection or a 503 (the server sheds
        load while many matches are being created at once; a polite client waits and retries)."""
        import aiohttp
        for attempt in range(12):
            try:
                async with call() as r:
                    body = await r.read()
                    if r.status in ok:
                        return r.status, body
                    if r.status != 503:
                        raise RuntimeError(f"the server answered {r.status} to a set-up request: "
                                           f"{body[:300]!r}")
            except (aiohttp.ClientConnectionError, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.2 * (attempt + 1))
        raise RuntimeError("the server did not answer the bench's set-up requests")

    async def _account(self, session, url: str, i: int, sem: asyncio.Semaphore) -> Player:
        import orjson
        name = f"{self._tag}p{i}"
        body = {"name": name, "password": "password-1"}
        async with sem:
            await self._retried(lambda: session.post(url + "/api/users", json=body), ok=(201, 409))
            _status, raw = await self._retried(lambda: session.post(url + "/api/login", json=body))
        return Player(name, orjson.loads(raw)["token"])

    async def _new_match(self, session, url: str, a: Player, b: Player) -> int:
        import orjson
        _status, raw = await self._retried(lambda: session.post(url + "/api/matches", headers=a.auth, json={
            "game": "trinim", "seats": [a.name, b.name], "options": {"layout": LAYOUT}}))
        match_id = int(orjson.loads(raw)["id"])
        await self._retried(lambda: session.post(f"{url}/api/matches/{match_id}/accept", headers=b.auth),
                            ok=(200, 409))
        return match_id

    # -- running ------------------------------------------------------------------------------------

    async def run(self, seconds: float, on_window=None) -> None:
        """Sets up the players and their matches, then plays for ``seconds``; ``on_window(begin)``
        is called as the measured window begins (True) and ends (False)."""
        import aiohttp
        import orjson
        connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=3.0)
        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout,
                                         json_serialize=lambda o: orjson.dumps(o).decode()) as session:
            sem = asyncio.Semaphore(50)
            people = await asyncio.gather(*(self._account(session, self.urls[i // 2 % len(self.urls)], i, sem)
                                            for i in range(2 * self.matches)))
            pairs = [(self.urls[k % len(self.urls)], people[2 * k], people[2 * k + 1]) for k in range(self.matches)]

            async def first(pair) -> int:
                async with sem:
                    return await self._new_match(session, *pair)
            ids = await asyncio.gather(*(first(p) for p in pairs))
            began = asyncio.Event()
            tasks = [asyncio.create_task(self._pair(session, pair, match_id, began))
                     for pair, match_id in zip(pairs, ids)]
            # (the pages open their WebSockets first; then the measured window)
            deadline = time.monotonic() + 60
            while self.model == "page" and self.sockets < 2 * self.matches and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            if on_window:
                on_window(True)
            self.measuring = True
            self.stop_at = time.monotonic() + seconds
            began.set()
            await asyncio.sleep(seconds)
            self.measuring = False
            if on_window:
                on_window(False)
            await asyncio.wait(tasks, timeout=5)     # (the moves under way are answered)
            for task in tasks:
                task.cancel()

    async def _pair(self, session, pair: tuple[str, Player, Player], match_id: int, began: asyncio.Event) -> None:
        url, a, b = pair
        pace = self.matches / self.rate if self.rate else 0.0
        # (the first move of each match at a random point of its pace)
        slot = [0.0]
        await_start = asyncio.create_task(began.wait())
        try:
            while True:
                if self.model == "page":
                    ended = await self._page_match(session, url, a, b, match_id, pace, slot, await_start)
                else:
                    ended = await self._bot_match(session, url, a, b, match_id, pace, slot, await_start)
                if not ended or time.monotonic() >= self.stop_at:
                    return
                match_id = await self._new_match(session, url, a, b)
                if self.measuring:
                    self.tally.rematches += 1
        except asyncio.CancelledError:
            pass
        except Exception as exc:   # noqa: BLE001 - a broken pair is counted, the others go on
            self.tally.error(f"pair: {type(exc).__name__}: {str(exc)[:80]}")

    async def _wait_slot(self, pace: float, slot: list[float], started: asyncio.Task) -> bool:
        """Waits for this match's next move time; False once the window is over."""
        if not started.done():
            await started
            slot[0] = time.monotonic() + self.rng.random() * pace
        if pace:
            now = time.monotonic()
            if slot[0] < now - pace:     # behind (the server was slow): no burst to catch up
                slot[0] = now
            await asyncio.sleep(max(0.0, slot[0] - now))
            slot[0] += pace
        return time.monotonic() < self.stop_at

    async def _move(self, session, url: str, who: Player, match_id: int, state: dict) -> bytes | None:
        """Sends a random legal move of ``state``: the answer's body, or None."""
        import aiohttp
        legal = state.get("legal_moves") or []
        if not legal:
            return None
        steps = self.rng.choice(legal)["steps"]
        t = time.monotonic()
        self.sent_at[(match_id, state["ply"] + 1)] = t
        self.moved_over.add("http")
        try:
            async with session.post(f"{url}/api/matches/{match_id}/moves", headers=who.auth,
                                    json={"ply": state["ply"], "move": steps}) as r:
                body = await r.read()
                status = r.status
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            if self.measuring:
                self.tally.error(type(exc).__name__)
            return None
        if status == 200:
            self.tally.landed += 1
        if self.measuring:
            self.tally.requests += 1
            if status == 200:
                self.tally.moves += 1
                self.tally.latencies.append(time.monotonic() - t)
                self.tally.answer_bytes.append(len(body))
            else:
                self.tally.error(str(status))
        return body if status == 200 else None

    async def _ws_move(self, ws, replies: dict[int, asyncio.Future], match_id: int, state: dict) -> None:
        """Sends a random legal move of ``state`` over the match's WebSocket and waits for its
        answer there."""
        import orjson
        legal = state.get("legal_moves") or []
        if not legal:
            return
        steps = self.rng.choice(legal)["steps"]
        tag = next(self._tags)
        reply: asyncio.Future = asyncio.get_running_loop().create_future()
        replies[tag] = reply
        t = time.monotonic()
        self.sent_at[(match_id, state["ply"] + 1)] = t
        self.moved_over.add("ws")
        try:
            await ws.send_str(orjson.dumps({"type": "move", "id": tag, "ply": state["ply"], "move": steps}).decode())
            data, size = await asyncio.wait_for(reply, 60)
        except (asyncio.TimeoutError, ConnectionError, RuntimeError) as exc:
            replies.pop(tag, None)
            if self.measuring:
                self.tally.error(f"websocket move: {type(exc).__name__}")
            return
        if data["type"] == "moved":
            self.tally.landed += 1
        if self.measuring:
            self.tally.requests += 1        # (a move's message over the socket is its one request)
            if data["type"] == "moved":
                self.tally.moves += 1
                self.tally.latencies.append(time.monotonic() - t)
                self.tally.answer_bytes.append(size)
            else:
                self.tally.error(str(data.get("status")))

    async def _look(self, session, url: str, who: Player, match_id: int) -> dict | None:
        import aiohttp
        import orjson
        try:
            async with session.get(f"{url}/api/matches/{match_id}", headers=who.auth) as r:
                body = await r.read()
                status = r.status
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            if self.measuring:
                self.tally.error(type(exc).__name__)
            return None
        if self.measuring:
            self.tally.requests += 1
            self.tally.look_bytes.append(len(body))
            if status != 200:
                self.tally.error(f"GET {status}")
        return orjson.loads(body) if status == 200 else None

    # -- the page model -------------------------------------------------------------------------------

    async def _page_match(self, session, url: str, a: Player, b: Player, match_id: int, pace: float,
                          slot: list[float], started: asyncio.Task) -> bool:
        """One match played by two pages: True when it ended (a rematch follows)."""
        import aiohttp
        import orjson
        ws_url = url.replace("http://", "ws://") + f"/api/matches/{match_id}/live"
        newest: dict[str, dict] = {}              # player -> the newest match their page holds
        news = {a.name: asyncio.Event(), b.name: asyncio.Event()}
        ended = asyncio.Event()

        def hold(who: Player, m: dict) -> None:
            held = newest.get(who.name)
            if held is None or m["version"] > held["version"]:
                newest[who.name] = m
                if m["status"] != "active":
                    ended.set()
                news[who.name].set()

        replies: dict[int, asyncio.Future] = {}    # a move sent over a socket: its answer
        over_ws = {a.name: False, b.name: False}      # (the server takes moves on its sockets)

        async def read(who: Player, ws) -> None:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                if msg.data == "pong":
                    continue
                now = time.monotonic()
                data = orjson.loads(msg.data)
                if data.get("type") in ("moved", "error"):
                    waiting = replies.pop(data.get("id"), None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result((data, len(msg.data)))
                    if data.get("match"):
                        hold(who, data["match"])
                    continue
                if "version" in data and self.moves == "ws":
                    over_ws[who.name] = True
                m = data["match"]
                if self.measuring:
                    self.tally.push_bytes.append(len(msg.data))
                    last = m.get("last_move")
                    if last and m["you"] and last["seat"] not in m["you"]:
                        sent = self.sent_at.pop((match_id, m["ply"]), None)
                        if sent is not None:
                            self.tally.pushes.append(now - sent)
                hold(who, m)

        patience = STALL_SECONDS + 2 * pace      # (the opponent may wait for its turn's slot)

        async def play(who: Player) -> None:
            acted = -1                           # the version this page moved at
            while not ended.is_set() and time.monotonic() < self.stop_at:
                m = newest.get(who.name)
                if m is None or m["to_move"] not in m["you"] or m["version"] == acted:
                    news[who.name].clear()
                    try:
                        await asyncio.wait_for(news[who.name].wait(), patience)
                    except asyncio.TimeoutError:
                        if m is not None and m["to_move"] in m["you"] and m["version"] == acted:
                            continue             # our move's push is late: the answer said so
                        if self.measuring and time.monotonic() < self.stop_at - 1:
                            self.tally.stalls += 1       # no push for a long while: look again
                            fresh = await self._look(session, url, who, match_id)
                            if fresh is not None:
                                hold(who, fresh)
                    continue
                acted = m["version"]
                if not await self._wait_slot(pace, slot, started):
                    return
                if over_ws[who.name]:
                    await self._ws_move(sockets[who.name], replies, match_id, m)
                    continue
                body = await self._move(session, url, who, match_id, m)
                if body:
                    answer = orjson.loads(body)
                    if "version" in answer and "you" in answer:    # the match as the mover sees it
                        hold(who, answer)

        sockets: dict[str, Any] = {}
        try:
            async with session.ws_connect(ws_url, headers=a.auth, autoping=False, max_msg_size=0) as wa, \
                    session.ws_connect(ws_url, headers=b.auth, autoping=False, max_msg_size=0) as wb:
                self.sockets += 2
                sockets = {a.name: wa, b.name: wb}
                try:
                    readers = [asyncio.create_task(read(a, wa)), asyncio.create_task(read(b, wb))]
                    players = [asyncio.create_task(play(a)), asyncio.create_task(play(b))]
                    await asyncio.wait([*players, *readers], return_when=asyncio.FIRST_COMPLETED)
                    if not any(r.done() for r in readers):
                        await asyncio.wait(players)
                    for task in (*readers, *players):
                        task.cancel()
                finally:
                    self.sockets -= 2
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            if self.measuring:
                self.tally.error(f"websocket: {type(exc).__name__}")
            await asyncio.sleep(1.0)
            return False
        return ended.is_set()

    # -- the bot model ----------------------------------------------------------------------------------

    async def _bot_match(self, session, url: str, a: Player, b: Player, match_id: int, pace: float,
                         slot: list[float], started: asyncio.Task) -> bool:
        """One match played by two polling bots: True when it ended."""
        ended = asyncio.Event()

        async def bot(who: Player) -> None:
            await asyncio.sleep(self.rng.random() * self.poll)
            while not ended.is_set() and time.monotonic() < self.stop_at:
                m = await self._look(session, url, who, match_id)
                if m is not None and m["status"] != "active":
                    ended.set()
                    return
                if m is not None and m["to_move"] in m["you"]:
                    if not await self._wait_slot(pace, slot, started):
                        return
                    await self._move(session, url, who, match_id, m)
                    continue
                await asyncio.sleep(self.poll)

        await asyncio.gather(bot(a), bot(b))
        return ended.is_set()
