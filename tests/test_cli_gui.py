"""`nomv render` and `nomv play` in a window (headless)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest

from nomv.cli import main


@pytest.fixture(autouse=True)
def _english_after():
    yield
    from nomv.play import words as i18n
    i18n.setup("en")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_render_writes_a_png_of_the_asked_size(capsys, tmp_path):
    out = tmp_path / "t.png"
    code, text, err = run(capsys, "render", "trinim", "--seed", "1", "--moves", "C3", "--size", "320x200",
                          "--out", str(out))
    assert code == 0, err
    assert "trinim after 1 move)" in text
    image = pygame.image.load(str(out))
    assert image.get_size() == (320, 200)
    # something is drawn: more than the background colour
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, 320, 8) for y in range(0, 200, 8)}
    assert len(colours) > 5


def test_render_a_players_view_and_the_whole_window(capsys, tmp_path):
    out = tmp_path / "k.png"
    code, text, err = run(capsys, "render", "nonads", "--variant", "knownads", "--player", "2",
                          "--panel", "--coordinates", "--out", str(out))
    assert code == 0, err and out.is_file()
    assert pygame.image.load(str(out)).get_size() == (800, 600)


@pytest.mark.parametrize("argv, message", [
    (["render", "trinim", "--size", "big", "--out", "x.png"], "--size takes WIDTHxHEIGHT"),
    (["render", "trinim", "--player", "5", "--out", "x.png"], "--player must be from 1 to 2"),
    (["render", "trinim", "--moves", "Z9", "--out", "x.png"], "'Z9' is not a legal move here"),
    (["render", "trinim"], "the following arguments are required: --out"),
    (["render", "trinim", "--out", "/no/such/dir/x.png"], "cannot write /no/such/dir/x.png"),
])
def test_render_bad_input_is_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code in (1, 2) and message in err and err.count("\n") == 1


def test_play_opens_the_window(capsys, monkeypatch, tmp_path):
    from nomv.gui import app as app_module
    seen = {}

    def run_a_little(self):
        for _ in range(3):
            self.step()
        seen["title"] = pygame.display.get_caption()[0]
        seen["seats"] = list(self.seats)
        seen["dialog"] = self.dialog
        seen["runtime"], seen["time_limit"] = self.game.runtime, self.game.limits.time
        seen["isolated"] = self.game.isolated
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        while self.step():
            pass
        self.close()

    monkeypatch.setattr(app_module.App, "run", run_a_little)
    monkeypatch.delenv("NOMV_TIME_LIMIT", raising=False)
    code, out, err = run(capsys, "play", "trinim", "--gui", "--players", "human,random", "--lang", "it")
    assert code == 0, err
    assert seen["title"] == "nomv: Trinim" and seen["seats"] == ["human", "random"]
    # The window runs scripts on LuaJIT in a worker process that is killed if a call hangs.
    assert seen["runtime"] == "jit" and seen["isolated"] and seen["time_limit"] == 1.5
    code, out, err = run(capsys, "play", "--gui")
    assert code == 0, err and seen["dialog"] is not None


def test_play_without_a_display_stays_in_the_terminal(monkeypatch, capsys):
    answers = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = main(["play", "trinim", "--seed", "1"])
    assert code == 0 and "Type 'help' for commands" in capsys.readouterr().out


def test_forcing_the_window_without_a_display_says_so(capsys, monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    for var in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    code, out, err = run(capsys, "play", "trinim", "--gui")
    assert code == 1 and "--gui needs a desktop session" in err and err.count("\n") == 1
