"""The match service: who may act, ply checks, draws, takebacks, clocks, and what each
participant is shown.

Every change is one database transaction that checks the match's version (compare and set), and
a move is also a row whose (match, ply) is unique among the moves not taken back: of two
simultaneous moves exactly one lands, whichever process took them.  Within this process a lock
per match keeps requests for one match in order, so that the loser of a race is told at once
(409, with the position it did not see).

Everything sent to a participant is built from that participant's view (the game's ``view``
hook, and the scene of that view); spectators get the view of no player (``view(state, 0)``);
the whole state only once the match has ended.  The seed is never shown before the end: it
would tell the future of chance and hidden information.
"""
from __future__ import annotations

import dataclasses
import datetime
import logging
import re
import secrets
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable, ContextManager, Iterator

import sqlalchemy as sa

from ..ai.agents import LEVELS, AgentSpecError, MctsAgent, make_agent
from ..play import policy, wording
from ..play.marks import move_buttons, step_names
from ..play.match import Result
from ..errors import RecordError
from ..game import Move
from ..record import Record
from . import ratings, reading
from .accounts import Accounts, User
from .catalogue import Catalogue, Entry
from .engines import SPECTATOR, Engines
from .snapshots import WHOLE, MatchKey, Snapshot
from .errors import (ApiError, Conflict, Forbidden, Illegal, Invalid, NotFound, ScriptFailed,
                     Stale)
from .live import LiveHub
from .settings import Settings
from .store import Store, matches, moves, now, seats, users

log = logging.getLogger("nomv.server")

RUNNING = "active"
ENDED = ("ended", "aborted")
LEVEL_SPECS = {name: spec for spec, name in LEVELS}
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


def iso(t: float | None) -> str | None:
    if t is None:
        return None
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat(timespec="seconds")


@dataclass
class Seat:
    seat: int
    kind: str                   # user, open, computer
    user_id: int | None = None
    user: str | None = None
    spec: str | None = None
    accepted: bool = False
    email: str | None = None
    notify: bool = False


@dataclass
class Loaded:
    """A match as the database holds it, with its seats and its moves not taken back."""
    row: Any
    seats: list[Seat]
    moves: list[Any]

    @property
    def id(self) -> int:
        return self.row.id

    def key(self) -> MatchKey:
        r = self.row
        return MatchKey(r.id, r.script_sha256, dict(r.options), int(r.seed), r.version, r.ply)

    def loader(self) -> Callable[[], list[list[str]]]:
        steps = [list(m.steps) for m in self.moves]
        return lambda: steps

    def seats_of(self, user: User | None) -> list[int]:
        if user is None:
            return []
        return [s.seat for s in self.seats if s.kind == "user" and s.user_id == user.id]

    def seat(self, number: int) -> Seat:
        return self.seats[number - 1]


class Matches:
    def __init__(self, store: Store, engines: Engines, catalogue: Catalogue, accounts: Accounts,
                 live: LiveHub, settings: Settings, mailer=None):
        self.store = store
        self.engines = engines
        self.catalogue = catalogue
        self.accounts = accounts
        self.live = live
        self.settings = settings
        self.mailer = mailer
        #: Set by the app: wakes the computer players for a match.
        self.on_computer_turn: Callable[[int], None] = lambda match_id: None
        #: Set by the app: the seat whose computer player is searching in a match, or None.
        self.thinking: Callable[[int], int | None] = lambda match_id: None
        #: Messages of computer players that failed, by match (shown with the match).
        self.computer_errors: dict[int, str] = {}
        self._locks = MatchLocks()

    def lock(self, match_id: int) -> ContextManager[None]:
        return self._locks(match_id)

    # -- reading ------------------------------------------------------------------------------

    def load(self, match_id: int, db=None) -> Loaded:
        if db is None:
            with self.store.read() as db:
                return self.load(match_id, db)
        if not isinstance(match_id, int) or not 0 < match_id < 2**62:
            raise NotFound(f"no match {match_id}")
        row = db.execute(_MATCH, {"match_id": match_id}).first()
        if row is None:
            raise NotFound(f"no match {match_id}")
        seat_rows = db.execute(_SEATS, {"match_id": match_id}).all()
        move_rows = db.execute(_MOVES, {"match_id": match_id}).all()
        return Loaded(row, [Seat(r.seat, r.kind, r.user_id, r.name, r.spec, r.accepted, r.email,
                                 bool(r.notify)) for r in seat_rows], move_rows)

    def entry(self, m: Loaded) -> Entry:
        entry = self.catalogue.by_sha(m.row.script_sha256)
        if entry is None:
            raise NotFound(f"the script of match {m.id} is missing")
        return entry

    def viewer(self, m: Loaded, user: User | None) -> int | None:
        """Whose view a user gets: the whole state once the match has ended; a player's own
        (the seat to move, when they hold several); a spectator's otherwise."""
        return policy.viewer(m.row.status in ENDED, m.seats_of(user), m.row.to_move)

    def show(self, match_id: int, user: User | None, lang: str = "en") -> dict:
        """The match as ``user`` may see it (None: an anonymous spectator), worded in ``lang``."""
        m = self.load(match_id)
        if m.row.status == RUNNING and m.row.deadline is not None and m.row.deadline < now():
            self.check_clock(match_id)
            m = self.load(match_id)
        return self.describe(m, user, lang=lang)

    def earlier(self, match_id: int, ply: int, user: User | None) -> dict:
        """The position after the match's first ``ply`` moves, as ``user`` may see it now."""
        m = self.load(match_id)
        if not 0 <= ply <= m.row.ply:
            raise Invalid(f"ply must be from 0 to {m.row.ply}, got {ply}")
        viewer = self.viewer(m, user)
        shown = self.engines.earlier(m.key(), m.loader(), ply, viewer)
        return {**shown, "id": m.id, "moves": [mv.notation for mv in m.moves[:ply]],
                "last_move": None if ply == 0 else {"ply": ply - 1, "seat": m.moves[ply - 1].seat,
                                                    "steps": m.moves[ply - 1].steps,
                                                    "notation": m.moves[ply - 1].notation}}

    def describe(self, m: Loaded, user: User | None, snapshot: Snapshot | None = None, lang: str = "en") -> dict:
        r = m.row
        entry = self.entry(m)
        info = entry.info or {}
        viewer = self.viewer(m, user)
        mine = m.seats_of(user)
        error = None
        if snapshot is None or viewer not in snapshot.views:
            try:
                snapshot = self.engines.snapshot(m.key(), m.loader(), [viewer])
            except ScriptFailed as exc:
                error, snapshot = exc.message, None
        shown = snapshot.views.get(viewer, {}) if snapshot is not None else {}
        error = error or shown.get("error") or self.computer_errors.get(r.id)
        my_turn = r.status == RUNNING and r.to_move in mine and snapshot is not None
        legal = snapshot.legal if my_turn and snapshot is not None else []
        buttons = []
        if legal and shown.get("scene") is not None:
            # the steps with no place on the board (pass, roll): buttons (nomv.boardmarks)
            buttons = [{"id": b.id, "text": b.text} for b in move_buttons(
                shown["scene"], [Move(tuple(mv["steps"]), bool(mv.get("any_order")), mv.get("label"))
                                 for mv in legal], [mv["notation"] for mv in legal])]
        t = now()
        expects = self._expects(m)
        out = {
            "id": r.id, "game": r.game, "title": reading.title(info, r.game, lang), "sha256": r.script_sha256,
            "options": r.options, "variant": r.variant, "players": r.players, "status": r.status,
            "ply": r.ply, "version": r.version, "to_move": r.to_move if r.status == RUNNING else None,
            "seats": [{"seat": s.seat, "kind": s.kind, "user": s.user, "spec": s.spec, "accepted": s.accepted,
                       "you": s.seat in mine, "expects": expects.get(s.seat)} for s in m.seats],
            "you": mine,
            "viewer": "whole" if viewer is WHOLE else "spectator" if viewer == SPECTATOR else viewer,
            "outcome": r.outcome,
            "view": shown.get("view"), "scene": shown.get("scene"), "marks": shown.get("marks", []),
            "buttons": buttons,
            "moves": [mv.notation for mv in m.moves],
            "last_move": None if not m.moves else {"ply": m.moves[-1].ply, "seat": m.moves[-1].seat,
                                                   "steps": m.moves[-1].steps, "notation": m.moves[-1].notation},
            "legal": [mv["steps"] for mv in legal],
            "legal_moves": legal,
            "draw_offer": r.draw_offer, "takeback": r.takeback,
            "rated": r.rated, "time_per_move": r.time_per_move,
            "deadline": iso(r.deadline) if r.status == RUNNING else None,
            "seconds_left": max(0.0, round(r.deadline - t, 1)) if r.deadline and r.status == RUNNING else None,
            "created_at": iso(r.created_at), "updated_at": iso(r.updated_at),
            "script_error": error,
            "thinking": self.thinking(r.id) if r.status == RUNNING else None,
        }
        if r.status in ENDED:
            out["seed"] = r.seed
        return self._worded(out, m, mine, expects, lang, shown, legal)

    @staticmethod
    def _expects(m: Loaded) -> dict[int, float]:
        """Each computer seat's estimate of its share of the points, with its latest move."""
        expects = {}
        for mv in m.moves:
            if mv.expects is not None:
                expects[mv.seat] = round(float(mv.expects), 3)
        return expects

    def _worded(self, out: dict, m: Loaded, mine: list[int], expects: dict[int, float], lang: str,
                shown: dict, legal: list[dict]) -> dict:
        """The answer with what it says in words in the reader's language (nomv.play.wording:
        the line, the offers, the seats) and the drawing of the position (nomv.play.drawing)."""
        view = reading.match_view(m.row, m.seats, self.entry(m).info, mine, out.get("thinking"), expects)
        words = reading.worded(view, lang)
        out["seats"] = [{**seat, **said} for seat, said in zip(out["seats"], words.pop("seats"))]
        out.update(words)
        scene = shown.get("scene")
        out["status_line"] = wording.status_line(view, scene.get("status") if isinstance(scene, dict) else None, lang)
        out["drawing"] = shown.get("drawing")
        out["step_names"] = {}
        if legal and shown.get("scene") is not None:
            out["step_names"] = step_names(shown["scene"], [Move(tuple(mv["steps"])) for mv in legal],
                                           [mv["notation"] for mv in legal], lang)
        return out

    # -- creating ------------------------------------------------------------------------------

    def parse_seat(self, raw: Any) -> Seat:
        if not isinstance(raw, str) or not raw.strip() or len(raw) > 200:
            raise Invalid("each seat is a user's name, \"open\", or a computer player "
                          "(easy, medium, hard, random, mcts:1s, ...)")
        text = raw.strip()
        low = text.lower()
        if low == "open":
            return Seat(0, "open")
        if low in LEVEL_SPECS or low.startswith(("mcts", "random")) and (":" in low or low in ("mcts", "random")):
            spec = LEVEL_SPECS.get(low, text)
            try:
                agent = make_agent(spec)
            except (AgentSpecError, ValueError) as exc:
                raise Invalid(f"seat {text!r}: {exc}") from None
            if isinstance(agent, MctsAgent):
                s = self.settings
                if agent.seconds is not None and agent.seconds > s.computer_seconds:
                    raise Invalid(f"seat {text!r}: this server lets a computer think at most "
                                  f"{s.computer_seconds:g} s a move")
                if agent.iterations is not None and agent.iterations > s.computer_iterations:
                    raise Invalid(f"seat {text!r}: this server allows at most "
                                  f"{s.computer_iterations} iterations a move")
            return Seat(0, "computer", spec=text if low not in LEVEL_SPECS else low, accepted=True)
        if low == "human":
            raise Invalid("name the person: a seat is a user's name, \"open\" or a computer player")
        user = self.accounts.by_name(text)
        if user is None:
            raise Invalid(f"seat {text!r}: no user has this name (a seat is a user's name, "
                          "\"open\", or a computer player such as medium or mcts:1s)")
        return Seat(0, "user", user.id, user.name, email=user.email, notify=user.notify)

    def _seats(self, raw: Any, players: int, creator: User) -> list[Seat]:
        if not isinstance(raw, list) or not raw:
            raise Invalid(f"seats lists who plays each seat: {players} here")
        if len(raw) != players:
            raise Invalid(f"this match has {players} players: seats must list {players}, not {len(raw)} "
                          "(set the number of players with the option players)")
        out = []
        for number, item in enumerate(raw, start=1):
            seat = self.parse_seat(item)
            seat.seat = number
            if seat.kind == "user" and seat.user_id == creator.id:
                seat.accepted = True
            out.append(seat)
        return out

    def create(self, user: User, game: Any, options: Any = None, variant: Any = None,
               seat_list: Any = None, time_per_move: Any = None, rated: Any = None) -> dict:
        entry = self._game(game)
        if options is not None and not isinstance(options, dict):
            raise Invalid("options is an object of option values, e.g. {\"size\": 7}")
        if variant is not None and not isinstance(variant, str):
            raise Invalid("variant is a variant's name")
        seed = secrets.randbits(62)
        started = self.engines.start(entry.sha256, options or {}, variant, seed)
        match_seats = self._seats(seat_list, started["players"], user)
        return self._insert(user, entry, started["options"], variant, started["players"], seed,
                            match_seats, started["to_move"], time_per_move, rated, [])

    def _game(self, game: Any) -> Entry:
        try:
            entry = self.catalogue.find(game)
        except NotFound as exc:
            raise Invalid(exc.message) from None
        self.catalogue.store_script(entry)
        return entry

    def _insert(self, user: User, entry: Entry, options: dict, variant: str | None, players: int,
                seed: int, match_seats: list[Seat], to_move: int | None, time_per_move: Any,
                rated: Any, played: list[tuple]) -> dict:
        tpm = parse_duration(time_per_move)
        if tpm is not None and not self.settings.min_time_per_move <= tpm <= MAX_TIME_PER_MOVE:
            raise Invalid(f"time_per_move must be from {self.settings.min_time_per_move:g} seconds "
                          f"to {MAX_TIME_PER_MOVE // 86400} days")
        if rated is not None and not isinstance(rated, bool):
            raise Invalid("rated is true or false")
        computers = any(s.kind == "computer" for s in match_seats)
        if rated and computers:
            raise Invalid("a match with computer players is not rated: leave out rated, or set it to false")
        if rated and played:
            raise Invalid("a match continued from a record is not rated (its seed is known)")
        rated = bool(rated if rated is not None else not computers and not played)
        opens = any(s.kind == "open" for s in match_seats)
        active = all(s.accepted for s in match_seats)
        t = now()
        invite = secrets.token_urlsafe(18) if opens else None
        status = RUNNING if active else "waiting"
        with self.store.write() as db:
            inserted = db.execute(matches.insert().values(
                script_sha256=entry.sha256, game=entry.name, options=options, variant=variant,
                players=players, seed=seed, status=status, ply=len(played), version=len(played),
                to_move=to_move, outcome=None, rated=rated, time_per_move=tpm,
                deadline=self._deadline(match_seats, to_move, tpm) if active else None,
                invite=invite, draw_offer=None, takeback=None, created_by=user.id,
                created_at=t, updated_at=t)).inserted_primary_key
            assert inserted is not None, "an insert gives its row's key"
            match_id = inserted[0]
            db.execute(seats.insert(), [{"match_id": match_id, "seat": s.seat, "kind": s.kind,
                                         "user_id": s.user_id, "spec": s.spec, "accepted": s.accepted}
                                        for s in match_seats])
            if played:
                db.execute(moves.insert(), [{"match_id": match_id, "ply": ply, "seat": seat,
                                             "steps": steps, "notation": notation, "played_at": t,
                                             "taken_back_at": None}
                                            for ply, (steps, notation, seat) in enumerate(played)])
        if active:
            self._after(match_id, "start", acting=user)
        return {"id": match_id, "status": status, "invite": invite}

    def _deadline(self, match_seats: list[Seat], to_move: int | None, tpm: float | None) -> float | None:
        if tpm is None or to_move is None or match_seats[to_move - 1].kind != "user":
            return None
        return now() + tpm

    def continue_record(self, user: User, record: Any, seat_list: Any, game: Any = None,
                        time_per_move: Any = None) -> dict:
        """A desktop record, continued online.  Its script is found by SHA-256 among the
        server's scripts, else by the game's name in the catalogue (never by a path)."""
        if isinstance(record, dict):
            import json
            text = json.dumps(record)
        elif isinstance(record, str):
            text = record
        else:
            raise Invalid("record is a nomv game record (the JSON the desktop saves)")
        if len(text) > 16 * 2**20:
            raise Invalid("the record is too large")
        try:
            rec = Record.from_text(text, "record")
        except RecordError as exc:
            raise Invalid(str(exc)) from None
        entry = None
        if game is not None:
            entry = self._game(game)
        elif rec.script_sha256:
            entry = self.catalogue.by_sha(rec.script_sha256.lower()) if re.fullmatch(
                r"[0-9a-fA-F]{64}", rec.script_sha256) else None
        if entry is None:
            by_path = rec.script.endswith(".lua") or "/" in rec.script or "\\" in rec.script
            entry = self._game(rec.game if by_path else rec.script)
        self.catalogue.store_script(entry)
        name = (entry.info or {}).get("name")
        if name is not None and name != rec.game:
            raise Invalid(f"this record is a game of {rec.game!r}, not of {entry.name!r} ({name!r})")
        replay = self.engines.replay(entry.sha256, rec.options, rec.seed, rec.moves, rec.steps)
        key = MatchKey(-secrets.randbits(40) - 1, entry.sha256, replay["options"], rec.seed, -1)
        match_seats = self._seats(seat_list, replay["players"], user)
        played = replay["moves"]
        snapshot = self.engines.snapshot(key, lambda: [p[0] for p in played], [])
        self.engines.forget(key)
        if snapshot.outcome is not None:
            raise Invalid(f"the record's game is over ({snapshot.outcome['text']}): nothing to continue")
        return self._insert(user, entry, replay["options"], None, replay["players"], rec.seed,
                            match_seats, snapshot.to_move, time_per_move, False, played)

    # -- seats: invitations, challenges -------------------------------------------------------

    def invite_info(self, token: str, lang: str = "en") -> dict:
        with self.store.read() as db:
            row = db.execute(sa.select(matches.c.id).where(matches.c.invite == token)).first()
        if row is None:
            raise NotFound("no match has this invitation (it may be mistyped)")
        m = self.load(row.id)
        out = {"id": m.id, "game": m.row.game, "status": m.row.status,
               "open_seats": [s.seat for s in m.seats if s.kind == "open"],
               "seats": [{"seat": s.seat, "kind": s.kind, "user": s.user, "spec": s.spec} for s in m.seats]}
        self._listed(out, m.row, m.seats, [], {}, lang)
        return out

    def join(self, user: User, token: str, seat: Any = None) -> dict:
        info = self.invite_info(token)
        match_id = info["id"]
        with self.lock(match_id):
            m = self.load(match_id)
            if m.row.status not in ("waiting", RUNNING):
                raise Conflict(f"this match is {m.row.status}")
            if m.seats_of(user):
                raise Conflict("you already play in this match")
            free = [s.seat for s in m.seats if s.kind == "open"]
            if not free:
                raise Conflict("every seat of this match is taken")
            if seat is not None and seat not in free:
                raise Invalid(f"seat {seat} is not open; open seats: {free}")
            number = seat if seat is not None else free[0]
            self._update(m, {}, seat_change=(number, {"kind": "user", "user_id": user.id, "accepted": True}))
            self._maybe_start(match_id, user)
        return {"id": match_id, "seat": number}

    def accept(self, user: User, match_id: int) -> dict:
        with self.lock(match_id):
            m = self.load(match_id)
            self._seated(m, user)
            pending = [s.seat for s in m.seats if s.kind == "user" and s.user_id == user.id and not s.accepted]
            if not pending:
                raise Conflict("you have no challenge to accept in this match")
            if m.row.status != "waiting":
                raise Conflict(f"this match is {m.row.status}")
            for number in pending:
                self._update(m, {}, seat_change=(number, {"accepted": True}))
                m = self.load(match_id)
            self._maybe_start(match_id, user)
        return {"id": match_id}

    def _maybe_start(self, match_id: int, user: User) -> None:
        m = self.load(match_id)
        if m.row.status != "waiting" or not all(s.accepted and s.kind != "open" for s in m.seats):
            return
        values = {"status": RUNNING,
                  "deadline": self._deadline(m.seats, m.row.to_move, m.row.time_per_move)}
        user_ids = [s.user_id for s in m.seats if s.kind == "user"]
        if len(set(user_ids)) != len(user_ids):
            values["rated"] = False       # someone playing against themselves
        self._update(m, values)
        self._after(match_id, "start", acting=user)

    @staticmethod
    def _seated(m: Loaded, user: User) -> None:
        """Forbidden unless the user has a seat in the match (someone else's match is not one
        to answer)."""
        if not any(s.kind == "user" and s.user_id == user.id for s in m.seats):
            raise Forbidden("this is not your match")

    def decline(self, user: User, match_id: int) -> dict:
        with self.lock(match_id):
            m = self.load(match_id)
            self._seated(m, user)
            if m.row.status != "waiting" or not any(
                    s.kind == "user" and s.user_id == user.id and not s.accepted for s in m.seats):
                raise Conflict("you have no challenge to decline in this match")
            self._update(m, {"status": "declined", "to_move": None, "deadline": None})
        self._after(match_id, "declined", acting=user)
        return {"id": match_id, "status": "declined"}

    def cancel(self, user: User, match_id: int) -> dict:
        with self.lock(match_id):
            m = self.load(match_id)
            if m.row.created_by != user.id:
                raise Forbidden("only who created a match may cancel it")
            if m.row.status != "waiting":
                raise Conflict(f"only a match that has not started can be cancelled; this one is {m.row.status}")
            self._update(m, {"status": "cancelled", "to_move": None, "deadline": None})
        self._after(match_id, "cancelled", acting=user)
        return {"id": match_id, "status": "cancelled"}

    # -- moves ---------------------------------------------------------------------------------

    def _running(self, m: Loaded, user: User | None) -> list[int]:
        mine = m.seats_of(user)
        if not mine:
            raise Forbidden("you do not play in this match")
        if m.row.status != RUNNING:
            raise Conflict(f"the match is {m.row.status}, not running")
        return mine

    def play(self, user: User, match_id: int, ply: Any, move: Any) -> dict:
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise Invalid("ply is the number of moves played in the position you saw (pbmserv's move#)")
        if isinstance(move, list):
            if not move or len(move) > 1000 or not all(isinstance(s, str) and 0 < len(s) <= 1000 for s in move):
                raise Invalid("move is a list of step ids (strings), or a text in the game's notation")
        elif not isinstance(move, str) or not move.strip() or len(move) > 10_000:
            raise Invalid("move is a list of step ids (strings), or a text in the game's notation")
        with self.lock(match_id):
            m = self.load(match_id)
            if m.row.status == RUNNING and m.row.deadline is not None and m.row.deadline < now():
                self.check_clock(match_id)
                m = self.load(match_id)
            mine = self._running(m, user)
            if ply != m.row.ply:
                raise Stale(f"the match is at ply {m.row.ply}, not {ply}: someone moved since you looked",
                            ply=m.row.ply, match=self.describe(m, user))
            if m.row.to_move not in mine:
                raise Forbidden(f"it is not your turn: seat {m.row.to_move} is to move")
            return self._move(m, m.row.to_move, move, user)

    def computer_move(self, match_id: int, version: int, seat: int, steps: list[str],
                      expects: float | None = None) -> None:
        with self.lock(match_id):
            m = self.load(match_id)
            if m.row.version != version or m.row.status != RUNNING or m.row.to_move != seat:
                return      # the match moved on while the computer thought
            try:
                self._move(m, seat, steps, None, expects)
            except (Stale, Illegal) as exc:
                log.warning("match %s: the computer's move was refused: %s", match_id, exc.message)
            except ApiError as exc:    # the script failed playing it: the match shows why
                self.computer_errors[match_id] = exc.message
                self.live.publish(match_id, {"kind": "computer failed", "version": m.row.version})

    def _move(self, m: Loaded, seat: int, move: Any, user: User | None, expects: float | None = None) -> dict:
        key = m.key()
        # (the players' views after the move, made with it: their next looks are answered
        # from them, as are the pushes to whoever watches)
        played = self.engines.play(key, m.loader(), move, [s.seat for s in m.seats])
        if played.seat != seat:      # the script and the database disagree: rebuild and refuse
            self.engines.forget(key)
            raise Stale("the match changed meanwhile; look again", ply=m.row.ply)
        snap = played.snapshot
        outcome = None if snap.outcome is None else {**snap.outcome, "how": "game"}
        t = now()
        values = {"ply": m.row.ply + 1, "to_move": snap.to_move if outcome is None else None,
                  "draw_offer": None, "takeback": None}
        if outcome is not None:
            values.update(status="ended", outcome=outcome, deadline=None)
        else:
            values["deadline"] = self._deadline(m.seats, snap.to_move, m.row.time_per_move)
        try:
            with self.store.write() as db:
                db.execute(moves.insert().values(match_id=m.id, ply=m.row.ply, seat=seat,
                                                 steps=played.steps, notation=played.notation,
                                                 played_at=t, taken_back_at=None, expects=expects))
                self._set(db, m, values, t)
                if outcome is not None:
                    self._rate(db, m, outcome["ranks"])
        except (sa.exc.IntegrityError, _Lost):
            self.engines.forget(key)
            fresh = self.load(m.id)
            raise Stale(f"another move was stored first: the match is at ply {fresh.row.ply}",
                        ply=fresh.row.ply, match=self.describe(fresh, user)) from None
        self.engines.landed(key, played)
        self.computer_errors.pop(m.id, None)
        # The match as this write left it (the seats do not change with a move): _after needs
        # not read it again.
        stored = SimpleNamespace(ply=m.row.ply, seat=seat, steps=played.steps, notation=played.notation,
                                 played_at=t, expects=expects)
        after = Loaded(SimpleNamespace(**{**m.row._mapping, **values, "version": m.row.version + 1,
                                          "updated_at": t}), m.seats, [*m.moves, stored])
        self._after(m.id, "move", acting=user, m=after)
        return {"ply": m.row.ply + 1, "move": played.notation, "steps": played.steps,
                "status": values.get("status", RUNNING), "outcome": outcome}

    def _set(self, db, m: Loaded, values: dict, t: float | None = None) -> None:
        """Writes the match row if its version is still the one read (else _Lost)."""
        result = db.execute(matches.update()
                            .where(matches.c.id == m.id, matches.c.version == m.row.version)
                            .values(version=m.row.version + 1, updated_at=t or now(), **values))
        if result.rowcount != 1:
            raise _Lost()

    def _update(self, m: Loaded, values: dict, seat_change: tuple | None = None) -> None:
        try:
            with self.store.write() as db:
                self._set(db, m, values)
                if seat_change is not None:
                    number, change = seat_change
                    db.execute(seats.update().where(seats.c.match_id == m.id, seats.c.seat == number)
                               .values(**change))
        except _Lost:
            raise Conflict("the match changed meanwhile; look again") from None

    def _rate(self, db, m: Loaded, ranks: list[int]) -> None:
        if not m.row.rated:
            return
        user_ids = [s.user_id for s in m.seats if s.user_id is not None]
        if len(user_ids) != len(m.seats) or len(set(user_ids)) != len(user_ids):
            return
        ratings.update(db, m.row.game, user_ids, ranks)

    def _end(self, m: Loaded, result: Result) -> None:
        """Ends the match as the players ended it (nomv.play.policy: a resignation, a time run
        out, a draw agreed); the outcome keeps its words as its record tells them."""
        view = reading.match_view(m.row, m.seats, self.entry(m).info, [])
        text = reading.record_text(dataclasses.replace(view, result=result))
        outcome = {**result.to_json(), "reason": text, "text": text}
        try:
            with self.store.write() as db:
                self._set(db, m, {"status": "ended", "outcome": outcome, "to_move": None,
                                  "deadline": None, "draw_offer": None, "takeback": None})
                self._rate(db, m, list(result.ranks))
        except _Lost:
            raise Conflict("the match changed meanwhile; look again") from None
        self._after(m.id, result.how)

    def resign(self, user: User, match_id: int, lang: str = "en") -> dict:
        with self.lock(match_id):
            m = self.load(match_id)
            mine = self._running(m, user)
            seat = policy.resigning_seat(mine, m.row.to_move)
            if seat is None:
                raise Conflict("you hold several seats and none of them is to move: resign on your turn")
            self._end(m, policy.resigned(len(m.seats), seat))
        return self.show(match_id, user, lang)

    def check_clock(self, match_id: int) -> bool:
        """Ends the match if the player to move has run out of time."""
        with self.lock(match_id):
            m = self.load(match_id)
            r = m.row
            if r.status != RUNNING or r.deadline is None or r.deadline >= now() or r.to_move is None:
                return False
            try:
                self._end(m, policy.timed_out(len(m.seats), r.to_move))
            except Conflict:
                return False
            return True

    def check_clocks(self) -> int:
        with self.store.read() as db:
            ids = [row.id for row in db.execute(sa.select(matches.c.id).where(
                matches.c.status == RUNNING, matches.c.deadline.is_not(None),
                matches.c.deadline < now()))]
        return sum(self.check_clock(i) for i in ids)

    # -- draws and takebacks -----------------------------------------------------------------

    def draw(self, user: User, match_id: int, action: Any, lang: str = "en") -> dict:
        if action not in ("offer", "accept", "decline"):
            raise Invalid("action is offer, accept or decline")
        with self.lock(match_id):
            m = self.load(match_id)
            mine = self._running(m, user)
            offer = list(m.row.draw_offer or [])
            if action == "decline":
                if not offer:
                    raise Conflict("there is no draw offer to decline")
                self._update(m, {"draw_offer": None})
                self._after(match_id, "draw declined", acting=user)
                return self.show(match_id, user, lang)
            if action == "accept" and not offer:
                raise Conflict("there is no draw offer to accept")
            # Computer players answer at once, as in the window (nomv.play.policy): each
            # accepts when it expects half the points or less (its estimate with its last move).
            expects = self._expects(m)
            answer = policy.computers_answer_draw([(s.seat, expects.get(s.seat)) for s in m.seats
                                                   if s.kind == "computer"])
            if not answer.accepted:
                assert answer.declined_by is not None, "a declined draw names who declined"
                self._after(match_id, "draw declined", acting=user)
                out = self.show(match_id, user, lang)
                view = reading.match_view(m.row, m.seats, self.entry(m).info, mine)
                out["message"] = wording.draw_declined(view, answer.declined_by, answer.expects, lang)
                return out
            offer = sorted(set(offer) | set(mine) | {s.seat for s in m.seats if s.kind == "computer"})
            if policy.draw_agreed(offer, [s.seat for s in m.seats]):
                self._end(m, policy.agreed_draw(len(m.seats)))
            else:
                self._update(m, {"draw_offer": offer})
                self._after(match_id, "draw offered", acting=user)
        return self.show(match_id, user, lang)

    def takeback(self, user: User, match_id: int, action: Any, lang: str = "en") -> dict:
        if action not in ("ask", "accept", "decline"):
            raise Invalid("action is ask, accept or decline")
        with self.lock(match_id):
            m = self.load(match_id)
            mine = self._running(m, user)
            request = m.row.takeback
            if action == "decline":
                if not request:
                    raise Conflict("there is no takeback to decline")
                self._update(m, {"takeback": None})
                self._after(match_id, "takeback declined", acting=user)
                return self.show(match_id, user, lang)
            if action == "accept":
                if not request:
                    raise Conflict("there is no takeback to accept")
                agreed = sorted(set(request["agreed"]) | set(mine))
                request = {**request, "agreed": agreed}
            else:
                back_to = policy.takeback_ply([mv.seat for mv in m.moves], mine)
                if back_to is None:
                    raise Conflict("you have no move to take back")
                # computer players agree at once (nomv.play.policy), as in the window's undo
                computers = {s.seat for s in m.seats if s.kind == "computer" and policy.computer_accepts_takeback()}
                request = {"by": m.moves[back_to].seat, "ply": back_to, "agreed": sorted(set(mine) | computers)}
            people = {s.seat for s in m.seats}
            if set(request["agreed"]) >= people:
                self._take_back(m, request)
            else:
                self._update(m, {"takeback": request})
                self._after(match_id, "takeback asked", acting=user)
        return self.show(match_id, user, lang)

    def _take_back(self, m: Loaded, request: dict) -> None:
        back_to = request["ply"]
        seat = request["by"]
        t = now()
        try:
            with self.store.write() as db:
                db.execute(moves.update().where(moves.c.match_id == m.id, moves.c.ply >= back_to,
                                                moves.c.taken_back_at.is_(None))
                           .values(taken_back_at=t))
                self._set(db, m, {"ply": back_to, "to_move": seat, "takeback": None, "draw_offer": None,
                                  "deadline": self._deadline(m.seats, seat, m.row.time_per_move)}, t)
        except _Lost:
            raise Conflict("the match changed meanwhile; look again") from None
        self._after(m.id, "takeback")

    # -- after a change: pushes, computer players, mail ---------------------------------------

    def _after(self, match_id: int, kind: str, acting: User | None = None, m: Loaded | None = None) -> None:
        """Tells the match's watchers, and whoever is to move next (a computer player, an
        e-mail), of a change: from the match as read again, or ``m`` as the change left it."""
        if m is None:
            m = self.load(match_id)
        self.live.publish(match_id, {"kind": kind, "version": m.row.version})
        if m.row.status != RUNNING or m.row.to_move is None:
            return
        seat = m.seat(m.row.to_move)
        if seat.kind == "computer":
            self.on_computer_turn(match_id)
        elif (seat.kind == "user" and seat.user_id is not None and self.mailer is not None and seat.email and seat.notify
              and (acting is None or acting.id != seat.user_id)
              and not self.live.watching(match_id, seat.user_id)):
            self._mail(m, seat)

    def _mail(self, m: Loaded, seat: Seat) -> None:
        entry = self.entry(m)
        title = reading.title(entry.info, m.row.game, "en")
        others = [s.user or s.spec or "open" for s in m.seats if s.seat != seat.seat]
        base = (self.settings.public_url or f"http://{self.settings.host}:{self.settings.port}").rstrip("/")
        lines = [f"Hello {seat.user},", "",
                 f"it is your turn in match {m.id}, {title} against {', '.join(others)}.",
                 f"Move {m.row.ply + 1}; the last move was "
                 f"{m.moves[-1].notation if m.moves else '(none: you open the game)'}.", "",
                 f"The match: {base}/api/matches/{m.id}"]
        if m.row.deadline is not None:
            lines.append(f"Your time for this move ends at {iso(m.row.deadline)} (UTC).")
        lines += ["", "-- nomv (turn these e-mails off with PATCH /api/me {\"notify\": false})"]
        self.mailer.send(seat.email, f"Your turn: {title}, match {m.id}", "\n".join(lines))

    # -- lists and records ---------------------------------------------------------------------

    def mine(self, user: User, limit: int = 200, lang: str = "en") -> list[dict]:
        """The user's matches: those waiting for their move first (soonest deadline first),
        then challenges to answer, then the others, most recently changed first."""
        with self.store.read() as db:
            ids = [row.match_id for row in db.execute(
                sa.select(seats.c.match_id).where(seats.c.user_id == user.id).distinct())]
            if not ids:
                return []
            rows = db.execute(sa.select(matches).where(matches.c.id.in_(ids))
                              .order_by(matches.c.updated_at.desc()).limit(limit)).all()
            seat_rows = db.execute(sa.select(seats, users.c.name).outerjoin(users, users.c.id == seats.c.user_id)
                                   .where(seats.c.match_id.in_([r.id for r in rows]))
                                   .order_by(seats.c.match_id, seats.c.seat)).all()
        by_match: dict[int, list] = {}
        for s in seat_rows:
            by_match.setdefault(s.match_id, []).append(s)
        out = []
        infos: dict[str, dict] = {}
        for r in rows:
            ss = by_match.get(r.id, [])
            mine = [s.seat for s in ss if s.user_id == user.id]
            your_turn = r.status == RUNNING and r.to_move in mine
            to_answer = r.status == "waiting" and any(s.user_id == user.id and not s.accepted for s in ss)
            out.append({"id": r.id, "game": r.game, "status": r.status, "ply": r.ply,
                        "to_move": r.to_move if r.status == RUNNING else None, "you": mine,
                        "your_turn": your_turn, "to_answer": to_answer,
                        "seats": [{"seat": s.seat, "kind": s.kind, "user": s.name, "spec": s.spec,
                                   "accepted": s.accepted} for s in ss],
                        "outcome": r.outcome, "deadline": iso(r.deadline) if r.status == RUNNING else None,
                        "updated_at": iso(r.updated_at), "_deadline": r.deadline or float("inf"),
                        "_updated": r.updated_at})
            self._listed(out[-1], r, [SimpleNamespace(seat=s.seat, kind=s.kind, user=s.name, spec=s.spec,
                                                      accepted=s.accepted) for s in ss], mine, infos, lang)
        out.sort(key=lambda x: (0 if x["your_turn"] else 1 if x["to_answer"] else
                                2 if x["status"] in (RUNNING, "waiting") else 3,
                                x["_deadline"] if x["your_turn"] else 0, -x["_updated"]))
        for x in out:
            del x["_deadline"], x["_updated"]
        return out

    def _listed(self, out: dict, row: Any, seat_rows: list, mine: list[int], infos: dict[str, dict],
                lang: str) -> None:
        """A match of a list with its words in the reader's language: its title, the line
        (whose turn, the result, a challenge) and each seat's role and player."""
        if row.script_sha256 not in infos:
            entry = self.catalogue.by_sha(row.script_sha256)
            infos[row.script_sha256] = (entry.info if entry is not None else None) or {}
        info = infos[row.script_sha256]
        view = reading.match_view(row, seat_rows, info, mine)
        said = reading.worded(view, lang)
        out["title"] = reading.title(info, row.game, lang)
        out["line"] = said["line"]
        out["seats"] = [{**seat, **words} for seat, words in zip(out["seats"], said["seats"])]

    def challenges(self, limit: int = 100, lang: str = "en") -> list[dict]:
        """Matches waiting for players with a seat open to anyone: what the lobby offers to
        join (an open seat is open to everyone logged in, so its invitation is shown)."""
        with self.store.read() as db:
            rows = db.execute(sa.select(matches.c.id).where(matches.c.status == "waiting",
                                                            matches.c.invite.is_not(None))
                              .order_by(matches.c.created_at.desc()).limit(limit)).all()
        out = []
        for row in rows:
            m = self.load(row.id)
            open_seats = [s.seat for s in m.seats if s.kind == "open"]
            if not open_seats:
                continue
            out.append({"id": m.id, "game": m.row.game, "options": m.row.options, "variant": m.row.variant,
                        "time_per_move": m.row.time_per_move, "rated": m.row.rated,
                        "open_seats": open_seats, "invite": m.row.invite,
                        "seats": [{"seat": s.seat, "kind": s.kind, "user": s.user, "spec": s.spec}
                                  for s in m.seats],
                        "created_at": iso(m.row.created_at)})
            self._listed(out[-1], m.row, m.seats, [], {}, lang)
        return out

    def listing(self, status: str | None, game: str | None, limit: int = 100) -> list[dict]:
        query = sa.select(matches.c.id, matches.c.game, matches.c.status, matches.c.ply,
                          matches.c.updated_at, matches.c.invite.is_not(None).label("invitation"))
        if status:
            query = query.where(matches.c.status == status)
        if game:
            query = query.where(matches.c.game == game)
        with self.store.read() as db:
            rows = db.execute(query.order_by(matches.c.updated_at.desc()).limit(limit)).all()
        return [{"id": r.id, "game": r.game, "status": r.status, "ply": r.ply,
                 "updated_at": iso(r.updated_at)} for r in rows]

    def record(self, match_id: int, user: User | None) -> str:
        m = self.load(match_id)
        if m.row.status not in ENDED:
            raise Conflict("the record of a match is given once it has ended: it holds the seed, "
                           "which would tell the future of chance and hidden information")
        entry = self.entry(m)
        info = entry.info or {}
        name = info.get("name", m.row.game)
        players = ["human" if s.kind != "computer" else LEVEL_SPECS.get(s.spec or "", s.spec or "mcts")
                   for s in m.seats]
        outcome = m.row.outcome or {}
        rec = Record(name, entry.name if entry.origin != "upload" else name, dict(m.row.options),
                     int(m.row.seed), [mv.notation for mv in m.moves], m.row.script_sha256,
                     players, outcome.get("text"), [list(mv.steps) for mv in m.moves])
        return rec.to_text()

    # -- computer players ------------------------------------------------------------------------

    def computer_job(self, match_id: int) -> tuple | None:
        """(key, moves loader, seat, spec, seed) when a computer seat is to move, else None."""
        m = self.load(match_id)
        if m.row.status != RUNNING or m.row.to_move is None:
            return None
        seat = m.seat(m.row.to_move)
        if seat.kind != "computer":
            return None
        spec = LEVEL_SPECS.get(seat.spec or "", seat.spec or "mcts")
        seed = (int(m.row.seed) * 7919 + seat.seat) % 2**31
        return m.key(), m.loader(), seat.seat, spec, seed

    def computer_turns(self) -> list[int]:
        with self.store.read() as db:
            return [row.id for row in db.execute(
                sa.select(matches.c.id).join(seats, sa.and_(seats.c.match_id == matches.c.id,
                                                            seats.c.seat == matches.c.to_move))
                .where(matches.c.status == RUNNING, seats.c.kind == "computer"))]


# The queries of Matches.load, made once: every request about a match runs them, and SQLAlchemy
# would build each statement and its cache key anew every time.
_MATCH = sa.select(matches).where(matches.c.id == sa.bindparam("match_id"))
_SEATS = (sa.select(seats, users.c.name, users.c.email, users.c.notify)
          .outerjoin(users, users.c.id == seats.c.user_id)
          .where(seats.c.match_id == sa.bindparam("match_id")).order_by(seats.c.seat))
_MOVES = (sa.select(moves.c.ply, moves.c.seat, moves.c.steps, moves.c.notation, moves.c.played_at,
                    moves.c.expects)
          .where(moves.c.match_id == sa.bindparam("match_id"), moves.c.taken_back_at.is_(None))
          .order_by(moves.c.ply))


class MatchLocks:
    """A lock for each match, made when first needed and dropped when no thread holds it or
    waits for it.  (Matches sharing a lock among a few, as they once did, queued behind each
    other: a request held its match's lock while it waited for the game's thread and the
    database, and under load the requests of the other matches of that lock took the server's
    request threads while they waited.)"""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._locks: dict[int, list] = {}     # match id -> [its RLock, threads holding or waiting]

    @contextmanager
    def __call__(self, match_id: int) -> Iterator[None]:
        with self._mutex:
            entry = self._locks.setdefault(match_id, [threading.RLock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._mutex:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._locks[match_id]


class _Lost(Exception):
    """The match row changed between reading and writing: another request won."""


__all__ = ["Matches", "ApiError", "parse_duration"]
