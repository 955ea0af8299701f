"""The pages a player lives in (issue 25), in a real headless Chromium with two people in two
browser contexts: live clocks that tick, warn and run out (the server ends the match), the
rating change on the finished page, a rematch that reaches the other player's lobby live with a
marker in the tab's title, a challenge answered with Accept / Decline only, the move list by
turns with its keys, turning the board around, a player's page; the sound and the notification
of "your turn" (asked for on the account page; the notification only while the page is not in
front); on a phone (390 px, in Italian)
the turn and the clocks on the first screen, a tile's rotations brought into view after its
slot's click, the New match form (rated as its seats are, days
per move by default), the account page and the upload page (errors at their lines, a good
script in the catalogue).  Screenshots of each page go to NOMV_SHOTS when it is set.

Costs two browser contexts per test and one server shared with tests/test_browser.py's tests.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path


from serverlib import Api, challenge, name
from test_browser import DESKTOP, PASSWORD, PHONE, Player, browser, server  # noqa: F401  (shared fixtures)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = os.environ.get("NOMV_SHOTS")


def shot(player: Player, what: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=f"{SHOTS}/{what}.png", full_page=True)


def italian(player: Player) -> None:
    player.context.add_init_script("localStorage.setItem('nomv.lang', 'it')")


def test_a_live_clock_runs_out_and_the_rematch_reaches_the_other_lobby(browser, server):  # noqa: F811
    alice, bob = Player(browser, server, name("alice")), Player(browser, server, name("bob"))
    a, b = alice.api, bob.api
    # A challenge: the challenged player is offered Accept and Decline, never Cancel; the one
    # who made it, Cancel.
    mid = a.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [a.name, b.name],
                                        "clock": {"base": 7, "increment": 0}}, 201)["id"]
    bob.page.goto(f"{server.url}/matches/{mid}")
    bob.page.wait_for_selector("[data-action=accept]")
    assert bob.page.locator("[data-action=decline]").count() == 1
    assert bob.page.locator("[data-action=cancel]").count() == 0
    alice.page.goto(f"{server.url}/matches/{mid}")
    alice.page.wait_for_selector("[data-action=cancel]")
    assert alice.page.locator("[data-action=accept]").count() == 0
    bob.page.click("[data-action=accept]")
    alice.page.wait_for_selector("#board[data-ply='0'] svg [data-step]")
    # Two clocks, the running one ticking; a few quick moves by both (each player's clock stops
    # at their move); then alice lets hers run out.
    assert alice.page.locator("[data-clock]").count() == 2
    for ply, move in enumerate(["b2", "a1", "c3", "a3"]):
        who = a if ply % 2 == 0 else b
        who.ok("POST", f"/api/matches/{mid}/moves", {"ply": ply, "move": move})
    alice.wait_ply(4, timeout=10)
    first = alice.page.inner_text("[data-clock='1']")
    alice.page.wait_for_function("([t]) => document.querySelector(\"[data-clock='1']\").textContent !== t",
                                 arg=[first], timeout=3000)
    assert "Your turn" in alice.page.inner_text("[data-turn]") and "● " in alice.page.title()
    alice.page.wait_for_selector(".clock.warning [data-clock='1']", timeout=15_000)
    shot(alice, "desktop-clock-warning")
    for p in (alice, bob):          # the server ended it: both pages say so, by name
        p.page.wait_for_selector("[data-turn=result]", timeout=15_000)
        said = p.page.inner_text("[data-turn]")
        assert "ran out of time" in said or "your time ran out" in said, said
    assert a.match(mid)["outcome"]["how"] == "timeout"
    assert alice.page.locator(".clock.running").count() == 0
    # Rated (two people): each one's change, the winner's up.
    changes = {int(e.get_attribute("data-rating-change")) for e in alice.page.query_selector_all("[data-rating-change]")}
    assert len(alice.page.query_selector_all("[data-rating-change]")) == 2
    assert max(changes) > 0 > min(changes)
    # The move list: numbered by turns; Home, ←, →, End step through it.
    assert alice.page.locator("table.moves tr").count() == 2
    assert alice.page.inner_text("table.moves tr >> nth=1").startswith("2.")
    for key, ply in (("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", 4)):
        alice.page.keyboard.press(key)
        alice.page.wait_for_selector(f"#board[data-ply='{ply}']", timeout=5000)
    alice.page.click("[data-nav=first]")
    alice.page.wait_for_selector("#board[data-ply='0']")
    alice.page.click("[data-nav=last]")
    alice.page.wait_for_selector("#board[data-ply='4']")
    # Turning the board around, kept over a reload.
    alice.page.click("[data-action=flip]")
    alice.page.wait_for_selector("#board.flipped")
    shot(alice, "desktop-finished-flipped")
    alice.page.reload()
    alice.page.wait_for_selector("#board.flipped[data-ply='4']")
    # Bob waits in his lobby; alice asks for a rematch: it reaches his list without a reload,
    # and his tab's title counts it.
    bob.page.goto(f"{server.url}/")
    bob.page.wait_for_selector(".my-matches")
    bob.page.wait_for_function("() => !document.title.startsWith('(')", timeout=5000)
    alice.page.click("[data-action=rematch]")
    alice.page.wait_for_function("([old]) => location.pathname !== old", arg=[f"/matches/{mid}"], timeout=10_000)
    rematch = int(alice.page.url.rsplit("/", 1)[1])
    assert rematch != mid
    assert a.match(rematch)["clock"]["base"] == 7 and [s["user"] for s in a.match(rematch)["seats"]] == [b.name, a.name]
    bob.page.wait_for_selector(f".my-matches [data-match='{rematch}']", timeout=10_000)
    bob.page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=10_000)
    assert "nullnull" not in bob.page.inner_text("body")
    shot(bob, "desktop-lobby-challenged")
    # He declines it: his page shows the match as declined, with no script error.
    bob.page.click(f".my-matches [data-match='{rematch}']")
    bob.page.click("[data-action=decline]")
    bob.page.wait_for_selector("[data-turn='not played']")
    alice.page.wait_for_selector("[data-turn='not played']", timeout=10_000)
    assert "declined" in bob.page.inner_text("[data-turn]") and "declined" in alice.page.inner_text("[data-turn]")
    # A player's page: ratings (provisional) and finished matches.
    alice.page.goto(f"{server.url}/users/{b.name}")
    alice.page.wait_for_selector(f".finished [data-match='{mid}']")
    assert alice.page.inner_text(".ratings td.provisional").endswith("?")
    assert alice.page.inner_text(".ratings [data-game=tictactoe] td >> nth=0") == "Tic-tac-toe"     # the title, not the slug
    shot(alice, "desktop-user-page")
    # A visitor not logged in sees no "null" in the header (the first thing an invited friend sees).
    visitor = browser.new_context(viewport=DESKTOP)
    page = visitor.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.login")
    assert "null" not in page.inner_text("header")
    # On a match's page (a link someone sent), the header offers to log in.
    page.goto(f"{server.url}/matches/{mid}")
    page.wait_for_selector("#board[data-outcome]")
    assert "null" not in page.inner_text("body")
    page.click("header [data-action=to-login]")
    page.wait_for_selector("form.login")
    visitor.close()
    alice.close()
    bob.close()


#: Watches what the page asks of the browser (each call goes on to the real one): the
#: notifications it makes, and the tones it starts with the state of their audio context.
SPY = """
window.alerts = { notifications: [], tones: [] };
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) { super(title, options); window.alerts.notifications.push(title); }
};
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.alerts.tones.push(this.context.state);
  return start.apply(this, args);
};
"""


def test_your_turn_sounds_and_notifies_as_asked_on_the_account_page(browser, server):  # noqa: F811
    alice = Player(browser, server, name("alice"))
    a, b = alice.api, Api(server, name("bob"), PASSWORD)
    alice.context.grant_permissions(["notifications"], origin=server.url)
    alice.context.add_init_script(SPY)
    page = alice.page
    page.goto(f"{server.url}/account")
    page.check("[name=sound]")
    page.check("[name=notifications]")
    page.wait_for_function("() => (localStorage.getItem('nomv.alerts') || '').includes('\"notifications\":true')")
    mid = a.ok("POST", "/api/matches", {"game": "tictactoe", "seats": [b.name, a.name]}, 201)["id"]
    b.ok("POST", f"/api/matches/{mid}/accept")
    page.click("header a.home")
    page.wait_for_selector(f".my-matches [data-match='{mid}']")
    # Another tab in front (focus as a browser has it, not Playwright's every-page-focused).
    alice.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    other = alice.context.new_page()
    other.bring_to_front()
    assert page.evaluate("document.hasFocus()") is False

    def turn(mover, ply: int, move: str) -> dict:
        """The move makes it alice's turn: her tab's title counts it (the alerts come with it)."""
        mover.ok("POST", f"/api/matches/{mid}/moves", {"ply": ply, "move": move})
        page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=10_000)
        return page.evaluate("window.alerts")

    assert turn(b, 0, "b2") == {"notifications": ["Your turn"], "tones": ["running"]}
    # Turned off: neither when it is her turn again.
    page.evaluate("localStorage.setItem('nomv.alerts', JSON.stringify({sound: false, notifications: false}))")
    a.ok("POST", f"/api/matches/{mid}/moves", {"ply": 1, "move": "a1"})
    page.wait_for_function("() => !document.title.startsWith('(')", timeout=10_000)
    assert turn(b, 2, "c3") == {"notifications": ["Your turn"], "tones": ["running"]}
    # On again, the tab in front: the sound, but no notification (the page says it already).
    page.evaluate("localStorage.setItem('nomv.alerts', JSON.stringify({sound: true, notifications: true}))")
    page.bring_to_front()
    assert page.evaluate("document.hasFocus()") is True
    a.ok("POST", f"/api/matches/{mid}/moves", {"ply": 3, "move": "a3"})
    page.wait_for_function("() => !document.title.startsWith('(')", timeout=10_000)
    assert turn(b, 4, "a2") == {"notifications": ["Your turn"], "tones": ["running", "running"]}
    other.close()
    alice.close()
    b.close()


BROKEN = """-- a game with a mistake
name = "broken"
title = "Broken"
players = 2
function setup(
  return {}
end
"""


def test_a_phone_in_italian_the_bar_the_form_the_account_and_the_upload(browser, server):  # noqa: F811
    alice = Player(browser, server, name("alice"), viewport=PHONE)
    italian(alice)
    bob = Player(browser, server, name("bob"))
    a, b = alice.api, bob.api
    mid = a.ok("POST", "/api/matches", {"game": "trinim", "seats": [b.name, a.name], "clock": "5+3"}, 201)["id"]
    b.ok("POST", f"/api/matches/{mid}/accept")
    b.ok("POST", f"/api/matches/{mid}/moves", {"ply": 0, "move": b.match(mid)["legal_moves"][0]["steps"]})
    alice.open(mid)
    page = alice.page
    page.wait_for_selector("#board[data-ply='1']")
    # On the first screen: whose turn it is and both clocks, above the board; nothing sideways.
    for selector in ("[data-turn]", "[data-clock='1']", "[data-clock='2']"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], selector
    assert page.locator("[data-turn]").bounding_box()["y"] < page.locator("#board svg.main").bounding_box()["y"]
    assert "Tocca a te" in page.inner_text("[data-turn]")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(alice, "phone-match-it")
    # Alice has not moved yet: she may abort (after saying she is sure).
    page.once("dialog", lambda d: d.accept())
    page.click("[data-action=abort]")
    page.wait_for_selector("[data-turn='not played']")
    assert "interrotta" in page.inner_text("[data-turn]")
    assert a.match(mid)["status"] == "aborted"
    # A step whose next choices stand off the board (a Nonads tile's rotations, drawn under the
    # board on a phone): after the click they come into view.
    tiles = challenge(a, [b], "nonads", [a.name, b.name])
    for _ in range(12):
        state = a.match(tiles)
        mover = a if state["to_move"] in state["you"] else b
        legal = mover.match(tiles)["legal_moves"]
        slots = Counter(m["steps"][0] for m in legal if len(m["steps"]) == 2)
        slot = next((step for step, n in slots.items() if n > 1), None)
        if slot and mover is a:
            break
        mover.ok("POST", f"/api/matches/{tiles}/moves", {"ply": state["ply"], "move": legal[0]["steps"]})
    else:
        raise AssertionError("no slot with several rotations in 12 plies")
    rotations = [m["steps"][1] for m in legal if m["steps"][0] == slot]
    alice.open(tiles)
    page.wait_for_selector(f"#board[data-ply='{state['ply']}']")
    in_view = """([steps]) => steps.some((step) => [...document.querySelectorAll(`#board svg [data-step="${step}"]`)]
        .some((e) => { const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }))"""
    assert not page.evaluate(in_view, [rotations]), "the rotations were on the first screen already"
    page.locator(f"#board svg [data-step={json.dumps(slot)}]").first.click()
    page.wait_for_function(in_view, arg=[rotations], timeout=5000)
    shot(alice, "phone-nonads-rotations-it")
    # The New match form: rated as its seats are, a correspondence time of days by default.
    page.goto(f"{server.url}/?game=tictactoe")
    page.wait_for_selector("form.new-match")
    assert page.is_checked("form.new-match [name=rated]")
    assert page.input_value("form.new-match [name=time]") == "3d"
    page.select_option("form.new-match [name=seat-2]", "easy")
    assert not page.is_checked("form.new-match [name=rated]")
    page.select_option("form.new-match [name=seat-2]", "open")
    assert page.is_checked("form.new-match [name=rated]")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(alice, "phone-lobby-form-it")
    page.click("form.new-match [data-action=create]")
    page.wait_for_selector(".invitation .invite-link")
    assert page.eval_on_selector(".invitation", "e => getComputedStyle(e).color") != "rgb(138, 28, 28)"
    created = max(a.ok("GET", "/api/me/matches"), key=lambda m: m["id"])      # the form's
    assert created["time_per_move"] == 3 * 86400 and created["rated"] is True
    # The open challenge, as others see it: its title and terms.
    bob.page.goto(f"{server.url}/")
    bob.page.wait_for_selector(f".challenges [data-match='{created['id']}']")
    terms = bob.page.inner_text(f".challenges li:has([data-match='{created['id']}']) .terms")
    assert "3 days per move" in terms and "Rated" in terms
    # The account page: the e-mail address and the "your turn" e-mails.
    page.goto(f"{server.url}/account")
    page.fill("[name=email]", "alice@example.org")
    page.uncheck("[name=notify]")
    page.click("[data-action=save]")
    page.wait_for_selector("text=Salvato.")
    me = a.ok("GET", "/api/me")
    assert me["email"] == "alice@example.org" and me["notify"] is False
    shot(alice, "phone-account-it")
    # The upload page: a broken script's error at its line, with the lines around it.
    page.goto(f"{server.url}/upload")
    page.fill("[name=source]", BROKEN)
    page.click("[data-action=upload]")
    page.wait_for_selector(".diagnostic .excerpt .at", timeout=60_000)
    assert "function setup(" in page.inner_text(".diagnostic .excerpt") or "end" in page.inner_text(".diagnostic .excerpt")
    shot(alice, "phone-upload-error-it")
    good = (ROOT / "games" / "tictactoe.lua").read_text().replace("\n", "\n-- uploaded by a test\n", 1)
    page.fill("[name=source]", good)
    page.click("[data-action=upload]")
    page.wait_for_selector("[data-uploaded]", timeout=60_000)
    uploaded = page.get_attribute("[data-uploaded]", "data-uploaded")
    page.wait_for_selector(f".my-games [data-game='{uploaded}']")
    page.click("text=Inizia una partita")
    page.wait_for_selector(f"[data-game='{uploaded}'] form.new-match")
    shot(alice, "phone-upload-done-it")
    assert json.dumps(alice.errors) == "[]"
    alice.close()
    bob.close()
