"""The click-to-move rules, as cases both implementations must pass: nomv/moveinput.py (pytest:
tests/test_moveinput_cases.py) and nomv/server/static/js/moveinput.js (node's test runner:
tests/js/moveinput.test.mjs, also started by pytest).

tests/moveinput_cases.json holds two lists.  "cases" are written by hand, each a rule with the
answers worked out by hand.  "recorded" are clicks in real positions of the bundled games
(two-step, three-step and four-click moves, any_order, moves that extend others), with the
answers of the Python implementation; run this module to record them again:

    python tests/moveinput_cases.py

A case: the legal moves, auto_complete, and actions in order, each with what must hold after it:
``{"click": id, "kind": ..., "move": index or null}``, ``{"back": true, "result": bool}`` or
``{"confirm": true, "move": index or null}``, and after any action ``clicked``, ``next`` (sorted),
``complete`` and ``needs_confirm``.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

CASES = Path(__file__).with_name("moveinput_cases.json")
MAX_MOVES = 40   # legal moves kept in a recorded case


def snapshot(mi: Any) -> dict[str, Any]:
    return {"clicked": list(mi.clicked), "next": sorted(mi.next_steps), "complete": mi.complete,
            "needs_confirm": mi.needs_confirm}


def run_case(case: dict[str, Any], make: Any) -> list[dict[str, Any]]:
    """Plays a case's actions on ``make(moves, auto_complete)``; returns what each one gave,
    in the shape of the case's actions."""
    mi = make(case["moves"], case.get("auto_complete", True))
    out = []
    for action in case["actions"]:
        if "click" in action:
            result = mi.click(action["click"])
            got = {"click": action["click"], "kind": result.kind, "move": result.move}
        elif "back" in action:
            got = {"back": True, "result": mi.back()}
        else:
            got = {"confirm": True, "move": mi.confirm()}
        got.update(snapshot(mi))
        out.append(got)
        if got.get("kind") == "play":
            break
    return out


def _record(game_name: str, options: dict[str, Any] | None, seed: int, plies: int, rng: random.Random) -> dict[str, Any]:
    import nomv
    from nomv.moveinput import MoveInput
    pos = nomv.Game.load(game_name, isolate=False).start(options=options, seed=seed)
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        pos.play(rng.choice(pos.legal_moves))
    legal = pos.legal_moves
    if len(legal) > MAX_MOVES:   # a sample keeps the file small; the rules work on any list
        legal = [legal[i] for i in sorted(rng.sample(range(len(legal)), MAX_MOVES))]
    moves = [{"steps": list(m.steps), "any_order": m.any_order} for m in legal]
    # Clicks: mostly a legal next step, sometimes a step clicked before, back, or a stranger.
    mi = MoveInput(legal)
    every = sorted({s for m in legal for s in m.steps})
    actions: list[dict[str, Any]] = []
    for _ in range(8):
        roll = rng.random()
        if roll < 0.65 and mi.next_steps:
            step = rng.choice(sorted(mi.next_steps))
        elif roll < 0.8 and mi.clicked:
            step = rng.choice(mi.clicked)
        elif roll < 0.9:
            actions.append({"back": True})
            mi.back()
            continue
        else:
            step = rng.choice(every + ["nowhere"])
        actions.append({"click": step})
        if mi.click(step).kind == "play":
            break
    if actions and "click" in actions[-1] and mi.complete is not None and rng.random() < 0.3:
        actions.append({"confirm": True})
    case = {"name": f"{game_name} {options or ''} seed {seed} after {pos.ply} plies".replace("  ", " "),
            "moves": moves, "auto_complete": True, "actions": actions}
    case["actions"] = run_case(case, lambda ms, auto: MoveInput([_move(m) for m in ms], auto_complete=auto))
    return case


def _move(raw: dict[str, Any]) -> Any:
    from nomv.game import Move
    return Move(tuple(raw["steps"]), bool(raw.get("any_order")), raw.get("label"))


def main() -> None:
    data = json.loads(CASES.read_text(encoding="utf-8"))
    rng = random.Random(2026)
    recorded = []
    for game, options, plies in (("trinim", None, 3), ("trinim", {"size": 3}, 0), ("3verse", None, 2),
                                 ("nipple", None, 4), ("nonads", None, 2), ("nonads", None, 5),
                                 ("nibble", None, 3), ("peg_solitaire", None, 2), ("breakthrough", None, 6)):
        for seed in range(3):
            recorded.append(_record(game, options, seed, plies, rng))
    data["recorded"] = recorded
    CASES.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{CASES}: {len(data['cases'])} written cases, {len(recorded)} recorded")


if __name__ == "__main__":
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
