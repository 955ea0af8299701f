"""What every face of a match must decide alike: how computer players answer a draw offer and a
takeback, what ends a match and how it ranks the players, and whose view a reader is shown.

The window (one screen, its own computer players), text play and the server (accounts,
computer seats, spectators) call these; none decides any of it on its own.

>>> computers_answer_draw([(2, 0.42)]).accepted, computers_answer_draw([(2, 0.61)]).declined_by
(True, 2)
>>> takeback_ply([1, 2, 1, 2], asking={1})      # back to before seat 1's last move
2
>>> resigned(3, 2).ranks
(1, 2, 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Sequence

from .match import ABORT, DRAW_AGREED, RESIGNED, TIMEOUT, Result

#: The computer players every face offers, weakest first: (spec, level name).  A seat online is
#: named by the level ("medium"), in the window by its spec ("mcts:1s").
LEVELS = (("mcts:0.3s", "easy"), ("mcts:1s", "medium"), ("mcts:3s", "hard"), ("random", "random"))

#: A computer player accepts a draw when it expects no more than this share of the points: it
#: does not expect to win.
DRAW_ACCEPTED_AT = 0.5

#: Whose view a reader is shown: the whole state (no secret kept), or a spectator's (the view
#: of no player, the game's ``view(state, 0)``); else a seat's own.
WHOLE, SPECTATOR = None, 0


@dataclass(frozen=True)
class DrawAnswer:
    """The computer players' answer to a draw offer: accepted by all, or declined by one, who
    expects ``expects`` of the points (None: it has not judged the game yet)."""

    accepted: bool
    declined_by: int | None = None
    expects: float | None = None


def computer_accepts_draw(expects: float | None) -> bool:
    """Whether a computer player that expects ``expects`` of the points (its latest estimate,
    0 to 1; None before it has searched) accepts a draw."""
    return expects is not None and expects <= DRAW_ACCEPTED_AT


def computers_answer_draw(computers: Sequence[tuple[int, float | None]]) -> DrawAnswer:
    """How the computer seats ``(seat, expects)`` answer a draw offer: all accept, or the first
    that does not (an unjudged one first: it cannot say yet)."""
    for seat, expects in sorted(computers, key=lambda c: c[1] is not None):
        if not computer_accepts_draw(expects):
            return DrawAnswer(False, seat, expects)
    return DrawAnswer(True)


def computer_accepts_takeback() -> bool:
    """Computer players always agree to take moves back: a person learning a game against the
    computer may try again (the window's undo, the server's takeback)."""
    return True


def takeback_ply(movers: Sequence[int | None], asking: Collection[int]) -> int | None:
    """The ply a takeback goes back to: before the last move of a seat in ``asking`` (so that
    it is their turn again; the moves after it go too), or None when they have not moved.
    ``movers``: the seat that made each move, in order."""
    for ply in range(len(movers) - 1, -1, -1):
        if movers[ply] in asking:
            return ply
    return None


def resigning_seat(mine: Sequence[int], to_move: int | None) -> int | None:
    """Which of the reader's seats resigns: the one to move, else their only seat; None when
    that cannot tell (several seats, none of them to move)."""
    if to_move in mine:
        return to_move
    return mine[0] if len(mine) == 1 else None


def resigned(players: int, seat: int) -> Result:
    """A match ended by ``seat`` resigning: the others share the win."""
    return Result(tuple(2 if p == seat else 1 for p in range(1, players + 1)), how=RESIGNED, by=seat)


def timed_out(players: int, seat: int) -> Result:
    """A match ended by ``seat``'s time running out: the others share the win."""
    return Result(tuple(2 if p == seat else 1 for p in range(1, players + 1)), how=TIMEOUT, by=seat)


def agreed_draw(players: int) -> Result:
    """A match the players agreed to call a draw (every seat offered or accepted)."""
    return Result((1,) * players, how=DRAW_AGREED)


def aborted(players: int) -> Result:
    """A match stopped before it really began: nobody wins, nobody is rated."""
    return Result((1,) * players, how=ABORT)


def draw_agreed(offered: Collection[int], seats: Collection[int]) -> bool:
    """Whether every seat has offered or accepted the draw."""
    return set(offered) >= set(seats)


def viewer(over: bool, mine: Sequence[int], to_move: int | None, sees_all: bool = False) -> int | None:
    """Whose view a reader is shown (a seat, SPECTATOR or WHOLE): once the match is over, the
    whole state (every secret may be seen then, as the record holds them all); while it runs,
    a player's own view (the seat to move when they hold several), a spectator's otherwise,
    or the whole state for a reader who ``sees_all`` (at a screen where only computers play,
    no player's secret is kept from the person watching)."""
    if over:
        return WHOLE
    if not mine:
        return WHOLE if sees_all else SPECTATOR
    return to_move if to_move in mine else mine[0]
