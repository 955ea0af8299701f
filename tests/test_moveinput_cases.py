"""One set of click-to-move cases for both implementations (tests/moveinput_cases.py): the
Python MoveInput here, the browser's JavaScript copy through node's test runner."""
from __future__ import annotations

import json

import pytest

from conftest import node_test
from moveinput_cases import CASES, run_case
from nomv.game import Move
from nomv.moveinput import MoveInput

DATA = json.loads(CASES.read_text(encoding="utf-8"))
ALL = [("written", c) for c in DATA["cases"]] + [("recorded", c) for c in DATA["recorded"]]


def make(moves, auto_complete):
    return MoveInput([Move(tuple(m["steps"]), bool(m.get("any_order")), m.get("label")) for m in moves],
                     auto_complete=auto_complete)


@pytest.mark.parametrize("kind,case", ALL, ids=[f"{k}: {c['name']}" for k, c in ALL])
def test_python_moveinput_follows_the_case(kind, case):
    assert run_case(case, make) == case["actions"]


def test_the_recorded_cases_cover_every_kind_of_click():
    kinds = {a.get("kind") for _, c in ALL for a in c["actions"]}
    assert {"select", "confirm", "play", "back", "restart", "illegal"} <= kinds
    assert len(DATA["recorded"]) >= 20
    assert any(len(m["steps"]) >= 4 for c in DATA["recorded"] for m in c["moves"])   # 3verse
    assert any(m.get("any_order") for c in DATA["recorded"] for m in c["moves"])      # Trinim, Nibble


def test_javascript_moveinput_follows_the_same_cases():
    node_test("moveinput.test.mjs", "the browser's MoveInput")
