"""What nomv draws for a scene, as cases both renderers must pass: the window (nomv/gui/view.py,
pytest: tests/test_drawing_cases.py) and the browser (nomv/server/static/js/drawing.js, node's
test runner: tests/js/drawing.test.mjs, also started by pytest).

tests/drawing_cases.json holds scenes of the bundled games and scenes written for one rule each,
with what is known around them (the scene before the last move and its steps, the highlights of
the next steps, the steps clicked, the coordinates shown, the reader's language), the drawing
nomv/play/drawing.py makes of them (what the server sends the browser), and what the window
drew, in order, each entry with the place it was drawn at in board units (read back from its
pixels).  Run this module to record them again after a deliberate change of the rules:

    python tests/drawing_cases.py
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

CASES = Path(__file__).with_name("drawing_cases.json")
ROOT = Path(__file__).resolve().parent.parent


def cell(sid: str, x: float, y: float, fill: str = "#e8dcc0", **extra: Any) -> dict:
    return {"id": sid, "shape": "rect", "x": x, "y": y, "w": 1, "h": 1, "fill": fill, "stroke": "#605040", **extra}


def stone(x: float, y: float, fill: str, **extra: Any) -> dict:
    return {"shape": "circle", "x": x, "y": y, "r": 0.4, "fill": fill, "layer": 1, **extra}


def written_cases() -> list[dict]:
    """Scenes written for one rule each."""
    row = [cell(f"{f}1", k, 0) for k, f in enumerate("abcd")] + [cell(f"{f}2", k, -1) for k, f in enumerate("abcd")]
    return [
        {"name": "a mark goes under the piece of its place; a taken piece's place is marked as vacated",
         "before": {"items": row + [stone(0, 0, "black"), stone(2, 0, "white")]},
         "scene": {"items": row + [stone(1, 0, "black")]},
         "last_steps": ["a1", "b1"], "highlights": ["c2", "d2"], "selected": []},
        {"name": "a place gone from the scene (a block taken) is marked above every shape, from the scene before",
         "before": {"items": row + [stone(0, -1, "#c03030")]},
         "scene": {"items": row[:7] + [stone(0, -1, "#c03030")]},
         "last_steps": ["d2"], "highlights": [], "selected": []},
        {"name": "a ring on a place of a like colour takes the other colour; the clicked steps ring blue, green when ready",
         "scene": {"items": row[:4] + [cell("y1", 4, 0, "#ffd000"), cell("b2", 1, -1, "#2060f0")]},
         "highlights": ["y1", "a1"], "selected": ["b2"], "ready": True},
        {"name": "texts come above the rings, in their layer order; labels sit on their shapes",
         "scene": {"items": [cell("p", 0, 0, label={"en": "Go", "it": "Vai"}),
                             {"shape": "text", "x": 0, "y": 1, "text": {"en": "score", "it": "punti"}, "size": 0.4,
                              "layer": 3},
                             {"shape": "text", "x": 2, "y": 1, "text": "7", "size": 0.6, "align": "left", "bold": True},
                             {"shape": "line", "points": [0, 2, 3, 2], "width": 0.1, "fill": "#303030"},
                             {"shape": "polygon", "points": [2, 0, 3, 0, 2.5, -1], "id": "t", "fill": "none",
                              "stroke": "red"}]},
         "highlights": ["t", "p"], "selected": ["p"], "lang": "it"},
        {"name": "items beside the board are drawn apart from it",
         "scene": {"items": [cell(f"{f}{r}", k, -r) for k, f in enumerate("abc") for r in (1, 2, 3)] +
                   [{"shape": "text", "x": 8, "y": -2, "text": "hand", "size": 0.5},
                    {"shape": "rect", "x": 8, "y": -1, "w": 0.8, "h": 0.8, "fill": "#3060c0"}]},
         "highlights": ["b2"], "selected": [], "coordinates": True},
        {"name": "a board without letters and numbers shows each place's id on request, in an ink that reads",
         "scene": {"items": [cell("slot:0,0", 0, 0, "#202020"), cell("slot:1,0", 1, 0, "#f0f0f0"),
                             stone(1, 0, "#101010", r=0.45)]},
         "highlights": [], "selected": [], "coordinates": True},
    ]


def game_cases() -> list[dict]:
    """Scenes of the bundled games at positions a player meets."""
    import nomv
    out = []

    def position(game: str, moves: list[str], options: dict | None = None, seed: int = 1):
        pos = nomv.Game.load(game).start(options=options or {}, seed=seed)
        before = None
        for move in moves:
            before = pos.scene()
            pos.play(move)
        return pos, before

    for name, game, moves, options, coords in [
        ("Othello after d3: the coordinates around the edge, the move marked", "othello", ["d3"], None, None),
        ("Trinim: a line taken, its middle marked as vacated", "trinim", ["D2-D4"], {"layout": "b/bb/bgr/grgg/rbgrr"}, None),
        ("Tic-tac-toe, coordinates hidden", "tictactoe", ["b2", "a1"], None, False),
        ("Connect Four: the ids of its columns on request", "connect4", ["d"], None, True),
        ("Nonads: the hand and the targets beside the board", "nonads", [], None, None),
    ]:
        pos, before = position(game, moves, options)
        legal = pos.legal_moves
        first = sorted({m.steps[0] for m in legal})
        out.append({"name": name, "scene": pos.scene(), "before": before,
                    "last_steps": list(pos.history[-1].steps) if moves else [],
                    "highlights": first[:12], "selected": [], "coordinates": coords})
    return out


def record(case: dict) -> dict:
    """The case with the drawing nomv makes of it and what the window drew."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from nomv.gui.view import SceneView
    from nomv.play import words
    from nomv.play.drawing import drawing
    pygame.font.init()
    words.setup(case.get("lang", "en"))
    d = drawing(case["scene"], case.get("before"), case.get("last_steps", ()))
    view = SceneView(case["scene"], pygame.Rect(0, 0, 640, 480), drawing=d, coordinates=case.get("coordinates"))
    surf = pygame.Surface((640, 480))
    view.draw(surf, (245, 240, 230), case.get("highlights", ()), case.get("selected", ()), ready=bool(case.get("ready")))
    words.setup("en")
    return {**case, "drawing": json.loads(json.dumps(d.to_json())), "drawn": view.drawn}


def main() -> None:
    sys.path.insert(0, str(ROOT))
    cases = [record(c) for c in written_cases() + game_cases()]
    data = {"about": "What nomv draws for a scene, in order: nomv/play/drawing.py, drawn by nomv/gui/view.py and "
                     "nomv/server/static/js/drawing.js; see tests/drawing_cases.py.",
            "cases": cases}
    CASES.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{CASES}: {len(cases)} cases, {CASES.stat().st_size} bytes")


if __name__ == "__main__":
    main()
