"""The attack corpus through the window (headless), on a representative subset: a player opens
the hostile game from the New game dialog and plays into it; the window shows the script's
error (in the dialog or the banner), keeps handling events, and a normal game can be started
and played afterwards.  Every script of the corpus runs through the API and `nomv check` in
tests/test_hostile.py."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import shutil

import pytest

import nomv
from nomv import catalog
from nomv.play import words as i18n
from nomv.gui.app import App
from test_gui import click, post_click, press
from test_hostile import CORPUS, LIMITS, expectation, limits_for

#: Hangs where the window meets them (loading, starting, listing moves, playing, drawing), the
#: loop LuaJIT compiles, memory, a forbidden facility, a script that tries to break the next
#: game, and the replies the window would have to draw.
SUBSET = ["hang_load", "hang_setup", "hang_moves", "hang_play", "hang_scene", "hang_jit_compiled",
          "memory_tables", "io_open", "poison_library", "nan_in_scene", "huge_number_in_scene",
          "huge_scene",
          # the second red team's (issue 20): a malformed table, a name records refuse, what
          # the window draws every frame (reason, status, bounds, a huge id), who is to move,
          # a notation of spaces, a global reassigned after loading
          "players_names_number", "long_name", "reason_table", "status_table", "bounds_shared_table",
          "huge_item_id", "to_move_nil", "to_move_fraction", "notation_spaces", "reassign_pcall_after_load"]


@pytest.fixture(autouse=True)
def _english_and_limits(monkeypatch, lua):
    i18n.setup("en")
    # the window loads games itself: the limits reach it as they reach `nomv play`
    monkeypatch.setenv("NOMV_LUA", lua)
    monkeypatch.setenv("NOMV_TIME_LIMIT", str(LIMITS.time))
    monkeypatch.setenv("NOMV_MEMORY_MB", str(LIMITS.memory >> 20))


def choose_in_dialog(app: App, action) -> None:
    hit = next(r for r, a in app.dialog.hits if a == action)
    post_click(app, hit.center)


def open_game(app: App, name: str) -> str | None:
    """Opens a game through the New game dialog as a player would; returns the dialog's error
    (None once the game started)."""
    press(app, "new")
    choose_in_dialog(app, ("game", name))
    if app.dialog.error:
        return app.dialog.error
    choose_in_dialog(app, "ok")
    return app.dialog.error if app.dialog is not None else None


@pytest.mark.parametrize("name", SUBSET)
def test_the_window_shows_the_attack_and_keeps_running(name, lua, tmp_path, monkeypatch):
    path = CORPUS / f"{name}.lua"
    want = expectation(path, lua)
    monkeypatch.setenv("NOMV_TIME_LIMIT", str(limits_for(want).time))
    user = catalog.user_dir()
    user.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, user / f"x_{name}.lua")
    app = App(nomv.Game.load("tictactoe").start(seed=1), ["human", "human"], size=(1100, 720),
              autosave=tmp_path / "autosave.json", watch=False, ai_delay=0)
    try:
        app.step()
        shown = open_game(app, f"x_{name}")              # load or setup fail here
        if shown is None:
            app.step()                                    # draws the scene
            if not app.error:
                click(app, "a")                           # plays into the position
                app.step()
            shown = app.error
        assert shown and want.message in shown, f"{name}: {shown!r}"
        for _ in range(3):
            assert app.step()
        # the window still works: back to a normal game, played by clicks
        if app.dialog is not None:
            choose_in_dialog(app, "cancel")
        if app.banner_close is not None:
            post_click(app, app.banner_close.center)
        if app.pos.ply:      # a move was played before the script failed: take it back first
            app.table.undo()
            app.step()
            assert app.pos.ply == 0 and app.error is None
        assert open_game(app, "tictactoe") is None
        app.step()
        assert app.pos.game.name == "tictactoe" and app.error is None
        click(app, "b2")
        assert app.pos.history_notation == ["b2"] and app.error is None
    finally:
        app.close()


@pytest.mark.parametrize("items", [
    [{"shape": "line", "points": [0, 0, 1, 1], "width": 9e5}],                       # a huge stroke
    [{"shape": "circle", "x": 1e6, "y": -1e6, "r": 1e6}],                             # far and huge
    [{"shape": "text", "x": 0, "y": 0, "text": "x" * 5000, "size": 1e6}],             # huge text
    [{"shape": "circle", "x": 0, "y": 0, "r": 1e-300}],                               # a dot
    [{"shape": "polygon", "points": ["a", "b", 1, 2, 3, 4]}, 7, None,                 # malformed
     {"shape": "circle", "x": "1", "y": None, "r": True, "id": 5}, {"shape": "text", "text": {"a": 1}}],
], ids=["stroke", "far", "text", "dot", "malformed"])
def test_the_window_draws_any_scene_the_host_lets_through(items, tmp_path):
    # The host refuses NaN, infinities and numbers beyond 1e6; what remains must draw and
    # hit-test without an exception, next to a normal cell.
    from nomv.gui.view import SceneView
    import pygame
    pygame.display.init()
    scene = {"items": items + [{"shape": "rect", "x": 0, "y": 0, "w": 1, "h": 1, "id": "a"}]}
    view = SceneView(scene, pygame.Rect(0, 0, 800, 600))
    surf = pygame.Surface((800, 600))
    view.draw(surf, (0, 0, 0), {"a"}, ["a"], "a", True, True)
    assert view.hit(*view.centre_px("a")) in ("a", None)


@pytest.mark.parametrize("name", ["hang_determinize", "determinize_function"])
def test_a_computer_player_stopped_by_the_script_leaves_the_window_running(name, lua, tmp_path):
    # The computer (mcts) searches the hostile game: its hanging or broken determinize hook is
    # reported in the banner, the human's move is kept, and the human can undo and go on.
    want = expectation(CORPUS / f"{name}.lua", lua)
    source = (CORPUS / f"{name}.lua").read_text(encoding="utf-8")
    alternating = source.replace("return {n = s.n + 1, secret = s.secret, to_move = 1}",
                                 "return {n = s.n + 1, secret = s.secret, to_move = 3 - s.to_move}")
    assert alternating != source
    path = tmp_path / f"{name}.lua"
    path.write_text(alternating, encoding="utf-8")
    pos = nomv.Game.load(str(path)).start(seed=1)
    app = App(pos, ["human", "mcts:200it"], size=(1100, 720), autosave=tmp_path / "autosave.json",
              watch=False, ai_delay=0)
    try:
        app.step()
        click(app, "a")
        app.wait_for_computer(timeout=60)
        assert app.error and "The computer player failed" in app.error and want.message in app.error
        assert app.pos.history_notation == ["a"]
        for _ in range(3):
            assert app.step()
        post_click(app, app.banner_close.center)
        press(app, "undo")
        assert app.pos.ply == 0 and app.error is None
        click(app, "b")
        assert app.pos.history_notation == ["b"]
    finally:
        app.close()
