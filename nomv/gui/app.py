"""The window: the board, the side panel, buttons, keys, computer players, autosave, hot reload.

``App(pos, seats)`` opens the window; ``app.step()`` handles the pending events and draws one
frame (tests post real pygame events and step); ``app.run()`` loops until the window closes.
Errors from a script never end the program: they show in a banner and the game stays.
"""
from __future__ import annotations

import os
import random
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import pygame

from .. import catalog
from ..ai import DEFAULT_COMPUTER, LEVELS, Agent, is_player, make_agent
from ..errors import NomvError
from ..game import Game, Position
from ..moveinput import ILLEGAL, PLAY, MoveInput
from ..record import Record
from . import i18n
from .i18n import _
from .view import SceneView, colour, font

BACKGROUND = (246, 243, 236)
PANEL = (232, 227, 216)
INK = (35, 35, 35)
MUTED = (110, 105, 95)
BUTTON = (250, 248, 243)
BUTTON_HOVER = (255, 236, 190)
BUTTON_OFF = (222, 218, 208)
ERROR_BG = (190, 40, 40)
INFO_BG = (60, 100, 160)
COVER = (40, 45, 60)

#: What a click on a seat cycles through: a person, then the computer players (nomv/ai), from
#: the easiest.  Any other player spec ("mcts:5s") given on the command line works too.
SEAT_KINDS = ("human",) + tuple(spec for spec, _level in LEVELS)


def autosave_path() -> Path:
    """Where the game in progress is saved after every move."""
    return catalog.user_dir().parent / "autosave.json"


def pending_autosave(path: Path | None = None) -> Record | None:
    """The unfinished game autosaved by an earlier run, to offer at start-up (None if there is
    none, it is finished, or the file cannot be read).  Also removes the temporary files of
    writes that a kill interrupted (Record.save writes a temporary file, then renames it)."""
    path = path or autosave_path()
    for stale in path.parent.glob(f".{path.name}.*"):
        try:
            if time.time() - stale.stat().st_mtime > 60:  # not another window's write in progress
                stale.unlink()
        except OSError:
            pass
    try:
        saved = Record.load(path) if path.is_file() else None
    except NomvError:
        return None
    if saved is not None and saved.moves and saved.result is None:
        return saved
    return None


def seat_label(kind: str) -> str:
    if kind == "human":
        return _("human")
    level = dict(LEVELS).get(kind)
    if level == "random":
        return _("computer (random)")
    if level is not None:
        seconds = kind.split(":", 1)[1].rstrip("s")
        return _("computer ({level}, {seconds} s)").format(level=_(level), seconds=seconds)
    return _("computer ({kind})").format(kind=kind)


def player_name(game: Game, p: int) -> str:
    names = game.players.names
    return names[p - 1] if p <= len(names) else _("Player {n}").format(n=p)


def describe_outcome(game: Game, outcome) -> str:
    if outcome.winner is not None:
        text = _("{name} wins").format(name=player_name(game, outcome.winner))
    else:
        best = [player_name(game, p + 1) for p, r in enumerate(outcome.ranks) if r == 1]
        text = _("Draw") if len(best) == len(outcome.ranks) else _("Draw between {names}").format(names=", ".join(best))
    if outcome.scores is not None:
        text += " (" + ", ".join(str(int(s)) if float(s).is_integer() else str(s) for s in outcome.scores) + ")"
    if outcome.reason:
        text += ": " + outcome.reason
    return text


def game_title(game: Game) -> str:
    raw = game.engine.description.get("title")
    return i18n.localized(raw, game.title)


def wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    for para in str(text).split("\n"):
        words = para.split(" ")
        line = ""
        for w in words:
            trial = w if not line else line + " " + w
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = w
        lines.append(line)
    return lines


class Button:
    def __init__(self, key: str, label: str, rect: pygame.Rect, enabled: bool = True, active: bool = False):
        self.key, self.label, self.rect, self.enabled, self.active = key, label, rect, enabled, active


class App:
    """The GUI for one game at a time.  ``seats`` says who plays each side: "human" or a
    computer player's spec ("mcts:1s", "random"; see nomv/ai)."""

    def __init__(self, pos: Position, seats: list[str] | None = None, size=(1100, 720),
                 autosave: Any = "auto", watch: bool = True, viewer: int | None = None,
                 ai_delay: float = 0.35, resume: Record | None = None, lang: str | None = None):
        if lang is not None or not i18n.configured:
            i18n.setup(lang)
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.key.set_repeat(400, 40)
        self.clock = pygame.time.Clock()
        self.running = True
        self.game = pos.game
        self.pos = pos
        self.seats = list(seats or ["human"] * pos.players)
        self.seats += [DEFAULT_COMPUTER] * (pos.players - len(self.seats))
        self.autosave = autosave_path() if autosave == "auto" else (Path(autosave) if autosave else None)
        self.watch = watch
        self.ai_delay = ai_delay
        self.coordinates = False
        self.resume_offer = resume
        self.dialog = None                      # an in-window dialog (dialogs.py) or None
        self.error: str | None = None           # a script error while playing
        self.reload_error: str | None = None    # the script on disk does not load or replay
        self.message: str = ""                  # the last click's answer
        self.message_time = 0.0
        self.hover: str | None = None
        self.hover_button: str | None = None
        self.mouse = (-1, -1)
        self.scroll = 0                         # move list: lines scrolled up from the end
        self.viewer: int | None = viewer        # whose view of hidden information is shown
        self.handover: int | None = None        # a player to hand the screen to
        self.fixed_viewer = viewer is not None
        self.input = MoveInput([])
        self.view: SceneView | None = None
        self._view_key: Any = None
        self.buttons: list[Button] = []
        self.seat_rects: list[tuple[int, pygame.Rect]] = []
        self.banner_close: pygame.Rect | None = None
        self.resume_rects: dict[str, pygame.Rect] = {}
        self._generation = 0                    # bumps whenever the position changes
        self._worker: threading.Thread | None = None
        self._worker_game: tuple | None = None  # (key, Game, Position) of the computer's thread
        self._ai_result: tuple | None = None
        self._ai_started = 0.0
        self._ai_rng = random.Random(pos.seed)
        self._agents: dict[tuple[int, str], Agent] = {}   # the computer's thread only
        self.seat_notes: dict[int, str] = {}  # what each computer seat expects, for the panel
        self._last_poll = 0.0
        self._script_sig = self._signature()
        self._text_cache: dict[tuple, pygame.Surface] = {}
        self._hidden_key: Any = None
        self._hidden = False
        self.frame_ms = 0.0
        self._sync(autosave_now=False)
        self._set_caption()

    # -- position bookkeeping -----------------------------------------------------------------

    def _set_caption(self) -> None:
        pygame.display.set_caption(f"nomv: {game_title(self.game)}")

    def _signature(self):
        try:
            st = os.stat(self.game.path)
            return (st.st_mtime_ns, st.st_size)
        except OSError:
            return None

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

    def _to_move(self) -> int | None:
        try:
            return self.pos.to_move
        except NomvError as exc:
            self._script_failed(exc)
            return None

    def outcome(self):
        """The outcome, or None while the game runs (or when the script's result fails)."""
        try:
            return self.pos.outcome()
        except NomvError as exc:
            self._script_failed(exc)
            return None

    def over(self) -> bool:
        return self.outcome() is not None

    def human_to_move(self) -> bool:
        p = self._to_move()
        return p is not None and self.seats[p - 1] == "human"

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

    def _sync(self, autosave_now: bool = True) -> None:
        """After the position changed: new move input, hand-over, autosave, computer's turn."""
        self._generation += 1
        self.scroll = 0
        self.hover = None
        try:
            if self.over() or not self.human_to_move():
                self.input = MoveInput([])
            else:
                self.input = MoveInput(self.pos.legal_moves, self.pos.notations())
        except NomvError as exc:
            self.input = MoveInput([])
            self._script_failed(exc)
        if not self.fixed_viewer and self.hidden and len(self.humans()) > 1 and not self.over():
            p = self._to_move()
            if p is not None and self.seats[p - 1] == "human" and p != self.viewer:
                self.handover = p
        if autosave_now:
            self.save_autosave()

    def _script_failed(self, exc: BaseException) -> None:
        self.error = str(exc) if isinstance(exc, NomvError) else f"{type(exc).__name__}: {exc}"

    def save_autosave(self) -> None:
        # while an older game is offered for resuming, keep its file until the player decides
        if self.autosave is None or self.resume_offer is not None:
            return
        try:
            self.autosave.parent.mkdir(parents=True, exist_ok=True)
            Record.from_position(self.pos, players=self.seats).save(self.autosave)
        except (OSError, NomvError) as exc:
            self.flash(_("Autosave failed: {error}").format(error=exc))

    def flash(self, text: str) -> None:
        self.message = text
        self.message_time = time.monotonic()

    # -- actions --------------------------------------------------------------------------------

    def play_index(self, index: int) -> None:
        move = self.input.moves[index]
        try:
            self.pos.play(move)
        except NomvError as exc:
            self._script_failed(exc)
            self.input.reset()
            return
        self.error = None
        self.resume_offer = None
        self.message = ""
        self._sync()

    def click_step(self, sid: str) -> None:
        result = self.input.click(sid)
        if result.kind == PLAY:
            self.play_index(result.move)
        elif result.kind == ILLEGAL:
            self.flash(result.message)
        else:
            self.message = ""

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
        if self.pos.ply == 0:
            self.flash(_("Nothing to undo"))
            return
        try:
            self.pos.undo()
            # against the computer, take back its reply too: back to a human's turn
            while self.pos.ply and self.humans() and not self.human_to_move():
                self.pos.undo()
        except NomvError as exc:
            self._script_failed(exc)
        self.error = None
        self._ai_result = None
        self._sync()

    def redo(self) -> None:
        if not self.pos.can_redo:
            self.flash(_("Nothing to redo"))
            return
        try:
            self.pos.redo()
            while self.pos.can_redo and self.humans() and not self.over() and not self.human_to_move():
                self.pos.redo()
        except NomvError as exc:
            self._script_failed(exc)
        self._sync()

    def new_game(self, game: Game, options: dict | None = None, variant: str | None = None,
                 seed: int | None = None, seats: list[str] | None = None) -> None:
        pos = game.start(options, variant, seed=seed, text=True)
        self.game, self.pos = game, pos
        self.seats = list(seats or self.seats)[:pos.players]
        self.seats += [DEFAULT_COMPUTER] * (pos.players - len(self.seats))
        self.viewer = None if not self.fixed_viewer else self.viewer
        self.error = self.reload_error = None
        self.resume_offer = None
        self.seat_notes = {}
        self.message = ""
        self._script_sig = self._signature()
        self._ai_result = None
        self._set_caption()
        self._sync()

    def restart(self) -> None:
        """The same game and options from the start, with a new random seed."""
        try:
            self.new_game(self.game, dict(self.pos.chosen), seed=None, seats=self.seats)
        except NomvError as exc:
            self._script_failed(exc)

    def save(self, path: str | Path) -> None:
        Record.from_position(self.pos, players=self.seats).save(Path(path).expanduser())
        self.flash(_("Saved to {path}").format(path=path))

    def open(self, path: str | Path) -> None:
        record = Record.load(Path(path).expanduser())
        pos = record.replay(where=str(path))
        self.game, self.pos = pos.game, pos
        if record.players and len(record.players) == pos.players and all(map(is_player, record.players)):
            self.seats = list(record.players)
        else:
            self.seats = (self.seats + [DEFAULT_COMPUTER] * pos.players)[:pos.players]
        self.viewer = None if not self.fixed_viewer else self.viewer
        self.error = self.reload_error = None
        self.resume_offer = None
        self.seat_notes = {}
        self._script_sig = self._signature()
        self._set_caption()
        self._sync()
        self.flash(_("Opened {path}").format(path=path))

    def resume(self) -> None:
        """Continues the autosaved game offered at start-up."""
        record, self.resume_offer = self.resume_offer, None
        if record is None:
            return
        try:
            pos = record.replay(where=str(self.autosave or "autosave"))
        except NomvError as exc:
            self._script_failed(exc)
            return
        self.game, self.pos = pos.game, pos
        if record.players and len(record.players) == pos.players and all(map(is_player, record.players)):
            self.seats = list(record.players)
        self.viewer = None if not self.fixed_viewer else self.viewer
        self.error = self.reload_error = None
        self._script_sig = self._signature()
        self._set_caption()
        self._sync()

    def toggle_seat(self, p: int) -> None:
        kinds = SEAT_KINDS
        self.seats[p - 1] = kinds[(kinds.index(self.seats[p - 1]) + 1) % len(kinds)] \
            if self.seats[p - 1] in kinds else "human"
        self._sync(autosave_now=False)

    # -- hot reload ---------------------------------------------------------------------------

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
            source = Path(path).read_text(encoding="utf-8")
            game = Game(source, path, self.game.runtime, self.game.origin)
            record = Record.from_position(self.pos, players=self.seats)
            pos = record.replay(game=game, where=path)
        except NomvError as exc:
            self.reload_error = _("The changed script cannot be used: {error}").format(error=exc)
            return False
        except Exception as exc:  # never lose the window to a reload
            self.reload_error = _("The changed script cannot be used: {error}").format(error=f"{type(exc).__name__}: {exc}")
            return False
        self.game, self.pos = game, pos
        self.reload_error = None
        self.error = None
        self._ai_result = None
        self._sync()
        self.flash(_("Reloaded {path}").format(path=Path(path).name))
        return True

    # -- computer players -----------------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        return self._worker is not None and (self._worker.is_alive() or self._ai_result is not None)

    def poll_computer(self) -> None:
        # (While an autosaved game is offered, a computer's move would start a game that cannot
        # be autosaved without losing the offered one: the computer waits for the answer.)
        if self.dialog is not None or self.error or self.handover is not None or self.resume_offer is not None:
            return
        worker = self._worker
        if worker is not None:
            # Look at the thread before its result: a thread that has ended has always left one,
            # whereas reading the result first could miss one set just after and think again.
            if worker.is_alive():
                return
            result = self._ai_result
            if result is not None:
                if time.monotonic() - self._ai_started < self.ai_delay:
                    return
                self._ai_result = None
                self._worker = None
                generation, status, value, note = result
                if generation != self._generation:
                    return
                if status == "error":
                    self.error = _("The computer player failed: {error}").format(error=value)
                    return
                try:
                    mover = self.pos.to_move
                    self.pos.play(list(value))
                    if note:
                        self.seat_notes[mover] = note
                except NomvError as exc:
                    self._script_failed(exc)
                    return
                self._sync()
                return
        self._worker = None
        if self.over():
            return
        p = self._to_move()
        if p is None or self.seats[p - 1] == "human":
            return
        kind = self.seats[p - 1]
        game = self.game
        chosen, seed_of_game = dict(self.pos.chosen), self.pos.seed
        history = [m.steps for m in self.pos.history]
        generation = self._generation
        seed = self._ai_rng.randrange(2**31)

        def work():
            try:
                mine = self._worker_position(game, chosen, seed_of_game, history)
                agent = self._agents.get((p, kind))
                if agent is None:
                    agent = self._agents[(p, kind)] = make_agent(kind, seed)
                move = agent.choose(mine)
                note = None
                if agent.last and "value" in agent.last:
                    note = _("expects {percent}%").format(percent=round(100 * agent.last["value"]))
                self._ai_result = (generation, "ok", tuple(move.steps), note)
            except Exception as exc:  # shown in the window, never raised
                self._ai_result = (generation, "error", str(exc), None)

        self._ai_started = time.monotonic()
        self._worker = threading.Thread(target=work, name="nomv-computer", daemon=True)
        self._worker.start()

    def _worker_position(self, game: Game, chosen: dict, seed: int, history: list) -> Position:
        """The computer's own copy of the position, on its own Lua runtime (runtimes must not
        be shared between threads).  Kept between moves and brought up to date by the moves
        played since, so a move costs the same late in a game as early.  Worker thread only."""
        key = (game.sha256, game.path, seed, repr(sorted(chosen.items())))
        cached = self._worker_game
        if cached is None or cached[0] != key:
            own = Game(game.source, game.path, game.runtime, game.origin)
            cached = (key, own, own.start(chosen, seed=seed))
            self._worker_game = cached
            self._agents = {}  # a new game: the computer players start new search trees
        pos = cached[2]
        done = [m.steps for m in pos.history]
        common = 0
        while common < min(len(done), len(history)) and done[common] == history[common]:
            common += 1
        for _i in range(len(done) - common):
            pos.undo()
        for steps in history[common:]:
            pos.play(list(steps))
        return pos

    def wait_for_computer(self, timeout: float = 10.0) -> None:
        """Steps until no computer player is thinking (for tests and scripts)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.step()
            if not self.thinking and (self.over() or self.human_to_move() or self.error):
                return
            time.sleep(0.005)

    # -- events ---------------------------------------------------------------------------------

    def step(self) -> bool:
        """Handles the pending events, polls the script file and the computer, draws a frame."""
        try:
            for event in pygame.event.get():
                self.handle(event)
            self.poll_reload()
            self.poll_computer()
            start = time.perf_counter()
            self.draw()
            pygame.display.flip()
            self.frame_ms = (time.perf_counter() - start) * 1000
        except Exception as exc:  # the window never dies with a traceback
            if os.environ.get("NOMV_DEBUG"):
                traceback.print_exc()
            self._script_failed(exc)
            if self.dialog is not None and getattr(self.dialog, "broken", False):
                self.dialog = None
        return self.running

    def run(self) -> None:
        while self.step():
            self.clock.tick(60)
        self.close()

    def close(self) -> None:
        self.running = False
        pygame.display.quit()

    def handle(self, event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            self.screen = pygame.display.get_surface()
            return
        if self.dialog is not None:
            self.dialog.handle(event)
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self._update_hover()
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self._left_click(event.pos)
            elif event.button == 3:
                self.back()
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll + event.y * 2)
        elif event.type == pygame.KEYDOWN:
            self._key(event)

    def _key(self, event) -> None:
        ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        shift = event.mod & pygame.KMOD_SHIFT
        if self.handover is not None:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self._take_over()
            return
        if ctrl and event.key == pygame.K_z:
            self.redo() if shift else self.undo()
        elif ctrl and event.key == pygame.K_y:
            self.redo()
        elif ctrl and event.key == pygame.K_s:
            self.open_dialog("save")
        elif ctrl and event.key == pygame.K_o:
            self.open_dialog("open")
        elif ctrl and event.key == pygame.K_n:
            self.open_dialog("new")
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm()
        elif event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
        elif event.key == pygame.K_c and not ctrl:
            self.coordinates = not self.coordinates

    def _take_over(self) -> None:
        self.viewer = self.handover
        self.handover = None

    def _left_click(self, at) -> None:
        if self.handover is not None:
            self._take_over()
            return
        if self.banner_close is not None and self.banner_close.collidepoint(at):
            self.error = None
            self.reload_error = None
            return
        for key, rect in self.resume_rects.items():
            if rect.collidepoint(at):
                if key == "resume":
                    self.resume()
                else:
                    self.resume_offer = None
                return
        for b in self.buttons:
            if b.rect.collidepoint(at):
                if b.enabled:
                    self.press(b.key)
                return
        for p, rect in self.seat_rects:
            if rect.collidepoint(at):
                self.toggle_seat(p)
                return
        if self.view is not None and self.view.rect.collidepoint(at):
            if self.error:
                self.flash(_("The script failed; undo, reload or start a new game"))
                return
            if not self.human_to_move():
                if not self.over():
                    self.flash(_("The computer is thinking…"))
                return
            sid = self.view.hit(*at, wanted=self.input.next_steps | set(self.input.clicked))
            if sid is None:
                if self.input.moves:
                    self.flash(_("Nothing to click there"))
                return
            self.click_step(sid)
            self._update_hover()

    def press(self, key: str) -> None:
        if key == "undo":
            self.undo()
        elif key == "redo":
            self.redo()
        elif key == "done":
            self.confirm()
        elif key == "restart":
            self.restart()
        elif key == "coords":
            self.coordinates = not self.coordinates
        elif key in ("new", "save", "open", "rules"):
            self.open_dialog(key)

    def open_dialog(self, kind: str) -> None:
        from . import dialogs
        if kind == "new":
            self.dialog = dialogs.NewGameDialog(self)
        elif kind == "save":
            self.dialog = dialogs.PathDialog(self, "save")
        elif kind == "open":
            self.dialog = dialogs.PathDialog(self, "open")
        elif kind == "rules":
            self.dialog = dialogs.RulesDialog(self)

    def _update_hover(self) -> None:
        self.hover = None
        self.hover_button = None
        for b in self.buttons:
            if b.rect.collidepoint(self.mouse):
                self.hover_button = b.key
                return
        if self.view is not None and self.human_to_move() and self.handover is None:
            self.hover = self.view.hit(*self.mouse, wanted=self.input.next_steps | set(self.input.clicked))

    # -- drawing ----------------------------------------------------------------------------------

    def text(self, surf, text: str, pos, size: int = 15, bold: bool = False, col=INK, align: str = "left") -> pygame.Rect:
        key = (text, size, bold, col)
        img = self._text_cache.get(key)
        if img is None:
            if len(self._text_cache) > 3000:
                self._text_cache.clear()
            img = font(size, bold).render(text, True, col)
            self._text_cache[key] = img
        r = img.get_rect()
        if align == "left":
            r.topleft = pos
        elif align == "centre":
            r.midtop = pos
        else:
            r.topright = pos
        surf.blit(img, r)
        return r

    def layout(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        w, h = self.screen.get_size()
        panel_w = max(240, min(360, int(w * 0.3)))
        panel = pygame.Rect(w - panel_w, 0, panel_w, h)
        bar = pygame.Rect(0, h - 30, w - panel_w, 30)
        board = pygame.Rect(0, 0, w - panel_w, h - 30)
        return board, panel, bar

    def board_view(self, board: pygame.Rect) -> SceneView | None:
        player = self.scene_player()
        try:
            scene = self.pos.scene(player=player)
        except NomvError as exc:
            self._script_failed(exc)
            self.view = None  # (not the last good scene: it may be another game's)
            return None
        key = (id(scene), tuple(board))
        if self.view is None or self._view_key != key:
            self.view = SceneView(scene, board)
            self._view_key = key
        return self.view

    def draw(self) -> None:
        surf = self.screen
        surf.fill(BACKGROUND)
        board, panel, bar = self.layout()
        self._safely(self.draw_board, surf, board)
        self._safely(self.draw_bar, surf, bar)
        self._safely(self.draw_panel, surf, panel)
        self._safely(self.draw_banners, surf, board)
        if self.dialog is not None:
            self.dialog.draw(surf)

    def _safely(self, draw, *args) -> None:
        """Draws one part of the window; a failing script spoils that part only."""
        try:
            draw(*args)
        except NomvError as exc:
            self._script_failed(exc)

    def draw_board(self, surf, board) -> None:
        if self.handover is not None:
            self.draw_cover(surf, board)
            return
        view = self.board_view(board)
        if view is not None:
            show = self.human_to_move() and not self.error
            view.draw(surf, BACKGROUND, self.input.next_steps if show else (),
                      self.input.clicked, self.hover, True, self.coordinates)

    def draw_cover(self, surf, board) -> None:
        pygame.draw.rect(surf, COVER, board)
        name = player_name(self.game, self.handover)
        self.text(surf, _("Pass to {name}").format(name=name), (board.centerx, board.centery - 40), 30, True,
                  (250, 250, 250), "centre")
        self.text(surf, _("{name}: click to continue").format(name=name), (board.centerx, board.centery + 10), 18,
                  False, (220, 220, 230), "centre")

    def hint(self) -> tuple[str, bool]:
        """The line under the board: (text, is a warning)."""
        if self.hover is not None and self.input.moves:
            desc = self.input.describe(self.hover)
            return desc, not self.input.is_clickable(self.hover)
        if self.message and time.monotonic() - self.message_time < 6:
            return self.message, True
        if self.over():
            return describe_outcome(self.game, self.outcome()), False
        if self.thinking or (not self.human_to_move() and not self.error):
            dots = "." * (1 + int(time.monotonic() * 3) % 3)
            return _("The computer is thinking") + dots, False
        return self.input.prompt(), False

    def draw_bar(self, surf, bar) -> None:
        pygame.draw.rect(surf, (238, 234, 225), bar)
        text, warn = self.hint()
        self.text(surf, text, (bar.x + 10, bar.y + 7), 15, False, (170, 40, 40) if warn else INK)

    def draw_banners(self, surf, board) -> None:
        self.banner_close = None
        self.resume_rects = {}
        y = board.y
        message = self.reload_error or self.error
        if message:
            f = font(15)
            lines = wrap(message, f, board.w - 60)[:8]
            rect = pygame.Rect(board.x, y, board.w, 14 + 20 * len(lines))
            pygame.draw.rect(surf, ERROR_BG, rect)
            for i, line in enumerate(lines):
                self.text(surf, line, (rect.x + 12, rect.y + 7 + 20 * i), 15, False, (255, 255, 255))
            self.banner_close = pygame.Rect(rect.right - 34, rect.y + 4, 28, 24)
            self.text(surf, "×", (self.banner_close.centerx, self.banner_close.y), 20, True, (255, 255, 255), "centre")
            y = rect.bottom
        if self.resume_offer is not None:
            rec = self.resume_offer
            rect = pygame.Rect(board.x, y, board.w, 40)
            pygame.draw.rect(surf, INFO_BG, rect)
            self.text(surf, _("An unfinished game of {game} ({n} moves) was autosaved.").format(
                game=rec.game, n=len(rec.moves)), (rect.x + 12, rect.y + 11), 15, False, (255, 255, 255))
            r1 = pygame.Rect(rect.right - 200, rect.y + 6, 90, 28)
            r2 = pygame.Rect(rect.right - 100, rect.y + 6, 90, 28)
            for key, r, label in (("resume", r1, _("Resume")), ("dismiss", r2, _("Dismiss"))):
                pygame.draw.rect(surf, BUTTON, r, border_radius=5)
                self.text(surf, label, (r.centerx, r.y + 5), 15, False, INK, "centre")
                self.resume_rects[key] = r

    def draw_panel(self, surf, panel) -> None:
        pygame.draw.rect(surf, PANEL, panel)
        pygame.draw.line(surf, (200, 193, 178), panel.topleft, panel.bottomleft)
        x = panel.x + 14
        width = panel.w - 28
        y = 12
        self.text(surf, game_title(self.game), (x, y), 22, True)
        y += 34
        # players
        self.seat_rects = []
        to_move = None if self.over() else self._to_move()
        outcome = self.outcome()
        colours = self.game.players.colours
        for p in range(1, self.pos.players + 1):
            row = pygame.Rect(x - 6, y - 3, width + 12, 26)
            if p == to_move:
                pygame.draw.rect(surf, (255, 246, 215), row, border_radius=5)
                pygame.draw.rect(surf, (225, 180, 60), row, 1, border_radius=5)
            c = colour(colours[p - 1]) if p <= len(colours) else None
            if c is not None:
                pygame.draw.circle(surf, c[:3], (x + 7, y + 10), 7)
                pygame.draw.circle(surf, INK, (x + 7, y + 10), 7, 1)
            name = player_name(self.game, p)
            if outcome is not None and outcome.winner == p:
                name += "  ★"
            self.text(surf, name, (x + 20, y + 1), 15, p == to_move)
            kind = seat_label(self.seats[p - 1])
            if p == to_move and self.seats[p - 1] != "human":
                kind = _("thinking") + "." * (1 + int(time.monotonic() * 3) % 3)
            elif self.seats[p - 1] != "human" and p in self.seat_notes and outcome is None:
                kind = f"{kind} · {self.seat_notes[p]}"
            r = self.text(surf, kind, (x + width, y + 2), 13, False, MUTED, "right")
            self.seat_rects.append((p, r.inflate(8, 6)))
            y += 28
        y += 4
        # status
        status = None
        if outcome is not None:
            status = describe_outcome(self.game, outcome)
        else:
            try:
                status = self.pos.scene(player=self.scene_player()).get("status")
            except NomvError:
                status = None
        if status:
            f = font(15, outcome is not None)
            for line in wrap(str(status), f, width)[:4]:
                self.text(surf, line, (x, y), 15, outcome is not None)
                y += 20
        y += 8
        # buttons
        self.buttons = []
        labels = [("undo", _("Undo"), self.pos.ply > 0), ("redo", _("Redo"), self.pos.can_redo),
                  ("done", _("Done"), self.input.complete is not None),
                  ("coords", _("Coordinates"), True),
                  ("new", _("New game"), True), ("restart", _("Restart"), True),
                  ("save", _("Save"), True), ("open", _("Open"), True),
                  ("rules", _("Rules"), True)]
        bw = (width - 8) // 2
        for i, (key, label, enabled) in enumerate(labels):
            r = pygame.Rect(x + (i % 2) * (bw + 8), y + (i // 2) * 34, bw, 28)
            b = Button(key, label, r, enabled, key == "coords" and self.coordinates)
            self.buttons.append(b)
            bg = BUTTON_OFF if not enabled else BUTTON_HOVER if (self.hover_button == key or b.active) else BUTTON
            if key == "done" and enabled:
                bg = (255, 214, 120)
            pygame.draw.rect(surf, bg, r, border_radius=6)
            pygame.draw.rect(surf, (180, 172, 155), r, 1, border_radius=6)
            self.text(surf, label, (r.centerx, r.y + 5), 15, False, INK if enabled else (150, 145, 135), "centre")
        y += (len(labels) + 1) // 2 * 34 + 8
        # moves
        self.text(surf, _("Moves"), (x, y), 15, True)
        y += 22
        lines = [(f"{i + 1}.", t) for i, t in enumerate(self.pos.history_notation)]
        room = max(1, (panel.bottom - y - 10) // 19)
        self.scroll = min(self.scroll, max(0, len(lines) - room))
        end = len(lines) - self.scroll
        for num, t in lines[max(0, end - room):end]:
            self.text(surf, num, (x + 34, y), 14, False, MUTED, "right")
            self.text(surf, t, (x + 42, y), 14)
            y += 19
        if not lines:
            self.text(surf, _("none yet"), (x, y), 14, False, MUTED)


def measure_frame_times(game: str = "nibble", frames: int = 60, size=(1100, 720),
                        options: dict | None = None) -> dict[str, float]:
    """Milliseconds per frame of the window, idle and while the mouse moves over the board.
    The default is Nibble's 9x9 board (its busiest scene)."""
    from . import headless_if_no_display
    headless_if_no_display()
    pos = Game.load(game).start(options=options, seed=1)
    app = App(pos, ["human"] * pos.players, size=size, autosave=None, watch=False)
    app.step()
    times = []
    for _i in range(frames):
        t = time.perf_counter()
        app.step()
        times.append((time.perf_counter() - t) * 1000)
    idle = sorted(times)[len(times) // 2]
    board = app.view.rect
    ids = list(app.view.by_id)
    times = []
    for i in range(frames):
        sid = ids[i % len(ids)]
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=app.view.centre_px(sid), rel=(1, 1), buttons=(0, 0, 0)))
        t = time.perf_counter()
        app.step()
        times.append((time.perf_counter() - t) * 1000)
    hover = sorted(times)[len(times) // 2]
    app.close()
    return {"idle_ms": round(idle, 2), "hover_ms": round(hover, 2), "board": f"{board.w}x{board.h}",
            "items": len(app.view.shapes)}
