"""``nomv bench``: figures, never assertions.  Random playouts/s of every bundled game (and its
variants) on both runtimes, perft speed, and the window's frame time."""
from __future__ import annotations

import time
from typing import Callable

from . import catalog
from .game import Game

RUNTIMES = ("jit", "5.4")


def playout_rows(seconds: float, games: list[str] | None, progress: Callable[[str], None]) -> list[dict]:
    rows = []
    for found in catalog.all_games():
        if found.origin != "bundled" or (games and found.name not in games):
            continue
        for variant in [None] + Game.load(str(found.path)).variants:
            row = {"game": found.name, "variant": variant or ""}
            for lua in RUNTIMES:
                progress(f"{found.name}{' ' + variant if variant else ''} on {lua}")
                game = Game.load(str(found.path), runtime=lua)
                game.playout(20, seed=0, variant=variant)      # warm up (LuaJIT compiles)
                n, total, plies, t0 = 50, 0, 0, time.perf_counter()
                while time.perf_counter() - t0 < seconds:
                    stats = game.playout(n, seed=total, variant=variant)
                    total += stats.games
                    plies += stats.plies
                    n = min(n * 2, 20000)
                elapsed = time.perf_counter() - t0
                row[lua] = round(total / elapsed, 1)
                row["length"] = round(plies / total, 1)
            rows.append(row)
    return rows


def perft_rows(games: list[str] | None, progress: Callable[[str], None]) -> list[dict]:
    cases = [("trinim", {"layout": "b/bb/bgr/grgg/rbgrr"}, 3), ("3verse", {}, 2), ("nipple", {"size": 3}, 3)]
    rows = []
    for name, options, depth in cases:
        if games and name not in games:
            continue
        for lua in RUNTIMES:
            progress(f"perft {name} on {lua}")
            pos = Game.load(name, runtime=lua).start(options=options, seed=0)
            t0 = time.perf_counter()
            nodes = pos.perft(depth)
            elapsed = time.perf_counter() - t0
            rows.append({"game": name, "depth": depth, "runtime": lua, "count": nodes,
                         "seconds": round(elapsed, 3), "leaves_per_second": round(nodes / elapsed)})
    return rows


def frame_rows(games: list[str] | None, progress: Callable[[str], None]) -> list[dict]:
    from .gui.app import measure_frame_times
    rows = []
    for name, options in (("nibble", None), ("3verse", None), ("nibble", {"colours": 13})):
        if games and name not in games:
            continue
        progress(f"frames {name}")
        times = measure_frame_times(name, options=options)
        rows.append({"game": name + (" 13 colours" if options else ""), **times})
    return rows


def run(seconds: float = 1.0, games: list[str] | None = None, gui: bool = True,
        progress: Callable[[str], None] = lambda s: None) -> dict:
    out = {"playouts": playout_rows(seconds, games, progress), "perft": perft_rows(games, progress)}
    if gui:
        out["frames"] = frame_rows(games, progress)
    return out


def format_table(result: dict) -> str:
    lines = ["Random playouts (games/s)", f"{'game':<10} {'variant':<12} {'LuaJIT':>10} {'Lua 5.4':>10} {'plies':>7}"]
    for r in result["playouts"]:
        lines.append(f"{r['game']:<10} {r['variant']:<12} {r['jit']:>10,.0f} {r['5.4']:>10,.0f} {r['length']:>7}")
    lines += ["", "Perft", f"{'game':<10} {'depth':>5} {'runtime':>8} {'count':>10} {'seconds':>8} {'leaves/s':>11}"]
    for r in result["perft"]:
        lines.append(f"{r['game']:<10} {r['depth']:>5} {r['runtime']:>8} {r['count']:>10} {r['seconds']:>8} {r['leaves_per_second']:>11,}")
    if "frames" in result:
        lines += ["", "GUI frame time (ms)"]
        for r in result["frames"]:
            figures = ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                for k, v in r.items() if k != "game" and isinstance(v, (int, float)))
            lines.append(f"{r['game']:<20} {figures}")
    return "\n".join(lines)
