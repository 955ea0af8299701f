"""The plain data the server's engines answer in: which position (a match's key), what a look
shows of it (a snapshot), what a move did, and a game's script.  Its own module so that the
engines and the cache of looks (looks.py) both use it without importing each other."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


#: The whole state (only once a match has ended).
WHOLE = None


@dataclass(frozen=True)
class Script:
    sha256: str
    source: str
    path: str          # how messages name the script, e.g. trinim.lua or alice/mygame.lua


@dataclass(frozen=True)
class MatchKey:
    """What identifies a match's position: its script, chosen options, seed, and the version
    of its moves in the database."""
    id: int
    sha256: str
    options: dict
    seed: int
    version: int
    ply: int | None = None     # the number of moves, when known: checked against the moves


#: Loads the match's moves (each a list of step ids, in order) from the database.
MovesLoader = Callable[[], list[list[str]]]


@dataclass
class Snapshot:
    ply: int
    to_move: int | None
    outcome: dict | None
    #: The legal moves of the player to move: {"steps", "notation", "any_order", "label"}.
    legal: list[dict]
    #: For each viewer asked for (a seat, SPECTATOR or WHOLE): {"view", "scene"} or {"error"}.
    views: dict[Any, dict]
    #: Whether the game has hidden information (a view hook): else every viewer sees the same.
    hidden: bool = False
    #: The size of each view (keyed like ``views``): bytes of its JSON, what a cache of them holds.
    sizes: dict[Any, int] = field(default_factory=dict)


@dataclass
class Played:
    steps: list[str]
    notation: str
    seat: int | None      # who moved, as the script says (None only from a broken script: E063)
    snapshot: Snapshot
