"""The computer players of the window: each move is chosen on a thread of its own, with the
computer's own copy of the game, so that the window keeps drawing while it thinks.

:class:`Computer` starts a search for the seat to move (``think``), hands back the chosen move
once it is ready (``poll``), forgets a search whose position has changed meanwhile, and keeps
its agents (and their search trees) from move to move of the same game.  No pygame here.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from ..ai import Agent, make_agent
from ..game import Game, Position


@dataclass(frozen=True)
class Choice:
    """What a finished search gives: the move's steps, or an error message; and the agent's
    estimate of its share of the points (0 to 1) when it has one."""

    ticket: Any
    steps: tuple[str, ...] | None
    error: str | None = None
    value: float | None = None


class Computer:
    """Searches moves for the computer seats, one at a time, on a background thread.

    ``delay`` is the least time between the start of a search and its move being handed over
    (a move that comes at once is hard to follow)."""

    def __init__(self, seed: int, delay: float = 0.35):
        self.delay = delay
        self._rng = random.Random(seed)
        self._thread: threading.Thread | None = None
        self._result: Choice | None = None
        self._ticket: Any = None
        self._started = 0.0
        self._closed = False
        self._copy: tuple | None = None             # (key, Game, Position): the thread's own game
        self._agents: dict[tuple[int, str], Agent] = {}  # the thread's only

    @property
    def thinking(self) -> bool:
        """Whether a search runs, or its move waits to be handed over."""
        return self._thread is not None and (self._thread.is_alive() or self._result is not None)

    def think(self, pos: Position, player: int, kind: str, ticket: Any) -> None:
        """Starts choosing the move of ``player`` (a seat played by ``kind``, e.g. "mcts:1s") in
        ``pos``.  ``ticket`` names the position: poll() hands the move back with it."""
        if self._closed or self.thinking:
            return
        game = pos.game
        chosen, seed_of_game = dict(pos.chosen), pos.seed
        history = [m.steps for m in pos.history]
        seed = self._rng.randrange(2**31)

        def work() -> None:
            try:
                mine = self._position(game, chosen, seed_of_game, history)
                agent = self._agents.get((player, kind))
                if agent is None:
                    agent = self._agents[(player, kind)] = make_agent(kind, seed)
                move = agent.choose(mine)
                value = agent.last.get("value") if agent.last else None
                self._result = Choice(ticket, tuple(move.steps), None, value)
            except Exception as exc:  # shown in the window, never raised
                self._result = Choice(ticket, None, str(exc))

        self._result = None
        self._ticket = ticket
        self._started = time.monotonic()
        self._thread = threading.Thread(target=work, name="nomv-computer", daemon=True)
        self._thread.start()

    def poll(self) -> Choice | None:
        """The finished search's choice, once (None while it thinks or waits out the delay)."""
        thread = self._thread
        if thread is None:
            return None
        # Look at the thread before its result: a thread that has ended has always left one,
        # whereas reading the result first could miss one set just after.
        if thread.is_alive():
            return None
        result = self._result
        if result is not None and time.monotonic() - self._started < self.delay:
            return None
        self._thread, self._result = None, None
        return result

    def forget(self) -> None:
        """The position changed: the search under way (if any) will be thrown away."""
        self._ticket = object()
        if self._thread is not None and not self._thread.is_alive():
            self._thread, self._result = None, None

    def is_current(self, choice: Choice, ticket: Any) -> bool:
        return choice.ticket == ticket and self._ticket == ticket

    def _position(self, game: Game, chosen: dict, seed: int, history: list) -> Position:
        """The computer's own copy of the position, on its own Lua runtime (runtimes must not
        be shared between threads).  Kept between moves and brought up to date by the moves
        played since, so a move costs the same late in a game as early.  Thread only."""
        key = (game.sha256, game.path, seed, repr(sorted(chosen.items())))
        cached = self._copy
        if cached is None or cached[0] != key:
            own = Game(game.source, game.path, game.runtime, game.origin, limits=game.limits)
            cached = (key, own, own.start(chosen, seed=seed))
            self._copy = cached
            self._agents = {}  # a new game: the computer players start new search trees
        pos = cached[2]
        done = [m.steps for m in pos.history]
        common = 0
        while common < min(len(done), len(history)) and done[common] == history[common]:
            common += 1
        for _i in range(len(done) - common):
            pos.undo()
        for steps in history[common:]:
            pos.play(list(steps))
        return pos

    def close(self) -> None:
        """The window closes: nothing more is started, and a search under way is stopped at
        once (its worker process is killed; the thread sees an error nobody reads)."""
        self._closed = True
        self.forget()
        copy = self._copy
        if copy is not None:
            copy[1].close()
