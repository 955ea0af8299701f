"""A lab run from start to end: plan the games, hand their batches to an executor, keep the
records, and compute the report.  ``nomv analyze`` (nomv/cli.py) is a thin front end to this.

>>> from nomv import Game
>>> game = Game.load("tictactoe")
>>> plan = make_plan(game, games=200, seed=1)
>>> records, _ = play(plan, InProcess())
>>> result = report(plan.header(), records)
>>> result["games"], result["ends"]["errors"], 0.5 < result["seats"][0]["win_rate"] < 0.8
(200, 0, True)
>>> game.close()
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..errors import NomvError, ScriptError
from ..game import Game
from . import metrics
from .executors import Executor, InProcess
from .plan import (DEFAULT_BASE_ITERATIONS, DEFAULT_RUNGS, DEFAULT_SKILL_GAMES, DEFAULT_TRACED, OTHER_TRACED, Batch,
                   GameSpec, LabError, Plan, Setting, batches, default_games, estimate, game_seed, ladder_agents,
                   ladder_games, main_games, other_settings, parse_agents, shard_of)
from .play import replay_game
from .records import Writer, order
from .verdicts import verdicts

__all__ = ["make_plan", "play", "report", "InProcess"]


def _places(game: Game, options: dict[str, Any]) -> tuple[dict[str, list[float]], dict[str, Any]]:
    """The places of the start's scene (items with an id, but for named items such as "rot:1",
    which nomv/lua/host/lab.lua counts by their prefix): their centres (board coverage), and
    their shapes for the heat map: {"polygon": [x0, y0, x1, y1, ...]} (a rect as its corners)
    or {"circle": [x, y, r]}; where items share an id, a polygon or rect (the cell) before a
    circle (a piece on it)."""
    chosen = {k: v for k, v in options.items() if k != "players" or game.players.min != game.players.max}
    try:
        pos = game.start(chosen, None, seed=0)
        items = pos.scene().get("items", [])
    except NomvError:
        return {}, {}
    shapes: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or item["id"].find(":") > 0:
            continue            # ("rotate:1", "slot:3,1": named items, not places of the board)
        shape = _shape(item)
        if shape is not None and (item["id"] not in shapes or ("circle" in shapes[item["id"]] and "polygon" in shape)):
            shapes[item["id"]] = shape
    centres = {k: _centre(v) for k, v in shapes.items()}
    return centres, shapes


def _numbers(*values: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _shape(item: dict[str, Any]) -> dict[str, list[float]] | None:
    kind, pts = item.get("shape"), item.get("points")
    if kind in ("polygon", None) and isinstance(pts, list) and len(pts) >= 6 and _numbers(*pts):
        return {"polygon": [round(float(v), 4) for v in pts]}
    if not _numbers(item.get("x"), item.get("y")):
        return None
    x, y = float(item["x"]), float(item["y"])
    if kind == "rect" and _numbers(item.get("w"), item.get("h")):
        w, h = item["w"] / 2, item["h"] / 2            # (x, y: the rect's centre)
        return {"polygon": [round(v, 4) for v in (x - w, y - h, x + w, y - h, x + w, y + h, x - w, y + h)]}
    if kind == "circle" and _numbers(item.get("r")):
        return {"circle": [round(x, 4), round(y, 4), round(float(item["r"]), 4)]}
    return None


def _centre(shape: dict[str, list[float]]) -> list[float]:
    if "circle" in shape:
        return shape["circle"][:2]
    pts = shape["polygon"]
    xs, ys = pts[0::2], pts[1::2]
    return [round(sum(xs) / len(xs), 4), round(sum(ys) / len(ys), 4)]


def make_plan(game: Game, options: dict[str, Any] | None = None, variant: str | None = None,
              agents: str | None = None, games: int | None = None, seed: int = 0, max_plies: int = 1000,
              traced: int = DEFAULT_TRACED, skill: bool = False, rungs: int = DEFAULT_RUNGS,
              base_iterations: int = DEFAULT_BASE_ITERATIONS, skill_games: int = DEFAULT_SKILL_GAMES,
              text: bool = True) -> Plan:
    """Every game of a run (options as typed on a command line with ``text``)."""
    values = game.resolve_options(options, variant, text=text)
    players = int(values["players"])
    chosen = parse_agents(agents, players)
    if games is None:
        games = default_games(chosen)
    for name, value, least in (("--games", games, 1), ("--max-plies", max_plies, 1), ("--traced", traced, 0),
                               ("--rungs", rungs, 1), ("--base-iterations", base_iterations, 1),
                               ("--skill-games", skill_games, 1)):
        if value < least:
            raise LabError(f"{name} must be at least {least}, got {value}")
    lists_moves = not ({"random_move", "steps"} & set(game.hooks))
    specs = main_games(games, seed, [a.spec for a in chosen], lists_moves, min(traced, games))
    skill_info = None
    ladder = []
    if skill:
        if players < 2:
            raise LabError("the skill ladder needs two players or more: its rungs play against each other")
        ladder = ladder_agents(rungs, base_iterations)
        per = max(players, skill_games - skill_games % players)    # every seat in turn, whole deals
        for k in range(1, len(ladder)):
            specs += ladder_games(k, ladder, per, seed, players)
        skill_info = {"rungs": [a.spec for a in ladder], "games": per}
    settings: list[Setting] = []
    fixed: list[str] = []
    if traced:
        specs_of = game.options.specs
        settings, fixed = other_settings(specs_of, game.options.variants, values,
                                         lambda opts, var: game.resolve_options(
                                             {k: v for k, v in opts.items() if k in specs_of}, var))
        for st in settings:
            specs += [GameSpec(st.set, n, game_seed(seed, st.set, n), ("random",) * st.players, 0, True)
                      for n in range(1, OTHER_TRACED + 1)]
    centres, shapes = _places(game, values)
    return Plan(game.name, game.path, game.source, game.sha256, values, players, seed, max_plies, chosen, games,
                min(traced, games), skill_info, game.runtime, game.limits, specs, centres, variant,
                ladder if skill else [], settings, fixed, shapes)


def _speed(game: Game, values: dict[str, Any], max_plies: int) -> tuple[float, float]:
    """Random games per second and their mean length, from a short playout (to size batches)."""
    try:
        stats = game.playout(20, seed=0, options=values, max_plies=max_plies)
        more = max(20, min(20000, int(0.1 * stats.games_per_second)))
        stats = game.playout(more, seed=1, options=values, max_plies=max_plies)
        return stats.games_per_second, stats.average_length
    except (ScriptError, NomvError):
        return 100.0, 50.0


def _everyone(plan: Plan) -> dict[str, Any]:
    """Every agent of the plan by its spec (random plays the other settings' traced games)."""
    from .plan import parse_agent
    return {"random": parse_agent("random"), **{a.spec: a for a in plan.agents + plan.ladder}}


def plan_batches(plan: Plan, specs: list, game: Game | None = None, jobs: int = 1) -> list[Batch]:
    """The batches of these games: about a second of work each (from a quick measure of the
    game's speed when ``game`` is given), less when that would leave fewer than four batches a
    process."""
    per: dict[str, float] = {}
    speed, plies = _speed(game, plan.options, plan.max_plies) if game is not None else (1000.0, 30.0)
    sets: dict[str, tuple] = {}
    for g in specs:
        sets.setdefault(g.set, g.seats)
    everyone = _everyone(plan)
    for name, seats in sets.items():
        per[name] = estimate(speed, plies, [everyone[s] for s in seats], plan.players)
    work = sum(per[g.set] for g in specs)
    return list(batches(plan, specs, per, target=max(0.1, min(1.0, work / (4 * jobs)))))


def work_seconds(plan: Plan, game: Game) -> float:
    """About how long the plan's games take on one process (to choose where to run them)."""
    speed, plies = _speed(game, plan.options, plan.max_plies)
    everyone = _everyone(plan)
    return sum(estimate(speed, plies, [everyone[s] for s in g.seats], plan.players) for g in plan.specs)


def play(plan: Plan, executor: Executor, shard: tuple[int, int] | None = None, writer: Writer | None = None,
         progress: Callable[[int, int], None] | None = None, game: Game | None = None) -> tuple[list[dict[str, Any]], float]:
    """Plays the plan's games (or one shard of them) on the executor; returns the records in
    plan order and the seconds it took."""
    specs = shard_of(plan.specs, shard)
    todo = plan_batches(plan, specs, game, getattr(executor, "jobs", 1))
    records: list[dict[str, Any]] = []
    start = time.perf_counter()
    if progress:
        progress(0, len(specs))
    for _, got in executor.run(todo):
        records.extend(got)
        if writer is not None:
            writer.write(got)
        if progress:
            progress(len(records), len(specs))
    seconds = time.perf_counter() - start
    records.sort(key=order)
    return records, seconds


def report(header: dict[str, Any], records: list[dict[str, Any]], missing: int = 0) -> dict[str, Any]:
    """The report: every figure, as a pure function of the header and the records."""
    players = int(header["players"])
    main = [r for r in records if r["set"] == "main"]
    seat_list = metrics.seats(main, players)
    rules = metrics.rules([r for r in records if r["set"] == "main" or r["set"].startswith("options ")],
                          header.get("source", ""), header.get("settings") or [], header.get("fixed_options") or [])
    skill = header.get("skill")
    searching = {s for s in header["agents"] if s.startswith("mcts")}
    if skill:
        searching |= {s for s in skill["rungs"] if s.startswith("mcts")}
    out: dict[str, Any] = {
        "game": header["game"], "games": len(main), "agents": header["agents"], "seed": header["seed"],
        "options": header["options"], "players": players, "max_plies": header["max_plies"],
        "seats": seat_list, "balance": metrics.balance(main, players),
        "first_player": metrics.first_player(seat_list, players) if players > 1 else None,
        "ends": metrics.ends(main), "errors": metrics.errors(main), "reasons": metrics.reasons(main),
        "length": metrics.length(main), "branching": metrics.branching(main),
        "decision_moves": metrics.decision_moves(main), "tree_size": metrics.tree_size(main),
        "repetition": metrics.repetition(main), "board": metrics.board(main, header.get("places") or {}),
        "move_kinds": metrics.move_kinds(main), "unused_lines": rules["unused_lines"], "rules": rules,
        "openings": metrics.openings(main, players),
        "leads": metrics.leads(records, lambda s: s in searching),
    }
    if skill:
        out["skill"] = metrics.ladder(records, skill["rungs"], players)
    if missing:
        out["missing_games"] = missing
    out["played"] = {"main": len(main), "ladder": sum(r["set"].startswith("ladder ") for r in records),
                     "options": sum(r["set"].startswith("options ") for r in records)}
    out["verdicts"] = verdicts(out)
    return out


def representative(plan_header: dict[str, Any], records: list[dict[str, Any]], runtime: str | None,
                   limits: Any) -> dict[str, Any] | None:
    """A game to show: of the main games that ended, the one of median length (the first such),
    played again with its moves written down."""
    from ..limits import Limits
    from .plan import Agent, GameSpec, parse_agent
    ended = [r for r in records if r["set"] == "main" and r.get("end") in ("won", "drawn", "lost")]
    if not ended:
        return None
    lengths = sorted(r["plies"] for r in ended)
    median = lengths[(len(lengths) - 1) // 2]
    chosen = min(ended, key=lambda r: (abs(r["plies"] - median), r["game"]))
    agents: dict[str, Agent] = {s: parse_agent(s) for s in chosen["seats"]}
    spec = GameSpec("main", chosen["game"], chosen["seed"], tuple(chosen["seats"]), 2)
    batch = Batch(plan_header["source"], plan_header["path"], runtime or "jit", limits or Limits(),
                  plan_header["options"], int(plan_header["players"]), int(plan_header["max_plies"]),
                  tuple(agents.values()), (spec,), places=tuple(plan_header.get("places") or ()))
    try:
        again = replay_game(batch)
    except NomvError:
        return None
    moves = again.get("moves") or []
    return {"game": chosen["game"], "seed": chosen["seed"], "seats": chosen["seats"], "plies": chosen["plies"],
            "end": chosen.get("end"), "winner": chosen.get("winner"), "reason": chosen.get("reason"),
            "moves": [m["notation"] for m in moves], "steps": [m["steps"] for m in moves],
            "branching": again.get("branching"), "values": again.get("values"),
            "same": again.get("plies") == chosen["plies"]}
