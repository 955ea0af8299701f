"""The browser pages of `nomv serve`, in a real headless Chromium (Debian's, driven by Playwright):
two people in two browser contexts play by clicks and see each other's moves live; multi-click
moves, off-board buttons, hidden information (the page and its WebSocket frames of one player
never hold the other's target), history browsing, resign, reload, a phone's width, and names
that contain HTML.

Chromium is /usr/bin/chromium (or NOMV_CHROMIUM).  Without it these tests are skipped, unless
NOMV_REQUIRE_BROWSER=1 (set by .ci/run), which makes them fail.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

from serverlib import Api, Server, challenge, name

CHROMIUM = os.environ.get("NOMV_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PASSWORD = "password-1"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("NOMV_REQUIRE_BROWSER"):
            pytest.fail(f"Chromium is not installed ({CHROMIUM}): apt-get install chromium")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    sync = pytest.importorskip("playwright.sync_api")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    home = tmp_path_factory.mktemp("serve-browser")
    srv = Server(f"sqlite:///{home}/server.sqlite3", home, "--searches", "1")
    yield srv
    srv.stop()


class Player:
    """A person: an account, a browser context logged in with it, and an API client (the
    tests read the legal moves from the API, and click them in the page)."""

    def __init__(self, browser, server: Server, who: str, viewport=DESKTOP):
        self.api = Api(server, who, PASSWORD)
        self.server = server
        self.context = browser.new_context(viewport=viewport, locale="en-GB")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.frames: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived",
                                                   lambda f: self.frames.append(f if isinstance(f, str) else str(f))))
        r = self.context.request.post(f"{server.url}/api/login", data=json.dumps({"name": who, "password": PASSWORD}),
                                      headers={"Content-Type": "application/json"})
        assert r.ok, r.text()

    def open(self, match_id: int) -> None:
        self.page.goto(f"{self.server.url}/matches/{match_id}")
        self.page.wait_for_selector("#board[data-ply] svg [data-step]")

    def ply(self) -> int:
        return int(self.page.get_attribute("#board", "data-ply"))

    def wait_ply(self, ply: int, timeout: float = 1.0) -> float:
        """Waits until the page shows the position after `ply` moves; returns how long that took."""
        start = time.monotonic()
        self.page.wait_for_selector(f"#board[data-ply='{ply}']", timeout=timeout * 1000)
        return time.monotonic() - start

    def click_step(self, step: str) -> None:
        board = self.page.locator(f"#board svg [data-step={json.dumps(step)}]")
        if board.count():
            board.first.click()
        else:
            self.page.locator(f".controls [data-step={json.dumps(step)}]").click()

    def play(self, match_id: int, steps: list[str]) -> None:
        """Plays a move by clicking its steps (and Done when the move could go on)."""
        before = self.ply()
        for step in steps:
            self.click_step(step)
        # Either the move went (a move that cannot go on is sent at its last click), or it
        # could go on and waits for Done: whichever shows, however slow the machine.
        moved = f"#board[data-ply='{before + 1}']"
        self.page.wait_for_selector(f"{moved}, [data-action=done]:not([disabled])", timeout=10000)
        if self.ply() != before + 1:
            self.page.click("[data-action=done]")
            self.page.wait_for_selector(moved, timeout=10000)

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()
        self.api.close()


def play_out(players: list[Player], match_id: int, rng: random.Random, limit: int = 400) -> dict:
    """Both players click random legal moves until the match ends; each move must appear on
    the other's page within a second, without reloading."""
    seen = []
    for _ in range(limit):
        state = players[0].api.match(match_id)
        if state["status"] != "active":
            return state
        mover = next(p for p in players if state["to_move"] in p.api.match(match_id)["you"])
        legal = mover.api.match(match_id)["legal_moves"]
        move = rng.choice(legal)
        mover.play(match_id, move["steps"])
        for other in players:
            if other is not mover:
                seen.append(other.wait_ply(state["ply"] + 1, timeout=1.0))
    raise AssertionError("the match did not end")


def test_two_people_play_a_whole_trinim_match_by_clicks(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "trinim", [alice.api.name, bob.api.name])
    alice.open(match_id)
    bob.open(match_id)
    final = play_out([alice, bob], match_id, random.Random(1))
    assert final["status"] == "ended"
    for p in (alice, bob):
        p.page.wait_for_selector("#board[data-outcome]")
        # the one line names the winner by person (nomv.play.wording), the winner as "you"
        line = p.page.inner_text("[data-turn=result]")
        winner = final["outcome"]["winner"]
        if winner is None:
            assert line.startswith(("Draw", "Player 1 (")), line
        elif p.api.name == final["seats"][winner - 1]["user"]:
            assert line.startswith(f"You win (Player {winner})"), line
        else:
            assert line.startswith(f"Player {winner} ({final['seats'][winner - 1]['user']}) wins"), line
    alice.close()
    bob.close()


def test_two_people_play_a_whole_nipple_match_by_clicks(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "nipple", [alice.api.name, bob.api.name], options={"size": 3})
    alice.open(match_id)
    bob.open(match_id)
    final = play_out([alice, bob], match_id, random.Random(2))
    assert final["status"] == "ended" and final["outcome"] is not None
    alice.close()
    bob.close()


def test_a_move_is_one_message_and_the_page_draws_its_answer_without_asking_again(browser, server):
    # What a page does for a move: one message over the match's WebSocket (or one POST when the
    # socket is not open), whose answer it draws; no look at the match before or after.
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "trinim", [alice.api.name, bob.api.name])
    alice.open(match_id)
    alice.page.wait_for_selector(".live.on")
    requests: list[str] = []
    alice.page.on("request", lambda r: requests.append(f"{r.method} {r.url}"))
    # (the socket is open already: what the page sends on it is caught by wrapping its send)
    alice.page.evaluate("""() => { const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) { window.__sent = (window.__sent || []).concat([String(data)]);
                                                      return send.call(this, data); }; }""")
    move = alice.api.match(match_id)["legal_moves"][0]
    alice.play(match_id, move["steps"])
    assert alice.page.inner_text(".moves .current") == move["notation"]
    moves_sent = [json.loads(f) for f in alice.page.evaluate("window.__sent || []") if f != "ping"]
    assert [m["type"] for m in moves_sent] == ["move"] and moves_sent[0]["move"] == move["steps"], moves_sent
    assert not [r for r in requests if f"/api/matches/{match_id}" in r], requests

    # The socket closed (and kept from opening again): the move goes as one POST, and its
    # answer is drawn as it is: still no look at the match.
    alice.context.route_web_socket(re.compile(r".*/live(\?.*)?$"), lambda ws: ws.close())   # (?lang=)
    alice.page.reload()
    alice.page.wait_for_selector("#board[data-ply='1'] svg [data-step]")
    bob_move = bob.api.match(match_id)["legal_moves"][0]
    assert bob.api.move(match_id, 1, bob_move["steps"]).status_code == 200
    alice.page.reload()                      # (no pushes: the page learns of bob's move by a reload)
    alice.page.wait_for_selector("#board[data-ply='2'] svg [data-step]")
    requests.clear()
    move = alice.api.match(match_id)["legal_moves"][0]
    alice.play(match_id, move["steps"])
    posted = [r for r in requests if f"/api/matches/{match_id}" in r]
    assert posted == [f"POST {server.url}/api/matches/{match_id}/moves"], requests
    assert alice.page.inner_text(".moves .current") == move["notation"]
    alice.close()
    bob.close()


def test_a_3verse_four_click_move(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "3verse", [alice.api.name, bob.api.name])
    alice.open(match_id)
    legal = alice.api.match(match_id)["legal_moves"]
    move = next(m for m in legal if len(m["steps"]) == 4)
    steps = move["steps"]
    for step in steps[:-1]:
        alice.click_step(step)
        # the steps clicked so far are ringed, and the next ones highlighted
        assert alice.page.locator("#board svg .clickable").count() >= 1
        assert alice.ply() == 0
    alice.click_step(steps[-1])
    alice.wait_ply(1, timeout=3)
    assert bob.api.match(match_id)["moves"] == [move["notation"]]
    alice.close()
    bob.close()


def test_a_nonads_slot_and_a_rotation(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    two_clicks, matches = 0, 0
    while two_clicks < 3:
        # A player may make their target within a few plies (it happened once in a full run):
        # then the two-click moves go on in a new match.
        assert matches < 4, "three two-click moves were not found in four matches"
        matches += 1
        match_id = challenge(alice.api, [bob.api], "nonads", [alice.api.name, bob.api.name])
        alice.open(match_id)
        bob.open(match_id)
        played: list[str] = []
        while two_clicks < 3:
            assert len(played) < 12, "no slot with two rotations in 12 plies"
            state = alice.api.match(match_id)
            if state["status"] != "active":
                break
            mover = alice if state["to_move"] in state["you"] else bob
            legal = mover.api.match(match_id)["legal_moves"]
            # a slot, then a rotation other than the first (two clicks, the second deciding the
            # move); a tile that looks the same every way round offers one rotation a slot, and
            # clicking the slot already plays it (the match's seed decides the tiles): then play on
            slots = Counter(m["steps"][0] for m in legal if len(m["steps"]) == 2)
            move = next((m for m in reversed(legal) if len(m["steps"]) == 2 and slots[m["steps"][0]] > 1), None)
            if move is None:
                mover.play(match_id, legal[0]["steps"])
                played.append(legal[0]["notation"])
                continue
            two_clicks += 1
            slot, rotation = move["steps"]
            assert rotation.startswith("rot:")
            mover.click_step(slot)
            assert mover.ply() == state["ply"]
            assert mover.page.locator(f"[data-step={json.dumps(rotation)}]").count() >= 1   # offered next
            mover.click_step(rotation)
            mover.wait_ply(state["ply"] + 1, timeout=3)
            played.append(move["notation"])
        assert alice.api.match(match_id)["moves"] == played
    alice.close()
    bob.close()


def test_knownads_pages_never_hold_the_other_players_target(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "nonads", [alice.api.name, bob.api.name], variant="knownads")
    alice.open(match_id)
    bob.open(match_id)
    rng = random.Random(3)
    for _ in range(4):
        state = alice.api.match(match_id)
        if state["status"] != "active":
            break
        mover = alice if state["to_move"] in state["you"] else bob
        move = rng.choice(mover.api.match(match_id)["legal_moves"])
        mover.play(match_id, move["steps"])
        other = bob if mover is alice else alice
        other.wait_ply(state["ply"] + 1)
    # Each player's own view names their target; the other's must appear nowhere on their page
    # or in what their WebSocket received.
    mine = {p: p.api.match(match_id)["view"]["targets"] for p in (alice, bob)}
    target_of = {alice: mine[alice][0], bob: mine[bob][1]}
    assert target_of[alice] and target_of[bob] and target_of[alice] != target_of[bob]
    for p, other in ((alice, bob), (bob, alice)):
        secret = target_of[other]
        html = p.page.content()
        # in no text of the page: "#3" alone or within a text, but not "#32" (another tile)
        assert not re.search(rf">[^<]*#{secret}(?![0-9])[^<]*<", html), secret
        frames = "\n".join(p.frames)
        assert frames and f'"#{secret}"' not in frames
        assert all(json.loads(f)["match"]["view"]["targets"][other is bob] == 0
                   for f in p.frames if f.startswith("{") and json.loads(f).get("match", {}).get("view"))
    alice.close()
    bob.close()


def test_history_browsing_and_back_to_the_game(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "trinim", [alice.api.name, bob.api.name], options={"size": 6})
    alice.open(match_id)
    bob.open(match_id)
    rng = random.Random(4)
    for _ in range(3):
        state = alice.api.match(match_id)
        mover = alice if state["to_move"] in state["you"] else bob
        mover.play(match_id, rng.choice(mover.api.match(match_id)["legal_moves"])["steps"])
        alice.wait_ply(state["ply"] + 1)
    live = alice.page.inner_html("#board svg.main")
    alice.page.click(".moves button[data-ply='1']")
    alice.wait_ply(1)
    assert alice.page.inner_html("#board svg.main") != live
    assert "an earlier position" in alice.page.inner_text(".notes")
    alice.page.click("[data-action=live]")
    alice.wait_ply(3)
    assert alice.page.inner_html("#board svg.main") == live
    alice.close()
    bob.close()


def test_resign_ends_the_match_for_both(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "trinim", [alice.api.name, bob.api.name])
    alice.open(match_id)
    bob.open(match_id)
    alice.page.once("dialog", lambda d: d.accept())
    alice.page.click("[data-action=resign]")
    bob.page.wait_for_selector("#board[data-outcome]", timeout=3000)
    assert bob.api.match(match_id)["outcome"]["winner"] == 2
    # one line says it, by person; the running game's status line no longer shows
    assert bob.page.inner_text(".status").strip() == f"You win (Player 2): Player 1 ({alice.api.name}) resigned"
    alice.close()
    bob.close()


def test_a_challenge_is_accepted_declined_and_cancelled_on_its_page(browser, server):
    # (each answers the match as its player sees it afterwards: the page shows it at once)
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    seats = {"game": "tictactoe", "seats": [alice.api.name, bob.api.name]}
    accepted, declined, cancelled = (alice.api.ok("POST", "/api/matches", seats, 201)["id"] for _ in range(3))
    for who, match_id, action, shown in ((bob, accepted, "accept", "to move"), (bob, declined, "decline", "declined"),
                                         (alice, cancelled, "cancel", "cancelled")):
        who.page.goto(f"{server.url}/matches/{match_id}")
        who.page.click(f"[data-action={action}]")
        who.page.wait_for_function("([text]) => (document.querySelector('.status')?.innerText || '').includes(text)",
                                   arg=[shown], timeout=10_000)
        assert not who.page.query_selector(f"[data-action={action}]")
    assert [alice.api.match(m)["status"] for m in (accepted, declined, cancelled)] == ["active", "declined", "cancelled"]
    assert alice.errors == [] and bob.errors == []
    alice.close()
    bob.close()


def test_a_reload_mid_match_loses_nothing(browser, server):
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "trinim", [alice.api.name, bob.api.name])
    alice.open(match_id)
    bob.open(match_id)
    legal = alice.api.match(match_id)["legal_moves"]
    alice.play(match_id, legal[0]["steps"])
    bob.wait_ply(1)
    bob.page.reload()
    bob.page.wait_for_selector("#board[data-ply='1'] svg [data-step]")
    assert bob.page.inner_text(".moves [data-ply='1']") == legal[0]["notation"]
    assert "Your turn" in bob.page.inner_text(".status")
    # and the reloaded page is live again: the next move arrives without reloading
    bob.play(match_id, bob.api.match(match_id)["legal_moves"][0]["steps"])
    alice.wait_ply(2)
    alice.close()
    bob.close()


def test_a_phone_width_needs_no_sideways_scrolling(browser, server):
    alice = Player(browser, server, name("alice"), viewport=PHONE)
    bob = Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "nibble", [alice.api.name, bob.api.name])
    alice.open(match_id)
    page = alice.page
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#board svg.main").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["width"] > 300
    # the game can be played with taps at this width
    alice.play(match_id, alice.api.match(match_id)["legal_moves"][0]["steps"])
    page.goto(server.url + "/")
    page.wait_for_selector(".games")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    alice.close()
    bob.close()


def test_a_name_with_html_is_shown_as_text(browser, server):
    evil = "<img src=x onerror=alert(1)><b>"
    api = Api(server, evil, PASSWORD)
    other = Player(browser, server, name("bob"))
    match_id = challenge(other.api, [api], "trinim", [other.api.name, evil])
    other.open(match_id)
    dialogs = []
    other.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    assert evil in other.page.inner_text(".seats")
    assert other.page.locator(".seats img, .seats b").count() == 0
    other.page.goto(server.url + "/")
    other.page.wait_for_selector(".my-matches")
    assert evil in other.page.inner_text(".my-matches")
    assert other.page.locator(".my-matches img").count() == 0 and not dialogs
    other.close()
    api.close()


def test_the_lobby_registers_challenges_by_link_and_the_friend_joins(browser, server):
    host = browser.new_context(viewport=DESKTOP)
    page = host.new_page()
    page.goto(server.url + "/")
    who = name("carol")
    page.fill("input[name=name]", who)
    page.fill("input[name=password]", PASSWORD)
    page.click("[data-action=register]")
    page.wait_for_selector(".my-matches")
    page.click("[data-game=trinim] [data-action=open-game]")
    page.wait_for_selector("[data-game=trinim] form.new-match")
    assert page.locator("[data-game=trinim] .preview svg [data-step]").count() > 0      # the opening picture
    page.click("[data-game=trinim] [data-action=create]")          # seat 1 me, seat 2 open
    link = page.locator(".invite-link").input_value()
    assert "/invite/" in link
    friend = Player(browser, server, name("dave"))
    friend.page.goto(link)
    friend.page.click("[data-action=take-seat]")
    friend.page.wait_for_selector("#board[data-ply='0'] svg [data-step]")
    assert friend.page.url.rstrip("/").split("/")[-2] == "matches"
    host.close()
    friend.close()


def test_the_browser_language_chooses_and_the_menu_changes_it(browser, server):
    alice = Player(browser, server, name("alice"))
    bob = Player(browser, server, name("bob"))
    match_id = challenge(alice.api, [bob.api], "trinim", [alice.api.name, bob.api.name])
    italian = browser.new_context(viewport=DESKTOP, locale="it-IT")
    italian.request.post(f"{server.url}/api/login", data=json.dumps({"name": alice.api.name, "password": PASSWORD}),
                         headers={"Content-Type": "application/json"})
    page = italian.new_page()
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector("#board[data-ply] svg [data-step]")
    assert "Tocca a te" in page.inner_text(".status") and page.inner_text("[data-action=resign]") == "Abbandona"
    page.select_option("[data-action=language]", "en")
    page.wait_for_selector("text=Your turn")
    assert page.inner_text("[data-action=resign]") == "Resign"
    page.reload()                                   # the choice is kept
    page.wait_for_selector("#board[data-ply] svg [data-step]")
    assert "Your turn" in page.inner_text(".status")
    italian.close()
    alice.close()
    bob.close()
