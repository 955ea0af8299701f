"""Game records: save/open round trips, and strict refusal of bad files with where and why."""
from __future__ import annotations

import json

import pytest

import nomv

LAYOUT = "b/bb/bgr/grgg/rbgrr"


@pytest.fixture
def played(lua):
    pos = nomv.Game.load("trinim", runtime=lua).start(options={"layout": LAYOUT}, seed=4)
    for m in ("C3", "D4-D2", "E1"):
        pos.play(m)
    return pos


def test_save_and_open_give_the_same_position(played, tmp_path):
    path = tmp_path / "g.json"
    nomv.Record.from_position(played, players=["human", "random"]).save(path)
    text = path.read_text()
    assert '"moves": [\n    "C3",\n    "D2-D4",\n    "E1"\n  ]' in text  # readable, one move a line
    record = nomv.Record.load(path)
    assert record.game == "trinim" and record.seed == 4 and record.players == ["human", "random"]
    again = record.replay(runtime=played.game.runtime)
    assert again.state() == played.state() and again.history == played.history
    assert again.to_move == played.to_move


def test_record_of_a_finished_game_has_its_result(lua, tmp_path):
    pos = nomv.Game.load("trinim", runtime=lua).start(options={"layout": "b/../..."})
    pos.play("C1")
    record = nomv.Record.from_position(pos)
    assert record.result.startswith("Player 2 wins (2, 3)")  # P1 holds one blue: 2 points, P2 none: 3
    path = tmp_path / "done.json"
    record.save(path)
    assert nomv.Record.load(path).replay().outcome() == pos.outcome()


def write(tmp_path, data, name="bad.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def good(**changes):
    data = {"format": "nomv-record", "version": 1, "game": "trinim", "script": "trinim",
            "script_sha256": None, "options": {"layout": LAYOUT}, "seed": 1,
            "moves": ["C3", "D4-D2"]}
    data.update(changes)
    return {k: v for k, v in data.items() if v != "DROP"}


@pytest.mark.parametrize("data, message", [
    ('{"format": "nomv-record", "version": 1,\n "game": ', r"bad.json:2: not a nomv game record: Expecting value"),
    ("[1, 2]", "a game record is a JSON object, not list"),
    (good(format="pgn"), "not a nomv game record \\(format is 'pgn'"),
    (good(version=99), "record version 99 is not supported"),
    (good(extra=1), "unknown field\\(s\\) extra"),
    (good(seed="DROP"), "the field 'seed' is missing"),
    (good(seed="12"), "'seed' must be a whole number"),
    (good(seed=True), "'seed' must be a whole number"),
    (good(moves="C3 D4-D2"), "'moves' must be a list"),
    (good(moves=["C3", 7]), "move 2 is not text: 7"),
    (good(options={"layout": [1]}), "option 'layout' has a value that is not text"),
    (good(players="human"), "'players' must be a list of at most 16 short texts"),
])
def test_malformed_records_are_refused(tmp_path, data, message):
    with pytest.raises(nomv.RecordError, match=message):
        nomv.Record.load(write(tmp_path, data))


@pytest.mark.parametrize("data, message", [
    (good(moves=["C3", "D4-D2", "C3"]), "move 3 \\('C3'\\) cannot be played: 'C3' is not a legal move here"),
    (good(options={"sise": 5}), "unknown option 'sise' \\(did you mean 'size'\\?\\)"),
    (good(options={"size": 7}), "option 'size': 7 is not allowed"),
    (good(game="nibble"), "this record is a game of 'nibble', not 'trinim'"),
    (good(script="no-such-game"), "cannot load the game 'no-such-game'"),
    (good(moves=["C3", "D4-D2", "Q9"], script_sha256="0" * 64), "\\(the script has changed since the game was saved\\)"),
])
def test_records_that_cannot_be_replayed(tmp_path, data, message):
    record = nomv.Record.load(write(tmp_path, data))
    with pytest.raises(nomv.RecordError, match=message):
        record.replay(where="bad.json")


def test_unreadable_files(tmp_path):
    with pytest.raises(nomv.RecordError, match="cannot read"):
        nomv.Record.load(tmp_path / "missing.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(nomv.RecordError, match="not UTF-8 text"):
        nomv.Record.load(binary)


def test_truncated_records_are_refused_at_every_length(played, tmp_path):
    text = nomv.Record.from_position(played).to_text()
    for cut in range(0, len(text) - 2, 7):
        path = write(tmp_path, text[:cut], "cut.json")
        with pytest.raises(nomv.RecordError):
            nomv.Record.load(path)


def test_save_is_atomic(played, tmp_path):
    path = tmp_path / "g.json"
    nomv.Record.from_position(played).save(path)
    before = path.read_text()
    class Boom(Exception):
        pass
    record = nomv.Record.from_position(played)
    record.moves = object()  # not serialisable: the write fails half way
    with pytest.raises(TypeError):
        record.save(path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
