"""`nomv serve` through its JSON API and WebSockets, as clients use it: a real server process on a
loopback port, once with SQLite and once with a real PostgreSQL started by the tests.

Two people (two API clients) play whole matches; every refusal has its status; hidden
information never reaches another player or a spectator; races are settled by the database;
a restart loses nothing; records go to and from the desktop.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time

import httpx
import pytest

import nomv
from nomv.play.drawing import drawing
from nomv.server.engines import rounded
from serverlib import Api, Collector, Described, Server, challenge, legal, name, wait_for

LAYOUT = "b/bb/bgr/grgg/rbgrr"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    home = tmp_path_factory.mktemp(f"serve-{request.param}")
    if request.param == "sqlite":
        db = f"sqlite:///{home}/server.sqlite3"
    else:
        db = request.getfixturevalue("postgres").database()
    srv = Server(db, home, "--min-time-per-move", "1", "--clock-interval", "0.2")
    yield srv
    srv.stop()


def people(server: Server, n: int = 2, **kw) -> list[Api]:
    return [Api(server, name(chr(ord("a") + i)), **kw) for i in range(n)]


def play_out(match_id: int, players: list[Api], pick=lambda legal: legal[0], limit: int = 500) -> dict:
    """Plays the match to its end: whoever has legal moves plays ``pick(legal)``."""
    for _ in range(limit):
        for player in players:
            state = player.match(match_id)
            if state["status"] != "active":
                return state
            if legal(state):
                assert all(set(m) <= {"steps", "notation", "any_order", "label"} and m["notation"]
                           for m in state["legal_moves"]), state["legal_moves"]
                r = player.move(match_id, state["ply"], pick(legal(state)))
                assert r.status_code == 200, r.text
                assert r.json()["ply"] == state["ply"] + 1
    raise AssertionError("the match did not end")


# -- whole matches -----------------------------------------------------------------------------------

def test_two_accounts_play_a_whole_trinim_match_and_its_record_opens_on_the_desktop(server, tmp_path):
    alice, bob = people(server)
    match_id = challenge(alice, [bob], "trinim", [alice.name, bob.name], options={"layout": LAYOUT})
    rng = random.Random(3)
    end = play_out(match_id, [alice, bob], pick=rng.choice)
    assert end["status"] == "ended" and end["outcome"]["how"] == "game"
    assert end["outcome"]["winner"] in (1, 2) and end["viewer"] == "whole"
    assert len(end["moves"]) == end["ply"] > 0 and "seed" in end

    # The record is the desktop's: it replays to the same result, and `nomv play` opens it.
    r = bob.get(f"/api/matches/{match_id}/record")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    record = nomv.Record.from_text(r.text)
    assert record.game == "trinim" and record.moves == end["moves"] and record.players == ["human", "human"]
    position = record.replay()
    assert position.outcome().describe(position.game.players) == end["outcome"]["text"] == record.result
    path = tmp_path / "match.json"
    path.write_text(r.text, encoding="utf-8")
    shown = subprocess.run([sys.executable, "-m", "nomv", "play", "--open", str(path), "--text"],
                           capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert shown.returncode == 0, shown.stderr
    assert f"Game over: {end['outcome']['text']}" in shown.stdout

    # Rated: both players are in the standings now.
    standings = alice.ok("GET", "/api/games/trinim/standings")["standings"]
    rows = {row["name"]: row for row in standings}
    winner, loser = (alice, bob) if end["outcome"]["winner"] == 1 else (bob, alice)
    assert rows[winner.name]["wins"] == 1 and rows[loser.name]["losses"] == 1
    assert rows[winner.name]["rating"] > rows[loser.name]["rating"]


def local_views(pos: nomv.Position) -> dict:
    """What each player, and a spectator, may know of a position (computed here, from the
    record the server gives at the end)."""
    # (scenes as answers give them: their numbers rounded to nomv.server.engines.DECIMALS)
    out = {p: {"view": pos.view(p), "scene": rounded(pos.scene(p))} for p in range(1, pos.players + 1)}

    def spectator(engine, state):
        view = engine.view(state, 0)
        data = engine.dump(view)
        data.pop("_rng", None)
        return {"view": data, "scene": rounded(engine.scene(view))}
    out["spectator"] = pos.with_state(spectator)
    return out


def test_knownads_hidden_information_never_reaches_another_player_or_a_spectator(server):
    alice, bob = people(server)
    watcher = Api(server, name("w"))           # logged in, but not a player
    anonymous = Api(server)                    # not logged in
    match_id = challenge(alice, [bob], "nonads", [alice.name, bob.name], variant="knownads")
    live = {who: Collector(api, match_id) for who, api in
            (("alice", alice), ("bob", bob), ("watcher", watcher), ("anonymous", anonymous))}
    seen: dict[str, list[dict]] = {k: [] for k in live}   # every answer each one got, with its ply
    try:
        while True:
            for who, api in (("alice", alice), ("bob", bob), ("watcher", watcher), ("anonymous", anonymous)):
                seen[who].append(api.match(match_id))
            state = seen["alice"][-1]
            if state["status"] != "active":
                break
            mover = alice if state["to_move"] == 1 else bob
            mine = seen["alice" if mover is alice else "bob"][-1]
            assert legal(mine) and "seed" not in mine
            r = mover.move(match_id, mine["ply"], legal(mine)[-1])
            assert r.status_code == 200, r.text
            for c in live.values():   # each sees the move pushed, in their own view
                c.wait(lambda m, ply=mine["ply"] + 1: m["match"]["ply"] == ply)
    finally:
        for c in live.values():
            c.close()
    assert state["status"] == "ended" and state["ply"] == 32

    # The whole game, computed here from the record (whose seed is given only now).
    record = nomv.Record.from_text(alice.get(f"/api/matches/{match_id}/record").text)
    game = nomv.Game.load("nonads")
    pos = game.start(record.options, seed=record.seed)
    expected = []
    for text in record.moves:
        expected.append(local_views(pos))
        pos.play(text)
    whole = {"view": pos.state(), "scene": rounded(pos.scene())}
    targets = pos.state()["targets"]

    seat_of = {"alice": 1, "bob": 2, "watcher": "spectator", "anonymous": "spectator"}
    for who in live:
        answers = seen[who] + [m["match"] for m in live[who].messages]
        assert len(live[who].messages) >= 33       # hello, then one per move at least
        for answer in answers:
            ply = answer["ply"]
            if answer["status"] == "ended":
                assert answer["view"] == whole["view"] and answer["scene"] == whole["scene"]
                continue
            want = expected[ply][seat_of[who]]
            assert answer["view"] == want["view"], (who, ply)
            assert answer["scene"] == want["scene"], (who, ply)
            # the drawing is made of that scene and the one before, as this viewer saw both
            before = expected[ply - 1][seat_of[who]]["scene"] if ply > 0 else None
            made = drawing(want["scene"], before, record.steps[ply - 1] if ply > 0 else ())
            assert answer["drawing"] == json.loads(json.dumps(made.to_json())), (who, ply)
            assert "seed" not in answer
            # ...and concretely: only one's own target, the deck unknown.
            shown = answer["view"]["targets"]
            if who == "alice":
                assert shown == [targets[0], 0]
            elif who == "bob":
                assert shown == [0, targets[1]]
            else:
                assert shown == [0, 0] and legal(answer) == []
            assert set(answer["view"]["deck"]) <= {0}
    # Scores are public at the end: the same final layout, counted for both targets.
    assert state["outcome"]["scores"] == list(pos.outcome().scores)


def test_one_answer_per_version_and_viewer_class_sent_to_every_socket_of_it_and_no_other(server):
    # Knownads: the two players see different views, spectators a third.  Six sockets in three
    # classes (alice twice, bob, two anonymous spectators and a logged-in one): a move makes
    # three answers, each sent to the sockets of its class alone.  Moves go over the sockets,
    # answered there with the mover's own view.
    import contextlib
    alice, bob = people(server)
    carol, anonymous = Api(server, name("c")), Api(server)
    match_id = challenge(alice, [bob], "nonads", [alice.name, bob.name], variant="knownads")
    with contextlib.ExitStack() as stack:
        sockets = {who: stack.enter_context(api.ws(match_id)) for who, api in (
            ("alice", alice), ("alice again", alice), ("bob", bob), ("anonymous", anonymous),
            ("anonymous again", anonymous), ("carol", carol))}
        _classes_and_secrets(alice, bob, match_id, sockets)


def _classes_and_secrets(alice: Api, bob: Api, match_id: int, sockets: dict) -> None:
    """Four moves over the sockets, and what each socket is sent (see the test above)."""
    import json as _json
    hello = {who: _json.loads(ws.recv(timeout=30)) for who, ws in sockets.items()}
    assert {m["version"] for m in hello.values()} == {hello["alice"]["match"]["version"]}
    targets = {who: hello[who]["match"]["view"]["targets"] for who in hello}
    mine = {"alice": targets["alice"][0], "bob": targets["bob"][1]}
    assert targets["anonymous"] == targets["carol"] == [0, 0] and mine["alice"] and mine["bob"]
    for ply in range(4):
        mover, moving = (alice, "alice") if ply % 2 == 0 else (bob, "bob")
        moves = legal(mover.match(match_id))
        before = alice.ok("GET", "/api/health")
        sockets[moving].send(_json.dumps({"type": "move", "id": f"m{ply}", "ply": ply, "move": moves[-1]}))
        got: dict[str, list[dict]] = {who: [] for who in sockets}
        for who, ws in sockets.items():
            def done(messages: list[dict], who: str = who, ply: int = ply, moving: str = moving) -> bool:
                fresh = any((m.get("match") or {}).get("ply") == ply + 1 or m["type"] == "moved"
                            for m in messages)
                return fresh and (who != moving or any(m["type"] == "moved" for m in messages))
            while not done(got[who]):
                got[who].append(_json.loads(ws.recv(timeout=30)))
        after = alice.ok("GET", "/api/health")
        # three classes: three answers made (the mover's own among them)...
        assert after["answers_made"] - before["answers_made"] == 3, (before, after)
        # ...each pushed once to every other socket, the same bytes to the sockets of a class
        pushes = {who: [m for m in messages if m["type"] == "match"] for who, messages in got.items()}
        assert all(len(pushes[who]) == 1 for who in sockets if who != moving), pushes
        assert pushes["anonymous"] == pushes["anonymous again"] == pushes["carol"]
        assert after["pushes_sent"] - before["pushes_sent"] == sum(map(len, pushes.values()))
        moved = next(m for m in got[moving] if m["type"] == "moved")
        assert moved["id"] == f"m{ply}" and moved["version"] == pushes["carol"][0]["version"]
        assert len(pushes[moving]) + ("match" in moved) == 1     # the new version once, either way
        # nobody's message holds another seat's target
        for who, messages in got.items():
            for m in (m["match"] for m in messages if m.get("match")):
                shown = m["view"]["targets"]
                if who.startswith("alice"):
                    assert shown == [mine["alice"], 0], (who, shown)
                elif who == "bob":
                    assert shown == [0, mine["bob"]], (who, shown)
                else:
                    assert shown == [0, 0] and m["legal_moves"] == [], (who, shown)
    # a move refused over the socket gets the route's answer there: a stale ply, with the match
    sockets["alice"].send(_json.dumps({"type": "move", "id": "late", "ply": 1, "move": moves[0]}))
    refused = next(m for m in (_json.loads(sockets["alice"].recv(timeout=30)) for _ in range(5))
                   if m["type"] == "error")
    assert refused["id"] == "late" and refused["status"] == 409 and refused["error"] == "stale"
    assert refused["match"]["ply"] == 4 and refused["match"]["view"]["targets"] == [mine["alice"], 0]
    sockets["anonymous"].send(_json.dumps({"type": "move", "id": 1, "ply": 4, "move": moves[0]}))
    assert _json.loads(sockets["anonymous"].recv(timeout=30))["status"] == 401


# -- refusals ----------------------------------------------------------------------------------------

def test_moves_out_of_turn_for_another_seat_without_login_illegal_and_stale_are_refused(server):
    alice, bob = people(server)
    carol = Api(server, name("c"))
    match_id = challenge(alice, [bob], "trinim", [alice.name, bob.name], options={"layout": LAYOUT})
    first = alice.match(match_id)
    assert first["to_move"] == 1 and first["you"] == [1]
    assert legal(bob.match(match_id)) == []          # not bob's turn: no legal moves shown

    # out of turn: bob (seat 2) moves while seat 1 is to move
    r = bob.move(match_id, 0, "D4-D2")
    assert r.status_code == 403 and "not your turn" in r.json()["message"]
    # for another seat: carol holds no seat of this match
    r = carol.move(match_id, 0, "D4-D2")
    assert r.status_code == 403 and "do not play" in r.json()["message"]
    # without login
    r = httpx.post(f"{server.url}/api/matches/{match_id}/moves", json={"ply": 0, "move": "D4-D2"})
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    # a session that was never made
    r = httpx.post(f"{server.url}/api/matches/{match_id}/moves", json={"ply": 0, "move": "D4-D2"},
                   headers={"Authorization": "Bearer not-a-session"})
    assert r.status_code == 401
    # illegal, with the script's reason
    r = alice.move(match_id, 0, "Q9-Q1")
    assert r.status_code == 422 and r.json()["error"] == "illegal_move"
    assert "is not a legal move here" in r.json()["message"]
    r = alice.move(match_id, 0, ["Q9"])
    assert r.status_code == 422 and "Q9 is not a legal move" in r.json()["message"]
    # a body that is not a move at all
    r = alice.post(f"/api/matches/{match_id}/moves", {"ply": "zero", "move": 3})
    assert r.status_code == 422 and "ply" in r.json()["message"]
    # stale: the ply the client saw is not the match's
    assert alice.move(match_id, 0, "D4-D2").status_code == 200
    r = bob.move(match_id, 0, "C3")
    assert r.status_code == 409 and r.json()["error"] == "stale"
    body = r.json()
    assert body["ply"] == 1 and body["match"]["ply"] == 1 and body["match"]["moves"] == ["D2-D4"]
    assert legal(body["match"])                    # the current position, ready to move in
    assert bob.move(match_id, 1, "C3").status_code == 200
    # nothing lost, nothing doubled
    assert alice.match(match_id)["moves"] == ["D2-D4", "C3"]
    # unknown match, unknown route: JSON errors too
    r = alice.get("/api/matches/999999")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert alice.get("/api/nothing").json()["error"] == "not_found"


def test_simultaneous_moves_exactly_one_lands_even_from_two_server_processes(server, tmp_path):
    # A second `nomv serve` on the same database: the two processes share nothing but it.
    second = Server(server.db, tmp_path)
    try:
        alice, bob = people(server)
        match_id = challenge(alice, [bob], "trinim", [alice.name, bob.name], options={"layout": LAYOUT})
        alice2 = Api(second, alice.name, register=False)
        for _round in range(6):
            state = alice.match(match_id)
            if state["status"] != "active":
                break
            mover, twin = (alice, alice2) if state["to_move"] == 1 else (bob, Api(second, bob.name, register=False))
            moves = legal(state) if mover is alice else legal(mover.match(match_id))
            barrier = threading.Barrier(2)
            results = []

            def send(api, move, ply=state["ply"], gate=barrier, out=results):
                gate.wait()
                try:
                    out.append(api.move(match_id, ply, move))
                except httpx.HTTPError as exc:   # shown by the assertion below
                    out.append(exc)
            threads = [threading.Thread(target=send, args=(api, moves[i % len(moves)]))
                       for i, api in enumerate((mover, twin))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(getattr(r, "status_code", 0) for r in results)
            assert codes == [200, 409], [getattr(r, "text", repr(r)) for r in results]
            after = alice.match(match_id)
            assert after["ply"] == state["ply"] + 1 and len(after["moves"]) == after["ply"]
            # both processes agree on the position
            assert Api(second, alice.name, register=False).match(match_id)["moves"] == after["moves"]
    finally:
        second.stop()


def test_the_websocket_of_a_match_for_players_spectators_and_bots(server):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    alice, bob = people(server)
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    # a bot by ?token=, a spectator without one
    with connect(f"{server.ws_url}/api/matches/{match_id}/live?token={bob.token}") as ws, \
            connect(f"{server.ws_url}/api/matches/{match_id}/live") as watcher:
        hello = json.loads(ws.recv(timeout=30))
        assert hello["events"] == ["hello"] and hello["match"]["you"] == [2]
        assert json.loads(watcher.recv(timeout=30))["match"]["viewer"] == "spectator"
        ws.send("ping")
        assert ws.recv(timeout=30) == "pong"
        assert alice.move(match_id, 0, "b2").status_code == 200
        pushed = json.loads(ws.recv(timeout=30))
        assert pushed["events"] == ["move"] and legal(pushed["match"])     # bob's turn, his moves
        described = Described(server)     # the match a push carries is the GET's answer
        for message in (hello, pushed):
            described.check(described.schema("MatchOut"), message["match"])
        seen = json.loads(watcher.recv(timeout=30))["match"]
        assert seen["moves"] == ["b2"] and legal(seen) == []
        alice.ok("POST", f"/api/matches/{match_id}/draw", {"action": "offer"})
        assert json.loads(ws.recv(timeout=30))["events"] == ["draw offered"]
    # the cookie of a browser on another site's page opens no WebSocket with the session
    browser = Api(server, alice.name, register=False, cookie=True)
    cookie = f"nomv_session={browser.http.cookies['nomv_session']}"
    with pytest.raises(InvalidStatus):
        connect(f"{server.ws_url}/api/matches/{match_id}/live", open_timeout=30,
                additional_headers={"Cookie": cookie, "Origin": "https://evil.example"})
    with connect(f"{server.ws_url}/api/matches/{match_id}/live", open_timeout=30,
                 additional_headers={"Cookie": cookie, "Origin": server.url}) as ws:
        assert json.loads(ws.recv(timeout=30))["match"]["you"] == [1]
    with pytest.raises(InvalidStatus):       # an unknown match
        connect(f"{server.ws_url}/api/matches/987654/live", open_timeout=30)
    # the lists: recent matches, one game
    assert any(m["id"] == match_id for m in httpx.get(f"{server.url}/api/matches?status=active").json())
    game = httpx.get(f"{server.url}/api/games/nonads").json()
    assert game["hidden_information"] and "knownads" in game["variants"] and game["info"]


# -- restarts and clocks -----------------------------------------------------------------------------

def test_the_server_restarts_mid_match_and_matches_sessions_and_clocks_go_on(server):
    alice, bob = people(server)
    browser = Api(server, alice.name, register=False, cookie=True)   # a cookie session
    match_id = challenge(alice, [bob], "trinim", [alice.name, bob.name], options={"layout": LAYOUT})
    assert alice.move(match_id, 0, "D4-D2").status_code == 200
    clocked = challenge(alice, [bob], "tictactoe", [alice.name, bob.name], time_per_move=2)
    # a computer seat thinking when the server dies thinks again after the restart
    computer = alice.ok("POST", "/api/matches", {"game": "breakthrough", "seats": [alice.name, "mcts:1s"]}, 201)["id"]
    assert alice.move(computer, 0, legal(alice.match(computer))[0]).status_code == 200
    wait_for(lambda: alice.match(computer)["thinking"] == 2, what="the search to start")
    before = alice.match(match_id)

    def out_of_time_while_down():     # the deadline passes while no server runs
        time.sleep(2.3)
    server.restart(kill=True, before_start=out_of_time_while_down)

    after = alice.match(match_id)     # the same bearer token still works
    assert after["moves"] == before["moves"] and after["ply"] == 1 and legal(after) == []
    assert browser.ok("GET", "/api/me")["name"] == alice.name           # and the cookie
    assert bob.move(match_id, 1, "C3").status_code == 200
    assert alice.move(match_id, 2, legal(alice.match(match_id))[0]).status_code == 200
    # The clock ran out while the server was down: checked at start, without anyone looking.
    mine = wait_for(lambda: next((m for m in alice.ok("GET", "/api/me/matches")
                                  if m["id"] == clocked and m["status"] == "ended"), None),
                    what="the time-per-move loss after the restart")
    assert mine["outcome"]["how"] == "timeout" and mine["outcome"]["winner"] == 2
    assert "ran out of time" in mine["outcome"]["text"]
    wait_for(lambda: alice.match(computer)["ply"] == 2, what="the computer's move after the restart")


def test_time_per_move_loss_while_running(server):
    alice, bob = people(server)
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name], time_per_move="1s")
    state = alice.match(match_id)
    assert state["time_per_move"] == 1 and state["deadline"] and state["seconds_left"] <= 1
    assert alice.move(match_id, 0, "b2").status_code == 200
    # bob does not answer: the server ends the match by itself
    ended = wait_for(lambda: (m := alice.ok("GET", "/api/me/matches")) and
                     next((x for x in m if x["id"] == match_id and x["status"] == "ended"), None),
                     what="the timeout")
    assert ended["outcome"]["how"] == "timeout" and ended["outcome"]["winner"] == 1
    assert bob.move(match_id, 1, "a1").status_code == 409
    r = alice.post("/api/matches", {"game": "tictactoe", "seats": [alice.name, bob.name],
                                    "time_per_move": 0.2})
    assert r.status_code == 422 and "time_per_move" in r.json()["message"]


def test_a_correspondence_match_between_people_has_days_per_move_unless_it_asks_for_no_limit(server):
    alice, bob = people(server)
    # asking for no time: the server's default, 3 days a move (as correspondence sites do)
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    state = alice.match(match_id)
    assert state["time_per_move"] == 3 * 86400 and state["clock"] is None
    assert 3 * 86400 - 60 < state["seconds_left"] <= 3 * 86400
    mine = next(m for m in bob.ok("GET", "/api/me/matches") if m["id"] == match_id)
    assert mine["time_per_move"] == 3 * 86400
    # an open seat waits for a person too; "none" asks for no limit; a live clock has no time per move
    for body, expected in (({"seats": [alice.name, "open"]}, 3 * 86400), ({"time_per_move": "none"}, None),
                           ({"time_per_move": None}, 3 * 86400), ({"clock": "3+2"}, None),
                           ({"seats": [alice.name, "random"]}, None)):
        created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, bob.name], **body}, 201)
        assert alice.match(created["id"])["time_per_move"] == expected, body
        alice.post(f"/api/matches/{created['id']}/cancel")
    r = alice.post("/api/matches", {"game": "tictactoe", "seats": [alice.name, bob.name], "time_per_move": "never"})
    assert r.status_code == 422 and '"none": no limit' in r.json()["message"]


# -- resign, draws, takebacks, challenges ---------------------------------------------------------

def test_resign_draw_and_takeback(server):
    alice, bob = people(server)
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    assert alice.move(match_id, 0, "b2").status_code == 200
    assert bob.move(match_id, 1, "a1").status_code == 200
    # a takeback: alice asks, bob refuses, alice asks again, bob accepts
    asked = alice.ok("POST", f"/api/matches/{match_id}/takeback", {"action": "ask"})
    assert asked["takeback"] == {"by": 1, "ply": 0, "agreed": [1]}
    assert bob.ok("POST", f"/api/matches/{match_id}/takeback", {"action": "decline"})["takeback"] is None
    alice.ok("POST", f"/api/matches/{match_id}/takeback", {"action": "ask"})
    done = bob.ok("POST", f"/api/matches/{match_id}/takeback", {"action": "accept"})
    assert done["ply"] == 0 and done["moves"] == [] and done["to_move"] == 1
    assert legal(alice.match(match_id))
    assert alice.move(match_id, 0, "c3").status_code == 200
    # a draw: offered, the offer lapses at the next move, offered again and accepted
    assert bob.ok("POST", f"/api/matches/{match_id}/draw", {"action": "offer"})["draw_offer"] == [2]
    r = alice.post(f"/api/matches/{match_id}/draw", {"action": "maybe"})
    assert r.status_code == 422
    assert bob.move(match_id, 1, "a1").status_code == 200
    assert alice.match(match_id)["draw_offer"] is None
    alice.ok("POST", f"/api/matches/{match_id}/draw", {"action": "offer"})
    drawn = bob.ok("POST", f"/api/matches/{match_id}/draw", {"action": "accept"})
    assert drawn["status"] == "ended" and drawn["outcome"]["how"] == "draw"
    assert drawn["outcome"]["ranks"] == [1, 1] and drawn["outcome"]["winner"] is None
    assert alice.post(f"/api/matches/{match_id}/resign").status_code == 409   # over already
    # resign
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    out = bob.ok("POST", f"/api/matches/{match_id}/resign")
    assert out["outcome"]["how"] == "resign" and out["outcome"]["winner"] == 1
    assert "resigned" in out["outcome"]["text"]
    carol = Api(server, name("c"))
    assert carol.post(f"/api/matches/{match_id}/resign").status_code == 403


def test_challenges_invitations_cancel_and_decline(server):
    alice, bob, carol = people(server, 3)
    # a challenge waits for its acceptance; bob may decline it
    created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, bob.name]}, 201)
    assert created["status"] == "waiting" and created["invite"] is None
    assert alice.move(created["id"], 0, "b2").status_code == 409           # not started
    assert [m for m in bob.ok("GET", "/api/me/matches") if m["id"] == created["id"]][0]["to_answer"]
    assert bob.ok("POST", f"/api/matches/{created['id']}/decline")["status"] == "declined"
    # an open seat: anyone logged in takes it through the invitation link
    created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": ["open", alice.name]}, 201)
    link = created["invite"]
    assert link.startswith(server.url + "/api/invites/")
    info = httpx.get(link).json()
    assert info["open_seats"] == [1] and info["game"] == "tictactoe"
    assert alice.post(link.replace(server.url, "")).status_code == 409      # already seated
    joined = carol.ok("POST", link.replace(server.url, ""))
    assert joined == {"id": created["id"], "seat": 1}
    assert bob.post(link.replace(server.url, "")).status_code == 409        # taken now
    state = carol.match(created["id"])
    assert state["status"] == "active" and state["you"] == [1] and legal(state)
    # cancel: only the creator, only before the start
    created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "open"]}, 201)
    assert bob.post(f"/api/matches/{created['id']}/cancel").status_code == 403
    assert alice.ok("POST", f"/api/matches/{created['id']}/cancel")["status"] == "cancelled"
    # bad seats, games and options are refused with what is wrong
    for body, words in (({"game": "trinim", "seats": [alice.name]}, "2 players"),
                        ({"game": "trinim", "seats": [alice.name, "nobody-at-all"]}, "no user"),
                        ({"game": "trinim", "seats": [alice.name, "mcts:60s"]}, "at most 3 s"),
                        ({"game": "trinim", "seats": [alice.name, "mcts:fast"]}, "cannot read"),
                        ({"game": "trinm", "seats": [alice.name, bob.name]}, "did you mean 'trinim'"),
                        ({"game": "trinim", "options": {"size": 4}, "seats": [alice.name, bob.name]}, "size"),
                        ({"game": "nonads", "variant": "knownadz", "seats": [alice.name, bob.name]}, "did you mean")):
        r = alice.post("/api/matches", body)
        assert r.status_code == 422 and words in r.json()["message"], (body, r.text)


def test_my_matches_list_those_waiting_for_my_move_first(server):
    alice, bob = people(server)
    theirs = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    assert alice.move(theirs, 0, "b2").status_code == 200          # now bob's turn
    mine = challenge(bob, [alice], "tictactoe", [alice.name, bob.name])           # alice's turn
    asked = bob.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [bob.name, alice.name]}, 201)["id"]
    listed = alice.ok("GET", "/api/me/matches")
    assert [m["id"] for m in listed] == [mine, asked, theirs]
    assert listed[0]["your_turn"] and listed[1]["to_answer"] and not listed[2]["your_turn"]
    assert [m["id"] for m in bob.ok("GET", "/api/me/matches")][0] == theirs


def test_ratings_and_standings_for_three_players(server):
    players = people(server, 3)
    names = [p.name for p in players]
    match_id = challenge(players[0], players[1:], "trinim", names, options={"players": 3, "layout": LAYOUT})
    end = play_out(match_id, players, pick=random.Random(5).choice)
    assert end["status"] == "ended" and len(end["outcome"]["ranks"]) == 3
    rows = {r["name"]: r for r in players[0].ok("GET", "/api/games/trinim/standings")["standings"]}
    assert all(rows[n]["games"] == 1 for n in names)
    best = min(range(3), key=lambda i: end["outcome"]["ranks"][i])
    assert rows[names[best]]["rating"] == max(rows[n]["rating"] for n in names)
    rating = players[1].ok("GET", f"/api/users/{names[best]}")["ratings"][0]
    assert rating["game"] == "trinim" and rating["title"] == "Trinim"


# -- accounts ---------------------------------------------------------------------------------------

def test_accounts_names_sessions_passwords_and_cross_site_writes(server):
    who = name("Dora")
    dora = Api(server, who)
    # names are unique ignoring case; some are reserved; bad passwords refused
    for body, status in (({"name": who.lower(), "password": "password-2"}, 409),
                         ({"name": "open", "password": "password-2"}, 422),
                         ({"name": "x", "password": "password-2"}, 422),
                         ({"name": name("e"), "password": "short"}, 422)):
        r = httpx.post(f"{server.url}/api/users", json=body)
        assert r.status_code == status and r.json()["message"], r.text
    # login is case-insensitive in the name, exact in the password
    assert httpx.post(f"{server.url}/api/login", json={"name": who.upper(), "password": "password-1"}).status_code == 200
    assert httpx.post(f"{server.url}/api/login", json={"name": who, "password": "Password-1"}).status_code == 401
    # the cookie session: HttpOnly, SameSite
    browser = Api(server, who, register=False, cookie=True)
    cookie = [h for h in httpx.post(f"{server.url}/api/login", json={"name": who, "password": "password-1"})
              .headers.get_list("set-cookie") if h.startswith("nomv_session=")][0]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    bob = Api(server, name("b"))
    # a write relying on the cookie, from another site's page: refused
    r = browser.post("/api/matches", {"game": "tictactoe", "seats": [who, bob.name]},
                     headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["message"]
    r = browser.post("/api/matches", {"game": "tictactoe", "seats": [who, bob.name]},
                     headers={"Origin": server.url})
    assert r.status_code == 201
    match_id = r.json()["id"]
    # a bearer token is not sent by browsers on their own: accepted from anywhere
    r = dora.post("/api/matches", {"game": "tictactoe", "seats": [who, bob.name]},
                  headers={"Origin": "https://elsewhere.example"})
    assert r.status_code == 201
    # bodies are JSON
    r = httpx.post(f"{server.url}/api/login", content="name=a&password=b",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type"
    # changing the password ends the other sessions; logout ends this one
    assert dora.post("/api/me/password", {"old": "wrong-one!", "new": "password-3"}).status_code == 401
    assert dora.ok("POST", "/api/me/password", {"old": "password-1", "new": "password-3"}) == {"ok": True}
    assert browser.get("/api/me").status_code == 401
    assert dora.ok("GET", "/api/me")["name"] == who
    dora.ok("POST", "/api/logout")
    assert dora.get("/api/me").status_code == 401
    # an ended session is an error even where spectators are welcome: the client thinks it is
    # logged in; without credentials, the same match is shown to a spectator
    assert dora.get(f"/api/matches/{match_id}").status_code == 401
    assert httpx.get(f"{server.url}/api/matches/{match_id}").json()["viewer"] == "spectator"
    again = Api(server, who, password="password-3", register=False)
    assert again.ok("PATCH", "/api/me", {"email": "dora@example.org"})["email"] == "dora@example.org"
    assert again.http.patch("/api/me", json={"email": "no"}).status_code == 422


def test_a_desktop_record_continues_online(server):
    alice, bob = people(server)
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=11)
    for text in ("D4-D2", "C3", "E1"):
        pos.play(text)
    record = json.loads(nomv.Record.from_position(pos, players=["human", "human"]).to_text())
    created = alice.ok("POST", "/api/records", {"record": record, "seats": [alice.name, bob.name]}, 201)
    bob.ok("POST", f"/api/matches/{created['id']}/accept")
    state = bob.match(created["id"])
    assert state["moves"] == ["D2-D4", "C3", "E1"] and state["ply"] == 3 and not state["rated"]
    assert state["to_move"] == 2 and legal(state)
    end = play_out(created["id"], [alice, bob])
    online = nomv.Record.from_text(alice.get(f"/api/matches/{created['id']}/record").text)
    assert online.seed == 11 and online.moves[:3] == ["D2-D4", "C3", "E1"]
    assert online.replay().outcome().describe(pos.game.players) == end["outcome"]["text"]
    # a record names its game by catalogue name or SHA-256, never by a path
    record.update(script="/etc/passwd", script_sha256="0" * 64, game="passwd")
    r = alice.post("/api/records", {"record": record, "seats": [alice.name, bob.name]})
    assert r.status_code == 422 and "no game named 'passwd'" in r.json()["message"]
    broken = dict(json.loads(nomv.Record.from_position(pos).to_text()), moves=["D4-D2", "Z9"], version=1)
    del broken["steps"]   # (a version 1 record: moves by notation alone)
    r = alice.post("/api/records", {"record": broken, "seats": [alice.name, bob.name]})
    assert r.status_code == 422 and "move 2 ('Z9')" in r.json()["message"]
    r = alice.post("/api/records", {"record": "{not json", "seats": [alice.name, bob.name]})
    assert r.status_code == 422 and "not a nomv game record" in r.json()["message"]


# -- the API's documentation ------------------------------------------------------------------------

ROUTES = [("post", "/api/users"), ("post", "/api/login"), ("post", "/api/logout"),
          ("get", "/api/games"), ("post", "/api/matches"), ("get", "/api/matches/{match_id}"),
          ("post", "/api/matches/{match_id}/moves"), ("post", "/api/matches/{match_id}/resign"),
          ("post", "/api/matches/{match_id}/draw"), ("post", "/api/matches/{match_id}/takeback"),
          ("get", "/api/matches/{match_id}/record"), ("get", "/api/me/matches"),
          ("post", "/api/records"), ("post", "/api/scripts"), ("get", "/api/matches/{match_id}/live")]


def test_the_openapi_page_documents_every_route(server):
    if "postgresql" in server.db:
        pytest.skip("the same application as with SQLite")
    schema = httpx.get(f"{server.url}/openapi.json").json()
    for method, path in ROUTES:
        assert method in schema["paths"].get(path, {}), (method, path)
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            assert op.get("summary") and op.get("description"), (method, path)
    body = schema["paths"]["/api/matches/{match_id}/moves"]["post"]
    assert {"200", "403", "409", "422"} <= set(body["responses"])
    page = httpx.get(f"{server.url}/docs")
    assert page.status_code == 200 and "openapi.json" in page.text
