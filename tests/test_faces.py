"""One match, three faces: the desktop window, text play and the web page (in a real headless
Chromium, against `nomv serve`) show the same running and finished positions of a Connect Four
match between a person and the computer, and read the same: the one line (whose turn, by role;
the result, naming the winner, with the game's reason), the seats' roles and the computer's
label, in English and in Italian (nomv/play is what they all call).

The server's match is the desktop's game continued online (POST /api/records), so its
position is the very one the window and the terminal show; the person then plays the winning
move on the page, by a click.
"""
from __future__ import annotations

import io
import json
import os

import pytest

import nomv
from nomv.play import words
from nomv.textplay import play_text
from conftest import MINIMAL
from serverlib import Api, Server, name
from test_browser import DESKTOP, PASSWORD, browser, server  # noqa: F401  (the fixtures: a server of this module's own)

MOVES = ["d", "e", "d", "e", "d", "e"]      # Red (the person) wins with d
SEATS = ["human", "mcts:100it"]
EXPECTED = {
    "en": {"running": "Your turn (Red)", "finished": "You win (Red): four in a row", "roles": ["Red", "Yellow"],
           "computer": "computer (mcts:100it)"},
    "it": {"running": "Tocca a te (Rosso)", "finished": "Hai vinto (Rosso): quattro in fila",
           "roles": ["Rosso", "Giallo"], "computer": "computer (mcts:100it)"},
}


def position(moves: list[str]) -> nomv.Position:
    pos = nomv.Game.load("connect4").start(seed=1)
    for move in moves:
        pos.play(move)
    return pos


def window_reads(pos: nomv.Position, lang: str) -> dict:
    """What the desktop window shows: its line (drawn in the panel) and its seats' rows."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from nomv.gui.app import App
    words.setup(lang)
    app = App(pos, list(SEATS), autosave=None, watch=False, ai_delay=0.0)
    try:
        app.step()
        drawn = [text for _rect, text in app.painter.ink.drawn]
        line = app.table.line().text
        assert line in " ".join(drawn), (line, drawn)         # (a long line wraps: its words in order)
        view = app.table.match_view()
        roles = [r for r in EXPECTED[lang]["roles"] if r in drawn or f"★ {r}" in drawn]   # (★ the winner)
        return {"line": line, "roles": roles, "computer": EXPECTED[lang]["computer"] in drawn,
                "turn": view.to_move}
    finally:
        app.table.close()
        words.setup("en")


def text_reads(pos: nomv.Position, lang: str) -> str:
    """The line text play prints for the position (after its picture)."""
    out = io.StringIO()
    play_text(pos, list(SEATS), read=lambda prompt: "quit", out=out, lang=lang)
    words.setup("en")
    return out.getvalue()


def page_reads(browser, server: Server, who: str, match_id: int, lang: str, play: str | None = None) -> dict:  # noqa: F811
    locale = {"en": "en-GB", "it": "it-IT"}[lang]
    context = browser.new_context(viewport=DESKTOP, locale=locale)
    try:
        r = context.request.post(f"{server.url}/api/login", data=json.dumps({"name": who, "password": PASSWORD}),
                                 headers={"Content-Type": "application/json"})
        assert r.ok, r.text()
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/matches/{match_id}")
        page.wait_for_selector("#board[data-ply] svg [data-step]")
        if play is not None:
            ply = int(page.get_attribute("#board", "data-ply"))
            page.locator(f"#board svg [data-step={json.dumps(play)}]").first.click()
            page.wait_for_selector(f"#board[data-ply='{ply + 1}'][data-outcome]", timeout=10000)
        line = page.locator("[data-turn]")
        assert line.count() == 1
        out = {"line": line.inner_text().strip(), "kind": line.get_attribute("data-turn"),
               "roles": [t.strip() for t in page.locator(".seat .role").all_inner_texts()],
               "players": [t.strip() for t in page.locator(".seat .who").all_inner_texts()],
               "page": page.inner_text("main")}
        assert not errors, errors
        return out
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_window_text_play_and_the_page_read_the_same_match_alike(browser, server, lang):  # noqa: F811
    want = EXPECTED[lang]
    person = Api(server, name("alice"))
    record = nomv.Record.from_position(position(MOVES), players=list(SEATS)).to_text()
    created = person.ok("POST", "/api/records", {"record": json.loads(record), "seats": [person.name, "mcts:100it"]},
                        status=201)
    match_id = created["id"]

    # the running position: the person's turn
    window = window_reads(position(MOVES), lang)
    terminal = text_reads(position(MOVES), lang)
    page = page_reads(browser, server, person.name, match_id, lang)
    assert window["line"] == want["running"] and window["turn"] == 1
    assert want["running"] in terminal.splitlines()
    assert page["line"] == want["running"] and page["kind"] == "yours"
    assert page["roles"] == window["roles"] == want["roles"]
    assert page["players"] == [person.name, want["computer"]] and window["computer"]

    # the person plays the winning move on the page; the finished position, in every face
    finished = page_reads(browser, server, person.name, match_id, lang, play="d")
    window = window_reads(position(MOVES + ["d"]), lang)
    terminal = text_reads(position(MOVES + ["d"]), lang)
    assert finished["line"] == window["line"] == want["finished"] and finished["kind"] == "result"
    game_over = words.translator(lang)("Game over: {result}").format(result=want["finished"])
    assert game_over in terminal.splitlines()
    assert finished["roles"] == window["roles"] == want["roles"]
    if lang == "it":     # nomv's words and the script's own texts, all in Italian on the page
        for english in ("Your turn", "wins", "Player", "four in a row", "Moves", "Resign", "Download"):
            assert english not in finished["page"], english
    person.close()


#: An uploaded game (the tests' minimal one) that gives its texts in English and Italian: its
#: title, rules, player names, an option's label and help, and its result's reason.
UPLOADED = MINIMAL.replace('name = "minimal",', '''name = "lines", title = {en = "Lines", it = "Linee"},
  info = {rules = {en = "Place a stone; the middle stone wins.", it = "Metti una pietra; vince la pietra di mezzo."}},
  players = {min = 2, max = 2, names = {{en = "Black", it = "Nero"}, {en = "White", it = "Bianco"}}},
  options = {start = {default = 1, min = 1, max = 2, label = {en = "first", it = "primo"},
                      help = {en = "who places first", it = "chi mette per primo"}}},
  grid = g, pieces = {{fill = "black"}, {fill = "white"}},''').replace(
    "return {board = {0, 0, 0}, to_move = 1}", "return {board = {0, 0, 0}, to_move = opts.start}").replace(
    "return {winner = 1}", 'return {winner = s.board[2], reason = {en = "the middle stone", it = "la pietra di mezzo"}}')


def test_an_uploaded_scripts_texts_in_several_languages_reach_an_italian_page(browser, server):  # noqa: F811
    author = Api(server, name("designer"))
    game = author.ok("POST", "/api/scripts", {"source": UPLOADED}, status=201)["game"]
    shown = author.ok("GET", f"/api/games/{game}?lang=it")
    assert shown["title"] == "Linee" and shown["info"]["rules"].startswith("Metti una pietra")
    assert shown["players"]["names"] == ["Nero", "Bianco"]
    option = shown["options"][0]
    assert option["label"] == "primo" and option["help"] == "chi mette per primo"
    assert author.ok("GET", f"/api/games/{game}?lang=en")["title"] == "Lines"
    match_id = author.ok("POST", "/api/matches", {"game": game, "seats": [author.name, "mcts:30it"]}, status=201)["id"]

    context = browser.new_context(viewport=DESKTOP, locale="it-IT")
    try:
        context.request.post(f"{server.url}/api/login", data=json.dumps({"name": author.name, "password": PASSWORD}),
                             headers={"Content-Type": "application/json"})
        page = context.new_page()
        page.goto(f"{server.url}/matches/{match_id}")
        page.wait_for_selector("#board[data-ply] svg [data-step]")
        assert page.inner_text("h1") == "Linee"
        assert [t.strip() for t in page.locator(".seat .role").all_inner_texts()] == ["Nero", "Bianco"]
        assert page.inner_text("[data-turn]") == "Tocca a te (Nero)"
        page.goto(f"{server.url}/")
        entry = page.locator(f"[data-game={json.dumps(game)}]")
        entry.locator("[data-action=open-game]").click()
        entry.locator("form.new-match").wait_for()
        text = entry.inner_text()
        assert "Linee" in text and "Metti una pietra; vince la pietra di mezzo." in text
        assert "primo" in text and "chi mette per primo" in text
        assert "Place a stone" not in text and "who places first" not in text
    finally:
        context.close()
        author.close()
