"""A match as one reader sees it, in plain data: the seats (who plays each, and which are the
reader's), whose turn it is, how the match ended, the offers pending.

Every face builds one from what it holds: the window from its table (a person at the screen,
computer seats), text play from its seats, the server from a match's rows (accounts, computer
seats, open seats).  The wording (wording.py) and the policies (policy.py) read nothing else,
so the same match reads the same in every face.

>>> seats = (Seat(1, {"en": "White", "it": "Bianco"}, PERSON, name="alice", you=True),
...          Seat(2, {"en": "Black", "it": "Nero"}, COMPUTER, spec="medium"))
>>> MatchView(seats, to_move=1).yours
True
>>> MatchView(seats, result=Result((2, 1))).result.winner
2
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

#: Who plays a seat: a person (at this screen, or an account online), a computer player, or
#: nobody yet (an open seat, taken through an invitation).
PERSON, COMPUTER, OPEN = "person", "computer", "open"

#: The states of a match (the server's words): waiting for players, running, ended (by the
#: game or by the players), and never played.
WAITING, RUNNING, ENDED, CANCELLED, DECLINED, ABORTED = "waiting", "active", "ended", "cancelled", "declined", "aborted"

#: How a match ended: the game's own rules, a resignation, a player's time running out, a
#: draw the players agreed, or it was stopped before it really began.
BY_GAME, RESIGNED, TIMEOUT, DRAW_AGREED, ABORT = "game", "resign", "timeout", "draw", "abort"


@dataclass(frozen=True)
class Seat:
    """One seat of a match: its number (from 1), its role as the script names it (a text or a
    table of languages, None for "Player n"), who plays it, and whether the reader does."""

    number: int
    role: Any = None
    kind: str = PERSON
    name: str | None = None        # a person's account name (online; None at the screen)
    spec: str | None = None        # a computer player's spec: "mcts:1s", "medium", "random"
    you: bool = False
    accepted: bool = True          # a challenged person has said yes
    colour: str | None = None
    expects: float | None = None   # a computer player's latest estimate of its share (0 to 1)


@dataclass(frozen=True)
class Result:
    """How a match ended: each seat's rank (1 is first; several firsts share it), the scores
    and the script's reason when the game gave them, and how it ended (``by``: the seat that
    resigned or ran out of time)."""

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    reason: Any = None
    how: str = BY_GAME
    by: int | None = None

    @property
    def winner(self) -> int | None:
        """The one seat ranked first, else None."""
        first = [p for p, r in enumerate(self.ranks, start=1) if r == 1]
        return first[0] if len(first) == 1 else None

    @property
    def firsts(self) -> list[int]:
        return [p for p, r in enumerate(self.ranks, start=1) if r == 1]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Result":
        """From an outcome as records, the engines and the server keep it: {ranks, scores,
        reason, how, by} (an older server's outcome without ``by`` names it by its ranks)."""
        ranks = tuple(int(r) for r in raw.get("ranks") or ())
        scores = raw.get("scores")
        how = raw.get("how") or BY_GAME
        by = raw.get("by")
        if by is None and how in (RESIGNED, TIMEOUT):
            last = [p for p, r in enumerate(ranks, start=1) if r != 1]
            by = last[0] if len(last) == 1 else None
        return cls(ranks, tuple(scores) if isinstance(scores, (list, tuple)) else None,
                   raw.get("reason") if how == BY_GAME else None, how, by)

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "ranks": list(self.ranks),
                "scores": None if self.scores is None else list(self.scores),
                "reason": self.reason, "how": self.how, "by": self.by}


@dataclass(frozen=True)
class Takeback:
    """A takeback asked for: by which seat, back to which ply, and who agreed so far."""

    by: int
    ply: int
    agreed: tuple[int, ...] = ()


@dataclass(frozen=True)
class MatchView:
    """A match as one reader sees it (see the module's docstring)."""

    seats: tuple[Seat, ...]
    status: str = RUNNING
    to_move: int | None = None
    result: Result | None = None
    draw_offer: tuple[int, ...] = ()
    takeback: Takeback | None = None
    thinking: int | None = None     # the seat whose computer player is searching
    ply: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def seat(self, number: int) -> Seat:
        return self.seats[number - 1]

    @property
    def mine(self) -> list[int]:
        """The reader's seats."""
        return [s.number for s in self.seats if s.you]

    @property
    def yours(self) -> bool:
        """Whether it is the reader's turn."""
        return self.status == RUNNING and self.to_move is not None and self.seat(self.to_move).you

    @property
    def over(self) -> bool:
        return self.result is not None or self.status in (ENDED, ABORTED, CANCELLED, DECLINED)


def window_seats(roles: Sequence[Any], kinds: Sequence[str], colours: Sequence[str] = ()) -> tuple[Seat, ...]:
    """The seats of a game at one screen: ``kinds`` are "human" or a computer player's spec.
    The reader is the person at the screen: "you" when one seat is a person's; with several
    (people taking turns at one screen) the seats are named by their roles alone."""
    people = [k for k in kinds if k == "human"]
    return tuple(Seat(p, roles[p - 1] if p <= len(roles) else None,
                      PERSON if kind == "human" else COMPUTER,
                      spec=None if kind == "human" else kind,
                      you=kind == "human" and len(people) == 1,
                      colour=colours[p - 1] if p <= len(colours) else None)
                 for p, kind in enumerate(kinds, start=1))
