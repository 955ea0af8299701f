"""nomv new: the starter script checks clean, loads, plays, and is never overwritten."""
from __future__ import annotations

import random
from pathlib import Path


import nomv
from nomv import catalog
from nomv.checker import check
from nomv.cli import main


def test_new_writes_a_game_that_checks_clean_and_plays(capsys):
    assert main(["new", "my_lines"]) == 0
    path = catalog.user_dir() / "my_lines.lua"
    out = capsys.readouterr().out
    assert str(path) in out and "nomv play my_lines" in out and "nomv check" in out
    report = check(path, playouts=6, seconds=0, stats_games=20)
    assert report.diagnostics == [], report.format()
    game = nomv.Game.load("my_lines")                  # found by name in the user's folder
    assert game.origin == "user"
    pos = game.start(seed=3)
    rng = random.Random(3)
    while pos.outcome() is None:
        ids = {item.get("id") for item in pos.scene()["items"]}
        move = rng.choice(pos.legal_moves)
        assert set(move.steps) <= ids
        pos.play(move)
    assert pos.outcome() is not None
    assert main(["list"]) == 0
    assert "my_lines" in capsys.readouterr().out


def test_new_refuses_to_overwrite_and_takes_a_path(tmp_path, capsys):
    assert main(["new", "g1", "--path", str(tmp_path)]) == 0
    assert (tmp_path / "g1.lua").is_file()
    before = (tmp_path / "g1.lua").read_text()
    assert main(["new", "g1", "--path", str(tmp_path)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "g1.lua").read_text() == before
    assert main(["new", "bad name!"]) == 1


def test_new_with_a_path_writes_hints_that_work(tmp_path, capsys):
    assert main(["new", "g2", "--path", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    script = tmp_path / "g2.lua"
    assert f"nomv play {script}" in out                     # not "nomv play g2": not in the games folder
    assert f"-- Play it:   nomv play {script}" in script.read_text()
    # the docs it names exist where nomv is installed (a pip user has no checkout)
    named = [word for line in out.splitlines() for word in line.split() if word.endswith(".md")]
    assert named and all(Path(p).is_file() for p in named)
