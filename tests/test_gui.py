"""The window, headless: real pygame events posted to the real event loop (App.step)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import json
import re
import shutil
from pathlib import Path

import pygame
import pytest

import nomv
from nomv.limits import Limits
from nomv.play import words as i18n
from nomv.gui.app import App, measure_frame_times
from nomv.play.wording import computer_label
from nomv.gui.view import SceneView

LAYOUT = "b/bb/bgr/grgg/rbgrr"
GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.fixture(autouse=True)
def _english():
    i18n.setup("en")
    yield
    i18n.setup("en")


@pytest.fixture
def make_app(tmp_path):
    apps = []

    def make(pos, seats=None, **kw):
        kw.setdefault("autosave", tmp_path / "autosave.json")
        kw.setdefault("watch", False)
        kw.setdefault("ai_delay", 0)
        app = App(pos, seats or ["human"] * pos.players, size=(1100, 720), **kw)
        app.step()
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()


def post_click(app, at, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=button))
    app.step()


def click(app, sid, button=1):
    post_click(app, app.view.centre_px(sid), button)


def key(app, k, mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    app.step()


def press(app, name):
    button = next(b for b in app.buttons if b.key == name)
    post_click(app, button.rect.center)


def nibble_multi_take():
    """A Nibble position where three blocks can be taken together (found, not hard-coded, so that
    the test does not depend on the layout generator): (record of moves, seed, the 3-block move)."""
    import random as _random
    game = nomv.Game.load("nibble")
    for seed in range(30):
        pos = game.start(seed=seed)
        rng = _random.Random(seed)
        for _ in range(40):
            if pos.is_over():
                break
            big = [m for m in pos.legal_moves if len(m.steps) >= 3]
            if big:
                return list(pos.history_notation), seed, big[0]
            pos.play(rng.choice(pos.legal_moves))
    raise AssertionError("no Nibble position with a three-block take found")


def same(a, b):
    return a.state() == b.state() and a.history_notation == b.history_notation


# -- a whole move by clicks, in each game -----------------------------------------------------

def test_3verse_four_clicks(make_app):
    pos = nomv.Game.load("3verse").start(seed=1)
    app = make_app(pos)
    for sid in ("a1", "b1", "b2"):
        click(app, sid)
        assert pos.ply == 0
    assert app.input.clicked == ["a1", "b1", "b2"] and "c2" in app.input.next_steps
    click(app, "c2")
    api = nomv.Game.load("3verse").start(seed=1)
    api.play("a1-b1-b2-c2")
    assert same(pos, api) and app.input.clicked == []


def test_nipple_two_clicks(make_app):
    def start():
        p = nomv.Game.load("nipple").start(seed=1)
        p.play(p.legal_moves[0])
        p.play(p.legal_moves[0])
        return p
    pos = start()
    move = pos.legal_moves[0]
    assert len(move.steps) == 2
    app = make_app(pos)
    click(app, move.steps[0])
    assert pos.ply == 2 and app.input.clicked == [move.steps[0]]
    click(app, move.steps[1])
    api = start()
    api.play(move)
    assert same(pos, api)


def test_nonads_slot_and_rotation(make_app):
    pos = nomv.Game.load("nonads").start(seed=1)
    pos.play(pos.legal_moves[0])
    slots = {}
    for m in pos.legal_moves:
        slots.setdefault(m.steps[0], []).append(m.steps[1])
    slot, rotations = max(slots.items(), key=lambda kv: len(kv[1]))
    assert len(rotations) >= 2
    app = make_app(pos)
    click(app, slot)
    assert app.input.next_steps == set(rotations)
    click(app, rotations[-1])
    api = nomv.Game.load("nonads").start(seed=1)
    api.play(api.legal_moves[0])
    api.play([slot, rotations[-1]])
    assert same(pos, api)


def test_trinim_line_by_its_ends_in_reverse_order(make_app):
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    app = make_app(pos)
    click(app, "D2")
    assert pos.ply == 0 and app.input.needs_confirm
    assert next(b for b in app.buttons if b.key == "done").enabled
    click(app, "D4")
    api = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    api.play("D4-D2")
    assert same(pos, api)


@pytest.mark.parametrize("how", ["again", "enter", "done"])
def test_trinim_single_cell_with_confirmation(make_app, how):
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    app = make_app(pos)
    click(app, "C3")
    assert pos.ply == 0 and "again" in app.hint()[0] + app.input.prompt()
    if how == "again":
        click(app, "C3")
    elif how == "enter":
        key(app, pygame.K_RETURN)
    else:
        press(app, "done")
    api = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    api.play("C3")
    assert same(pos, api)


def test_nibble_multi_block_take(make_app):
    moves, seed, take = nibble_multi_take()

    def start():
        p = nomv.Game.load("nibble").start(seed=seed)
        for t in moves:
            p.play(t)
        return p
    pos = start()
    app = make_app(pos)
    order = [take.steps[2], take.steps[0], take.steps[1]]  # any order
    click(app, order[0])
    click(app, order[1])
    assert pos.ply == len(moves) and sorted(app.input.clicked) == sorted(order[:2])
    click(app, order[2])
    api = start()
    api.play(list(take.steps))
    assert same(pos, api) and pos.ply == len(moves) + 1


# -- taking back, illegal clicks, hovering ------------------------------------------------------

def test_escape_and_right_click_take_back_a_step(make_app):
    pos = nomv.Game.load("3verse").start(seed=1)
    app = make_app(pos)
    click(app, "a1")
    click(app, "b1")
    key(app, pygame.K_ESCAPE)
    assert app.input.clicked == ["a1"]
    click(app, "h4", button=3)
    assert app.input.clicked == []


def test_illegal_click_says_why_and_hover_says_what(make_app):
    pos = nomv.Game.load("3verse").start(seed=1)
    app = make_app(pos)
    click(app, "e5")
    assert pos.ply == 0 and app.input.clicked == []
    text, warn = app.hint()
    assert warn and "e5 is not a legal next step" in text
    click(app, "a1")
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=app.view.centre_px("b1"), rel=(0, 0), buttons=(0, 0, 0)))
    app.step()
    assert app.hover == "b1" and app.hint()[0].startswith("select b1")


# -- undo and redo --------------------------------------------------------------------------------

def test_undo_redo_by_buttons_and_keys(make_app):
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    app = make_app(pos)
    click(app, "C3")
    click(app, "C3")
    click(app, "E1")
    click(app, "E1")
    assert pos.history_notation == ["C3", "E1"]
    press(app, "undo")
    assert pos.history_notation == ["C3"]
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert pos.ply == 0
    press(app, "redo")
    assert pos.history_notation == ["C3"]
    key(app, pygame.K_y, pygame.KMOD_LCTRL)
    assert pos.history_notation == ["C3", "E1"]
    assert not next(b for b in app.buttons if b.key == "redo").enabled


def test_undo_against_the_computer_goes_back_to_your_turn(make_app):
    pos = nomv.Game.load("3verse").start(seed=1)
    app = make_app(pos, ["human", "random"])
    for sid in ("a1", "b1", "b2", "c2"):
        click(app, sid)
    app.wait_for_computer(timeout=60)  # generous: a loaded CI machine is slow, a pass is fast
    assert app.error is None and pos.ply == 2, (app.error, pos.ply, app.thinking)
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert pos.ply == 0 and app.human_to_move()


def test_the_computer_searches_and_says_what_it_expects(make_app, tmp_path):
    # Tic-tac-toe: X threatens a row; the computer (O) must block it, and says how it rates
    # its position next to its name.
    pos = nomv.Game.load("tictactoe").start(seed=1)
    app = make_app(pos, ["human", "mcts:3000it"])
    click(app, "a1")
    app.wait_for_computer(timeout=60)
    reply = pos.history_notation[1]
    mine, threat = next((m, t) for m, t in (("b1", "c1"), ("a2", "a3"), ("b2", "c3")) if reply not in (m, t))
    click(app, mine)
    app.wait_for_computer(timeout=60)
    assert app.error is None and pos.ply == 4 and pos.history_notation[3] == threat
    app.step()
    pygame.image.save(app.screen, str(tmp_path / "computer.png"))
    assert app.seat_notes[2].startswith("expects ")
    assert app.seats == ["human", "mcts:3000it"] and computer_label("mcts:3000it", "en") == "computer (mcts:3000it)"
    assert computer_label("mcts:1s", "en") == "computer (medium, 1 s)" and computer_label("random", "en") == "computer (random)"
    assert computer_label("medium", "it") == "computer (medio, 1 s)"


# -- save, open, autosave ---------------------------------------------------------------------------

def test_save_then_open_gives_the_same_position(make_app, tmp_path):
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    app = make_app(pos)
    click(app, "D2")
    click(app, "D4")
    key(app, pygame.K_s, pygame.KMOD_LCTRL)
    assert app.dialog is not None
    path = tmp_path / "game.json"
    app.dialog.fields["path"] = str(tmp_path) + "/"
    for ch in "game.json":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step()
    assert app.dialog.fields["path"] == str(path)
    key(app, pygame.K_RETURN)
    assert app.dialog is None and path.is_file()
    saved_state, saved_moves = pos.state(), pos.history_notation
    press(app, "restart")
    assert app.pos.ply == 1 and app.dialog is not None    # a game in progress: asked first
    key(app, pygame.K_RETURN)
    assert app.dialog is None and app.pos.ply == 0
    press(app, "open")
    app.dialog.fields["path"] = str(path)
    key(app, pygame.K_RETURN)
    assert app.dialog is None
    assert app.pos.state() == saved_state and app.pos.history_notation == saved_moves


def test_autosave_after_every_move(make_app, tmp_path):
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    app = make_app(pos, autosave=tmp_path / "auto.json")
    click(app, "C3")
    click(app, "C3")
    data = json.loads((tmp_path / "auto.json").read_text())
    assert data["moves"] == ["C3"] and data["players"] == ["human", "human"]
    resumed = make_app(nomv.Game.load("3verse").start(seed=2), autosave=tmp_path / "auto.json",
                       resume=nomv.Record.load(tmp_path / "auto.json"))
    post_click(resumed, resumed.resume_rects["resume"].center)
    assert resumed.pos.game.name == "trinim" and resumed.pos.history_notation == ["C3"]


# -- hot reload and script errors ---------------------------------------------------------------------

def test_hot_reload_of_an_edited_script(make_app, tmp_path):
    path = tmp_path / "trinim.lua"
    shutil.copy(GAMES / "trinim.lua", path)
    pos = nomv.Game.load(str(path)).start(options={"layout": LAYOUT}, seed=1)
    app = make_app(pos, watch=True)
    click(app, "C3")
    click(app, "C3")
    source = path.read_text()
    table_text = 'text = {en = "Player " .. p, it = "Giocatore " .. p}'     # (the score table's)
    assert table_text in source
    path.write_text(source.replace(table_text, 'text = "Seat " .. p'))
    app.table.poll_reload(force=True)
    app.step()
    assert app.reload_error is None and app.pos is not pos
    assert app.pos.history_notation == ["C3"]
    assert any(item.get("text") == "Seat 2" for item in app.pos.scene()["items"])
    # a syntax error: the banner shows file:line, the last good game stays
    lines = path.read_text().splitlines()
    lines[99] = lines[99] + " )("
    path.write_text("\n".join(lines) + "\n")
    good = app.pos
    app.table.poll_reload(force=True)
    app.step()
    assert app.reload_error and f"{path}:100" in app.reload_error
    assert app.pos is good and app.pos.history_notation == ["C3"]
    click(app, "E1")  # the game goes on meanwhile
    click(app, "E1")
    assert app.pos.history_notation == ["C3", "E1"]
    path.write_text(source)
    app.table.poll_reload(force=True)
    app.step()
    assert app.reload_error is None and app.pos.history_notation == ["C3", "E1"]
    assert any(i18n.localized(item["text"]) == "Player 1" for item in app.pos.scene()["items"] if "text" in item)


ERRORING = """
local g = nomv.grid.square(3, 1)
return {
  name = "erring",
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return out
  end,
  play = function(s, m)
    if m[1] == "b1" then error("b1 is cursed") end
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    if s.board[3] ~= 0 then local x = nil; return x.boom end
    for i = 1, 3 do if s.board[i] == 0 then return nil end end
    return {winner = 1}
  end,
}
"""


def test_the_window_shows_the_authors_line_and_words(make_app, tmp_path):
    # The messages nomv check gives (tests/test_author_lines.py), in the window's banner: a
    # misspelt field at the call that passed it, a bad result at its return, a missing end
    # named by the block it left open (on a hot reload).
    bad = Path(__file__).parent / "scripts" / "bad"
    path = tmp_path / "othello.lua"
    path.write_text((bad / "e100_misspelt_field_in_helper.lua").read_text(encoding="utf-8"), encoding="utf-8")
    pos = nomv.Game.load(str(path)).start(seed=1)
    app = make_app(pos)
    click(app, "d3")
    assert app.error and app.error.startswith(f"{path}:89: s.borad is nil: did you mean s.board? "
                                              "(flips gets it as 'board' and indexes it on line 24) (in play)"), app.error
    assert pos.ply == 0
    path = tmp_path / "result.lua"
    source = ERRORING.replace('    if m[1] == "b1" then error("b1 is cursed") end\n', "").replace(
        "    if s.board[3] ~= 0 then local x = nil; return x.boom end\n", "").replace(
        "    return {winner = 1}\n", "    if s.board[1] == 1 then return {winner = 3} end\n    return {winner = 1}\n")
    path.write_text(source, encoding="utf-8")
    pos = nomv.Game.load(str(path)).start(seed=1)
    app = make_app(pos, watch=True)
    for cell in ("a1", "b1", "c1"):
        click(app, cell)
    returns = source.split("\n").index("    if s.board[1] == 1 then return {winner = 3} end") + 1
    assert app.error and app.error.startswith(
        f"{path}:{returns}: result: winner must be a player number from 1 to 2, got 3"), app.error
    path.write_text((bad / "e001_missing_end.lua").read_text(encoding="utf-8"), encoding="utf-8")
    app.table.poll_reload(force=True)
    app.step()
    assert app.reload_error and (f"{path}:35: unexpected symbol near ',': the 'if' on line 31 seems to have no "
                                 "'end' (the 'end' on line 33 lines up with the 'for' on line 30)") in app.reload_error


def test_a_script_that_does_not_load_shows_the_checkers_words_in_the_new_game_dialog(make_app, tmp_path):
    # Picked in "New game" (as a file of the user's): the words and line of nomv check and
    # nomv play (tests/test_author_lines.py's BROKEN_AT_LOAD), and the game in play goes on.
    from test_author_lines import BROKEN_AT_LOAD
    app = make_app(nomv.Game.load("tictactoe").start(seed=1))
    app.open_dialog("new")
    for name, source, line, words in BROKEN_AT_LOAD:
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        app.dialog.select(str(path))
        app.step()
        assert app.dialog.game is None and app.dialog.error == f"{path}:{line}: {words}", app.dialog.error
    app.dialog.select("tictactoe")
    assert app.dialog.error == "" and app.pos.game.name == "tictactoe"


def test_an_erroring_script_shows_its_message_and_the_window_survives(make_app, tmp_path):
    path = tmp_path / "erring.lua"
    path.write_text(ERRORING)
    pos = nomv.Game.load(str(path)).start(seed=1)
    app = make_app(pos)
    lines = ERRORING.split("\n")
    cursed = next(i for i, l in enumerate(lines) if "cursed" in l) + 1
    boom = next(i for i, l in enumerate(lines) if "x.boom" in l) + 1
    click(app, "b1")
    assert app.error and "b1 is cursed" in app.error and f"{path}:{cursed}" in app.error
    assert pos.ply == 0
    for _ in range(3):
        assert app.step()
    post_click(app, app.banner_close.center)
    assert app.error is None
    click(app, "a1")
    assert pos.history_notation == ["a1"]
    click(app, "c1")  # result() fails after this move
    assert app.error and f"{path}:{boom}" in app.error
    assert app.step()
    press(app, "undo")
    assert pos.ply <= 1
    assert app.step()


# -- hidden information ----------------------------------------------------------------------

def test_knownads_hands_the_screen_over_between_human_players(make_app):
    pos = nomv.Game.load("nonads").start(variant="knownads", seed=1)
    app = make_app(pos)
    assert app.handover == 1
    post_click(app, (200, 200))
    assert app.handover is None and app.scene_player() == 1
    texts = [i.get("text") for i in app.view.scene["items"] if i.get("shape") == "text"]
    assert app.view.scene is pos.scene(player=1)
    click(app, "slot:0,0")
    if pos.ply == 0:
        click(app, "rot:0")
    assert pos.ply == 1 and app.handover == 2
    key(app, pygame.K_RETURN)
    assert app.handover is None and app.scene_player() == 2 and app.view.scene is pos.scene(player=2)
    assert texts


# -- hit testing on every geometry -------------------------------------------------------------------

def _scenes():
    yield "square", nomv.Game.load("3verse").start(seed=1).scene()
    yield "hexhex", nomv.Game.load("nipple").start(seed=1).scene()
    yield "triangle", nomv.Game.load("trinim").start(seed=1).scene()
    hexagonal = nomv.Game.load("nibble").start(variant="hexagonal", seed=1)
    yield "nibble-hex", hexagonal.scene()
    pos = nomv.Game.load("nonads").start(seed=3)
    for _ in range(4):
        if pos.is_over():
            break
        pos.play(pos.legal_moves[len(pos.legal_moves) // 2])
    assert len([i for i in pos.scene()["items"] if str(i.get("id", "")).startswith("slot:")]) >= 4
    yield "open tiles", pos.scene()


@pytest.mark.parametrize("size", [(640, 480), (1000, 400), (300, 900)])
def test_pixel_to_cell_on_every_geometry(size):
    pygame.font.init()
    for name, scene in _scenes():
        view = SceneView(scene, pygame.Rect(10, 20, *size))
        assert view.by_id, name
        for sid in view.by_id:
            assert view.hit(*view.centre_px(sid)) == sid, (name, sid)
        assert view.hit(5, 5) is None


def test_the_window_resizes(make_app):
    pos = nomv.Game.load("3verse").start(seed=1)
    app = make_app(pos)
    before = app.view.rect.size
    app.screen = pygame.display.set_mode((700, 500), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(700, 500), w=700, h=500))
    app.step()
    assert app.view.rect.size != before
    click(app, "a1")
    assert app.input.clicked == ["a1"]


# -- language, new game, frame time ---------------------------------------------------------------

def test_italian_and_script_texts_in_several_languages(make_app):
    assert i18n.setup("it") == "it"
    assert i18n._("Undo") == "Annulla"
    assert i18n.localized({"en": "Lines", "it": "Linee"}) == "Linee"
    pos = nomv.Game.load("trinim").start(seed=1)
    app = make_app(pos)
    assert any(b.label == "Annulla" for b in app.buttons)
    i18n.setup("en")
    assert i18n.localized({"en": "Lines", "it": "Linee"}) == "Lines"


def test_a_script_title_in_several_languages(make_app, tmp_path):
    from conftest import MINIMAL
    path = tmp_path / "lines.lua"
    path.write_text(MINIMAL.replace('name = "minimal",', 'name = "minimal", title = {en = "Lines", it = "Linee"},\n'
                                    '  grid = g, pieces = {{fill = "black"}, {fill = "white"}},'))
    game = nomv.Game.load(str(path))
    assert game.title == "Lines" and i18n.localized(game.title_text) == "Lines"
    i18n.setup("it")
    make_app(game.start(seed=1))    # the window's caption comes from the title
    assert i18n.localized(game.title_text) == "Linee" and pygame.display.get_caption()[0] == "nomv: Linee"


def test_new_game_dialog(make_app):
    pos = nomv.Game.load("trinim").start(seed=1)
    app = make_app(pos)
    press(app, "new")
    dialog = app.dialog
    assert dialog is not None
    hit = next(r for r, a in dialog.hits if a == ("game", "nibble"))
    post_click(app, hit.center)
    hit = next(r for r, a in dialog.hits if a == ("variant", "hexagonal"))
    post_click(app, hit.center)
    hit = next(r for r, a in dialog.hits if a == ("seat", 2))
    post_click(app, hit.center)
    dialog.fields["seed"] = "7"
    hit = next(r for r, a in dialog.hits if a == "ok")
    post_click(app, hit.center)
    assert app.dialog is None, dialog.error
    assert app.pos.game.name == "nibble" and app.pos.options["board"] == "hex" and app.pos.seed == 7
    assert app.seats == ["human", "mcts:0.3s"]     # one click on a human seat: the easiest computer


def test_frame_time_is_measured():
    figures = measure_frame_times(frames=10)
    assert figures["idle_ms"] > 0 and figures["hover_ms"] > 0
    assert figures["idle_ms"] < 100


def test_nomv_new_starter_plays_by_clicks(make_app, tmp_path, capsys):
    from nomv.cli import main
    assert main(["new", "starter", "--path", str(tmp_path)]) == 0
    capsys.readouterr()
    game = nomv.Game.load(str(tmp_path / "starter.lua"))
    pos = game.start(seed=4)
    twin = nomv.Game.load(str(tmp_path / "starter.lua")).start(seed=4)
    app = make_app(pos)
    for ply in range(6):
        if pos.outcome() is not None:
            break
        move = pos.legal_moves[(7 * ply) % len(pos.legal_moves)]
        for sid in move.steps:
            click(app, sid)
        if pos.ply == ply:          # a complete move that could go on: confirm it
            key(app, pygame.K_RETURN)
        assert pos.ply == ply + 1 and pos.history[-1] == move
        twin.play(move)
        assert same(pos, twin)


def test_rules_dialog_shows_the_rules_in_the_players_language(make_app, tmp_path):
    from nomv.gui.dialogs import RulesDialog
    body = (Path(__file__).parent.parent / "games" / "tictactoe.lua").read_text()
    body, n = re.subn(r"\n  info = \{.*?\}\},\n",
                      '\n  info = {author = "Anon", rules = {en = "Make a line.", it = "Fai una linea."}},\n', body,
                      flags=re.S)
    assert n == 1
    path = tmp_path / "ttt.lua"
    path.write_text(body)
    for lang, expected in (("en", "Make a line."), ("it", "Fai una linea.")):
        i18n.setup(lang)
        app = make_app(nomv.Game.load(str(path)).start(seed=1))
        drawn = []
        original = app.text
        app.text = lambda surf, text, *a, drawn=drawn, original=original, **k: (
            drawn.append(text), original(surf, text, *a, **k))[1]
        press(app, "rules")
        assert isinstance(app.dialog, RulesDialog)
        app.step()
        assert expected in drawn and any("Anon" in t for t in drawn)
        key(app, pygame.K_ESCAPE)
        assert app.dialog is None
    i18n.setup("en")


HANGING = """
local g = nomv.grid.square(3, 1)
return {
  name = "hanging", grid = g, pieces = {{fill = "black"}, {fill = "white"}},
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    if s.board[1] ~= 0 then while true do end end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s) if s.board[3] ~= 0 then return {winner = 1} end end,
}
"""


def test_a_hanging_script_shows_its_message_and_the_window_survives(make_app, tmp_path):
    path = tmp_path / "hanging.lua"
    path.write_text(HANGING)
    pos = nomv.Game.load(str(path), runtime="5.4", limits=Limits(time=0.3)).start(seed=1)
    app = make_app(pos)
    loop = next(i for i, l in enumerate(HANGING.split("\n")) if "while true" in l) + 1
    click(app, "a1")               # the next position's moves() never returns
    assert app.error and "time limit" in app.error and f"{path}:{loop}" in app.error
    for _ in range(3):
        assert app.step()
    press(app, "undo")
    assert pos.ply == 0 and app.step()


def test_coordinates_show_on_light_pieces():
    # White pieces on dark cells: each cell's id is written in a colour that reads on the piece
    # under it (it used to take the cell's colour, and white on white vanished).
    pygame.font.init()
    path = Path(__file__).parent / "scripts" / "text" / "light_pieces.lua"
    with nomv.Game.load(str(path)) as game:
        scene = game.start().scene()
    view = SceneView(scene, pygame.Rect(0, 0, 500, 300), coordinates=True)   # shown: the ids in the cells
    surf = pygame.Surface((500, 300), pygame.SRCALPHA)
    view.draw_coordinates(surf)
    cell = next(s for s in view.shapes if s.id == "p1")
    x0, y0, x1, y1 = cell.bbox()
    size = min(x1 - x0, y1 - y0)
    cx, cy = view.to_px(cell.cx, y1 - size * 0.15)
    text = [surf.get_at((x, y)) for x in range(int(cx) - 12, int(cx) + 13) for y in range(int(cy) - 8, int(cy) + 9)]
    dark = [c for c in text if c.a > 200 and c.r + c.g + c.b < 200]
    assert len(dark) >= 10, "the id p1 is not drawn dark on its white piece"
    # The empty stores are dark cells: their ids stay light.
    store = next(s for s in view.shapes if s.id == "s1")
    x0, y0, x1, y1 = store.bbox()
    sx, sy = view.to_px(store.cx, y1 - min(x1 - x0, y1 - y0) * 0.15)
    light = [surf.get_at((x, y)) for x in range(int(sx) - 12, int(sx) + 13) for y in range(int(sy) - 8, int(sy) + 9)]
    assert len([c for c in light if c.a > 200 and c.r + c.g + c.b > 600]) >= 10
