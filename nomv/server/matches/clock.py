"""Time in matches: a time per move read from a request (correspondence: each move's deadline),
a live time control (Fischer: a base time per player plus an increment per move, a clock per
seat that runs while that seat is to move), and times as the answers write them.

Both kinds end the match through one column, the match's ``deadline``: the moment the seat to
move runs out of time (for a live clock, when its clock started plus the time it had left).
The server's sweep and any request that finds the match overdue end it there.
"""
from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, replace
from typing import Any

from ..errors import Invalid
from ..store import now
from .repository import SeatRow

#: The longest time per move a match may ask for.
MAX_TIME_PER_MOVE = 365 * 86400
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|min|h|d)?\s*$", re.I)


#: What a request writes for a correspondence match with no time limit (none by default: a
#: match between people gets the server's default time per move when it asks for none).
NO_LIMIT = "none"


def parse_duration(value: Any) -> float | None:
    """Seconds from a number of seconds or a text such as ``36h``, ``3d``, ``90m``."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise Invalid("time_per_move is a number of seconds, or a text like 12h or 3d (or \"none\": no limit)")
    if isinstance(value, (int, float)):
        return float(value)
    m = _DURATION.match(str(value)) if isinstance(value, str) else None
    if not m:
        raise Invalid(f"time_per_move is a number of seconds, or a text like 12h or 3d (or \"none\": no limit); "
                      f"got {str(value)[:40]!r}")
    unit = (m.group(2) or "s").lower()
    return float(m.group(1)) * {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}[unit]


def time_per_move(value: Any, shortest: float, default: float | None = None) -> float | None:
    """The time per move a request asks for, checked against the server's shortest: ``default``
    when it asks for nothing, None (no limit) when it asks for ``"none"``."""
    if value is None:
        return default
    if isinstance(value, str) and value.strip().lower() == NO_LIMIT:
        return None
    seconds = parse_duration(value)
    if seconds is not None and not shortest <= seconds <= MAX_TIME_PER_MOVE:
        raise Invalid(f"time_per_move must be from {shortest:g} seconds to {MAX_TIME_PER_MOVE // 86400} days")
    return seconds


def deadline(match_seats: list[SeatRow], to_move: int | None, seconds: float | None) -> float | None:
    """When the seat to move runs out of time (people only: computer players have no clock)."""
    if seconds is None or to_move is None or match_seats[to_move - 1].kind != "user":
        return None
    return now() + seconds


def iso(t: float | None) -> str | None:
    """A time as the answers give it (ISO 8601, UTC, whole seconds)."""
    if t is None:
        return None
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat(timespec="seconds")


#: A live time control's bounds: base time (seconds) and increment per move (seconds).
MAX_BASE, MAX_INCREMENT = 3 * 3600, 180
_CONTROL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$")


def time_control(value: Any) -> tuple[float, float] | None:
    """(base, increment) in seconds from ``{"base": s, "increment": s}`` or a text ``"5+3"``
    (minutes plus seconds, as chess players write it)."""
    if value is None:
        return None
    if isinstance(value, str):
        m = _CONTROL.match(value)
        if not m:
            raise Invalid(f"clock is minutes+seconds such as 5+3, or {{\"base\": 300, \"increment\": 3}}; "
                          f"got {value[:40]!r}")
        base, increment = float(m.group(1)) * 60, float(m.group(2))
    elif isinstance(value, dict) and set(value) <= {"base", "increment"} and "base" in value:
        base, increment = value["base"], value.get("increment", 0)
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in (base, increment)):
            raise Invalid("clock's base and increment are numbers of seconds")
        base, increment = float(base), float(increment)
    else:
        raise Invalid("clock is minutes+seconds such as 5+3, or {\"base\": 300, \"increment\": 3}")
    if not 1 <= base <= MAX_BASE:
        raise Invalid(f"clock's base time must be from 1 second to {MAX_BASE // 3600} hours, got {base:g} s")
    if not 0 <= increment <= MAX_INCREMENT:
        raise Invalid(f"clock's increment must be from 0 to {MAX_INCREMENT} seconds, got {increment:g} s")
    return base, increment


@dataclass(frozen=True)
class Fischer:
    """A live clock: each seat's time left (as of ``since`` for the seat to move, whose clock
    runs from then; ``since`` is None while no clock runs: before the start, after the end).
    Computer players have no clock: their seats' time stays as it was."""
    base: float
    increment: float
    left: tuple[float, ...]
    since: float | None = None

    @classmethod
    def new(cls, base: float, increment: float, seats: int) -> Fischer:
        return cls(base, increment, tuple([base] * seats))

    @classmethod
    def of(cls, row: dict[str, Any] | None) -> Fischer | None:
        if not row:
            return None
        return cls(float(row["base"]), float(row["increment"]), tuple(float(x) for x in row["left"]),
                   None if row.get("since") is None else float(row["since"]))

    def row(self) -> dict[str, Any]:
        return {"base": self.base, "increment": self.increment, "left": list(self.left), "since": self.since}

    def started(self, t: float) -> Fischer:
        """The clock of the seat to move runs from ``t`` (the start, a takeback)."""
        return replace(self, since=t)

    def moved(self, seat: int, t: float, person: bool) -> Fischer:
        """After ``seat`` moved at ``t``: its time used comes off, the increment goes on; the
        next seat's clock runs from ``t``."""
        left = list(self.left)
        if person and self.since is not None:
            left[seat - 1] = max(0.0, left[seat - 1] - (t - self.since)) + self.increment
        return replace(self, left=tuple(left), since=t)

    def stopped(self, to_move: int | None, t: float, person: bool) -> Fischer:
        """The match ended at ``t``: the seat to move keeps the time it had then."""
        left = list(self.left)
        if to_move is not None and person and self.since is not None:
            left[to_move - 1] = max(0.0, left[to_move - 1] - (t - self.since))
        return replace(self, left=tuple(left), since=None)

    def deadline(self, match_seats: list[SeatRow], to_move: int | None) -> float | None:
        """When the seat to move runs out of time (None for a computer player, or no clock running)."""
        if self.since is None or to_move is None or match_seats[to_move - 1].kind != "user":
            return None
        return self.since + self.left[to_move - 1]

    def shown(self, match_seats: list[SeatRow], to_move: int | None, t: float) -> dict[str, Any]:
        """The clock as answers give it: each seat's time left at ``t`` and the seat whose
        clock runs."""
        running = to_move if self.deadline(match_seats, to_move) is not None else None
        left = [round(max(0.0, x - (t - self.since)) if running == k + 1 and self.since is not None else x, 1)
                for k, x in enumerate(self.left)]
        return {"base": self.base, "increment": self.increment, "left": left, "running": running}
