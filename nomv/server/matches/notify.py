"""After a change of a match: who is told, and how.  The match's watchers get a push (every
WebSocket of the match, in every process); the seat to move next is woken when it is a computer
player, or sent a "your turn" e-mail when it is a person who wants one and is not watching.

Nothing here reads the database: the caller hands over the match as its change left it.  The
e-mail is queued for the mailer's own thread, and a computer seat's search runs on the computer
players' threads: a request that made a change never waits for either.
"""
from __future__ import annotations

from typing import Callable

from ..accounts import User
from ..live import LOBBY, LiveHub, user_channel
from ..mail import Mailer
from ..settings import Settings
from .clock import iso
from .repository import Match, SeatRow


class Notifier:
    def __init__(self, live: LiveHub, mailer: Mailer | None, settings: Settings,
                 title: Callable[[Match], str]):
        self.live = live
        self.mailer = mailer
        self.settings = settings
        self.title = title
        #: Wakes the computer players for a match, given who created it (set once they exist).
        self.on_computer_turn: Callable[[int, int | None], None] = lambda match_id, owner: None

    def changed(self, m: Match, kind: str, acting: User | None = None) -> None:
        """Tells the watchers of ``m`` (as the change left it) that it changed (``kind``: move,
        takeback, draw offered, ...), and whoever is to move next."""
        self.live.publish(m.id, {"kind": kind, "version": m.row.version})
        self.listed(m, kind)
        if not m.row.running or m.row.to_move is None:
            return
        seat = m.seat(m.row.to_move)
        if seat.kind == "computer":
            self.on_computer_turn(m.id, m.row.created_by)
        elif (seat.kind == "user" and seat.user_id is not None and self.mailer is not None and seat.email
              and seat.notify and (acting is None or acting.id != seat.user_id)
              and not self.live.watching(m.id, seat.user_id)):
            self._mail(m, seat)

    def listed(self, m: Match, kind: str) -> None:
        """Tells the lobbies that show the match: its players' (their lists of matches) and,
        while it waits for anyone to take a seat, everyone's (the open challenges)."""
        for user_id in {s.user_id for s in m.seats if s.kind == "user" and s.user_id is not None}:
            self.live.publish(user_channel(user_id), {"kind": kind, "match": m.id})
        if m.row.invite is not None and (kind != "move" or m.row.ply <= 1):
            self.live.publish(LOBBY, {"kind": kind, "match": m.id})

    def computer_failed(self, match_id: int, version: int) -> None:
        """A computer player could not move: its watchers read the match again (it says why)."""
        self.live.publish(match_id, {"kind": "computer failed", "version": version})

    def _mail(self, m: Match, seat: SeatRow) -> None:
        assert self.mailer is not None and seat.email is not None, "checked by changed()"
        title = self.title(m)
        others = [s.user or s.spec or "open" for s in m.seats if s.seat != seat.seat]
        base = (self.settings.public_url or f"http://{self.settings.host}:{self.settings.port}").rstrip("/")
        lines = [f"Hello {seat.user},", "",
                 f"it is your turn in match {m.id}, {title} against {', '.join(others)}.",
                 f"Move {m.row.ply + 1}; the last move was "
                 f"{m.moves[-1].notation if m.moves else '(none: you open the game)'}.", "",
                 f"The match: {base}/matches/{m.id}"]
        if m.row.deadline is not None:
            lines.append(f"Your time for this move ends at {iso(m.row.deadline)} (UTC).")
        lines += ["", f"-- nomv (turn these e-mails off on your account page, {base}/account)"]
        self.mailer.send(seat.email, f"Your turn: {title}, match {m.id}", "\n".join(lines))
