"""Records: a finished match as the record the desktop saves, and a desktop record continued
online as a new match."""
from __future__ import annotations

import json
import re
import secrets
from typing import Any

from ...errors import RecordError
from ...record import Record
from ..accounts import User
from ..catalogue import Catalogue
from ..engines import Engines
from ..errors import Conflict, Invalid, NotFound
from ..snapshots import MatchKey
from ..store import now
from .lobby import Lobby
from .repository import MatchTables, MoveRow
from .seating import agent_spec

#: The largest record accepted (its text).
MAX_RECORD = 16 * 2**20


class Records:
    def __init__(self, tables: MatchTables, engines: Engines, catalogue: Catalogue, lobby: Lobby):
        self.tables = tables
        self.engines = engines
        self.catalogue = catalogue
        self.lobby = lobby

    def export(self, match_id: int) -> str:
        """The record of an ended match (before the end it would tell the seed, and so the
        future of chance and hidden information)."""
        m = self.tables.load(match_id)
        if m is None:
            raise NotFound(f"no match {match_id}")
        if not m.row.over:
            raise Conflict("the record of a match is given once it has ended: it holds the seed, "
                           "which would tell the future of chance and hidden information")
        entry = self.catalogue.by_sha(m.row.script_sha256)
        if entry is None:
            raise NotFound(f"the script of match {m.id} is missing")
        name = (entry.info or {}).get("name", m.row.game)
        # (a record has no user names: people are "human", computer seats their player)
        players = ["human" if s.kind != "computer" else agent_spec(s)
                   for s in m.seats]
        rec = Record(name, entry.name if entry.origin != "upload" else name, dict(m.row.options),
                     int(m.row.seed), [mv.notation for mv in m.moves], m.row.script_sha256,
                     players, (m.row.outcome or {}).get("text"), [list(mv.steps) for mv in m.moves])
        return rec.to_text()

    def continue_record(self, user: User, record: dict[str, Any] | str, seat_list: list[str],
                        game: str | None = None, time_per_move: float | str | None = None) -> dict[str, Any]:
        """A desktop record, continued online (unrated: its seed is known).  Its script is found
        by SHA-256 among the server's scripts, else by the game's name in the catalogue (never
        by a path)."""
        text = json.dumps(record) if isinstance(record, dict) else record
        if len(text) > MAX_RECORD:
            raise Invalid("the record is too large")
        try:
            rec = Record.from_text(text, "record")
        except RecordError as exc:
            raise Invalid(str(exc)) from None
        entry = None
        if game is not None:
            entry = self.lobby.game(game)
        elif rec.script_sha256:
            entry = self.catalogue.by_sha(rec.script_sha256.lower()) if re.fullmatch(
                r"[0-9a-fA-F]{64}", rec.script_sha256) else None
        if entry is None:
            by_path = rec.script.endswith(".lua") or "/" in rec.script or "\\" in rec.script
            entry = self.lobby.game(rec.game if by_path else rec.script)
        self.catalogue.store_script(entry)
        name = (entry.info or {}).get("name")
        if name is not None and name != rec.game:
            raise Invalid(f"this record is a game of {rec.game!r}, not of {entry.name!r} ({name!r})")
        # (the replay is slow work for a long record: a job off the request's thread, one day)
        replay = self.engines.replay(entry.sha256, rec.options, rec.seed, rec.moves, rec.steps)
        key = MatchKey(-secrets.randbits(40) - 1, entry.sha256, replay["options"], rec.seed, -1)
        match_seats = self.lobby.seats(seat_list, replay["players"], user)
        t = now()
        played = [MoveRow(ply, seat, steps, notation, t) for ply, (steps, notation, seat) in enumerate(replay["moves"])]
        snapshot = self.engines.snapshot(key, lambda: [mv.steps for mv in played], [])
        self.engines.forget(key)
        if snapshot.outcome is not None:
            raise Invalid(f"the record's game is over ({snapshot.outcome['text']}): nothing to continue")
        return self.lobby.open(user, entry, replay["options"], None, replay["players"], rec.seed,
                               match_seats, snapshot.to_move, time_per_move, False, played)
