"""No game is lost: a real `nomv play` window (headless, computers on every seat) is killed with
SIGKILL at random moments, again and again, each run continuing the game the last one left; the
autosave must always load and replay, hold every move saved before, and be offered at the next
start."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nomv
from nomv.gui.app import pending_autosave

ROOT = Path(__file__).resolve().parent.parent
GAME = "3verse"          # random games last 33 to 44 plies: the kills all land mid-game
ROUNDS = 4


def start_window(args: list[str], data_home: Path) -> subprocess.Popen:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(data_home),
               PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "nomv", "play", "--gui", *args], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def saved_moves(path: Path) -> list[str]:
    """The moves in the autosave now (a file replaced atomically is always whole)."""
    try:
        return nomv.Record.load(path).moves
    except nomv.RecordError:
        if path.exists():
            raise
        return []


def wait_for_moves(process: subprocess.Popen, path: Path, count: int, timeout: float = 90) -> None:
    """Waits until the autosave holds `count` moves: no sleep that assumes a fast machine."""
    end = time.monotonic() + timeout
    while len(saved_moves(path)) < count:
        if process.poll() is not None:
            pytest.fail(f"the window ended by itself (code {process.returncode}): {process.stderr.read().decode()}")
        if time.monotonic() > end:
            process.kill()
            pytest.fail(f"no autosave of {count} moves within {timeout} s")
        time.sleep(0.02)


def test_killing_the_window_at_any_moment_loses_no_game(tmp_path):
    rng = random.Random()
    seed = rng.randrange(1000)
    data_home = tmp_path / "data"
    autosave = data_home / "nomv" / "autosave.json"
    kept: list[str] = []
    for round_ in range(ROUNDS):
        if round_ == 0:
            args = [GAME, "--players", "random,random", "--seed", str(seed)]
        else:
            args = ["--open", str(autosave)]    # go on with the game the last run left
        window = start_window(args, data_home)
        try:
            wait_for_moves(window, autosave, len(kept) + rng.randint(1, 3))
            time.sleep(rng.uniform(0, 0.5))     # anywhere: thinking, writing, renaming
        finally:
            window.send_signal(signal.SIGKILL)
            window.wait(30)
        record = nomv.Record.load(autosave)
        assert record.moves[:len(kept)] == kept, f"round {round_} (seed {seed}) lost moves"
        assert len(record.moves) > len(kept)
        pos = record.replay()
        assert pos.ply == len(record.moves) and pos.outcome() is None
        kept = record.moves
        # the next start offers exactly this game
        offered = pending_autosave(autosave)
        assert offered is not None and offered.moves == kept and offered.game == GAME
    assert len(kept) >= ROUNDS


def test_the_offer_at_start_resumes_the_game_and_stale_temporary_files_go(tmp_path):
    pytest.importorskip("pygame")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from nomv.gui.app import App
    pos = nomv.Game.load(GAME).start(seed=3)
    for _ in range(3):
        pos.play(pos.legal_moves[0])
    autosave = tmp_path / "autosave.json"
    nomv.Record.from_position(pos, players=["random", "random"]).save(autosave)
    stale = tmp_path / ".autosave.json.x1y2"   # a write that a kill interrupted
    stale.write_text('{"format": "nomv-rec')
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    offered = pending_autosave(autosave)
    assert offered is not None and offered.moves == pos.history_notation and not stale.exists()
    other = nomv.Game.load("tictactoe").start(seed=1)
    app = App(other, ["random", "random"], autosave=autosave, watch=False, ai_delay=0, resume=offered)
    try:
        for _ in range(5):
            app.step()
        # the computers wait for the answer; the offered file is kept meanwhile
        assert app.pos is other and other.ply == 0 and pending_autosave(autosave).moves == offered.moves
        app.resume()
        assert app.pos.game.name == GAME and app.pos.history_notation == pos.history_notation
    finally:
        app.close()
