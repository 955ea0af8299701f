"""The server at scale and under attack (issue 16): several `nomv serve` processes on one
PostgreSQL database, races between them, faults (a process killed, the database restarted or
read-only), the computer's lease, and the login rate limit.  Everything real: processes, a
PostgreSQL cluster these tests start, HTTP and WebSockets on 127.0.0.1."""
from __future__ import annotations

import threading
import time

import httpx
import pytest

from nomv.server.accounts import token_hash
from serverlib import Api, Collector, Described, Server, challenge, legal, name, postgres_or_skip, wait_for

LAYOUT = "b/bb/bgr/grgg/rbgrr"
ARGS = ("--min-time-per-move", "1", "--clock-interval", "0.2")


@pytest.fixture(scope="module")
def pair(postgres, tmp_path_factory):
    """Two server processes on one PostgreSQL database."""
    db = postgres.database()
    home = tmp_path_factory.mktemp("scale")
    first = Server(db, home, *ARGS)
    second = Server(db, home, *ARGS)
    yield first, second
    first.stop()
    second.stop()


def twin(api: Api, server: Server) -> Api:
    """The same person, logged in on another server process."""
    return Api(server, api.name, register=False)


def at_once(calls) -> list:
    """Runs the calls in threads released together; their results (or exceptions)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        except httpx.HTTPError as exc:
            results[i] = exc
    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def status(r) -> int:
    return getattr(r, "status_code", 0)


# -- several processes, one database -----------------------------------------------------------

def test_a_move_posted_to_one_process_is_pushed_to_the_websockets_of_the_other(pair):
    first, second = pair
    alice, bob = Api(first, name("a")), Api(first, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    bob_there, carol_there = twin(bob, second), Api(second, name("c"))   # carol: a spectator
    watchers = [Collector(bob_there, match_id), Collector(carol_there, match_id)]
    try:
        for w in watchers:
            w.wait(lambda m: "hello" in m.get("events", []))
        assert alice.move(match_id, 0, "b2").status_code == 200
        for w in watchers:
            seen = w.wait(lambda m: m["match"]["ply"] == 1, timeout=10)
            assert seen["match"]["moves"] == ["b2"]
        assert bob_there.move(match_id, 1, "a1").status_code == 200
        alice_watch = Collector(alice, match_id)
        watchers.append(alice_watch)
        alice_watch.wait(lambda m: m["match"]["ply"] == 2, timeout=10)
    finally:
        for w in watchers:
            w.close()


def test_a_session_ended_on_one_process_ends_on_the_other_at_once_and_closes_its_sockets(pair):
    # Each process remembers the sessions it looked up (no query a request); a logout or a
    # password change on either empties both memories and closes those sessions' WebSockets.
    from websockets.exceptions import ConnectionClosed
    first, second = pair
    alice, bob = Api(first, name("a")), Api(first, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    alice_there = Api(second, alice.name, register=False)          # the other process...
    alice_there.token = alice.token                                  # ...with alice's first session
    alice_there.http.headers["Authorization"] = f"Bearer {alice.token}"
    for api in (alice, alice_there):
        assert api.ok("GET", "/api/me")["name"] == alice.name       # (remembered on both now)
    with alice_there.ws(match_id) as socket:
        assert "hello" in socket.recv(timeout=30)
        assert alice.post("/api/logout").status_code == 200
        # the other process refuses the session at once, and closes its socket (1008)
        wait_for(lambda: alice_there.get("/api/me").status_code == 401, timeout=10, what="the logout on the other process")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008, closed.value
    # A password change on the second process ends the sessions of the first (but its own)
    carol = Api(first, name("c"))
    carol_there = Api(second, carol.name, register=False)
    assert carol.ok("GET", "/api/me")["name"] == carol.name
    carol_there.ok("POST", "/api/me/password", {"old": "password-1", "new": "password-2"})
    wait_for(lambda: carol.get("/api/me").status_code == 401, timeout=10, what="the password change on the other process")
    assert carol_there.get("/api/me").status_code == 200
    # and a change of settings is seen at once on the other process (its memory forgot the user)
    carol_there.ok("PATCH", "/api/me", {"email": "carol@example.org"})
    elsewhere = Api(first, carol.name, password="password-2", register=False)
    assert elsewhere.ok("GET", "/api/me")["email"] == "carol@example.org"


def test_a_move_on_a_process_that_remembers_an_old_position_is_judged_on_the_new_one(pair):
    # A process plays a move on the match it remembers, reading nothing; another process may
    # have changed it meanwhile (no socket here to tell this one).  A stale ply, a version
    # changed at the same ply (a draw offer), and a move illegal only in the old position (a
    # takeback and another move there): each is found out and the move judged on the match now.
    first, second = pair
    alice, bob = Api(first, name("a")), Api(first, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    alice_there, bob_there = twin(alice, second), twin(bob, second)
    assert bob_there.match(match_id)["ply"] == 0                  # the second remembers ply 0
    assert alice.move(match_id, 0, "b2").status_code == 200
    moved = bob_there.move(match_id, 1, "a1")
    assert moved.status_code == 200 and moved.json()["moves"] == ["b2", "a1"], moved.text
    alice.ok("POST", f"/api/matches/{match_id}/draw", {"action": "offer"})   # same ply, new version
    moved = alice_there.move(match_id, 2, "c3")
    assert moved.status_code == 200 and moved.json()["draw_offer"] is None, moved.text
    alice.ok("POST", f"/api/matches/{match_id}/takeback", {"action": "ask"})
    bob.ok("POST", f"/api/matches/{match_id}/takeback", {"action": "accept"})
    assert alice.move(match_id, 2, "a3").status_code == 200      # ply 3 again, another position
    moved = bob_there.move(match_id, 3, "c3")                      # (taken in the one remembered)
    assert moved.status_code == 200 and moved.json()["moves"] == ["b2", "a1", "a3", "c3"], moved.text
    # and a move really stale or illegal is still refused, with the match as it is
    assert alice_there.move(match_id, 3, "c1").status_code == 409
    assert alice_there.move(match_id, 4, "b2").status_code == 422


def test_a_logout_or_a_password_change_closes_that_sessions_websockets_on_every_process(pair):
    first, second = pair
    alice, bob = Api(first, name("a")), Api(first, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    phone, laptop, tablet = (Api(server, alice.name, register=False) for server in (second, first, second))
    sockets = {who: Collector(api, match_id) for who, api in (("phone", phone), ("laptop", laptop), ("tablet", tablet))}
    try:
        for c in sockets.values():
            c.wait(lambda m: "hello" in m["events"])
        phone.ok("POST", "/api/logout")          # on process 2: the phone's socket there closes
        wait_for(lambda: sockets["phone"].connection.close_code == 1008, timeout=15, what="the phone's socket closed")
        assert "session has ended" in sockets["phone"].connection.close_reason
        # a password change on process 2 ends every other session: the laptop's socket on process 1
        tablet.ok("POST", "/api/me/password", {"old": "password-1", "new": "password-2"})
        wait_for(lambda: sockets["laptop"].connection.close_code == 1008, timeout=15, what="the laptop's socket closed")
        # the tablet's session changed the password and stays: its socket still streams alice's view
        assert sockets["tablet"].connection.close_code is None
        assert alice.get("/api/me").status_code == 401          # (alice's first session ended too)
        assert bob.move(match_id, 0, "b2").status_code == 403 and tablet.move(match_id, 0, "b2").status_code == 200
        assert sockets["tablet"].wait(lambda m: m["match"]["ply"] == 1, timeout=15)["match"]["you"] == [1]
    finally:
        for c in sockets.values():
            c.close()


def test_a_session_ended_while_a_process_was_deaf_to_the_others_closes_its_websocket_there(pair):
    """A logout's news travels by NOTIFY; a process whose LISTEN connection was broken meanwhile
    never hears it.  When that connection comes back, its sockets read their sessions again."""
    import psycopg
    first, _second = pair
    alice, bob = Api(first, name("a")), Api(first, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    phone = Api(first, alice.name, register=False)
    sockets = {"phone": Collector(phone, match_id), "bob": Collector(bob, match_id)}
    try:
        for c in sockets.values():
            c.wait(lambda m: "hello" in m["events"])
        dbname = first.db.rsplit("/", 1)[1]
        with psycopg.connect(first.db, autocommit=True) as conn:
            # the phone's session ends where this process cannot hear it (its NOTIFY was missed) ...
            gone = conn.execute("DELETE FROM sessions WHERE token_hash = %s", (token_hash(phone.token),)).rowcount
            assert gone == 1
            # ... and the process's connection to the others breaks (the database restarting would)
            cut = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                               "AND query LIKE 'LISTEN %%' AND pid <> pg_backend_pid()", (dbname,)).fetchall()
            assert cut, "no process was listening"
        wait_for(lambda: sockets["phone"].connection.close_code == 1008, timeout=20,
                 what="the phone's socket closed once its process heard the others again")
        # bob's session lives: his socket read the match afresh and goes on
        sockets["bob"].wait(lambda m: "resync" in m["events"], timeout=20)
        assert sockets["bob"].connection.close_code is None
        assert alice.move(match_id, 0, "b2").status_code == 200
        sockets["bob"].wait(lambda m: m["match"]["ply"] == 1, timeout=15)
    finally:
        for c in sockets.values():
            c.close()


def test_twenty_simultaneous_moves_at_one_ply_over_two_processes_exactly_one_lands(pair):
    first, second = pair
    alice, bob = Api(first, name("a")), Api(first, name("b"))
    match_id = challenge(alice, [bob], "trinim", [alice.name, bob.name], options={"layout": LAYOUT})
    alice2 = twin(alice, second)
    for ply in range(3):
        state = alice.match(match_id)
        mover = (alice, alice2) if state["to_move"] == 1 else (bob, twin(bob, second))
        moves = legal(mover[0].match(match_id))
        calls = [lambda api=mover[i % 2], move=moves[i % 3], ply=ply: api.move(match_id, ply, move)
                 for i in range(20)]
        results = at_once(calls)
        codes = sorted(status(r) for r in results)
        assert codes == [200] + [409] * 19, [getattr(r, "text", repr(r)) for r in results]
        won = next(r for r in results if status(r) == 200)
        after = alice.match(match_id)
        assert after["ply"] == ply + 1 and len(after["moves"]) == ply + 1
        assert won.json()["last_move"]["notation"] == after["moves"][-1] and after["moves"] == alice2.match(match_id)["moves"]


def test_simultaneous_joins_of_one_open_seat_exactly_one_gets_it(pair):
    first, second = pair
    alice = Api(first, name("a"))
    created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "open"]}, 201)
    path = created["invite"].replace(first.url, "")
    joiners = [Api(first if i % 2 else second, name("j")) for i in range(10)]
    results = at_once([lambda api=api: api.post(path) for api in joiners])
    codes = sorted(status(r) for r in results)
    assert codes == [200] + [409] * 9, [getattr(r, "text", repr(r)) for r in results]
    winner = joiners[[status(r) for r in results].index(200)]
    state = winner.match(created["id"])
    assert state["status"] == "active" and state["you"] == [2]
    assert [s["user"] for s in state["seats"]] == [alice.name, winner.name]


def test_a_computer_seat_is_searched_by_one_process_and_its_lease_given_up(pair, postgres):
    import sqlalchemy as sa
    first, second = pair
    alice = Api(first, name("a"))
    created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "mcts:200it"]}, 201)
    match_id = created["id"]
    for _ in range(5):
        state = wait_for(lambda: (m := alice.match(match_id)) and (m["status"] != "active" or m["to_move"] == 1) and m,
                         what="the computer's move")
        if state["status"] != "active":
            break
        assert alice.move(match_id, state["ply"], legal(state)[0]).status_code == 200
    state = wait_for(lambda: (m := alice.match(match_id))["status"] == "ended" and m, what="the end")
    # every ply once, alternately the person and the computer, whichever process searched
    assert len(state["moves"]) == state["ply"]
    engine = sa.create_engine(first.db.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            seats = [r.seat for r in conn.execute(sa.text(
                "SELECT seat FROM moves WHERE match_id = :m AND taken_back_at IS NULL ORDER BY ply"), {"m": match_id})]
            held = conn.execute(sa.text("SELECT count(*) FROM leases WHERE name LIKE :n"),
                                {"n": f"computer:{match_id}:%"}).scalar()
    finally:
        engine.dispose()
    assert seats == [1 + i % 2 for i in range(len(seats))]
    assert held == 0


def test_a_lease_is_held_by_exactly_one_process_and_taken_over_when_it_expires(postgres):
    from nomv.server.leases import Leases
    from nomv.server.store import Store
    store = Store(postgres.database())
    store.migrate()
    try:
        holders = [Leases(store, f"process-{i}") for i in range(12)]
        # Leases long enough not to expire during the race however slow the machine (twelve
        # takes at once took up to 0.14 s here, a fair part of a 0.5 s lease)
        results = at_once([lambda lease=lease: lease.take("computer:1:1", 30) for lease in holders])
        assert results.count(True) == 1
        owner = holders[results.index(True)]
        other = holders[(results.index(True) + 1) % len(holders)]
        assert not other.take("computer:1:1", 30)
        assert owner.take("computer:1:1", 0.5)                 # renewed by its holder, for 0.5 s
        assert not other.take("computer:1:1", 0.5)
        time.sleep(0.6)                                          # the holder died: it expires
        assert other.take("computer:1:1", 5) and other.holder_of("computer:1:1") == other.holder
        owner.release("computer:1:1")                            # not the owner any more: nothing
        assert other.holder_of("computer:1:1") == other.holder
        other.release("computer:1:1")
        assert other.holder_of("computer:1:1") is None
    finally:
        store.close()


# -- faults ------------------------------------------------------------------------------------

def test_kill_9_of_one_of_two_processes_under_load_loses_no_move(postgres, tmp_path):
    db = postgres.database()
    survivor, victim = Server(db, tmp_path, *ARGS), Server(db, tmp_path, *ARGS)
    try:
        people = [Api(survivor, name("p")) for _ in range(8)]
        matches = [challenge(people[i], [people[i + 1]], "tictactoe", [people[i].name, people[i + 1].name])
                   for i in range(0, 8, 2)]
        on_victim = {p.name: twin(p, victim) for p in people}
        watch = Collector(on_victim[people[1].name], matches[0])
        landed: dict[int, dict[int, str]] = {m: {} for m in matches}   # ply -> the move that got a 200
        lock = threading.Lock()

        def play(match_id: int, pair: list[Api]) -> None:
            for _ in range(12):
                state = pair[0].match(match_id)
                if state["status"] != "active":
                    return
                mover = pair[state["to_move"] - 1]
                moves = legal(mover.match(match_id))
                move = moves[(state["ply"] * 7) % len(moves)]
                for api in (on_victim[mover.name], mover):    # the victim first, while it lives
                    try:
                        r = api.move(match_id, state["ply"], move)
                    except httpx.HTTPError:
                        continue                                # the process died: the other one
                    if r.status_code == 200:
                        with lock:
                            landed[match_id][r.json()["ply"] - 1] = r.json()["last_move"]["notation"]
                    break

        threads = [threading.Thread(target=play, args=(m, people[2 * i:2 * i + 2])) for i, m in enumerate(matches)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        victim.stop(kill=True)          # kill -9, requests under way
        for t in threads:
            t.join(120)
        # every move that got a 200 is stored at its ply (a move whose answer the kill cut off
        # may be stored too: the client then sees it at its next look)
        assert sum(len(v) for v in landed.values()) >= 8
        for match_id in matches:
            stored = people[0].match(match_id)["moves"]
            assert all(ply < len(stored) and stored[ply] == move for ply, move in landed[match_id].items()), \
                (stored, landed[match_id])
        # the watcher's connection died with its process: reconnected to the other, it goes on
        watch.close()
        again = Collector(people[1], matches[0])
        try:
            again.wait(lambda m: m["match"]["moves"] == people[0].match(matches[0])["moves"])
        finally:
            again.close()
    finally:
        survivor.stop()
        victim.stop()


@pytest.fixture
def own_cluster():
    """A PostgreSQL cluster of this test's own (it is restarted and made read-only)."""
    cluster = postgres_or_skip()
    yield cluster
    cluster.stop()


def test_the_database_restarting_gives_503_and_everything_recovers(own_cluster, tmp_path):
    server = Server(own_cluster.database(), tmp_path, *ARGS)
    try:
        alice, bob = Api(server, name("a")), Api(server, name("b"))
        match_id = challenge(alice, [bob], "trinim", [alice.name, bob.name], options={"layout": LAYOUT})
        watch = Collector(bob, match_id)
        seen: list[tuple[int, str]] = []
        stop = threading.Event()

        def load() -> None:
            while not stop.is_set():
                try:
                    r = alice.get(f"/api/matches/{match_id}")
                    seen.append((r.status_code, r.json().get("message", "")))
                except httpx.HTTPError as exc:
                    seen.append((0, repr(exc)))
                time.sleep(0.02)
        thread = threading.Thread(target=load)
        thread.start()
        time.sleep(0.3)
        own_cluster.restart(down_seconds=2)
        time.sleep(1)
        stop.set()
        thread.join(30)
        codes = {code for code, _ in seen}
        assert 503 in codes and codes <= {200, 503}, seen
        assert all("the database cannot be reached now" in text for code, text in seen if code == 503)
        # recovered without restarting nomv: moves land, and pushes flow again
        assert server.alive()
        r = alice.move(match_id, 0, "D4-D2")
        assert r.status_code == 200, r.text
        watch.wait(lambda m: m["match"]["ply"] == 1, timeout=15)
        watch.close()
    finally:
        server.stop()


def test_a_read_only_database_refuses_writes_with_a_message_and_nothing_half_written(own_cluster, tmp_path):
    import psycopg
    db = own_cluster.database()
    server = Server(db, tmp_path, *ARGS)
    admin = db.rsplit("/", 1)[0] + "/postgres"
    dbname = db.rsplit("/", 1)[1]

    def read_only(on: bool) -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"ALTER DATABASE {dbname} SET default_transaction_read_only = {'on' if on else 'off'}")
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                         "AND pid <> pg_backend_pid()", (dbname,))
    try:
        alice, bob = Api(server, name("a")), Api(server, name("b"))
        match_id = challenge(alice, [bob], "trinim", [alice.name, bob.name], options={"layout": LAYOUT})
        assert alice.move(match_id, 0, "D4-D2").status_code == 200
        read_only(True)
        r = wait_for(lambda: (x := bob.move(match_id, 1, "C3")).status_code != 200 and x.status_code != 0 and x,
                     what="a refused write")
        assert r.status_code == 503 and "read-only" in r.json()["message"], r.text
        assert r.json()["error"] == "unavailable"
        state = alice.match(match_id)            # reads go on
        assert state["moves"] == ["D2-D4"] and state["ply"] == 1
        read_only(False)
        r = wait_for(lambda: (x := bob.move(match_id, 1, "C3")).status_code == 200 and x, what="writes again")
        assert alice.match(match_id)["moves"] == ["D2-D4", "C3"]
    finally:
        server.stop()


def test_a_worker_killed_mid_move_by_a_hanging_script_gives_a_clear_error_and_the_server_goes_on(pair):
    # (tests/test_server_play.py plays every hanging script of the corpus; here, the match of
    # another game on the same server is not disturbed by it)
    first, _second = pair
    alice, bob = Api(first, name("a")), Api(first, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    assert alice.move(match_id, 0, "b2").status_code == 200
    assert bob.move(match_id, 1, "a1").status_code == 200
    assert alice.match(match_id)["moves"] == ["b2", "a1"]


# -- defences ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory):
    home = tmp_path_factory.mktemp("serve-defences")
    # (the route table's tests make dozens of challenges of one user: over --max-waiting's 20)
    srv = Server(f"sqlite:///{home}/server.sqlite3", home, "--max-waiting", "1000")
    yield srv
    srv.stop()


def test_logins_are_rate_limited_per_name_with_the_same_answer_for_unknown_names(sqlite_server):
    alice = Api(sqlite_server, name("a"))
    http = httpx.Client(base_url=sqlite_server.url, timeout=30)
    unknown = name("nobody")
    for who in (alice.name, unknown):
        answers = [http.post("/api/login", json={"name": who, "password": "wrong-password"}) for _ in range(10)]
        assert {r.status_code for r in answers} == {401}
        assert {r.json()["message"] for r in answers} == {"wrong name or password"}
        r = http.post("/api/login", json={"name": who, "password": "wrong-password"})
        assert r.status_code == 429 and "too many failed logins for this name" in r.json()["message"]
    # even the right password waits: the limit is not a hint that it was right
    r = http.post("/api/login", json={"name": alice.name, "password": "password-1"})
    assert r.status_code == 429
    # another name from the same address is not blocked (the address has a higher limit)
    bob = Api(sqlite_server, name("b"))
    assert bob.token
    # the session cookie: HttpOnly, SameSite, renewed at every login
    first = http.post("/api/login", json={"name": bob.name, "password": "password-1"})
    second = http.post("/api/login", json={"name": bob.name, "password": "password-1"})
    cookie = first.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    assert first.json()["token"] != second.json()["token"]
    # behind a proxy that speaks HTTPS (X-Forwarded-Proto from 127.0.0.1), the cookie is Secure
    behind = http.post("/api/login", json={"name": bob.name, "password": "password-1"},
                       headers={"X-Forwarded-Proto": "https"})
    assert behind.status_code == 200 and "Secure" in behind.headers["set-cookie"]


def test_sql_like_names_are_only_names(sqlite_server):
    odd = "x' OR '1'='1; --"
    api = Api(sqlite_server, odd)
    assert api.ok("GET", "/api/me")["name"] == odd
    r = httpx.post(sqlite_server.url + "/api/login", json={"name": "x' OR '1'='1", "password": "password-1"})
    assert r.status_code == 401
    assert httpx.get(sqlite_server.url + "/api/health").status_code == 200


def test_nomv_serve_workers_runs_several_processes_that_push_to_every_client(postgres, tmp_path):
    import os
    server = Server(postgres.database(), tmp_path, *ARGS, "--workers", "2")
    try:
        children = [p for p in os.listdir("/proc") if p.isdigit() and _parent(int(p)) == server.process.pid]
        assert len(children) >= 2, children      # uvicorn's two worker processes
        alice, bob = Api(server, name("a")), Api(server, name("b"))
        match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
        # six watchers: the connections spread over the workers, and each gets the push
        watchers = [Collector(api, match_id) for api in (alice, bob) * 3]
        try:
            for w in watchers:
                w.wait(lambda m: "hello" in m.get("events", []))
            assert alice.move(match_id, 0, "b2").status_code == 200
            for w in watchers:
                w.wait(lambda m: m["match"]["ply"] == 1, timeout=10)
        finally:
            for w in watchers:
                w.close()
    finally:
        server.stop()


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def test_workers_need_postgresql(capsys):
    from nomv.cli import main
    assert main(["serve", "--db", "sqlite:///x.sqlite3", "--workers", "2"]) == 2
    assert "--workers needs PostgreSQL" in capsys.readouterr().err


# -- who may call what: every route x every kind of caller --------------------------------------

ANON, PLAYER, OTHER = "anonymous", "participant", "other user"


def test_every_route_answers_each_kind_of_caller_as_the_table_says(sqlite_server):
    srv = sqlite_server
    alice, bob, carol = Api(srv, name("a")), Api(srv, name("b")), Api(srv, name("c"))
    anon = httpx.Client(base_url=srv.url, timeout=30)
    callers = {ANON: anon, PLAYER: alice.http, OTHER: carol.http}
    tictactoe_sha = alice.ok("GET", "/api/games/tictactoe")["sha256"]

    def fresh(status: str = "active") -> int:
        """A tic-tac-toe match of alice (seat 1, to move) and bob: waiting for bob, or active."""
        created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, bob.name]}, 201)
        if status == "active":
            bob.ok("POST", f"/api/matches/{created['id']}/accept")
        return created["id"]

    def ended() -> int:
        match_id = fresh()
        alice.ok("POST", f"/api/matches/{match_id}/resign")
        return match_id

    def moved() -> int:
        """A match where alice moved: bob's turn, at ply 1."""
        match_id = fresh()
        alice.ok("POST", f"/api/matches/{match_id}/moves", {"ply": 0, "move": "b2"})
        return match_id

    def against_computer() -> int:
        """A tic-tac-toe match of alice (seat 1, to move) against a computer player."""
        return alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "random"]}, 201)["id"]

    def invite() -> str:
        created = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "open"]}, 201)
        return created["invite"].rsplit("/", 1)[1]

    record = None

    def a_record() -> dict:
        nonlocal record
        if record is None:
            import json
            import nomv
            pos = nomv.Game.load("tictactoe").start(seed=3)
            pos.play("b2")
            record = json.loads(nomv.Record.from_position(pos).to_text())
        return {"record": record, "seats": [alice.name, bob.name]}

    job = None

    def a_job() -> int:
        """A job of alice's: an upload answered at once (202), before its check ends."""
        nonlocal job
        if job is None:
            r = alice.http.post("/api/scripts?wait=0", json={"source": f"return {{ -- {name('j')}"})
            assert r.status_code == 202 and r.headers["location"] == f"/api/jobs/{r.json()['id']}", r.text
            described.check_answer("POST", "/api/scripts", r)
            job = r.json()["id"]
        return job

    # (method, path or a function giving it, body or a function, {caller: status})
    # A route that changes a match is tried by the other callers first, then by its participant.
    table = [
        ("GET", "/api/health", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("POST", "/api/users", lambda: {"name": name("n"), "password": "password-1"}, {ANON: 201, PLAYER: 201, OTHER: 201}),
        ("POST", "/api/login", {"name": "nobody-at-all", "password": "wrong-password"}, {ANON: 401, PLAYER: 401, OTHER: 401}),
        ("GET", "/api/me", None, {ANON: 401, PLAYER: 200, OTHER: 200}),
        ("PATCH", "/api/me", {"notify": True}, {ANON: 401, PLAYER: 200, OTHER: 200}),
        ("POST", "/api/me/password", {"old": "not-my-password", "new": "password-2"}, {ANON: 401, PLAYER: 401, OTHER: 401}),
        ("GET", "/api/me/matches", None, {ANON: 401, PLAYER: 200, OTHER: 200}),
        ("GET", lambda: f"/api/users/{bob.name}", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", "/api/games", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", "/api/games/tictactoe", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", "/api/games?lang=it", None, {ANON: 200, PLAYER: 200, OTHER: 200}),   # worded in Italian
        ("GET", "/api/words/it", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", "/api/games/tictactoe/standings", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", "/api/games/tictactoe/preview", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", f"/api/scripts/{tictactoe_sha}", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("POST", "/api/scripts", {"source": "return {"}, {ANON: 401, PLAYER: 422, OTHER: 422}),
        ("POST", "/api/matches", {"game": "tictactoe", "seats": ["open", "random"]}, {ANON: 401, PLAYER: 201, OTHER: 201}),
        ("GET", "/api/matches", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", "/api/challenges", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", lambda: f"/api/matches/{fresh()}", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", lambda: f"/api/matches/{ended()}", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("GET", "/api/matches/987654321", None, {ANON: 404, PLAYER: 404, OTHER: 404}),
        ("GET", lambda: f"/api/matches/{fresh()}/positions/0", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("POST", lambda: f"/api/matches/{fresh()}/moves", {"ply": 0, "move": "b2"}, {ANON: 401, OTHER: 403, PLAYER: 200}),
        ("POST", lambda: f"/api/matches/{moved()}/moves", {"ply": 0, "move": "a1"}, {PLAYER: 409}),   # stale
        ("POST", lambda: f"/api/matches/{fresh()}/moves", {"ply": 0, "move": "z9"}, {PLAYER: 422}),   # illegal
        ("POST", lambda: f"/api/matches/{fresh()}/moves", {"ply": "zero", "move": []}, {PLAYER: 422}),
        ("POST", lambda: f"/api/matches/{fresh()}/resign", None, {ANON: 401, OTHER: 403, PLAYER: 200}),
        ("POST", lambda: f"/api/matches/{fresh()}/draw", {"action": "offer"}, {ANON: 401, OTHER: 403, PLAYER: 200}),
        ("POST", lambda: f"/api/matches/{fresh()}/takeback", {"action": "ask"}, {ANON: 401, OTHER: 403, PLAYER: 409}),
        ("POST", lambda: f"/api/matches/{fresh()}/abort", None, {ANON: 401, OTHER: 403, PLAYER: 200}),
        # a computer player without an estimate declines: the answer's message says why
        ("POST", lambda: f"/api/matches/{against_computer()}/draw?lang=it", {"action": "offer"}, {PLAYER: 200}),
        ("POST", lambda: f"/api/matches/{fresh('waiting')}/accept", None, {ANON: 401, OTHER: 403, PLAYER: 409}),
        ("POST", lambda: f"/api/matches/{fresh('waiting')}/decline", None, {ANON: 401, OTHER: 403, PLAYER: 409}),
        ("POST", lambda: f"/api/matches/{fresh('waiting')}/cancel", None, {ANON: 401, OTHER: 403, PLAYER: 200}),
        ("GET", lambda: f"/api/matches/{fresh()}/record", None, {ANON: 409, OTHER: 409, PLAYER: 409}),
        ("GET", lambda: f"/api/matches/{ended()}/record", None, {ANON: 200, OTHER: 200, PLAYER: 200}),
        ("GET", lambda: f"/api/invites/{invite()}", None, {ANON: 200, PLAYER: 200, OTHER: 200}),
        ("POST", lambda: f"/api/invites/{invite()}", None, {ANON: 401, PLAYER: 409, OTHER: 200}),
        ("POST", "/api/records", a_record, {ANON: 401, PLAYER: 201, OTHER: 201}),   # a challenge: the seats accept it
        ("GET", lambda: f"/api/jobs/{a_job()}", None, {ANON: 401, OTHER: 404, PLAYER: 200}),
        ("GET", lambda: f"/api/matches/{fresh()}/live", None, {ANON: 426, PLAYER: 426, OTHER: 426}),
        ("GET", "/api/me/live", None, {ANON: 426, PLAYER: 426, OTHER: 426}),
        ("POST", "/api/logout", None, {ANON: 200}),
    ]
    # Every answer, of success or refusal, is the one the OpenAPI page documents: its status for
    # the route, and its body by that status's schema (no undocumented key, no other type).
    described = Described(srv)
    for method, path, body, expected in table:
        for caller, want in expected.items():
            where = path() if callable(path) else path
            payload = body() if callable(body) else body
            r = callers[caller].request(method, where, json=payload)
            assert r.status_code == want, f"{method} {where} as {caller}: {r.status_code} {r.text[:200]}"
            if r.status_code >= 400:
                assert r.json()["message"], r.text
            described.check_answer(method, where, r)
    # what the guard in front of the routes answers is documented too
    for r in (httpx.post(f"{srv.url}/api/login", content="name=a", headers={"Content-Type": "text/plain"}),
              carol.http.post("/api/matches", content=b"{}", headers={"Content-Type": "text/plain"})):
        assert r.status_code == 415
        described.check_answer("POST", r.request.url.path, r)
    # the table is complete: every route of the API is in it (the WebSocket: tests/test_server_api.py)
    listed = {(m, _shape(p() if callable(p) else p)) for m, p, _b, _e in table}
    schema = anon.get("/openapi.json").json()["paths"]
    routes = {(m.upper(), _shape(p)) for p, ops in schema.items() for m in ops}
    assert routes - listed == set(), sorted(routes - listed)


def _shape(path: str) -> str:
    """A route's shape, its parameters blanked: /api/matches/7/moves -> /api/matches/{}/moves."""
    import re
    path = re.sub(r"\{[^}]+\}", "{}", path.split("?")[0])
    path = re.sub(r"/api/(matches|invites|scripts|users|words)/[^/{]+", r"/api/\1/{}", path)
    path = re.sub(r"/api/games/[^/{]+", "/api/games/{}", path)
    return re.sub(r"/\d+(?=/|$)", "/{}", path)


def test_processes_started_together_on_an_empty_database_migrate_one_after_the_other(postgres, tmp_path):
    # (each creates the tables if they are missing: without a lock, two CREATE TABLEs collide)
    from nomv.server.store import Store
    db = postgres.database()
    stores = [Store(db) for _ in range(4)]
    try:
        results = at_once([lambda s=s: s.migrate() or "ok" for s in stores])
        assert results == ["ok"] * 4, results
    finally:
        for s in stores:
            s.close()


def test_a_body_over_the_limit_is_refused_without_being_read_whole(sqlite_server):
    alice = Api(sqlite_server, name("a"))
    sent = 0

    def chunks():      # no Content-Length: the server counts what arrives
        nonlocal sent
        piece = b" " * 2**20
        for _ in range(64):
            sent += len(piece)
            yield piece
    r = alice.http.post("/api/scripts", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "over 2 MB" in r.json()["message"]
    assert httpx.get(sqlite_server.url + "/api/health").status_code == 200
