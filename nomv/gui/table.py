"""The game on the window's table, and everything a player can do to it: clicks to moves, undo
and redo, the computer's turns, resigning and draws, new games, saving, opening, the autosave,
the hot reload of an edited script, looking back at earlier positions.  No pygame here: the
window (app.py) turns events into these calls, and window.py draws a Table.

Errors from a script never end the program: they are kept in ``error`` (shown in a banner) and
the game stays.
"""
from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, overload

from .. import catalog
from ..ai import DEFAULT_COMPUTER, LEVELS, is_player
from ..errors import NomvError
from ..game import Game, Move, Outcome, Position
from ..moveinput import ILLEGAL, PLAY, MoveInput
from ..play import policy, wording
from ..play.drawing import Drawing, drawing
from ..play.marks import step_names
from ..play.match import ENDED, RUNNING, MatchView, Result, window_seats
from ..play.words import _, language, localized
from ..autosave import autosave_path, data_dir, pending_autosave, replaced_dir  # noqa: F401  (the window's API)
from ..record import Record
from .computer import Computer
from .timeline import Timeline

#: How many replaced games are kept (see Table.keep_replaced).
KEEP_REPLACED = 20
INFO, WARN = "info", "warn"
#: What a click on a seat cycles through: a person, then the computer players (nomv/ai), from
#: the easiest.  Any other player spec ("mcts:5s") given on the command line works too.
SEAT_KINDS = ("human",) + tuple(spec for spec, _level in LEVELS)


def next_seat_kind(kind: str) -> str:
    """The seat kind after ``kind`` in SEAT_KINDS (a kind not offered there goes to human)."""
    return SEAT_KINDS[(SEAT_KINDS.index(kind) + 1) % len(SEAT_KINDS)] if kind in SEAT_KINDS else "human"


class Table:
    """One game at a time.  ``seats`` says who plays each side: "human" or a computer player's
    spec ("mcts:1s", "random"; see nomv/ai).  ``autosave``: a path, "auto" (nomv's data
    folder) or None; the games a new one replaces are kept in a ``replaced`` folder beside it."""

    def __init__(self, pos: Position, seats: list[str] | None = None, autosave: Any = "auto",
                 watch: bool = True, viewer: int | None = None, ai_delay: float = 0.35,
                 resume: Record | None = None):
        self.game: Game = pos.game
        self.pos: Position = pos
        self.seats = self._fill_seats(seats or ["human"] * pos.players, pos)
        self.autosave = autosave_path() if autosave == "auto" else (Path(autosave) if autosave else None)
        self.watch = watch
        self.resume_offer = resume
        self.fixed_viewer = viewer is not None
        self.viewer: int | None = viewer        # whose view of hidden information is shown
        self.handover: int | None = None        # a player to hand the screen to
        self.error: str | None = None           # a script error while playing
        self.reload_error: str | None = None    # the script on disk does not load or replay
        self.message = ""                       # the answer to the last action
        self.message_kind = INFO
        self.message_time = 0.0
        self.message_step: str | None = None
        self.values: dict[int, float] = {}      # what each computer seat expects: its share of the points
        self.ended: Result | None = None        # a game the players ended: resigned, draw agreed
        self.browse: int | None = None          # the earlier ply shown, when looking back
        self.input = MoveInput([])
        self.computer = Computer(pos.seed, ai_delay)
        self.timeline = Timeline()
        self.generation = 0                     # bumps whenever the position changes
        self._script_sig = self._signature()
        self._last_poll = 0.0
        self._hidden_key: Any = None
        self._hidden = False
        self._drawing_key: Any = None
        self._drawing: Drawing | None = None
        self._changed(autosave_now=False)

    @staticmethod
    def _fill_seats(seats: list[str], pos: Position) -> list[str]:
        seats = list(seats)[:pos.players]
        return seats + [DEFAULT_COMPUTER] * (pos.players - len(seats))

    def _signature(self):
        try:
            st = os.stat(self.game.path)
            return (st.st_mtime_ns, st.st_size)
        except OSError:
            return None

    # -- reading the game -----------------------------------------------------------------------

    @property
    def hidden(self) -> bool:
        """Whether players see different things: the game has a view hook and, in this game,
        a player's view of the scene differs from the whole (Knownads' hidden targets)."""
        if "view" not in self.game.hooks:
            return False
        key = (id(self.game), self.pos.seed)
        if self._hidden_key != key:
            self._hidden_key, self._hidden = key, False
        if not self._hidden and not self.over():
            try:
                whole = self.pos.scene()
                self._hidden = any(self.pos.scene(player=p) != whole for p in range(1, self.pos.players + 1))
            except NomvError:
                pass
        return self._hidden

    def humans(self) -> list[int]:
        return [p for p in range(1, self.pos.players + 1) if self.seats[p - 1] == "human"]

    def computers(self) -> list[int]:
        return [p for p in range(1, self.pos.players + 1) if self.seats[p - 1] != "human"]

    def against_computer(self) -> bool:
        return bool(self.humans()) and bool(self.computers())

    def to_move(self) -> int | None:
        if self.ended is not None:
            return None
        try:
            return self.pos.to_move
        except NomvError as exc:
            self.script_failed(exc)
            return None

    def outcome(self) -> Outcome | None:
        """How the game ended (the script's result, or the players' resignation or agreed
        draw), or None while it runs (or when the script's result fails)."""
        if self.ended is not None:
            return Outcome(self.ended.winner, self.ended.ranks)
        try:
            return self.pos.outcome()
        except NomvError as exc:
            self.script_failed(exc)
            return None

    def over(self) -> bool:
        return self.outcome() is not None

    def result(self) -> Result | None:
        """How the game ended, as the wording reads it (nomv.play.match.Result)."""
        if self.ended is not None:
            return self.ended
        outcome = self.outcome()
        if outcome is None:
            return None
        return Result(outcome.ranks, outcome.scores, outcome.reason)

    def match_view(self, record: bool = False) -> MatchView:
        """The game as the person at the screen sees it (nomv.play.match): seats by role and
        who plays them, whose turn, the result.  ``record``: as a record tells it (nobody is
        "you")."""
        players = self.game.players
        roles = list(players.name_texts) + [None] * self.pos.players
        seats = window_seats(roles[:self.pos.players], self.seats, players.colours)
        if record:
            seats = tuple(dataclasses.replace(seat, you=False) for seat in seats)
        else:
            seats = tuple(dataclasses.replace(seat, expects=self.values.get(seat.number)) for seat in seats)
        result = self.result()
        return MatchView(seats, ENDED if result is not None else RUNNING,
                         None if result is not None else self.to_move(), result,
                         thinking=self.to_move() if self.computer.thinking else None, ply=self.pos.ply)

    def result_text(self) -> str:
        """How the game ended, in words ("" while it runs)."""
        view = self.match_view()
        return wording.result_text(view, language()) if view.result is not None else ""

    def line(self) -> wording.Line:
        """The one line about the game: whose turn, or how it ended."""
        return wording.turn_line(self.match_view(), language())

    def human_to_move(self) -> bool:
        p = self.to_move()
        return p is not None and self.seats[p - 1] == "human"

    def in_progress(self) -> bool:
        """Whether a new game would replace moves of an unfinished one."""
        return self.pos.ply > 0 and not self.over()

    def scene_player(self) -> int | None:
        """Whose view to draw: None for the whole position."""
        if self.fixed_viewer:
            return self.viewer
        if not self.hidden or self.over():
            return None
        humans = self.humans()
        if not humans:
            return None
        if len(humans) == 1:
            return humans[0]
        return self.viewer

    @property
    def shown_ply(self) -> int:
        return self.pos.ply if self.browse is None else self.browse

    def shown_scene(self) -> dict | None:
        """The scene of the position on screen (an earlier one while looking back), or None
        when the script fails to draw it."""
        try:
            return self.timeline.scene(self.pos, self.shown_ply, self.scene_player())
        except NomvError as exc:
            self.script_failed(exc)
            return None

    def status(self) -> str | None:
        """The script's status line of the position on screen (in the player's language): of an
        earlier position while looking back; of the game while it runs (nomv.play.wording)."""
        scene = self.shown_scene()
        if not scene:
            return None
        if self.browse is not None:
            return localized(scene.get("status"))
        return wording.status_line(self.match_view(), scene.get("status"), language())

    def drawing(self) -> Drawing | None:
        """What to draw for the position on screen (nomv.play.drawing): its scene, the marks of
        the move that led to it, and, when a person is to move in the game itself, buttons for
        the steps that name no place (pass, roll).  None when the script fails to draw it."""
        ply, player = self.shown_ply, self.scene_player()
        scene = self.shown_scene()
        if scene is None:
            return None
        key = (self.generation, ply, player, id(self.pos), id(scene), id(self.input), self.browse is None)
        if key != self._drawing_key:
            before = None
            if ply > 0:
                try:
                    before = self.timeline.scene(self.pos, ply - 1, player)
                except NomvError:
                    before = None   # no marks; the scene's own failure shows where it is drawn
            live = self.browse is None
            self._drawing = drawing(scene, before, self.pos.history[ply - 1].steps if ply > 0 else (),
                                    self.input.moves if live else (), self.input.notations if live else None)
            self._drawing_key = key
        return self._drawing

    def marks(self) -> list[dict]:
        """The places of the move that led to the position on screen: the drawing's marks."""
        d = self.drawing()
        return d.marks if d is not None else []

    def step_buttons(self) -> list[tuple[dict, bool]]:
        """Buttons for the steps that name no place on the board (pass, roll): {"id", "text"},
        each with whether a click on it does something now."""
        if self.browse is not None or not self.input.moves:
            return []
        d = self.drawing()
        return [(b, self.input.is_clickable(b["id"])) for b in (d.buttons if d is not None else [])]

    def can_undo(self) -> bool:
        if self.ended is not None:
            return True
        if self.pos.ply == 0:
            return False
        return self._undo_target() is not None

    def _undo_target(self) -> int | None:
        """The ply undo goes back to: the last earlier turn of a person (against the computer:
        nomv.play.policy.takeback_ply), else the ply before; None if there is none (the
        computer moved first)."""
        humans = self.humans()
        if not humans:
            return self.pos.ply - 1
        try:
            return policy.takeback_ply(_Movers(self.timeline, self.pos), humans)
        except NomvError:
            return self.pos.ply - 1

    # -- messages --------------------------------------------------------------------------------

    def flash(self, text: str, kind: str = WARN, step: str | None = None) -> None:
        """Shows text in the bar for a few seconds; ``step``: the answer to a click on that step,
        which the pointer resting there does not hide."""
        self.message, self.message_kind, self.message_time = text, kind, time.monotonic()
        self.message_step = step

    def script_failed(self, exc: BaseException) -> None:
        self.error = str(exc) if isinstance(exc, NomvError) else f"{type(exc).__name__}: {exc}"

    def hint(self, hover: str | None = None) -> tuple[str, str]:
        """The line under the board: (text, kind), kind being INFO, WARN or "" (plain)."""
        if self.browse is not None:
            return (_("Move {k} of {n}: click a move or use the arrow keys to look; “Back to the game” returns").format(
                k=self.browse, n=self.pos.ply), INFO)
        fresh = self.message and time.monotonic() - self.message_time < 6
        if fresh and hover is not None and hover == self.message_step:
            return self.message, self.message_kind
        if hover is not None and self.input.moves:
            return self.input.describe(hover), "" if self.input.is_clickable(hover) else WARN
        if fresh:
            return self.message, self.message_kind
        if self.over():
            return self.result_text(), ""
        if self.resume_offer is not None:
            return _("Resume the autosaved game, or dismiss it to play this one"), ""
        if self.computer.thinking or (not self.human_to_move() and not self.error):
            dots = "." * (1 + int(time.monotonic() * 3) % 3)
            return _("The computer is thinking") + dots, ""
        return self.input.prompt(), ""

    # -- switching games -----------------------------------------------------------------------

    def show(self, pos: Position, seats: list[str] | None = None, replacing: bool = True) -> None:
        """Puts ``pos`` on the table: the one place where the game on the table changes (new
        game, restart, open, resume, reload).  ``replacing``: another game goes, and if it
        was unfinished it is kept (keep_replaced)."""
        if replacing and pos is not self.pos:
            self.keep_replaced()
        self.game, self.pos = pos.game, pos
        self.seats = self._fill_seats(seats or self.seats, pos)
        if not self.fixed_viewer:
            self.viewer = None
        self.handover = None
        self.error = self.reload_error = None
        self.ended = None
        self.browse = None
        if replacing:
            self.resume_offer = None
            self.values = {}
        self.message = ""
        self._script_sig = self._signature()
        self._changed()

    def keep_replaced(self) -> Path | None:
        """Saves the unfinished game on the table to the ``replaced`` folder beside the
        autosave (the newest KEEP_REPLACED are kept), before another game replaces it and its
        autosave.  Returns the file, or None when there was nothing to keep."""
        if self.autosave is None or not self.in_progress():
            return None
        folder = replaced_dir(self.autosave)
        path = folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{self.game.name}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            n = 1
            while path.exists():
                n += 1
                path = folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{self.game.name}-{n}.json"
            Record.from_position(self.pos, players=self.seats).save(path)
            for old in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)[:-KEEP_REPLACED]:
                old.unlink()
        except (OSError, NomvError) as exc:
            self.flash(_("The replaced game could not be kept: {error}").format(error=exc))
            return None
        return path

    def new_game(self, game: Game, options: dict | None = None, variant: str | None = None,
                 seed: int | None = None, seats: list[str] | None = None) -> None:
        self.show(game.start(options, variant, seed=seed, text=True), seats)

    def restart(self) -> None:
        """The same game and options from the start, with a new random seed."""
        try:
            self.new_game(self.game, dict(self.pos.chosen), seed=None, seats=self.seats)
        except NomvError as exc:
            self.script_failed(exc)

    def open(self, path: str | Path) -> None:
        """Opens a saved game (NomvError when it cannot be read or replayed)."""
        self.show_opened(path, *self.read(path))

    def read(self, path: str | Path) -> tuple[Position, list[str] | None]:
        """The position of a saved game, and who played its seats (NomvError when it cannot be
        read or replayed); nothing on the table changes."""
        record = Record.load(Path(path).expanduser())
        pos = record.replay(where=str(path))
        return pos, self._recorded_seats(record, pos)

    def show_opened(self, path: str | Path, pos: Position, seats: list[str] | None) -> None:
        self.show(pos, seats)
        self.flash(_("Opened {path}").format(path=path), INFO)

    @staticmethod
    def _recorded_seats(record: Record, pos: Position) -> list[str] | None:
        if record.players and len(record.players) == pos.players and all(map(is_player, record.players)):
            return list(record.players)
        return None

    def resume(self) -> None:
        """Continues the autosaved game offered at start-up."""
        record = self.resume_offer
        if record is None:
            return
        try:
            pos = record.replay(where=str(self.autosave or "autosave"))
        except NomvError as exc:
            self.resume_offer = None
            self.script_failed(exc)
            return
        self.show(pos, self._recorded_seats(record, pos))

    def dismiss_resume(self) -> None:
        """Plays the game on the table instead of the autosaved one, which is kept with the
        replaced games."""
        record, self.resume_offer = self.resume_offer, None
        if record is not None and self.autosave is not None:
            folder = replaced_dir(self.autosave)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                record.save(folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{record.game}-autosave.json")
            except OSError:
                pass
        self.save_autosave()

    def save(self, path: str | Path) -> Path:
        """Saves the game record; OSError or NomvError when it cannot be written."""
        target = Path(path).expanduser()
        self.record().save(target)
        self.flash(_("Saved to {path}").format(path=target), INFO)
        return target

    def record(self) -> Record:
        result = None
        if self.ended is not None:
            result = wording.result_text(self.match_view(record=True), "en")
        return Record.from_position(self.pos, players=self.seats, result=result)

    def save_autosave(self) -> None:
        # while an older game is offered for resuming, keep its file until the player decides
        if self.autosave is None or self.resume_offer is not None:
            return
        try:
            self.autosave.parent.mkdir(parents=True, exist_ok=True)
            self.record().save(self.autosave)
        except (OSError, NomvError) as exc:
            self.flash(_("Autosave failed: {error}").format(error=exc))

    # -- moves -------------------------------------------------------------------------------------

    def _changed(self, autosave_now: bool = True) -> None:
        """After the position changed: new move input, hand-over, autosave, the computer
        forgets what it was thinking about."""
        self.generation += 1
        self.computer.forget()
        try:
            if self.over() or not self.human_to_move():
                self.input = MoveInput([])
            else:
                moves, notations = self.pos.legal_moves, self.pos.notations()
                scene = self.pos.scene(player=self.scene_player())
                self.input = MoveInput(moves, notations, names=step_names(scene, moves, notations))
        except NomvError as exc:
            self.input = MoveInput([])
            self.script_failed(exc)
        if not self.fixed_viewer and self.hidden and len(self.humans()) > 1 and not self.over():
            p = self.to_move()
            if p is not None and self.seats[p - 1] == "human" and p != self.viewer:
                self.handover = p
        if autosave_now:
            self.save_autosave()

    def play_index(self, index: int) -> None:
        move = self.input.moves[index]
        assert isinstance(move, Move), "the move input is made from the position's legal moves"
        try:
            self.pos.play(move)
        except NomvError as exc:
            self.script_failed(exc)
            self.input.reset()
            return
        self.error = None
        self.resume_offer = None
        self.message = ""
        self._changed()

    def click_step(self, sid: str) -> None:
        """A click on a place (or a step's button) of the board."""
        if self.browse is not None:
            self.flash(_("This is an earlier position: “Back to the game” to play"), INFO)
            return
        if self.error:
            self.flash(_("The script failed; undo, reload or start a new game"))
            return
        if not self.human_to_move():
            if not self.over():
                self.flash(_("The computer is thinking…"), INFO)
            return
        result = self.input.click(sid)
        if result.kind == PLAY:
            assert result.move is not None, "a PLAY result names its move"
            self.play_index(result.move)
        elif result.kind == ILLEGAL:
            self.flash(self._why_not(sid, result.message), step=sid)
        else:
            self.message = ""

    def _why_not(self, sid: str, generic: str) -> str:
        """Why a click is no legal step: the script's own reason when it gives one.  The steps
        so far and this one are handed to the script's parse hook when a legal move could be
        that long (a shorter prefix would only earn "write the whole move")."""
        if "parse" not in self.game.hooks:
            return generic
        clicked = self.input.clicked + [sid]
        lengths = {len(self.input.moves[i].steps) for i in self.input.candidates}
        if len(clicked) not in lengths:
            return generic
        try:
            index, why = self.pos.with_state(lambda engine, state: engine.parse(state, "-".join(clicked)))
        except NomvError:
            return generic
        if index is None and isinstance(why, str) and why:
            return f"{self.input.name(sid)}: {why}"
        return generic

    def confirm(self) -> None:
        index = self.input.confirm()
        if index is not None:
            self.play_index(index)
        elif self.input.clicked:
            self.flash(_("The steps so far are not a whole move yet"))

    def back(self) -> None:
        if self.input.back():
            self.message = ""

    def undo(self) -> None:
        """Takes back the last move; against the computer, back to the last earlier turn of a
        person (never to a turn of the computer, which would play again at once).  After a
        resignation or an agreed draw, takes that back."""
        self.browse = None
        if self.ended is not None:
            self.ended = None
            self._changed()
            return
        target = self._undo_target() if self.pos.ply else None
        if target is None:
            self.flash(_("Nothing to undo") if self.pos.ply == 0 else
                       _("Nothing to undo: the computer made the first move"))
            return
        try:
            while self.pos.ply > target:
                self.pos.undo()
        except NomvError as exc:
            self.script_failed(exc)
        self.error = None
        self._changed()

    def redo(self) -> None:
        self.browse = None
        if not self.pos.can_redo:
            self.flash(_("Nothing to redo"))
            return
        try:
            self.pos.redo()
            while self.pos.can_redo and self.humans() and not self.over() and not self.human_to_move():
                self.pos.redo()
        except NomvError as exc:
            self.script_failed(exc)
        self._changed()

    def resign(self) -> None:
        """The person at the screen gives the game up (against the computer): the others win."""
        p = policy.resigning_seat(self.humans(), self.to_move())
        if p is None or self.over():
            return
        self.ended = policy.resigned(self.pos.players, p)
        self._changed()

    def offer_draw(self) -> None:
        """Offers the computer players a draw: they answer as everywhere (nomv.play.policy: each
        accepts when it expects no more than half the points)."""
        if self.over():
            return
        answer = policy.computers_answer_draw([(p, self.values.get(p)) for p in self.computers()])
        if not answer.accepted:
            assert answer.declined_by is not None, "a declined draw names who declined"
            self.flash(wording.draw_declined(self.match_view(), answer.declined_by, answer.expects, language()))
            return
        self.ended = policy.agreed_draw(self.pos.players)
        self._changed()

    def toggle_seat(self, p: int) -> None:
        """The next kind of player for seat p: human, then the computers from the easiest."""
        self.seats[p - 1] = next_seat_kind(self.seats[p - 1])
        self.values.pop(p, None)
        self._changed(autosave_now=False)

    # -- looking back -------------------------------------------------------------------------------

    def look_at(self, ply: int | None) -> None:
        """Shows the position after ``ply`` moves (None, or the last ply: the game itself)."""
        if ply is None or ply >= self.pos.ply:
            self.browse = None
        else:
            self.browse = max(0, ply)

    def look_step(self, delta: int) -> None:
        self.look_at(max(0, self.shown_ply + delta))

    # -- the computer ----------------------------------------------------------------------------------

    def waiting(self) -> bool:
        """Whether the computer players wait: for the answer to the offer of an autosaved game
        (a computer's move would start a game whose autosave would replace the offered one),
        a dialog, a script error or a hand-over."""
        return self.resume_offer is not None or self.error is not None or self.handover is not None

    def poll_computer(self, paused: bool = False) -> None:
        """Hands a finished search's move to the game, or starts a search for a computer seat
        to move.  ``paused``: a dialog is open; nothing new starts."""
        choice = self.computer.poll()
        if choice is not None and self.computer.is_current(choice, self.generation):
            if choice.error is not None:
                self.error = _("The computer player failed: {error}").format(error=choice.error)
                return
            try:
                mover = self.pos.to_move
                assert mover is not None, "the computer searched for a seat to move in a running game"
                self.pos.play(list(choice.steps or ()))
                if choice.value is not None:
                    self.values[mover] = choice.value
            except NomvError as exc:
                self.script_failed(exc)
                return
            self._changed()
            return
        if paused or self.waiting() or self.computer.thinking or self.over():
            return
        p = self.to_move()
        if p is None or self.seats[p - 1] == "human":
            return
        self.computer.think(self.pos, p, self.seats[p - 1], self.generation)

    def wait_for_computer(self, step: Callable[[], Any], timeout: float = 10.0) -> None:
        """Calls step() until no computer player is thinking (for tests and scripts)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            step()
            if not self.computer.thinking and (self.over() or self.human_to_move() or self.error):
                return
            time.sleep(0.005)

    # -- hot reload ------------------------------------------------------------------------------------

    def poll_reload(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and (not self.watch or now - self._last_poll < 0.5):
            return
        self._last_poll = now
        sig = self._signature()
        if sig is None or (sig == self._script_sig and not force):
            return
        self._script_sig = sig
        self.reload()

    def reload(self) -> bool:
        """Loads the script again and replays the moves; on failure keeps the game on screen."""
        path = self.game.path
        try:
            source = catalog.read_script(path)
            game = Game(source, path, self.game.runtime, self.game.origin, limits=self.game.limits)
            pos = Record.from_position(self.pos, players=self.seats).replay(game=game, where=path)
        except NomvError as exc:
            self.reload_error = _("The changed script cannot be used: {error}").format(error=exc)
            return False
        except Exception as exc:  # never lose the window to a reload
            self.reload_error = _("The changed script cannot be used: {error}").format(error=f"{type(exc).__name__}: {exc}")
            return False
        browse, ended = self.browse, self.ended
        self.show(pos, replacing=False)
        self.browse, self.ended = browse, ended
        self.flash(_("Reloaded {path}").format(path=Path(path).name), INFO)
        return True

    def close(self) -> None:
        self.computer.close()


def describe_record(record: Record) -> str:
    """A saved game in a few words, for the resume offer: "Trinim, 3 moves"."""
    return f"{record.game}, {wording.count_moves(len(record.moves), language())}"


class _Movers(Sequence[Optional[int]]):
    """Who made each move of the game on the table, looked up as asked (from the last)."""

    def __init__(self, timeline: Timeline, pos: Position):
        self.timeline, self.pos = timeline, pos

    def __len__(self) -> int:
        return self.pos.ply

    @overload
    def __getitem__(self, ply: int) -> int | None: ...

    @overload
    def __getitem__(self, ply: slice) -> Sequence[int | None]: ...

    def __getitem__(self, ply: int | slice) -> int | None | Sequence[int | None]:
        if isinstance(ply, slice):
            return [self[k] for k in range(*ply.indices(len(self)))]
        return self.timeline.mover(self.pos, ply)
