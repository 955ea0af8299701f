"""`nomv serve` with computer seats, uploaded scripts (good, broken and hostile), "your turn"
e-mail through a real SMTP server on the loopback address, and a small position cache: a real
server process, with SQLite and with PostgreSQL (the hostile scripts, which test the sandbox
rather than the database, with SQLite only)."""
from __future__ import annotations

import functools
import shutil
from pathlib import Path

import httpx
import pytest

from conftest import MINIMAL, SCRIPTS
from serverlib import Api, Collector, Server, challenge, legal, name, smtp_server, wait_for
from test_hostile import SCRIPTS as HOSTILE, expectation

GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.fixture(scope="module")
def mailbox():
    yield from smtp_server()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory, mailbox):
    home = tmp_path_factory.mktemp(f"serve-play-{request.param}")
    if request.param == "sqlite":
        db = f"sqlite:///{home}/server.sqlite3"
    else:
        db = request.getfixturevalue("postgres").database()
    srv = Server(db, home, "--searches", "1",
                 "--cache-positions", "3", "--max-scripts", "2",
                 "--smtp", f"smtp://127.0.0.1:{mailbox.port}", "--public-url", "https://games.example")
    yield srv
    srv.stop()


# -- computer seats ---------------------------------------------------------------------------------

def test_a_computer_seat_plays_a_match_to_the_end(server):
    alice = Api(server, name("a"))
    created = alice.ok("POST", "/api/matches", {"game": "trinim", "seats": [alice.name, "random"]}, 201)
    assert created["status"] == "active"      # computers accept at once
    match_id = created["id"]
    live = Collector(alice, match_id)
    try:
        while True:
            state = alice.match(match_id)
            if state["status"] != "active":
                break
            if legal(state):
                assert alice.move(match_id, state["ply"], legal(state)[0]).status_code == 200
                # the computer answers by itself, and the WebSocket says so
                live.wait(lambda m, ply=state["ply"]: m["match"]["ply"] >= ply + 2
                          or m["match"]["status"] != "active")
    finally:
        live.close()
    assert state["status"] == "ended" and state["outcome"]["how"] == "game"
    assert len(state["moves"]) == state["ply"] and not state["rated"]
    assert alice.post("/api/matches", {"game": "trinim", "seats": [alice.name, "random"],
                                       "rated": True}).status_code == 422
    # two computers play a whole match with nobody moving
    both = alice.ok("POST", "/api/matches", {"game": "tictactoe", "seats": ["mcts:200it", "easy"]}, 201)
    end = wait_for(lambda: (m := alice.match(both["id"]))["status"] == "ended" and m,
                   what="the computers' match to end")
    assert end["outcome"] and end["seats"][1]["spec"] == "easy" and len(end["moves"]) >= 5
    record = alice.get(f"/api/matches/{both['id']}/record").json()
    assert record["players"] == ["mcts:200it", "mcts:0.3s"]


def test_a_persons_move_never_waits_behind_a_search(server):
    # One search at a time (--searches 1), and it thinks 3 seconds: people's moves in other
    # matches go through meanwhile, because searches run on workers of their own.
    alice, bob = Api(server, name("a")), Api(server, name("b"))
    thinking = alice.ok("POST", "/api/matches", {"game": "breakthrough", "seats": [alice.name, "hard"]}, 201)
    first = alice.match(thinking["id"])
    assert alice.move(thinking["id"], 0, legal(first)[0]).status_code == 200
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    wait_for(lambda: alice.match(thinking["id"])["thinking"] == 2, what="the search to start")
    for ply, (who, move) in enumerate(((alice, "b2"), (bob, "a1"), (alice, "c3"))):
        assert who.move(match_id, ply, move).status_code == 200
    # the search has not finished: the computer has not moved yet
    state = alice.match(thinking["id"])
    assert state["ply"] == 1 and state["thinking"] == 2
    alice.ok("POST", f"/api/matches/{thinking['id']}/resign")   # (and its move will be dropped)
    assert alice.match(match_id)["ply"] == 3


def test_matches_beyond_the_position_cache_are_replayed_from_the_database(server):
    alice, bob = Api(server, name("a")), Api(server, name("b"))
    ids = [challenge(alice, [bob], "tictactoe", [alice.name, bob.name]) for _ in range(5)]
    for ply, (who, move) in enumerate(((alice, "b2"), (bob, "a1"), (alice, "c3"), (bob, "a3"))):
        for match_id in ids:   # round-robin: each move finds its match evicted (cache of 3)
            assert who.move(match_id, ply, move).status_code == 200
    for match_id in ids:
        assert alice.match(match_id)["moves"] == ["b2", "a1", "c3", "a3"]
    assert httpx.get(server.url + "/api/health").json()["cached_positions"] <= 3


# -- uploads ------------------------------------------------------------------------------------------

def test_a_good_script_uploads_and_plays_and_a_broken_one_is_refused_with_the_checkers_messages(server):
    alice, bob = Api(server, name("a")), Api(server, name("b"))
    source = (GAMES / "tictactoe.lua").read_text().replace('name = "tictactoe"', 'name = "tictac"', 1)
    assert 'name = "tictac"' in source
    up = alice.ok("POST", "/api/scripts", {"source": source}, 201)
    assert up["game"] == f"{alice.name}/tictac" and up["new"] and len(up["sha256"]) == 64
    # The first listing loads every game, each in a worker process of its own (0.9 s here, and
    # 2.2 s with the hostile folder below): more than httpx's default 5 s on a slow machine.
    listed = {g["name"]: g for g in httpx.get(server.url + "/api/games", timeout=60).json()}
    assert listed[up["game"]]["author"] == alice.name and listed[up["game"]]["origin"] == "upload"
    assert listed["trinim"]["origin"] == "bundled"
    assert httpx.get(f"{server.url}/api/scripts/{up['sha256']}").text == source
    # bob plays it, named by catalogue name or by SHA-256
    for game in (up["game"], up["sha256"]):
        match_id = challenge(bob, [alice], game, [bob.name, alice.name])
        for ply, (who, move) in enumerate(((bob, "a1"), (alice, "b1"), (bob, "a2"), (alice, "b2"), (bob, "a3"))):
            assert who.move(match_id, ply, move).status_code == 200
        assert bob.match(match_id)["outcome"]["winner"] == 1
    # a broken script: refused with the checker's own messages, and not listed
    broken = (SCRIPTS / "bad" / "e052_dead_end.lua").read_text()
    r = alice.post("/api/scripts", {"source": broken})
    assert r.status_code == 422 and r.json()["error"] == "script_refused"
    codes = [d["code"] for d in r.json()["diagnostics"]]
    assert "E052" in codes and "error[E052]" in r.json()["message"]
    assert all(d["path"] == "upload.lua" for d in r.json()["diagnostics"])
    r = alice.post("/api/scripts", {"source": "return {"})
    assert r.status_code == 422 and r.json()["diagnostics"][0]["code"] == "E001"
    assert r.json()["diagnostics"][0]["text"].startswith("upload.lua:1: error[E001]")
    # quotas: size, and how many scripts one user keeps (2 on this server)
    r = alice.post("/api/scripts", {"source": "-- " + "x" * 300_000 + "\n" + source})
    assert r.status_code == 413
    carol = Api(server, name("c"))
    def mini(n: int) -> str:   # conftest's minimal game, drawn by its grid
        return MINIMAL.replace('  name = "minimal",\n', f'  name = "mini{n}",\n  grid = g,\n', 1)
    for n in (1, 2):
        carol.ok("POST", "/api/scripts", {"source": mini(n)}, 201)
    r = carol.post("/api/scripts", {"source": mini(3)})
    assert r.status_code == 403 and "2 scripts" in r.json()["message"]
    assert httpx.post(server.url + "/api/scripts", json={"source": source}).status_code == 401


AUTHOR_LINES = ["e100_misspelt_field_in_helper", "e001_missing_end", "e053_bad_result", "e060_play_mutates_input",
                "e052_othello_dead_end"]


@functools.lru_cache(maxsize=None)
def checked_here(stem: str) -> tuple[tuple[str, int, str], ...]:
    """What `nomv check` says of a script with the server's settings (10 games checked ply by
    ply, 500 fast games, no time budget), its path written as the server writes it."""
    from nomv.checker import check
    path = SCRIPTS / "bad" / f"{stem}.lua"
    report = check(path, playouts=10, seconds=0, coverage=False, stats_games=500)
    return tuple((d.code, d.line, d.message.replace(str(path), "upload.lua")) for d in report.errors)


def test_an_upload_is_refused_with_the_messages_of_nomv_check(server, request):
    # The author's line and words (a misspelt field at the call, a missing end's block, a bad
    # result's return, the line that changed the state, a dead end one game in a hundred
    # reaches), the same as `nomv check` gives them.  (The database plays no part: SQLite only.)
    if request.node.callspec.params.get("server") == "postgresql":
        pytest.skip("the checker's messages do not depend on the database")
    dana = Api(server, name("d"))
    for stem in AUTHOR_LINES:
        r = dana.post("/api/scripts", {"source": (SCRIPTS / "bad" / f"{stem}.lua").read_text(encoding="utf-8")})
        assert r.status_code == 422 and r.json()["error"] == "script_refused", (stem, r.text)
        got = tuple((d["code"], d["line"], d["message"]) for d in r.json()["diagnostics"] if d["severity"] == "error")
        assert got == checked_here(stem), stem
        head = (SCRIPTS / "bad" / f"{stem}.lua").read_text(encoding="utf-8").split("\n")[:3]
        code, line = head[0].split()[2:4]
        assert (code, int(line)) in [(c, n) for c, n, _ in got], (stem, got)
        if head[2].startswith("-- says: "):     # the words themselves (the did-you-mean, the block)
            assert any(head[2][len("-- says: "):] in m for c, n, m in got if (c, n) == (code, int(line))), got


# -- "your turn" e-mail ------------------------------------------------------------------------------

def test_your_turn_mail_reaches_the_smtp_server(server, mailbox):
    alice = Api(server, name("a"))
    alice_address = f"{alice.name}@example.org"
    alice.ok("PATCH", "/api/me", {"email": alice_address})
    bob = Api(server, name("b"), email=f"{name('b')}@example.org")
    bob_address = bob.ok("GET", "/api/me")["email"]
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name], time_per_move="2d")
    # bob accepted: alice opens, and is told so
    mail = wait_for(lambda: mailbox.to(alice_address), what="alice's mail")[0]
    assert mail["Subject"] == f"Your turn: Tic-tac-toe, match {match_id}"
    body = mail.get_payload(decode=True).decode()
    assert f"https://games.example/matches/{match_id}" in body and "/api/" not in body     # the match's page
    assert bob.name in body
    assert "https://games.example/account" in body
    assert "Your time for this move ends at" in body
    assert alice.move(match_id, 0, "b2").status_code == 200
    mail = wait_for(lambda: [m for m in mailbox.to(bob_address) if f"match {match_id}" in m["Subject"]],
                    what="bob's mail")[0]
    assert "the last move was b2" in mail.get_payload()
    # someone watching the match live is not mailed: alice watches while bob moves...
    live = Collector(alice, match_id)
    try:
        live.wait(lambda m: "hello" in m["events"])
        assert bob.move(match_id, 1, "a1").status_code == 200
        live.wait(lambda m: m["match"]["ply"] == 2)
        assert alice.move(match_id, 2, "c3").status_code == 200
    finally:
        live.close()
    # ...so when bob's next mail arrives (mail goes out in order), alice got none meanwhile
    wait_for(lambda: len([m for m in mailbox.to(bob_address) if f"match {match_id}" in m["Subject"]]) == 2,
             what="bob's second mail")
    assert len(mailbox.to(alice_address)) == 1
    # notifications can be turned off
    assert bob.ok("PATCH", "/api/me", {"notify": False})["notify"] is False


# -- hostile scripts ----------------------------------------------------------------------------------

#: Scripts the server serves from its games folder, so that they are played, not only checked:
#: one hang in each hook a match calls, a LuaJIT-compiled hang, memory, a forbidden library,
#: and scenes that break the caps.
PLAYED = ["hang_load", "hang_setup", "hang_moves", "hang_play", "hang_result", "hang_to_move",
          "hang_scene", "hang_notation", "hang_jit_compiled", "memory_tables", "os_execute",
          "huge_scene", "nan_in_scene"]


#: The hourly quota of uploads of the hostile server: every script of the corpus, and then some.
QUOTA = len(HOSTILE) + 10


def _hostile_server(home: Path, time_limit: str) -> Server:
    folder = home / "games"
    folder.mkdir()
    for stem in PLAYED:
        shutil.copy(Path(HOSTILE[0]).parent / f"{stem}.lua", folder / f"{stem}.lua")
    return Server(f"sqlite:///{home}/server.sqlite3", home, "--time-limit", time_limit, "--memory-mb", "48",
                  "--quick-check", "--check-playouts", "1", "--uploads-per-hour", str(QUOTA),
                  env={"NOMV_PATH": str(folder)})


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    """Scripts get 0.3 s a call here: the attacks that the clock must stop are stopped fast."""
    srv = _hostile_server(tmp_path_factory.mktemp("serve-hostile"), "0.3")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def roomy_hostile_server(tmp_path_factory):
    """3 s a call: the attacks that something else must stop (memory, the sandbox, a bad reply)
    are not stopped by the clock first on a slower machine (as tests/test_hostile.py's limits_for)."""
    srv = _hostile_server(tmp_path_factory.mktemp("serve-hostile-roomy"), "3")
    yield srv
    srv.stop()


def canary(server: Server, alice: Api, bob: Api) -> None:
    """The server still serves: a fresh match of a bundled game takes moves."""
    assert server.alive()
    match_id = challenge(alice, [bob], "tictactoe", [alice.name, bob.name])
    assert alice.move(match_id, 0, "b2").status_code == 200
    assert legal(bob.match(match_id))


def _one_of_each_attack() -> list[Path]:
    """The first hostile script of each kind of attack (the hook it attacks, and what must stop
    it: the clock, the memory cap, or the sandbox and the checks)."""
    seen: dict[tuple, Path] = {}
    for path in HOSTILE:
        want = expectation(path)
        seen.setdefault((want.kind, want.hook), path)
    return list(seen.values())


def test_a_hostile_script_of_each_kind_uploaded_is_refused_and_the_server_keeps_serving(
        hostile_server, roomy_hostile_server):
    # The whole corpus goes through the upload in the slow test below; every script of it goes
    # through the checker itself in tests/test_hostile.py.
    _uploads_are_refused(hostile_server, roomy_hostile_server, _one_of_each_attack())


@pytest.mark.slow
def test_every_hostile_script_uploaded_is_refused_and_the_server_keeps_serving(hostile_server, roomy_hostile_server):
    _uploads_are_refused(hostile_server, roomy_hostile_server, HOSTILE)


def _uploads_are_refused(hostile_server: Server, roomy_hostile_server: Server, scripts: list[Path]) -> None:
    servers = {True: hostile_server, False: roomy_hostile_server}   # by: must the clock stop it?
    mallory = {clock: Api(srv, name("m")) for clock, srv in servers.items()}
    alice, bob = Api(hostile_server, name("a")), Api(hostile_server, name("b"))
    for number, path in enumerate(scripts):
        want = expectation(path)
        r = mallory[want.kind == "time"].post("/api/scripts", {"source": path.read_text(encoding="utf-8")})
        assert r.status_code == 422 and r.json()["error"] == "script_refused", (path.name, r.text)
        text = "\n".join(d["text"] for d in r.json()["diagnostics"])
        assert (want.check or want.message) in text, (path.name, text)
        if number % 20 == 0:
            canary(hostile_server, alice, bob)
    canary(hostile_server, alice, bob)
    for clock, srv in servers.items():
        listed = [g["name"] for g in httpx.get(srv.url + "/api/games", timeout=60).json()]
        assert not any(n.startswith(mallory[clock].name) for n in listed)
    # the hourly quota of uploads (QUOTA here) counts refused ones too: a check costs CPU
    uploaded = sum(expectation(path).kind == "time" for path in scripts)
    for _ in range(QUOTA - uploaded):
        assert mallory[True].post("/api/scripts", {"source": "return {"}).status_code == 422
    r = mallory[True].post("/api/scripts", {"source": "return {"})
    assert r.status_code == 429 and "uploads an hour" in r.json()["message"]


@pytest.mark.parametrize("stem", PLAYED)
def test_a_hostile_game_played_on_the_server_is_stopped_and_the_server_keeps_serving(hostile_server, stem):
    # The operator put these in the server's games folder: no upload check stands in the way.
    want = expectation(Path(HOSTILE[0]).parent / f"{stem}.lua")
    alice, bob = Api(hostile_server, name("a")), Api(hostile_server, name("b"))
    said = []
    r = alice.post("/api/matches", {"game": stem, "seats": [alice.name, alice.name]})
    said.append(r.text)
    if r.status_code == 201:
        match_id = r.json()["id"]
        for _ in range(3):
            state = alice.match(match_id)
            said.append(state["script_error"] or "")
            if not legal(state):
                break
            r = alice.move(match_id, state["ply"], legal(state)[0])
            said.append(r.text)
            assert r.status_code in (200, 502), r.text
    else:
        assert r.status_code == 502 and r.json()["error"] == "script_failed", r.text
    assert any(want.message in text for text in said), (stem, said)
    canary(hostile_server, alice, bob)
