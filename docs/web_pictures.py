"""Draws the pictures of the browser pages in docs/server.md: the lobby and each seed game's match
page at a desktop's width and a phone's, a few moves into a match against the computer.  Needs
Chromium (/usr/bin/chromium) and Playwright: `python docs/web_pictures.py`."""
from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from serverlib import Api, Server, wait_for  # noqa: E402

OUT = ROOT / "docs" / "images"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
GAMES = [("trinim", {}, 3), ("3verse", {}, 4), ("nipple", {}, 6), ("nonads", {}, 4), ("nibble", {}, 4)]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def a_match(me: Api, game: str, options: dict, plies: int, rng: random.Random) -> int:
    """A match against the computer, `plies` moves in, still running, with ada to move."""
    while True:
        match_id = me.ok("POST", "/api/matches", {"game": game, "options": options,
                                                  "seats": ["ada", "mcts:300ms"]}, status=201)["id"]
        while True:
            state = me.match(match_id)
            if state["ply"] >= plies or state["status"] != "active":
                break
            if state["legal_moves"]:
                me.move(match_id, state["ply"], rng.choice(state["legal_moves"])["steps"])
            else:
                wait_for(lambda match_id=match_id, state=state: me.match(match_id)["ply"] > state["ply"]
                         or me.match(match_id)["status"] != "active", 30, "the computer")
        wait_for(lambda match_id=match_id: me.match(match_id)["legal_moves"] or me.match(match_id)["status"] != "active",
                 60, f"my turn in {game}")
        if me.match(match_id)["status"] == "active":
            return match_id


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        server = Server(f"sqlite:///{home}/pictures.sqlite3", Path(home), "--searches", "2")
        try:
            me = Api(server, "ada", "password-1")
            rng = random.Random(5)
            ids = {game: a_match(me, game, options, plies, rng) for game, options, plies in GAMES}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                for size, viewport in SIZES.items():
                    context = browser.new_context(viewport=viewport)
                    context.request.post(f"{server.url}/api/login",
                                         data=json.dumps({"name": "ada", "password": "password-1"}),
                                         headers={"Content-Type": "application/json"})
                    page = context.new_page()
                    page.on("pageerror", lambda e: print("page error:", e))
                    for game, match_id in ids.items():
                        page.goto(f"{server.url}/matches/{match_id}")
                        page.wait_for_selector("#board[data-ply] svg [data-step]", state="attached")
                        time.sleep(0.3)
                        page.screenshot(path=str(OUT / f"web-{game}-{size}.png"), full_page=size == "phone")
                    page.goto(f"{server.url}/")
                    page.wait_for_selector(".games")
                    page.click("[data-game=nibble] [data-action=open-game]")
                    page.wait_for_selector("[data-game=nibble] form.new-match")
                    time.sleep(0.3)
                    page.screenshot(path=str(OUT / f"web-lobby-{size}.png"), full_page=True)
                    context.close()
                browser.close()
        finally:
            server.stop()
    print(f"pictures in {OUT}")


if __name__ == "__main__":
    main()
