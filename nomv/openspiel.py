"""OpenSpiel's random playouts, the yardstick of ``nomv bench --compare openspiel``.

OpenSpiel (``pip install 'nomv[openspiel]'``, or ``pip install open_spiel``) is an optional
extra: this module imports it only when asked.  Its games are driven from Python the way people
use it: ``random.choice`` over ``legal_actions()`` at every ply, ``apply_action``, until
``is_terminal()``.  The bundled classic scripts play the same rules.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from .errors import NomvError

#: nomv's script -> OpenSpiel's game name and parameters (the same rules): the classics tuned
#: for speed, and the two plain scripts that measure what a script written without tricks gets.
CLASSICS: dict[str, tuple[str, dict[str, Any]]] = {
    "tictactoe": ("tic_tac_toe", {}),
    "connect4": ("connect_four", {}),
    "hex": ("hex", {"board_size": 11}),
    "breakthrough": ("breakthrough", {"rows": 8, "columns": 8}),
    "othello": ("othello", {}),
    "amazons": ("amazons", {}),
}

INSTALL = "pip install 'nomv[openspiel]' (or: pip install open_spiel)"


class OpenSpielMissing(NomvError):
    """OpenSpiel is not installed."""


def pyspiel():
    """OpenSpiel's Python module, or a one-line error saying how to install it."""
    try:
        import pyspiel as module
    except ImportError:
        raise OpenSpielMissing(f"OpenSpiel is not installed; to compare with it: {INSTALL}") from None
    return module


def version() -> str:
    try:
        from importlib.metadata import version as installed
        return installed("open_spiel")
    except Exception:  # not installed from a distribution: say nothing rather than guess
        return "?"


@dataclass
class Playouts:
    """Random games played by OpenSpiel: how many, their plies, and the CPU seconds they took
    (this process's: other programs busy on the machine change that less than the clock)."""

    games: int = 0
    plies: int = 0
    seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def average_length(self) -> float:
        return self.plies / self.games if self.games else 0.0


class RandomPlayer:
    """Plays uniformly random games of one OpenSpiel game, from Python."""

    def __init__(self, name: str, seed: int = 0):
        """``name`` is a nomv classic (``hex``) or an OpenSpiel game name (``connect_four``)."""
        spiel = pyspiel()
        game_name, params = CLASSICS.get(name, (name, {}))
        self.name = game_name
        self.game = spiel.load_game(game_name, params)
        self.random = random.Random(seed)

    def play(self, games: int, into: Playouts | None = None) -> Playouts:
        """Plays `games` random games; adds them to `into` (a new tally by default)."""
        out = into if into is not None else Playouts()
        new_state, choice = self.game.new_initial_state, self.random.choice
        plies = 0
        start = time.process_time()
        for _ in range(games):
            state = new_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                plies += 1
        out.seconds += time.process_time() - start
        out.games += games
        out.plies += plies
        return out

    def play_for(self, seconds: float, into: Playouts | None = None) -> Playouts:
        """Plays random games for about `seconds` of CPU time, in batches that grow until one
        takes a tenth of the time (the clock is read between batches only)."""
        out = into if into is not None else Playouts()
        deadline, batch = time.process_time() + seconds, 1
        while time.process_time() < deadline:
            before = out.seconds
            self.play(batch, out)
            if out.seconds - before < seconds / 10:
                batch *= 2
        return out
