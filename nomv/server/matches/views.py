"""What each viewer sees of a match: the answer of ``GET /api/matches/{id}`` (and of every push
and action), built from that viewer's view of the position.

A player sees what the game's ``view`` hook leaves them (another's hidden target is not there),
a spectator the view of no player (``view(state, 0)``), everyone the whole state once the match
has ended.  The seed is never shown before the end: it would tell the future of chance and hidden
information.  The legal moves go only to the player to move.

A viewer's *class* (:func:`viewer`) is what decides the answer besides the match's version: a
seat, SPECTATOR or WHOLE.  Two viewers of one class at one version see the same position (their
answers differ only in ``you`` and the seats marked as theirs), which is what a cache of answers
per version and class can key on.
"""
from __future__ import annotations

from typing import Any

from ...boardmarks import move_buttons
from ...game import Move
from ..accounts import User
from ..catalogue import Catalogue, Entry
from ..engines import SPECTATOR, Engines
from ..errors import Invalid, NotFound, ScriptFailed
from ..snapshots import WHOLE, Snapshot
from ..store import now
from .clock import Fischer, iso
from .repository import Match, MoveRow
from .seating import role


def viewer(m: Match, user: User | None) -> int | None:
    """Whose view a user gets: the whole state (WHOLE) once the match has ended; a player's own
    (the seat to move, when they hold several); a spectator's (SPECTATOR) otherwise."""
    if m.row.over:
        return WHOLE
    mine = m.seats_of(user.id if user else None)
    if not mine:
        return SPECTATOR
    return m.row.to_move if m.row.to_move in mine else mine[0]


def last_move(moves: list[MoveRow]) -> dict[str, Any] | None:
    if not moves:
        return None
    mv = moves[-1]
    return {"ply": mv.ply, "seat": mv.seat, "steps": mv.steps, "notation": mv.notation}


class Views:
    def __init__(self, engines: Engines, catalogue: Catalogue):
        self.engines = engines
        self.catalogue = catalogue

    def entry(self, m: Match) -> Entry:
        """The catalogue's entry of the match's script."""
        entry = self.catalogue.by_sha(m.row.script_sha256)
        if entry is None:
            raise NotFound(f"the script of match {m.id} is missing")
        return entry

    def role_names(self, m: Match) -> list[str]:
        """The game's names of its seats (may be fewer than the seats)."""
        return ((self.entry(m).info or {}).get("players") or {}).get("names") or []

    def title(self, m: Match) -> str:
        return (self.entry(m).info or {}).get("title", m.row.game)

    def describe(self, m: Match, user: User | None, thinking: int | None = None,
                 failure: str | None = None, snapshot: Snapshot | None = None) -> dict[str, Any]:
        """The match as ``user`` may see it (None: an anonymous spectator); ``thinking`` is the
        seat whose computer player searches, ``failure`` why a computer player could not move;
        ``snapshot`` the position after a move, when the caller has it."""
        r = m.row
        info = self.entry(m).info or {}
        names = (info.get("players") or {}).get("names") or []
        seen_by = viewer(m, user)
        mine = m.seats_of(user.id if user else None)
        error = None
        if snapshot is None or seen_by not in snapshot.views:
            try:
                snapshot = self.engines.snapshot(m.key(), m.loader(), [seen_by])
            except ScriptFailed as exc:
                error, snapshot = exc.message, None
        shown = snapshot.views.get(seen_by, {}) if snapshot is not None else {}
        error = error or shown.get("error") or failure
        my_turn = r.running and r.to_move in mine and snapshot is not None
        legal = snapshot.legal if my_turn and snapshot is not None else []
        buttons = []
        if legal and shown.get("scene") is not None:
            # the steps with no place on the board (pass, roll): buttons (nomv.boardmarks)
            buttons = [{"id": b.id, "text": b.text} for b in move_buttons(
                shown["scene"], [Move(tuple(mv["steps"]), bool(mv.get("any_order")), mv.get("label"))
                                 for mv in legal], [mv["notation"] for mv in legal])]
        # A computer seat's estimate with its latest move: none while a game with hidden
        # information runs, as the computer makes it from its own view (a good hidden hand
        # shows as a high figure: its opponents would read its secrets off it).
        expects: dict[int, float] = {}
        if r.over or not info.get("hidden_information"):
            for mv in m.moves:
                if mv.expects is not None:
                    expects[mv.seat] = round(float(mv.expects), 3)
        t = now()
        clock = Fischer.of(r.clock)
        out = {
            "id": r.id, "game": r.game, "title": info.get("title", r.game), "sha256": r.script_sha256,
            "options": r.options, "variant": r.variant, "players": r.players, "status": r.status,
            "ply": r.ply, "version": r.version, "to_move": r.to_move if r.running else None,
            "seats": [{"seat": s.seat, "role": role(names, s.seat), "kind": s.kind, "user": s.user,
                       "spec": s.spec, "accepted": s.accepted, "you": s.seat in mine,
                       "expects": expects.get(s.seat)} for s in m.seats],
            "you": mine,
            "creator": next((s.user for s in m.seats if s.user_id is not None and s.user_id == r.created_by), None),
            "viewer": "whole" if seen_by is WHOLE else "spectator" if seen_by == SPECTATOR else seen_by,
            "outcome": r.outcome,
            "view": shown.get("view"), "scene": shown.get("scene"), "marks": shown.get("marks", []),
            "buttons": buttons,
            "moves": [mv.notation for mv in m.moves],
            "last_move": last_move(m.moves),
            "legal": [mv["steps"] for mv in legal],
            "legal_moves": legal,
            "draw_offer": r.draw_offer, "takeback": r.takeback,
            "rated": r.rated, "time_per_move": r.time_per_move,
            "deadline": iso(r.deadline) if r.running else None,
            "seconds_left": max(0.0, round(r.deadline - t, 1)) if r.deadline and r.running else None,
            "clock": clock.shown(m.seats, r.to_move if r.running else None, t) if clock else None,
            "created_at": iso(r.created_at), "updated_at": iso(r.updated_at),
            "script_error": error,
            "thinking": thinking if r.running else None,
        }
        if r.over:
            out["seed"] = r.seed
        return out

    def earlier(self, m: Match, ply: int, user: User | None) -> dict[str, Any]:
        """The position after the match's first ``ply`` moves, as ``user`` may see it now."""
        if not 0 <= ply <= m.row.ply:
            raise Invalid(f"ply must be from 0 to {m.row.ply}, got {ply}")
        shown = self.engines.earlier(m.key(), m.loader(), ply, viewer(m, user))
        return {**shown, "id": m.id, "moves": [mv.notation for mv in m.moves[:ply]],
                "last_move": last_move(m.moves[:ply])}
