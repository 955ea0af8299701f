"""Lists of matches: a user's own (those waiting for their move first), the open challenges
anyone may join, and the most recently changed.  A match of a list reads as on its page: its
title, the line and its seats worded in the reader's language (views.Views.listed)."""
from __future__ import annotations

from typing import Any

from .. import reading
from ..accounts import User
from .clock import Fischer, iso
from .repository import RUNNING, WAITING, MatchRow, MatchTables
from .views import Views


class Listings:
    def __init__(self, tables: MatchTables, views: Views):
        self.tables = tables
        self.views = views

    @staticmethod
    def _terms(r: MatchRow) -> dict[str, Any]:
        """What a list says of a match besides its title and seats: its time and whether rated."""
        clock = Fischer.of(r.clock)
        return {"rated": r.rated, "time_per_move": r.time_per_move,
                "clock": {"base": clock.base, "increment": clock.increment} if clock else None}

    def mine(self, user: User, limit: int = 200, lang: str = "en") -> list[dict[str, Any]]:
        """The user's matches: those waiting for their move first (soonest deadline first),
        then challenges to answer, then the others running or waiting, then the rest, most
        recently changed first.  The ``limit`` kept are chosen in SQL, running ones first
        (MatchTables.of_user): no number of challenges hides a match being played."""
        out = []
        infos: dict[str, dict[str, Any]] = {}
        for listed in self.tables.of_user(user.id, limit):
            r, ss = listed.row, listed.seats
            mine = [s.seat for s in ss if s.user_id == user.id]
            your_turn = r.running and r.to_move in mine
            to_answer = r.status == WAITING and any(s.user_id == user.id and not s.accepted for s in ss)
            group = 0 if your_turn else 1 if to_answer else 2 if r.status in (RUNNING, WAITING) else 3
            order = (group, (r.deadline or float("inf")) if your_turn else 0, -r.updated_at)
            out.append((order, self.views.listed({
                "id": r.id, "game": r.game, **self._terms(r), "status": r.status, "ply": r.ply,
                "to_move": r.to_move if r.running else None, "you": mine,
                "your_turn": your_turn, "to_answer": to_answer,
                "seats": [{"seat": s.seat, "kind": s.kind, "user": s.user, "spec": s.spec,
                           "accepted": s.accepted} for s in ss],
                "outcome": r.outcome, "deadline": iso(r.deadline) if r.running else None,
                "updated_at": iso(r.updated_at)}, r, ss, mine, lang, infos)))
        out.sort(key=lambda pair: pair[0])
        return [shown for _order, shown in out]

    def finished(self, user_id: int, limit: int = 50, lang: str = "en") -> list[dict[str, Any]]:
        """A player's ended matches, the latest first: what their page lists (titles and results
        in the reader's language ``lang``)."""
        out = []
        for listed in self.tables.of_user(user_id, 200):
            r, ss = listed.row, listed.seats
            if r.status != "ended":
                continue
            mine = [s.seat for s in ss if s.user_id == user_id]
            ranks = (r.outcome or {}).get("ranks") or []
            rank = min((ranks[k - 1] for k in mine if 0 < k <= len(ranks)), default=None)
            info = self.views.info(r.script_sha256)
            # (the result as anyone reads it, not "you": the reader is seldom this player)
            said = reading.listed(r, ss, info, [], lang)
            out.append({"id": r.id, "game": r.game, "title": said["title"],
                        "rated": r.rated, "result": said["line"]["text"] or (r.outcome or {}).get("text"),
                        "won": rank == 1 and ranks.count(1) == 1, "drawn": rank == 1 and ranks.count(1) > 1,
                        "players": [s.user or s.spec or s.kind for s in ss], "ended_at": iso(r.updated_at)})
        out.sort(key=lambda x: x["ended_at"] or "", reverse=True)
        return out[:limit]

    def challenges(self, limit: int = 100, lang: str = "en") -> list[dict[str, Any]]:
        """Matches waiting for players with a seat open to anyone: what the lobby offers to
        join (an open seat is open to everyone logged in, so its invitation is shown)."""
        out = []
        infos: dict[str, dict[str, Any]] = {}
        for listed in self.tables.waiting_with_invitation(limit):
            r, ss = listed.row, listed.seats
            open_seats = [s.seat for s in ss if s.kind == "open"]
            if not open_seats:
                continue
            out.append(self.views.listed({
                "id": r.id, "game": r.game, **self._terms(r), "options": r.options, "variant": r.variant,
                "open_seats": open_seats, "invite": r.invite,
                "seats": [{"seat": s.seat, "kind": s.kind, "user": s.user, "spec": s.spec} for s in ss],
                "created_at": iso(r.created_at)}, r, ss, [], lang, infos))
        return out

    def recent(self, status: str | None, game: str | None, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently changed matches, of one status or game if given."""
        return [{"id": r.id, "game": r.game, "status": r.status, "ply": r.ply, "updated_at": iso(r.updated_at)}
                for r in self.tables.recent(status, game, limit)]
