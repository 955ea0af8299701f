"""Fuzzing the two parsers that read what users hand over: saved games (Record.from_text,
Record.load and replay) and option values typed on the command line (OptionSet.resolve).
Whatever the input, the only exception that may come out is the parser's own error class
(RecordError, OptionError) with a message; never a crash."""
from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import nomv
from nomv.errors import OptionError, RecordError, ScriptError
from nomv.options import OptionSet, OptionSpec

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- game records ------------------------------------------------------------------------------

_GAMES: dict[str, nomv.Game] = {}


def game(name: str) -> nomv.Game:
    """One loaded game per name for the whole module (replays reuse its worker)."""
    if name not in _GAMES:
        _GAMES[name] = nomv.Game.load(name)
    return _GAMES[name]


@pytest.fixture(scope="module", autouse=True)
def _close_games():
    yield
    for g in _GAMES.values():
        g.close()
    _GAMES.clear()


def valid_record(name: str, plies: int, seed: int = 3) -> str:
    pos = game(name).start(seed=seed)
    rng = __import__("random").Random(seed)
    for _ in range(plies):
        if pos.is_over():
            break
        pos.play(rng.choice(pos.legal_moves))
    return nomv.Record.from_position(pos, players=["human", "random"][:pos.players] + ["random"] * (pos.players - 2)).to_text()


VALID = {name: valid_record(name, plies) for name, plies in (("tictactoe", 5), ("trinim", 4))}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)


def replay_only_record_errors(text: str, name: str) -> None:
    """Reads text as a record and replays it into the loaded game: a position or RecordError."""
    try:
        record = nomv.Record.from_text(text, "fuzzed.json")
    except RecordError as exc:
        assert str(exc).startswith("fuzzed.json")
        return
    try:
        pos = record.replay(game=game(name), where="fuzzed.json")
    except RecordError as exc:
        assert str(exc).startswith("fuzzed.json")
        return
    assert pos.ply == len(record.moves)


@FUZZ
@given(st.text(max_size=300))
def test_any_text_is_a_record_or_a_record_error(text):
    try:
        nomv.Record.from_text(text, "fuzzed.json")
    except RecordError as exc:
        assert str(exc).startswith("fuzzed.json")


@FUZZ
@given(name=st.sampled_from(sorted(VALID)), data=st.data())
def test_records_damaged_byte_by_byte_replay_or_are_refused(name, data):
    text = VALID[name]
    edits = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, 8),
                                         st.text(max_size=6)), min_size=1, max_size=4))
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut:]
    replay_only_record_errors(text, name)


@FUZZ
@given(name=st.sampled_from(sorted(VALID)), data=st.data())
def test_records_with_changed_fields_replay_or_are_refused(name, data):
    record = json.loads(VALID[name])
    keys = sorted(record) + ["extra", "moves", "options", "seed"]
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(keys))
        how = data.draw(st.sampled_from(["value", "drop", "move", "option", "big"]))
        if how == "drop":
            record.pop(key, None)
        elif how == "move" and isinstance(record.get("moves"), list):
            moves = record["moves"]
            at = data.draw(st.integers(0, len(moves)))
            moves.insert(at, data.draw(st.text(max_size=8) | st.sampled_from(["a1", "b2", "c3", "C3", "D4-D2"])))
        elif how == "option" and isinstance(record.get("options"), dict):
            record["options"][data.draw(st.sampled_from(["layout", "size", "players", "x"]))] = data.draw(json_values)
        elif how == "big":
            record[key] = data.draw(st.sampled_from([10**400, -10**30, 1e308, float("nan"), "x" * 100_000,
                                                     ["a1"] * 2000, "\ud800"]))
        else:
            record[key] = data.draw(json_values)
    replay_only_record_errors(json.dumps(record), name)


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=200))
def test_any_file_loads_as_a_record_or_a_record_error(blob):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.json"
        path.write_bytes(blob)
        try:
            nomv.Record.load(path)
        except RecordError as exc:
            assert str(path) in str(exc)


@pytest.mark.parametrize("text, message", [
    ('{"format": "nomv-record", "version": 1, "seed": ' + "9" * 5000 + "}", "not a nomv game record"),
    (VALID["tictactoe"].replace('"seed": 3', '"seed": 1' + "0" * 40), "'seed' must be a whole number from"),
    (VALID["tictactoe"].replace('"moves": [', '"moves": ["\\ud800", '), "move 1 is not valid text"),
    (VALID["tictactoe"].replace('"game": "tictactoe"', '"game": "' + "g" * 5000 + '"'), "'game' is too long"),
])
def test_absurd_records_are_refused_with_what_and_where(text, message):
    with pytest.raises(RecordError, match=message):
        nomv.Record.from_text(text, "absurd.json")


def test_a_record_for_another_version_of_the_script_names_the_ply(tmp_path):
    # The script changed since the game was saved: a move that is no longer legal at ply 17 is
    # refused, naming the file, the ply and the change.
    record = json.loads(valid_record("3verse", 20))
    assert len(record["moves"]) == 20
    record["script_sha256"] = "0" * 64
    record["moves"][16] = "q99"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RecordError,
                       match=rf"^{re.escape(str(path))}: move 17 \('q99'\) cannot be played: .*\(the script has changed"):
        nomv.Record.load(path).replay(where=str(path))


def test_a_script_error_during_replay_is_a_record_error():
    # A record of a script whose parse hook raises: refused as a record, naming the ply.
    path = Path(__file__).parent / "scripts" / "tictactoe_faults.lua"
    record = nomv.Record("tictactoe_faults", str(path), {"fault": "parse_error"}, 1, ["a1", "middle"])
    with pytest.raises(RecordError, match=r"move 2 \('middle'\) cannot be played: .*no parsing today"):
        record.replay(where="picky.json")


# -- options from the command line ---------------------------------------------------------------

def option_sets() -> list[tuple[str, OptionSet]]:
    out = []
    for name in ("trinim", "nibble", "nonads", "3verse", "hex"):
        g = nomv.Game.load(name, isolate=False)
        out.append((name, g.options))
    return out


OPTION_SETS = option_sets()
option_text = st.sampled_from(["", "0", "-1", "1e400", "nan", "inf", "true", "no", "3.5", "7", "99999999999999999999",
                               "0x10", " 5 ", "b/bb/bgr", "\x00", "\ud800"]) | st.text(max_size=12)


@FUZZ
@given(which=st.integers(0, len(OPTION_SETS) - 1), data=st.data())
def test_option_text_gives_values_or_an_option_error(which, data):
    _name, options = OPTION_SETS[which]
    names = sorted(options.specs) + ["sise", "", "players "]
    given_ = data.draw(st.dictionaries(st.sampled_from(names) | st.text(max_size=6), option_text, max_size=4))
    variant = data.draw(st.none() | st.sampled_from(sorted(options.variants) + ["nope"]))
    try:
        values, chosen = options.resolve(given_, variant, text=True)
    except OptionError as exc:
        assert str(exc)
        return
    for key, value in values.items():  # everything that came through is a valid value
        assert options.specs[key].validate(value) == value


spec_raw = st.dictionaries(
    st.sampled_from(["default", "min", "max", "choices", "type", "help", "order"]),
    json_values | st.sampled_from([{"1": 2, "2": 3}, {"a": 1}, [1, 2, 3], "int", "choice", 1e400]),
    max_size=6)


@FUZZ
@given(raw=spec_raw | json_values, text=option_text)
def test_option_specs_from_any_script_table_are_built_or_refused(raw, text):
    # A script's options table arrives as JSON data; a bad one is the script's error.
    try:
        spec = OptionSpec.from_script("size", raw, "game.lua")
    except ScriptError as exc:
        assert "options.size" in str(exc)
        return
    try:
        value = spec.parse(text)
    except OptionError:
        return
    assert spec.validate(value) == value


def test_option_text_that_is_not_utf8_is_refused():
    # Bytes on the command line that are not UTF-8 reach Python as lone surrogates.
    options = dict(OPTION_SETS)["trinim"]
    with pytest.raises(OptionError, match="option 'layout': .* is not valid text"):
        options.resolve({"layout": "b/bb\udcff"}, text=True)


def test_move_text_that_is_not_utf8_is_an_illegal_move():
    pos = game("tictactoe").start(seed=1)
    with pytest.raises(nomv.IllegalMoveError, match="is not valid text"):
        pos.play("a1\udcff")
    assert pos.ply == 0
