"""Matches between computer players: ``nomv match GAME --players mcts:1s,random -n 20``.

Games are independent, so several run at once in separate processes (``--jobs``).  Seats turn
from game to game, so that over any k games (k players named) every player sits in every seat
once; with ``swap`` each deal (seed) is played in each of those k turns, which removes most of
the luck of the deal from the comparison.  Each game's record can be kept (one JSON record per line).
"""
from __future__ import annotations

import json
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Callable, Iterator

from ..errors import NomvError
from ..limits import Limits
from ..game import Game
from ..record import Record
from ..stats import wilson
from .agents import make_agent


@dataclass(frozen=True)
class Task:
    """One game of a match: who sits where (an index into the match's players per seat)."""

    number: int
    seed: int
    seats: tuple[int, ...]


@dataclass
class GameResult:
    number: int
    seed: int
    seats: tuple[int, ...]
    ranks: tuple[int, ...] | None        # None: stopped unfinished after max_plies
    winner: int | None
    plies: int
    record: dict[str, Any]
    #: per player (index into the match's players): [moves, seconds thinking, iterations]
    effort: dict[int, list[float]] = field(default_factory=dict)


def schedule(players: int, agents: int, games: int, seed: int, swap: bool) -> list[Task]:
    """Who plays which seat in each game.  Game g puts agent (seat + g) mod k in each seat; with
    ``swap``, k consecutive games share a seed, one for each turn of the seats.

    >>> [(t.seed, t.seats) for t in schedule(2, 2, 4, 10, swap=True)]
    [(10, (0, 1)), (10, (1, 0)), (11, (0, 1)), (11, (1, 0))]
    >>> [t.seats for t in schedule(3, 2, 2, 0, swap=False)]
    [(0, 1, 0), (1, 0, 1)]
    """
    rotations = agents if agents > 1 else 1
    tasks = []
    for g in range(games):
        turn = g % rotations
        deal = seed + (g // rotations if swap else g)
        tasks.append(Task(g + 1, deal, tuple((s + turn) % agents for s in range(players))))
    return tasks


# -- one game, in whichever process runs it ------------------------------------------------------

_games: dict[tuple, Game] = {}


def play_game(path: str, runtime: str | None, limits: Limits, options: dict[str, Any],
              variant: str | None, specs: list[str], task: Task, max_plies: int) -> GameResult:
    key = (path, runtime, limits)
    if key not in _games:
        _games[key] = Game.load(path, runtime, limits=limits)
    game = _games[key]
    pos = game.start(options=options, variant=variant, seed=task.seed, text=True)
    # One agent per seat, seeded by the deal and the seat: with iteration budgets, a match is
    # repeatable move for move.
    seat_agents = [make_agent(specs[a], seed=task.seed * 97 + s) for s, a in enumerate(task.seats)]
    effort: dict[int, list[float]] = {}
    while pos.outcome() is None and pos.ply < max_plies:
        assert pos.to_move is not None, "a game that has not ended has a player to move (nil there is the checker's E063)"
        seat = pos.to_move - 1
        agent = seat_agents[seat]
        start = time.process_time()
        move = agent.choose(pos)
        spent = effort.setdefault(task.seats[seat], [0, 0.0, 0])
        spent[0] += 1
        last = agent.last or {}
        spent[1] += last.get("seconds", time.process_time() - start)
        spent[2] += last.get("iterations", 0)
        pos.play(move)
    outcome = pos.outcome()
    record = Record.from_position(pos, players=[specs[a] for a in task.seats])
    return GameResult(task.number, task.seed, task.seats,
                      None if outcome is None else outcome.ranks,
                      None if outcome is None else outcome.winner, pos.ply,
                      json.loads(record.to_text()), effort)


def _play_in_child(args: tuple) -> GameResult | tuple[str, str]:
    try:
        return play_game(*args)
    except NomvError as exc:          # reported by the parent with the game it belongs to
        return ("error", str(exc))


# -- the match ----------------------------------------------------------------------------------

def run(game: Game, specs: list[str], games: int, options: dict[str, Any] | None = None,
        variant: str | None = None, seed: int = 0, swap: bool = False, jobs: int = 1,
        max_plies: int = 10_000,
        on_result: Callable[[GameResult], None] = lambda r: None) -> list[GameResult]:
    """Plays the match with the options (as typed: text or values) and variant chosen;
    ``on_result`` sees each game as it finishes (in finishing order).  Returns the results in
    game order.  A game that fails raises NomvError naming it."""
    for spec in specs:
        make_agent(spec)                        # a bad spec fails here, before any game starts
    options = dict(options or {})
    players = int(game.resolve_options(options, variant, text=True)["players"])
    tasks = schedule(players, len(specs), games, seed, swap)
    # A game found by name is loaded by name in each process, so that its records name it as
    # `nomv play` does (and open on any machine); a script given as a path, by its path.
    script = Path(game.path).stem if game.origin != "file" else str(game.path)
    args = [(script, game.runtime, game.limits, options, variant, specs, t, max_plies) for t in tasks]
    results: list[GameResult] = []
    for task, result in _results(args, jobs):
        if isinstance(result, tuple):
            raise NomvError(f"game {task.number} (seed {task.seed}, seats "
                            f"{', '.join(specs[a] for a in task.seats)}) failed: {result[1]}")
        results.append(result)
        on_result(result)
    return sorted(results, key=lambda r: r.number)


def _results(args: list[tuple], jobs: int) -> Iterator[tuple[Task, Any]]:
    if jobs <= 1:
        for a in args:
            yield a[6], _play_in_child(a)
        return
    # Fresh interpreters ("spawn"): each process loads the game once and plays many games.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        pending = {pool.submit(_play_in_child, a): a[6] for a in args}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()


# -- the summary ---------------------------------------------------------------------------------

@dataclass
class Standing:
    spec: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    moves: int = 0
    seconds: float = 0.0
    iterations: int = 0

    @property
    def score(self) -> float:
        """Points per game: a win 1, a draw (or an unfinished game) 1/2."""
        return (self.wins + 0.5 * (self.draws + self.unfinished)) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * (self.draws + self.unfinished), self.games)


def standings(specs: list[str], results: list[GameResult]) -> list[Standing]:
    """Each player's wins, draws and losses.  A player with several seats in a game (three
    seats, two players) wins when any of its seats wins alone, draws when one shares first place."""
    table = [Standing(spec) for spec in specs]
    for r in results:
        for a in set(r.seats):
            s = table[a]
            s.games += 1
            seats = [i for i, x in enumerate(r.seats) if x == a]
            if r.ranks is None:
                s.unfinished += 1
            elif r.winner is not None and r.winner - 1 in seats:
                s.wins += 1
            elif any(r.ranks[i] == 1 for i in seats):
                s.draws += 1
            else:
                s.losses += 1
        for a, (moves, seconds, iterations) in r.effort.items():
            table[a].moves += int(moves)
            table[a].seconds += seconds
            table[a].iterations += int(iterations)
    return table


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def labels(specs: list[str]) -> list[str]:
    """The players' names in a summary: a spec named twice is numbered (``random #1``).

    >>> labels(["mcts:1s", "random", "random"])
    ['mcts:1s', 'random #1', 'random #2']
    """
    out = []
    for i, spec in enumerate(specs):
        same = [j for j, other in enumerate(specs) if other == spec]
        out.append(f"{spec} #{same.index(i) + 1}" if len(same) > 1 else spec)
    return out


def summary(specs: list[str], results: list[GameResult]) -> dict[str, Any]:
    lengths = [r.plies for r in results]
    return {
        "games": len(results),
        "players": [
            {"player": label, "spec": s.spec, "games": s.games, "wins": s.wins, "draws": s.draws,
             "losses": s.losses, "unfinished": s.unfinished, "score": round(s.score, 4),
             "interval": [round(x, 4) for x in s.interval],
             "seconds_per_move": round(s.seconds / s.moves, 4) if s.moves else None,
             "iterations_per_move": round(s.iterations / s.moves) if s.moves and s.iterations else None}
            for label, s in zip(labels(specs), standings(specs, results))],
        "seats": len(results[0].seats) if results else 0,
        # who sat where in the first game (the seats turn from game to game)
        "first_game_seats": [labels(specs)[a] for a in results[0].seats] if results else [],
        "average_length": round(sum(lengths) / len(lengths), 2) if lengths else 0,
        "shortest": min(lengths, default=0),
        "longest": max(lengths, default=0),
    }


def format_summary(title: str, specs: list[str], results: list[GameResult], how: str,
                   seat_names: list[str] | None = None) -> str:
    """The summary as text; ``seat_names`` are the game's names of its seats (Player 1...)."""
    data = summary(specs, results)
    width = max(8, *(len(p["player"]) for p in data["players"]))
    first = data["first_game_seats"]
    names = seat_names if seat_names and len(seat_names) == len(first) else [f"seat {i + 1}" for i in range(len(first))]
    seated = ", ".join(f"{n}: {who}" for n, who in zip(names, first))
    lines = [f"{title}: {data['games']} games ({how})",
             f"{_plural(len(first), 'seat')}; game 1: {seated}" if first else "no game played",
             f"{'player':<{width}}  {'wins':>5} {'draws':>5} {'losses':>6}  {'score':>5}  95% interval"]
    for p in data["players"]:
        lo, hi = p["interval"]
        draws = p["draws"] + p["unfinished"]
        lines.append(f"{p['player']:<{width}}  {p['wins']:>5} {draws:>5} {p['losses']:>6}  "
                     f"{p['score']:>5.2f}  {lo:.2f}-{hi:.2f}")
    lines.append(f"average length {data['average_length']:.1f} plies "
                 f"(shortest {data['shortest']}, longest {data['longest']})")
    seats = len(results[0].seats) if results else 0
    if seats > len(specs):
        lines.append(f"(the {len(specs)} players take turns to fill the {seats} seats: one with "
                     "two seats in a game wins when either seat wins)")
    unfinished = sum(r.ranks is None for r in results)
    if unfinished:
        lines.append(f"{unfinished} game{'s' if unfinished != 1 else ''} stopped unfinished "
                     "(counted as draws)")
    for p in data["players"]:
        if p["iterations_per_move"]:
            lines.append(f"{p['player']}: {p['seconds_per_move']:.2f} s and "
                         f"{p['iterations_per_move']:,} iterations a move")
    return "\n".join(lines)
