"""Time in matches: a time per move read from a request, each move's deadline, and times as
the answers write them."""
from __future__ import annotations

import datetime
import re
from typing import Any

from ..errors import Invalid
from ..store import now
from .repository import SeatRow

#: The longest time per move a match may ask for.
MAX_TIME_PER_MOVE = 365 * 86400
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|min|h|d)?\s*$", re.I)


def parse_duration(value: Any) -> float | None:
    """Seconds from a number of seconds or a text such as ``36h``, ``3d``, ``90m``."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise Invalid("time_per_move is a number of seconds, or a text like 12h or 3d")
    if isinstance(value, (int, float)):
        return float(value)
    m = _DURATION.match(str(value)) if isinstance(value, str) else None
    if not m:
        raise Invalid(f"time_per_move is a number of seconds, or a text like 12h or 3d; got {str(value)[:40]!r}")
    unit = (m.group(2) or "s").lower()
    return float(m.group(1)) * {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}[unit]


def time_per_move(value: Any, shortest: float) -> float | None:
    """The time per move a request asks for, checked against the server's shortest."""
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
