"""Playing a batch of games, in whichever process an executor runs it (this one, a pool's, a
Dask worker's): the games' lines come from the script's runtime in one request
(``Engine.lab_games``, nomv/lua/host/lab.lua), and become the run's records here.

A game that fails (an error in the script, its time limit) is a record naming the error; the
games after it go on.  When the script's worker process had to be killed (a loop LuaJIT
compiled cannot be interrupted otherwise), the batch goes on game by game, so that only the
game that hung is lost.
"""
from __future__ import annotations

from typing import Any

from ..errors import LimitError, NomvError, ScriptError
from ..game import Game, seed_words
from .plan import Batch, GameSpec, mover_seed

#: Games loaded in this process, by script, runtime and limits (a worker plays many batches).
_games: dict[tuple[str, str, Any], Game] = {}


def _game(batch: Batch) -> Game:
    import hashlib
    key = (hashlib.sha256(batch.source.encode("utf-8", "surrogatepass")).hexdigest(), batch.runtime, batch.limits)
    if key not in _games:
        _games[key] = Game(batch.source, batch.path, batch.runtime, limits=batch.limits)
    return _games[key]


def _lua_batch(games: tuple[GameSpec, ...] | list[GameSpec], batch: Batch) -> dict[str, Any]:
    index = {a.spec: i + 1 for i, a in enumerate(batch.agents)}
    seeds: list[int] = []
    for g in games:
        seeds += seed_words(g.seed) + seed_words(mover_seed(g.seed))
    return {"seeds": seeds, "detail": [g.detail for g in games], "seats": [index[s] for s in games[0].seats],
            "places": list(batch.places)}


def _record(g: GameSpec, line: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = {"set": g.set, "game": g.number, "seed": g.seed, "seats": list(g.seats),
                              "detail": g.detail}
    if "error" in line:
        record["end"] = "error"
    record.update(line)
    return record


def _error_line(exc: ScriptError, plies: int = 0) -> dict[str, Any]:
    return {"error": {"message": exc.message, "line": exc.line, "hook": exc.hook, "kind": exc.kind,
                      "code": exc.code}, "plies": plies}


def run_batch(batch: Batch, notations: bool = False) -> list[dict[str, Any]]:
    """The records of the batch's games, in order."""
    agents = [a.lua() for a in batch.agents]
    games = list(batch.games)
    if batch.traced:
        return [_traced(batch, g, agents, notations) for g in games]
    engine = _game(batch).engine
    lines = _play(engine, batch, games, agents, notations)
    return [_record(g, line) for g, line in zip(games, lines)]


def _traced(batch: Batch, g: GameSpec, agents: list[dict[str, Any]], notations: bool) -> dict[str, Any]:
    """A game whose lines are traced, in a Lua state of its own: a script that fills a cache
    (Trinim's and Nibble's boards by size) runs those lines in each traced game, so that the
    lines a game ran do not depend on which games its process played before (a shard's, a
    pool's, a cluster's: the same records everywhere)."""
    game = Game(batch.source, batch.path, batch.runtime, limits=batch.limits)
    try:
        engine = game.engine
        engine.coverage_start()
        cov: dict[str, Any] | None
        try:
            lines = _play(engine, batch, [g], agents, notations)
        finally:
            try:
                cov = engine.coverage_stop()
            except NomvError:
                cov = None
        record = _record(g, lines[0])
        if cov is not None:
            rules = set(engine.lab_rule_lines())     # (after a coverage_stop: the lines are the script's own)
            record["traced"] = True
            ran = set(cov["ran"])
            record["lines"] = sorted(ran)
            record["active"] = sorted(set(cov["active"]) & (rules | ran))
        return record
    finally:
        game.close()


def _play(engine: Any, batch: Batch, games: list[GameSpec], agents: list[dict[str, Any]],
          notations: bool) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    alone = False          # after a killed worker: one game a request
    while len(lines) < len(games):
        rest = games[len(lines):len(lines) + 1] if alone else games[len(lines):]
        try:
            got, done = engine.lab_games(batch.options, _lua_batch(rest, batch), batch.players, batch.max_plies,
                                         agents, notations)
        except LimitError as exc:
            # The worker was stopped: its request's games are lost, so they are played again
            # one by one, and the one that hangs alone gets the error.
            if alone:
                lines.append(_error_line(exc))
            alone = True
            continue
        except ScriptError as exc:
            lines.append(_error_line(exc))
            continue
        lines.extend(got[:done])
    return lines


def replay_game(batch: Batch) -> dict[str, Any]:
    """One game again, with its moves' notations and steps (the report's representative game)."""
    return run_batch(batch, notations=True)[0]
