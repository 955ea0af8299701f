"""One set of cases for what nomv draws around a scene (tests/drawing_cases.py): the drawing
nomv/play/drawing.py makes (what the server sends the browser), what the window draws of it,
and what the browser's JavaScript plans of it, through node's test runner; all three agree on
the order of everything drawn and on where each thing goes, in board units."""
from __future__ import annotations

import json
import math
import os

import pytest

from conftest import node_test
from drawing_cases import CASES, record
from nomv.play.drawing import drawing

DATA = json.loads(CASES.read_text(encoding="utf-8"))
IDS = [c["name"] for c in DATA["cases"]]


def same_drawn(got: list[dict], want: list[dict]) -> bool:
    """The same entries in the same order, each drawn at the same place (within 1/1000 of a
    board unit: the window reads its places back from pixels)."""
    if len(got) != len(want):
        return False
    for a, b in zip(got, want):
        if {k: v for k, v in a.items() if k != "at"} != {k: v for k, v in b.items() if k != "at"}:
            return False
        if math.dist(a["at"], b["at"]) > 1e-3:
            return False
    return True


@pytest.mark.parametrize("case", DATA["cases"], ids=IDS)
def test_the_drawing_follows_the_case(case):
    d = drawing(case["scene"], case.get("before"), case.get("last_steps", ()))
    assert json.loads(json.dumps(d.to_json())) == case["drawing"]


@pytest.mark.parametrize("case", DATA["cases"], ids=IDS)
def test_the_window_draws_the_case(case):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    drawn = record(case)["drawn"]
    assert same_drawn(drawn, case["drawn"]), json.dumps(drawn)[:2000]


def test_the_cases_cover_every_kind_of_drawing():
    kinds = {e["draw"] for c in DATA["cases"] for e in c["drawn"]}
    assert kinds == {"shape", "mark", "ring", "text", "coordinate", "cell-id"}
    marks = {e["kind"] for c in DATA["cases"] for e in c["drawn"] if e["draw"] == "mark"}
    rings = {e["kind"] for c in DATA["cases"] for e in c["drawn"] if e["draw"] == "ring"}
    assert marks == {"step", "vacated"} and rings == {"highlight", "selected", "ready"}
    assert any(c["drawing"]["side_bounds"] for c in DATA["cases"])            # items beside the board
    assert any(c["drawing"]["ring_colours"] for c in DATA["cases"])           # a ring of the other colour


def test_javascript_draws_the_same_cases():
    node_test("drawing.test.mjs", "the browser's drawing")
