"""Records: a finished match as the record the desktop saves, and a desktop record continued
online as a new match."""
from __future__ import annotations

import json
import re
from typing import Any

from ...errors import RecordError
from ...record import Record
from ..accounts import User
from ..catalogue import Catalogue
from ..catalogue import Entry
from ..engines import Engines, replay_alone
from ..errors import Conflict, Invalid, NotFound
from ..jobs import Jobs, Running, Submitted
from ..settings import Settings
from ..store import now
from .clock import time_per_move as time_per_move_of
from .lobby import Lobby
from .repository import MatchTables, MoveRow
from .seating import agent_spec, parse_seat

#: The kind of job that replays an imported record.
IMPORT = "import"

#: The largest record accepted (its text): 2,000 moves of a long notation.
MAX_RECORD = 2**20


class Records:
    def __init__(self, tables: MatchTables, engines: Engines, catalogue: Catalogue, lobby: Lobby, jobs: Jobs,
                 settings: Settings):
        self.tables = tables
        self.engines = engines
        self.catalogue = catalogue
        self.lobby = lobby
        self.jobs = jobs
        self.settings = settings
        jobs.handle(IMPORT, self.run_import)

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
                        game: str | None = None, time_per_move: float | str | None = None) -> Submitted:
        """A desktop record, continued online (unrated: its seed is known): the cheap checks (its
        size, its form, its number of moves, its game, the seats' names), then the job that
        replays it and stores the match.  Its script is found by SHA-256 among the server's
        scripts, else by the game's name in the catalogue (never by a path)."""
        text = json.dumps(record) if isinstance(record, dict) else record
        rec, _entry = self._read(text, game)
        for raw in seat_list:          # each seat's name (their number is the replay's)
            parse_seat(raw, self.lobby.accounts.by_name, self.settings)
        time_per_move_of(time_per_move, self.settings.min_time_per_move)
        payload = {"record": text, "seats": seat_list, "game": game, "time_per_move": time_per_move}
        return Submitted(self.jobs.submit(user.id, IMPORT, payload, self.settings.imports_per_hour,
                                          "record imports"))

    def _read(self, text: str, game: str | None) -> tuple[Record, Entry]:
        """The record and the catalogue entry of its script."""
        if len(text) > MAX_RECORD:
            raise Invalid("the record is too large")
        try:
            rec = Record.from_text(text, "record")
        except RecordError as exc:
            raise Invalid(str(exc)) from None
        if len(rec.moves) > self.settings.max_record_moves:
            raise Invalid(f"the record has {len(rec.moves)} moves; this server continues records of at most "
                          f"{self.settings.max_record_moves}")
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
        return rec, entry

    def run_import(self, running: Running) -> tuple[int, dict[str, Any]]:
        """The job: replays the record (in a worker process of its own, within the job's budget)
        and stores the match, ending the job in the same transaction."""
        payload = running.job.payload
        user = self.lobby.accounts.by_id(running.job.user_id)
        if user is None:
            raise NotFound("the account that sent this record is gone")
        rec, entry = self._read(payload["record"], payload["game"])
        replay = replay_alone(self.catalogue.script(entry.sha256), self.engines.limits, rec.options, rec.seed,
                              rec.moves, rec.steps, self.settings.job_seconds, running.stop)
        if replay["outcome"] is not None:
            raise Invalid(f"the record's game is over ({replay['outcome']}): nothing to continue")
        match_seats = self.lobby.seats(payload["seats"], replay["players"], user)
        t = now()
        played = [MoveRow(ply, seat, steps, notation, t) for ply, (steps, notation, seat) in enumerate(replay["moves"])]
        created = self.lobby.open(user, entry, replay["options"], None, replay["players"], rec.seed, match_seats,
                                  replay["to_move"], payload["time_per_move"], False, played,
                                  within=lambda w, answer: running.finish_in(w.db, 201, answer))
        return 201, created
