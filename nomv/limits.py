"""The limits a game script runs under: CPU time per call and memory per runtime.

A :class:`Limits` value is passed down explicitly, from the command line or the caller of the
API to the engine; the environment (``NOMV_TIME_LIMIT``, ``NOMV_MEMORY_MB``) is read in one
place, :meth:`Limits.from_env`.

>>> Limits(time=2).time, Limits().memory_mb
(2.0, 1024.0)
>>> Limits(time=-1)
Traceback (most recent call last):
ValueError: time limit -1 is negative; give seconds, or 0 for no limit
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Mapping

from .errors import NomvError

#: Seconds of CPU time for one call of a script function (or one game of a playout, one node of
#: perft): a hang is reported in less than two seconds.
DEFAULT_TIME = 1.5
#: Bytes for one game's whole Lua runtime.
DEFAULT_MEMORY = 1 << 30


@dataclass(frozen=True)
class Limits:
    """``time``: CPU seconds a call into the script may take; ``memory``: bytes a script's
    runtime may use.  0 means no limit."""

    time: float = DEFAULT_TIME
    memory: int = DEFAULT_MEMORY

    def __post_init__(self) -> None:
        if not self.time >= 0:
            raise ValueError(f"time limit {self.time!r} is negative; give seconds, or 0 for no limit")
        if not self.memory >= 0:
            raise ValueError(f"memory limit {self.memory!r} is negative; give bytes, or 0 for no limit")
        object.__setattr__(self, "time", float(self.time))
        object.__setattr__(self, "memory", int(self.memory))

    @property
    def memory_mb(self) -> float:
        return self.memory / 2**20

    def with_(self, time: float | None = None, memory_mb: float | None = None) -> "Limits":
        """These limits with the given ones changed (None keeps a limit)."""
        return replace(self, time=self.time if time is None else time,
                       memory=self.memory if memory_mb is None else int(memory_mb * 2**20))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 default: "Limits | None" = None) -> "Limits":
        """``default`` (else the defaults) changed by ``NOMV_TIME_LIMIT`` (seconds per call) and
        ``NOMV_MEMORY_MB`` (megabytes per game) where they are set."""
        env = os.environ if environ is None else environ
        base = default or cls()
        return base.with_(time=_number(env, "NOMV_TIME_LIMIT"), memory_mb=_number(env, "NOMV_MEMORY_MB"))


def slowdown(environ: Mapping[str, str] | None = None) -> float:
    """``NOMV_SLOWER=k`` (k >= 1): act as a machine k times slower, for running the tests as a
    slower machine would (README, "Testing"): every call into a script may use only 1/k of its
    time limit, while messages still name the limit itself.  1 when unset.

    >>> slowdown({"NOMV_SLOWER": "3"}), slowdown({})
    (3.0, 1.0)
    """
    value = _number(os.environ if environ is None else environ, "NOMV_SLOWER")
    if value is None:
        return 1.0
    if value < 1:
        raise NomvError(f"NOMV_SLOWER={value:g} must be at least 1 (how many times slower the machine acts)")
    return value


def _number(env: Mapping[str, str], var: str) -> float | None:
    raw = env.get(var)
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise NomvError(f"{var}={raw!r} is not a number") from None
    if not value >= 0:
        raise NomvError(f"{var}={raw!r} must not be negative")
    return value
