"""What each viewer sees of a match: the answer of ``GET /api/matches/{id}`` (and of every push
and action), built from that viewer's view of the position.

A player sees what the game's ``view`` hook leaves them (another's hidden target is not there),
a spectator the view of no player (``view(state, 0)``), everyone the whole state once the match
has ended.  The seed is never shown before the end: it would tell the future of chance and hidden
information.  The legal moves go only to the player to move.

A viewer's *class* (:func:`viewer_class`) is what decides the answer besides the match's
version: whose view they get (:func:`viewer`: a seat, SPECTATOR or WHOLE), which seats are
theirs, and the language they read (the answer's words are in it).  Two viewers of one class at
one version are given the same answer, made once (nomv.server.matches.answers).

The legal moves are in an answer once, as ``legal_moves``: each its steps and notation, and
``any_order`` and ``label`` only when a move has them.

What an answer says in words (whose turn, the result, the offers, each seat's role and player)
and what it draws are nomv/play's, as in the window and text play: nomv.server.reading makes the
match's rows into the play model's MatchView, nomv.play.wording words it, nomv.play.drawing (in
the engines) draws its scene.
"""
from __future__ import annotations

from typing import Any

from ...game import Move
from ...play import policy, wording
from ...play.marks import move_buttons, step_names
from .. import reading
from ..accounts import User
from ..catalogue import Catalogue, Entry
from ..engines import SPECTATOR, Engines
from ..errors import Invalid, NotFound, ScriptFailed
from ..snapshots import WHOLE, Snapshot
from ..store import now
from .clock import Fischer, iso
from .repository import Match, MoveRow


def viewer(m: Match, user: User | None) -> int | None:
    """Whose view a user gets: the whole state (WHOLE) once the match has ended; a player's own
    (the seat to move, when they hold several); a spectator's (SPECTATOR) otherwise."""
    return policy.viewer(m.row.over, m.seats_of(user.id if user else None), m.row.to_move)


def viewer_class(m: Match, user: User | None) -> tuple[int | None, tuple[int, ...]]:
    """What decides a user's answer besides the match's version: whose view, and their seats."""
    return viewer(m, user), tuple(m.seats_of(user.id if user else None))


def legal_move(move: dict[str, Any]) -> dict[str, Any]:
    """A legal move as an answer gives it: its steps and notation; any_order and label only
    when it has them (most moves have neither)."""
    out = {"steps": move["steps"], "notation": move["notation"]}
    if move.get("any_order"):
        out["any_order"] = True
    if move.get("label") is not None:
        out["label"] = move["label"]
    return out


def last_move(moves: list[MoveRow]) -> dict[str, Any] | None:
    if not moves:
        return None
    mv = moves[-1]
    return {"ply": mv.ply, "seat": mv.seat, "steps": mv.steps, "notation": mv.notation}


def estimates(m: Match) -> dict[int, float]:
    """Each computer seat's estimate of its share of the points, with its latest move."""
    expects: dict[int, float] = {}
    for mv in m.moves:
        if mv.expects is not None:
            expects[mv.seat] = round(float(mv.expects), 3)
    return expects


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

    def info(self, sha256: str) -> dict[str, Any]:
        """What the catalogue knows of a script (its title, players' names...; {} if it is
        missing): for lists, which name a match's script without loading the match."""
        entry = self.catalogue.by_sha(sha256)
        return (entry.info if entry is not None else None) or {}

    def listed(self, shown: dict[str, Any], row: Any, seats: list[Any], mine: list[int],
               lang: str, infos: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
        """A match of a list (``shown``, with one entry per seat) with its words in ``lang``:
        its title, the line, and each seat's role and player (nomv.server.reading.listed);
        ``infos`` keeps the scripts' information over one list (one look-up per script)."""
        infos = {} if infos is None else infos
        if row.script_sha256 not in infos:
            infos[row.script_sha256] = self.info(row.script_sha256)
        said = reading.listed(row, seats, infos[row.script_sha256], mine, lang)
        return {**shown, "title": said["title"], "line": said["line"],
                "seats": [{**seat, **words} for seat, words in zip(shown["seats"], said["seats"])]}

    def title(self, m: Match, lang: str = "en") -> str:
        """The game's title in ``lang``."""
        return reading.title(self.entry(m).info, m.row.game, lang)

    def describe(self, m: Match, user: User | None, thinking: int | None = None,
                 failure: str | None = None, snapshot: Snapshot | None = None,
                 lang: str = "en") -> dict[str, Any]:
        """The match as ``user`` may see it (None: an anonymous spectator), worded in ``lang``;
        ``thinking`` is the seat whose computer player searches, ``failure`` why a computer
        player could not move; ``snapshot`` the position after a move, when the caller has it."""
        r = m.row
        info = self.entry(m).info or {}
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
        scene = shown.get("scene")
        buttons: list[dict[str, str]] = []
        names: dict[str, str] = {}
        if legal and scene is not None:
            moves = [Move(tuple(mv["steps"]), bool(mv.get("any_order")), mv.get("label")) for mv in legal]
            notations = [mv["notation"] for mv in legal]
            # the steps with no place on the board (pass, roll): buttons; and how messages name
            # each step (nomv.play.marks, as the window does)
            buttons = [{"id": b.id, "text": b.text} for b in move_buttons(scene, moves, notations)]
            names = step_names(scene, moves, notations, lang)
        # A computer seat's estimate with its latest move: none while a game with hidden
        # information runs, as the computer makes it from its own view (a good hidden hand
        # shows as a high figure: its opponents would read its secrets off it).
        expects = estimates(m) if r.over or not info.get("hidden_information") else {}
        thinking = thinking if r.running else None
        seen = reading.match_view(r, m.seats, info, mine, thinking, expects)
        said = reading.worded(seen, lang)
        t = now()
        clock = Fischer.of(r.clock)
        out = {
            "id": r.id, "game": r.game, "title": reading.title(info, r.game, lang), "sha256": r.script_sha256,
            "options": r.options, "variant": r.variant, "players": r.players, "status": r.status,
            "ply": r.ply, "version": r.version, "to_move": r.to_move if r.running else None,
            "seats": [{"seat": s.seat, "kind": s.kind, "user": s.user, "spec": s.spec, "accepted": s.accepted,
                       "you": s.seat in mine, "expects": expects.get(s.seat), **words}
                      for s, words in zip(m.seats, said["seats"])],
            "line": said["line"], "offers": said["offers"],
            "status_line": wording.status_line(seen, scene.get("status") if isinstance(scene, dict) else None, lang),
            "you": mine,
            "creator": next((s.user for s in m.seats if s.user_id is not None and s.user_id == r.created_by), None),
            "viewer": "whole" if seen_by is WHOLE else "spectator" if seen_by == SPECTATOR else seen_by,
            "outcome": r.outcome,
            "view": shown.get("view"), "scene": scene, "drawing": shown.get("drawing"),
            "marks": shown.get("marks", []),
            "buttons": buttons, "step_names": names,
            "moves": [mv.notation for mv in m.moves],
            "last_move": last_move(m.moves),
            "legal_moves": [legal_move(mv) for mv in legal],
            "draw_offer": r.draw_offer, "takeback": r.takeback,
            "rated": r.rated, "time_per_move": r.time_per_move,
            "deadline": iso(r.deadline) if r.running else None,
            "seconds_left": max(0.0, round(r.deadline - t, 1)) if r.deadline and r.running else None,
            "clock": clock.shown(m.seats, r.to_move if r.running else None, t) if clock else None,
            "created_at": iso(r.created_at), "updated_at": iso(r.updated_at),
            "script_error": error,
            "thinking": thinking,
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
