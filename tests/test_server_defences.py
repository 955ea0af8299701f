"""`nomv serve` under the red team's second half (issue 27): every finding a test of its own, on a
real server process with SQLite, reached over 127.0.0.1, a real SMTP server on the loopback
address, and a "proxy" that is another loopback address (127.0.0.2) the server is told to trust.
While each flood runs (idle sockets, wrong passwords, challenges), serverlib's Watch checks that
/api/health answers within a second and that another person's GET /api/me goes through.

What each test costs, measured on the project's 2-core machine: the whole file about 40 s, most of
it the flood of challenges (11 accounts, 220 challenges) and the computer players' matches.
"""
from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import httpx
import pytest

import nomv
from conftest import SCRIPTS
from serverlib import Api, Collector, Server, Watch, challenge, legal, name, smtp_server, wait_for

GAMES = Path(__file__).resolve().parent.parent / "games"
#: The trusted proxy of the server below: another loopback address.
PROXY = "127.0.0.2"
TITLE = "Tic\nBcc: mallory@evil.example"


@pytest.fixture(scope="module")
def mailbox():
    yield from smtp_server()


@pytest.fixture(scope="module")
def guarded(tmp_path_factory, mailbox):
    home = tmp_path_factory.mktemp("serve-defences")
    folder = home / "games"
    folder.mkdir()
    # a game whose title holds a line break (a script may say so), and a game of chance
    source = (GAMES / "tictactoe.lua").read_text(encoding="utf-8")
    bundled_title = 'title = {en = "Tic-tac-toe", it = "Tris"}'
    assert bundled_title in source and 'name = "tictactoe"' in source
    odd_title = f"title = {{en = {json.dumps(TITLE)}, it = {json.dumps(TITLE)}}}"
    (folder / "newline_title.lua").write_text(source.replace(bundled_title, odd_title)
                                              .replace('name = "tictactoe"', 'name = "newline_title"'), encoding="utf-8")
    shutil.copy(SCRIPTS / "dicerace.lua", folder / "dicerace.lua")
    srv = Server(f"sqlite:///{home}/server.sqlite3", home, "--log-level", "info", "--searches", "2",
                 "--smtp", f"smtp://127.0.0.1:{mailbox.port}", "--forwarded-allow-ips", PROXY,
                 "--header-timeout", "1", "--body-timeout", "1", env={"NOMV_PATH": str(folder)})
    yield srv
    srv.stop()


def proxied(server: Server, client_address: str, scheme: str = "https") -> httpx.Client:
    """A client whose requests come through the trusted proxy, for the person at ``client_address``."""
    return httpx.Client(base_url=server.url, timeout=60, transport=httpx.HTTPTransport(local_address=PROXY),
                        headers={"X-Forwarded-For": client_address, "X-Forwarded-Proto": scheme})


def raw_json(client: httpx.Client, method: str, path: str, body) -> httpx.Response:
    """``body`` sent as JSON whose text escapes lone surrogates (as a hostile client may)."""
    return client.request(method, path, content=json.dumps(body).encode("ascii"),
                          headers={"Content-Type": "application/json"})


# -- 21: a lone surrogate --------------------------------------------------------------------------

def test_a_lone_surrogate_anywhere_in_a_body_is_refused_with_422_never_500(guarded):
    alice, bob = Api(guarded, name("a")), Api(guarded, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    bad = "x\ud800y"
    anon = httpx.Client(base_url=guarded.url, timeout=60)
    cases = [(anon, "POST", "/api/users", {"name": bad, "password": "password-1"}),
             (anon, "POST", "/api/users", {"name": name("s"), "password": bad * 4}),
             (anon, "POST", "/api/users", {"name": name("s"), "password": "password-1", "email": f"{bad}@a.example"}),
             (anon, "POST", "/api/login", {"name": bad, "password": "password-1"}),
             (anon, "POST", "/api/login", {"name": alice.name, "password": bad * 4}),
             (alice.http, "POST", "/api/scripts", {"source": f"return {{ name = '{bad}' }}"}),
             (alice.http, "POST", "/api/matches", {"game": bad, "seats": [alice.name, bob.name]}),
             (alice.http, "POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, bad]}),
             (alice.http, "POST", "/api/matches", {"game": "tictactoe", "options": {bad: 1}, "seats": [alice.name, bob.name]}),
             (alice.http, "POST", "/api/records", {"record": {"format": bad}, "seats": [alice.name, bob.name]}),
             (alice.http, "PATCH", "/api/me", {"email": f"{bad}@a.example"}),
             (alice.http, "POST", "/api/me/password", {"old": bad * 4, "new": "password-2"}),
             (alice.http, "POST", f"/api/matches/{match_id}/moves", {"ply": 0, "move": bad}),
             (alice.http, "POST", f"/api/matches/{match_id}/moves", {"ply": 0, "move": ["b2", bad]})]
    wrong = []
    for client, method, path, body in cases:
        try:
            r = raw_json(client, method, path, body)
        except httpx.HTTPError as exc:      # (a 500 there even dropped the connection)
            wrong.append((method, path, repr(exc)))
            continue
        if r.status_code != 422 or "lone UTF-16 surrogate" not in r.json()["message"]:
            wrong.append((method, path, r.status_code, r.text[:100]))
    assert wrong == []
    assert alice.move(match_id, 0, "b2").status_code == 200      # nothing was half done


# -- 22: framing and sniffing -----------------------------------------------------------------------

def test_no_answer_may_be_framed_by_another_site_and_none_is_sniffed(guarded):
    http = httpx.Client(base_url=guarded.url, timeout=60)
    sha = http.get("/api/games/tictactoe").json()["sha256"]
    for path in ("/", "/docs", "/redoc", "/docs/oauth2-redirect", "/openapi.json", "/static/js/app.js",
                 f"/api/scripts/{sha}", "/api/health", "/api/no-such-route", f"/matches/{1}"):
        r = http.get(path)
        assert r.status_code in (200, 404), (path, r.status_code)
        assert r.headers.get("x-frame-options") == "DENY", path
        assert r.headers.get("x-content-type-options") == "nosniff", path
        assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), path
    source = http.get(f"/api/scripts/{sha}")
    assert source.headers["content-type"].startswith("text/x-lua") and "return" in source.text
    refused = http.post("/api/login", content=b"x", headers={"Content-Type": "text/plain"})   # the guard's own
    assert refused.status_code == 415 and refused.headers.get("x-frame-options") == "DENY"


# -- 9: "your turn" mail ------------------------------------------------------------------------------

def test_a_title_with_a_line_break_neither_stops_the_mail_nor_reaches_a_header(guarded, mailbox):
    alice = Api(guarded, name("a"), email=f"{name('a')}@example.org")
    bob = Api(guarded, name("b"), email=f"{name('b')}@example.org")
    alice_address, bob_address = (p.ok("GET", "/api/me")["email"] for p in (alice, bob))
    # an address the mail server refuses (no SMTPUTF8 here): logged, and the next goes out
    dora = Api(guarded, name("d"), email="dörte@example.org")
    challenge(dora, [bob], "tictactoe", [dora.name, bob.name])            # dora opens: her mail fails
    match_id = challenge(alice, [bob], "newline_title", [alice.name, bob.name])   # bob accepts: alice opens
    mail = wait_for(lambda: mailbox.to(alice_address), timeout=20, what="the mail with the odd title")[0]
    assert "\n" not in mail["Subject"] and mail["Subject"].startswith("Your turn: Tic Bcc: mallory")
    assert mail.get_all("Bcc") is None and "mallory" not in (mail["To"] or "")
    # and the mailer goes on: the next turn's mail arrives too
    assert alice.move(match_id, 0, "b2").status_code == 200
    wait_for(lambda: [m for m in mailbox.to(bob_address) if f"match {match_id}" in m["Subject"]], timeout=20,
             what="the next mail")
    # a control character never gets into an address either: refused where it is given
    r = alice.http.patch("/api/me", json={"email": "a\x01b@example.org"})
    assert r.status_code == 422


# -- 10: idle and slow connections ------------------------------------------------------------------

def test_idle_and_slow_connections_are_closed_and_health_answers_meanwhile(guarded):
    socks = []
    bystander = Api(guarded, name("c"))
    try:
        with Watch(guarded, bystander) as watch:
            for i in range(300):
                s = socket.create_connection(("127.0.0.1", guarded.port), timeout=10)
                if i % 3 == 1:      # headers that never end
                    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                elif i % 3 == 2:    # a body that never comes
                    s.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 100\r\n\r\n{")
                socks.append(s)
            # while they are open, the server answers everyone else
            wait_for(lambda: min(watch.during.values()) >= 5, 30, "the watch to ask")
        watch.check()

        def closed(s: socket.socket) -> bytes | None:
            s.settimeout(0.05)
            try:
                data = s.recv(65536)
            except socket.timeout:
                return None
            except OSError:
                return b""
            return data if data == b"" else data + (closed(s) or b"")

        said: dict[int, bytes] = {}

        def all_closed() -> bool:
            for i, s in enumerate(socks):
                if i in said:
                    continue
                got = closed(s)
                if got is not None:
                    said[i] = got
            return len(said) == len(socks)
        wait_for(all_closed, timeout=30, what="every idle connection closed by the server")
        late_bodies = [said[i] for i in range(2, 300, 3)]
        assert all(b"408" in answer.split(b"\r\n", 1)[0] for answer in late_bodies), late_bodies[:3]
    finally:
        for s in socks:
            s.close()
    assert httpx.get(guarded.url + "/api/health", timeout=1).status_code == 200


def test_a_websocket_message_over_the_limit_closes_the_socket(guarded):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    alice, bob = Api(guarded, name("a")), Api(guarded, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    with connect(f"{guarded.ws_url}/api/matches/{match_id}/live", open_timeout=30, max_size=None) as ws:
        json.loads(ws.recv(timeout=30))
        ws.send("x" * 100_000)
        with pytest.raises(ConnectionClosed):
            for _ in range(3):
                ws.recv(timeout=30)
        assert ws.close_code == 1009


# -- 14: a session that ends unheard ---------------------------------------------------------------------

def test_a_session_that_expires_while_its_websocket_streams_closes_it(tmp_path):
    """Nobody asks for a session while its socket streams: its expiry is found by the socket."""
    import sqlite3
    from nomv.server.accounts import token_hash
    db = tmp_path / "server.sqlite3"
    # sessions of 43.2 s, read again by a socket every 4.32 s
    server = Server(f"sqlite:///{db}", tmp_path, "--session-days", "0.0005")
    try:
        alice = Api(server, name("a"))
        match_id = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "random"]}, 201)["id"]
        phone = Api(server, alice.name, register=False)
        watch = Collector(phone, match_id)
        try:
            assert watch.wait(lambda m: "hello" in m["events"])["match"]["you"] == [1]
            # the phone's session was last used a day ago (as if the socket had streamed that long)
            with sqlite3.connect(db) as conn:
                aged = conn.execute("UPDATE sessions SET used_at = used_at - 86400 WHERE token_hash = ?",
                                    (token_hash(phone.token),)).rowcount
            assert aged == 1
            wait_for(lambda: watch.connection.close_code is not None, timeout=60, what="the socket closed")
            assert watch.connection.close_code == 1008 and "session has ended" in watch.connection.close_reason
            assert phone.get("/api/me").status_code == 401
        finally:
            watch.close()
    finally:
        server.stop()


# -- 12, 13, 17: logins, proxies, passwords -------------------------------------------------------------

def test_wrong_passwords_from_one_address_never_lock_the_owner_out_from_another(guarded):
    owner, bystander = Api(guarded, name("o")), Api(guarded, name("c"))
    attacker, home = proxied(guarded, "203.0.113.1"), proxied(guarded, "203.0.113.2")

    def wrong() -> int:
        return attacker.post("/api/login", json={"name": owner.name, "password": "not-the-one"}).status_code
    with Watch(guarded, bystander) as watch:
        assert [wrong() for _ in range(10)] == [401] * 10
        r = attacker.post("/api/login", json={"name": owner.name, "password": "not-the-one"})
        assert r.status_code == 429 and "for this name from your address" in r.json()["message"]
        # from there even the right password waits (the limit is no hint)...
        assert attacker.post("/api/login", json={"name": owner.name, "password": "password-1"}).status_code == 429
        # the attacker goes on trying...
        assert set(watch.keep(wrong)) == {429}
        # ...but the owner, elsewhere, logs in
        r = home.post("/api/login", json={"name": owner.name, "password": "password-1"})
        assert r.status_code == 200
    watch.check()
    # behind the HTTPS proxy the cookie is Secure
    assert "Secure" in r.headers["set-cookie"]


def test_forwarded_headers_count_only_from_the_trusted_proxy(guarded):
    direct = httpx.Client(base_url=guarded.url, timeout=60)
    someone = Api(guarded, name("s"))
    # a client that is not the proxy cannot pass for another address, nor for HTTPS
    spoofed = {"X-Forwarded-For": "198.51.100.9", "X-Forwarded-Proto": "https"}
    r = direct.post("/api/login", json={"name": someone.name, "password": "password-1"}, headers=spoofed)
    assert r.status_code == 200 and "Secure" not in r.headers["set-cookie"]
    victim, bystander = Api(guarded, name("v")), Api(guarded, name("c"))

    def wrong() -> int:
        return direct.post("/api/login", json={"name": victim.name, "password": "wrong-one"},
                           headers=spoofed).status_code
    with Watch(guarded, bystander) as watch:
        assert [wrong() for _ in range(10)] == [401] * 10
        assert set(watch.keep(wrong)) == {429}
    watch.check()
    # counted against 127.0.0.1 (where they came from), not 198.51.100.9
    assert direct.post("/api/login", json={"name": victim.name, "password": "password-1"}).status_code == 429
    assert proxied(guarded, "198.51.100.9").post(
        "/api/login", json={"name": victim.name, "password": "password-1"}).status_code == 200


def test_a_stolen_session_cannot_try_passwords_on_the_password_change(guarded):
    owner, bystander = Api(guarded, name("o")), Api(guarded, name("c"))
    thief = proxied(guarded, "203.0.113.3")
    thief.headers["Authorization"] = f"Bearer {owner.token}"

    def guess() -> int:
        return thief.post("/api/me/password", json={"old": "guess-guess", "new": "password-2"}).status_code
    with Watch(guarded, bystander) as watch:
        assert [guess() for _ in range(10)] == [401] * 10
        r = thief.post("/api/me/password", json={"old": "guess-guess", "new": "password-2"})
        assert r.status_code == 429 and "try again in" in r.json()["message"]
        assert set(watch.keep(guess)) == {429}
    watch.check()
    assert thief.post("/api/me/password", json={"old": "password-1", "new": "password-2"}).status_code == 429
    assert owner.ok("POST", "/api/me/password", {"old": "password-1", "new": "password-2"}) == {"ok": True}


# -- 16: secrets in the log ---------------------------------------------------------------------------

def test_a_token_in_the_websockets_address_never_reaches_the_log(guarded):
    from websockets.sync.client import connect
    alice, bob = Api(guarded, name("a")), Api(guarded, name("b"))
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    with connect(f"{guarded.ws_url}/api/matches/{match_id}/live?token={bob.token}", open_timeout=30) as ws:
        assert json.loads(ws.recv(timeout=30))["match"]["you"] == [2]
    invite = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "open"]}, 201)["invite"]
    assert httpx.get(invite).status_code == 200
    token = invite.rsplit("/", 1)[1]
    log = wait_for(lambda: (lambda text: text if "/live?token=***" in text else None)(guarded.output()),
                   what="the WebSocket's line in the log")
    assert bob.token not in log and alice.token not in log and token not in log
    assert "/api/invites/***" in log


# -- 18: names ------------------------------------------------------------------------------------------

def test_look_alike_and_invisible_names_are_refused_with_what_is_wrong(guarded):
    http = httpx.Client(base_url=guarded.url, timeout=60)
    stem = name("n")
    refused = {f"\u0430{stem}": "mixes scripts",               # a Cyrillic а, then Latin
               f"{stem}\u3164x": "invisible",                   # a Hangul filler
               f"{stem}\u200bx": "invisible",                   # a zero-width space
               f"{stem[:3]}  {stem[3:]}": "two spaces",
               f"{stem}i\u0307": "looks like another letter",   # i with a combining dot
               f"\u0301{stem}": "does not follow a letter",
               f"{stem}e\u0301\u0301": "same combining mark twice",
               f"{stem}\u03bf": "mixes scripts"}                # a Greek ο
    for bad, words in refused.items():
        r = http.post("/api/users", json={"name": bad, "password": "password-1"})
        assert r.status_code == 422 and words in r.json()["message"], (bad, r.text)
    # normalised (NFKC): fullwidth letters are the plain ones, an accent joins its letter
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in stem)
    assert http.post("/api/users", json={"name": wide, "password": "password-1"}).json()["name"] == stem
    assert http.post("/api/users", json={"name": stem, "password": "password-1"}).status_code == 409
    digits = "".join(c for c in stem if c.isdigit())
    for good in (f"Zoe\u0308{digits}", f"Алиса{digits}", f"山田たろう{digits}", f"李Alice{digits}"):
        r = http.post("/api/users", json={"name": good, "password": "password-1"})
        assert r.status_code == 201, (good, r.text)
    assert r.json()["name"] == f"李Alice{digits}"


# -- 11: a flood of challenges ----------------------------------------------------------------------------

def test_a_flood_of_challenges_never_hides_the_matches_being_played(guarded):
    victim, friend = Api(guarded, name("v")), Api(guarded, name("f"))
    their_turn = challenge(victim, [friend], "tictactoe", [victim.name, friend.name])
    assert victim.move(their_turn, 0, "b2").status_code == 200
    my_turn = challenge(friend, [victim], "tictactoe", [victim.name, friend.name])
    attackers, bystander = [Api(guarded, name("m")) for _ in range(11)], Api(guarded, name("c"))
    with Watch(guarded, bystander) as watch:
        for attacker in attackers:             # 220 challenges, each newer than both matches
            for _ in range(20):
                attacker.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [attacker.name, victim.name]}, 201)
    watch.check()
    r = attackers[0].post("/api/matches", {"game": "tictactoe", "seats": [attackers[0].name, victim.name]})
    assert r.status_code == 403 and "20 matches waiting" in r.json()["message"]
    # a match that starts at once is no challenge: not counted
    attackers[0].ok("POST", "/api/matches", {"game": "tictactoe", "seats": [attackers[0].name, "random"]}, 201)
    listed = victim.ok("GET", "/api/me/matches")
    assert len(listed) == 200
    assert listed[0]["id"] == my_turn and listed[0]["your_turn"]
    assert their_turn in [m["id"] for m in listed]
    assert all(m["to_answer"] for m in listed[1:-1])


# -- 19: ratings ------------------------------------------------------------------------------------------

def test_a_rated_match_ended_in_the_first_moves_changes_no_rating(guarded):
    alice, bob = Api(guarded, name("a")), Api(guarded, name("b"))
    quick = challenge(alice, [bob], "trinim", [alice.name, bob.name])
    ended = bob.ok("POST", f"/api/matches/{quick}/resign")
    assert not ended["rated"] and "not rated" in ended["outcome"]["unrated"]

    def rows() -> dict:
        listed = alice.ok("GET", "/api/games/trinim/standings")["standings"]
        return {r["name"]: r for r in listed if r["name"] in (alice.name, bob.name)}
    assert rows() == {}
    # an agreed draw just as early: the same
    early = challenge(alice, [bob], "trinim", [alice.name, bob.name])
    state = alice.match(early)
    assert alice.move(early, 0, legal(state)[0]).status_code == 200
    alice.ok("POST", f"/api/matches/{early}/draw", {"action": "offer"})
    assert "unrated" in bob.ok("POST", f"/api/matches/{early}/draw", {"action": "accept"})["outcome"]
    assert rows() == {}
    # once each has made two moves, a resignation counts
    played = challenge(alice, [bob], "trinim", [alice.name, bob.name])
    for ply, player in enumerate((alice, bob, alice, bob)):
        assert player.move(played, ply, legal(player.match(played))[0]).status_code == 200
    ended = alice.ok("POST", f"/api/matches/{played}/resign")
    assert ended["rated"] and "unrated" not in ended["outcome"]
    standings = rows()
    assert standings[bob.name]["wins"] == 1 and standings[alice.name]["losses"] == 1


# -- 6 and 20: computer players ----------------------------------------------------------------------------

def wait_computer(api: Api, match_id: int, ply: int) -> dict:
    return wait_for(lambda: (lambda m: m if m["ply"] >= ply else None)(api.match(match_id)), timeout=60,
                    what="the computer's move")


def test_a_computer_shows_no_estimate_while_a_game_with_secrets_runs(guarded):
    alice = Api(guarded, name("a"))
    secret = alice.ok("POST", "/api/matches", {"game": "nonads", "variant": "knownads",
                                               "seats": [alice.name, "mcts:40it"]}, 201)["id"]
    open_game = alice.ok("POST", "/api/matches", {"game": "trinim", "seats": [alice.name, "mcts:40it"]}, 201)["id"]
    for match_id in (secret, open_game):
        assert alice.move(match_id, 0, legal(alice.match(match_id))[0]).status_code == 200
    assert isinstance(wait_computer(alice, open_game, 2)["seats"][1]["expects"], float)   # no secret: shown
    running = wait_computer(alice, secret, 2)
    assert running["status"] == "active" and running["seats"][1]["expects"] is None
    ended = alice.ok("POST", f"/api/matches/{secret}/resign")
    assert isinstance(ended["seats"][1]["expects"], float)                                   # over: shown


def test_a_computer_players_randomness_is_not_the_matchs_seed(guarded):
    alice = Api(guarded, name("a"))
    record = json.loads(nomv.Record.from_position(nomv.Game.load("trinim").start(seed=77)).to_text())
    firsts = []
    for _ in range(5):       # five matches of one seed: the same dice, the same first position
        created = alice.ok("POST", "/api/records", {"record": record, "seats": ["random", alice.name]}, 201)
        firsts.append(wait_computer(alice, created["id"], 1)["moves"][0])
    assert len(set(firsts)) > 1, firsts


def test_a_takeback_against_a_computer_never_shows_the_future(guarded):
    alice, bob = Api(guarded, name("a")), Api(guarded, name("b"))
    # no chance, no secret: the computer agrees, as before
    plain = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [alice.name, "random"]}, 201)["id"]
    assert alice.move(plain, 0, "b2").status_code == 200
    wait_computer(alice, plain, 2)
    assert alice.ok("POST", f"/api/matches/{plain}/takeback", {"action": "ask"})["ply"] == 0
    # a die was rolled since: taking back would show the roll to come
    dice = alice.ok("POST", "/api/matches", {"game": "dicerace", "seats": [alice.name, "random"]}, 201)["id"]
    assert alice.move(dice, 0, "roll").status_code == 200
    before = wait_computer(alice, dice, 2)
    r = alice.post(f"/api/matches/{dice}/takeback", {"action": "ask"})
    assert r.status_code == 409 and "drew chance" in r.json()["message"]
    assert alice.match(dice)["moves"] == before["moves"]
    # hidden information: the move showed something (a tile drawn)
    secret = alice.ok("POST", "/api/matches", {"game": "nonads", "variant": "knownads",
                                               "seats": [alice.name, "random"]}, 201)["id"]
    assert alice.move(secret, 0, legal(alice.match(secret))[0]).status_code == 200
    wait_computer(alice, secret, 2)
    r = alice.post(f"/api/matches/{secret}/takeback", {"action": "ask"})
    assert r.status_code == 409 and "hidden information" in r.json()["message"]
    # between people, the other decides, whatever the game
    people = challenge(alice, [bob], "dicerace", [alice.name, bob.name])
    assert alice.move(people, 0, "roll").status_code == 200
    alice.ok("POST", f"/api/matches/{people}/takeback", {"action": "ask"})
    assert bob.ok("POST", f"/api/matches/{people}/takeback", {"action": "accept"})["ply"] == 0
