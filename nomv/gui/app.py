"""The window: pygame events to the actions of the game on the table, dialogs, the frame loop.

``App(pos, seats)`` opens the window; ``app.step()`` handles the pending events and draws one
frame (tests post real pygame events and step); ``app.run()`` loops until the window closes.
The game and what can be done to it live in table.py, the drawing in painter.py; errors from a
script never end the program: they show in a banner and the game stays.
"""
from __future__ import annotations

import os
import time
import traceback
from typing import TYPE_CHECKING, Any, Callable

import pygame

from ..game import Game, Position
from ..play import words, wording
from ..play.words import _, language, localized
from ..record import Record
from .painter import Painter, Ui
from .table import Table, autosave_path, pending_autosave  # noqa: F401  (the window's API)

if TYPE_CHECKING:
    from .dialogs import _Dialog


class App:
    """The window for one game at a time (see Table for ``seats`` and ``autosave``)."""

    def __init__(self, pos: Position, seats: list[str] | None = None, size=(1100, 720),
                 autosave: Any = "auto", watch: bool = True, viewer: int | None = None,
                 ai_delay: float = 0.35, resume: Record | None = None, lang: str | None = None):
        if lang is not None or not words.configured:
            words.setup(lang)
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.key.set_repeat(400, 40)
        self.clock = pygame.time.Clock()
        self.running = True
        self.table = Table(pos, seats, autosave, watch, viewer, ai_delay, resume)
        self.painter = Painter()
        self.ui = Ui()
        self.dialog: _Dialog | None = None      # an in-window dialog (dialogs.py) or None
        self.frame_ms = 0.0
        self._caption = ""
        self._set_caption()

    # -- what tests and dialogs read -------------------------------------------------------------

    @property
    def pos(self) -> Position:
        return self.table.pos

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def seats(self) -> list[str]:
        return self.table.seats

    @property
    def input(self):
        return self.table.input

    @property
    def error(self) -> str | None:
        return self.table.error

    @property
    def reload_error(self) -> str | None:
        return self.table.reload_error

    @property
    def handover(self) -> int | None:
        return self.table.handover

    @property
    def seat_notes(self) -> dict[int, str]:
        """What each computer seat says it expects, in words."""
        return {p: wording.expects(v, language()) for p, v in self.table.values.items()}

    @property
    def thinking(self) -> bool:
        return self.table.computer.thinking

    @property
    def view(self):
        return self.painter.hits.view

    @property
    def buttons(self):
        return self.painter.hits.buttons

    @property
    def banner_close(self):
        return self.painter.hits.banner_close

    @property
    def resume_rects(self):
        return self.painter.hits.resume

    @property
    def hover(self) -> str | None:
        return self.ui.hover

    @property
    def coordinates(self) -> bool:
        """Whether the board shows coordinates."""
        return self.painter.coordinates_shown(self.table, self.ui)

    @coordinates.setter
    def coordinates(self, on: bool | None) -> None:
        self.ui.coordinates = on

    def toggle_coordinates(self) -> None:
        """Shows the coordinates if they are hidden, else hides them."""
        self.ui.coordinates = not self.coordinates

    def hint(self) -> tuple[str, bool]:
        """The line under the board: (text, is a warning)."""
        text, kind = self.table.hint(self.ui.hover)
        return text, kind == "warn"

    def human_to_move(self) -> bool:
        return self.table.human_to_move()

    def scene_player(self) -> int | None:
        return self.table.scene_player()

    def text(self, surf, text: str, pos, size: int = 15, bold: bool = False, col=None, align: str = "left",
             width: int | None = None) -> pygame.Rect:
        """Draws a line of text (the dialogs' and the panel's one way of writing)."""
        from .theme import INK
        return self.painter.ink.text(surf, text, pos, size, bold, INK if col is None else col, align, width)

    def _set_caption(self) -> None:
        caption = f"nomv: {localized(self.table.game.title_text, self.table.game.name)}"
        if caption != self._caption:
            pygame.display.set_caption(caption)
            self._caption = caption

    # -- replacing the game ---------------------------------------------------------------------

    def replace(self, action: Callable[[], None]) -> None:
        """Runs an action that replaces the game on the table (new game, restart, open); asks
        first when that game is unfinished.  (The replaced game is kept: Table.keep_replaced.)"""
        if not self.table.in_progress():
            action()
            return
        from .dialogs import ConfirmDialog
        table = self.table
        self.dialog = ConfirmDialog(
            self, _("Replace the game in progress?"),
            _("The game of {game} in progress ({moves}) will be kept: Open lists it under “Replaced games”.").format(
                game=localized(table.game.title_text, table.game.name), moves=wording.count_moves(table.pos.ply, language())),
            _("Replace it"), action)

    def restart(self) -> None:
        self.replace(self.table.restart)

    def resume(self) -> None:
        self.table.resume()

    def wait_for_computer(self, timeout: float = 10.0) -> None:
        """Steps until no computer player is thinking (for tests and scripts)."""
        self.table.wait_for_computer(self.step, timeout)

    # -- the frame loop -------------------------------------------------------------------------

    def step(self) -> bool:
        """Handles the pending events, polls the script file and the computer, draws a frame."""
        try:
            for event in pygame.event.get():
                self.handle(event)
                if not self.running:
                    return False
            self.table.poll_reload()
            self.table.poll_computer(paused=self.dialog is not None)
            self._set_caption()
            start = time.perf_counter()
            self.draw()
            pygame.display.flip()
            self.frame_ms = (time.perf_counter() - start) * 1000
        except Exception as exc:  # the window never dies with a traceback
            if os.environ.get("NOMV_DEBUG"):
                traceback.print_exc()
            self.table.script_failed(exc)
            if self.dialog is not None and getattr(self.dialog, "broken", False):
                self.dialog = None
        return self.running

    def draw(self) -> None:
        self.painter.draw(self.screen, self.table, self.ui)
        if self.dialog is not None:
            self.dialog.draw(self.screen)

    def run(self) -> None:
        while self.step():
            self.clock.tick(60)
        self.close()

    def close(self) -> None:
        """Closes the window at once; the computer's search under way is forgotten."""
        self.running = False
        self.table.close()
        pygame.display.quit()

    # -- events ---------------------------------------------------------------------------------

    def handle(self, event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            screen = pygame.display.get_surface()
            assert screen is not None, "the window is open: set_mode made its surface"
            self.screen = screen
            return
        if self.dialog is not None:
            self.dialog.handle(event)
            return
        if event.type == pygame.MOUSEMOTION:
            self.ui.mouse = event.pos
            self._update_hover()
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.ui.mouse = event.pos
            if event.button == 1:
                self._left_click(event.pos)
            elif event.button == 3:
                self.table.back()
            self._update_hover()
        elif event.type == pygame.MOUSEWHEEL:
            self.ui.scroll = max(0, self.ui.scroll + event.y * 2)
        elif event.type == pygame.KEYDOWN:
            self._key(event)

    def _key(self, event) -> None:
        table = self.table
        ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        shift = event.mod & pygame.KMOD_SHIFT
        if table.handover is not None:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self._take_over()
            return
        if ctrl and event.key == pygame.K_z:
            table.redo() if shift else table.undo()
        elif ctrl and event.key == pygame.K_y:
            table.redo()
        elif ctrl and event.key == pygame.K_s:
            self.open_dialog("save")
        elif ctrl and event.key == pygame.K_o:
            self.open_dialog("open")
        elif ctrl and event.key == pygame.K_n:
            self.open_dialog("new")
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            table.confirm()
        elif event.key == pygame.K_ESCAPE and table.browse is not None:
            table.look_at(None)
        elif event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            table.back()
        elif event.key == pygame.K_LEFT:
            table.look_step(-1)
        elif event.key == pygame.K_RIGHT and table.browse is not None:
            table.look_step(+1)
        elif event.key == pygame.K_c and not ctrl:
            self.toggle_coordinates()

    def _take_over(self) -> None:
        self.table.viewer = self.table.handover
        self.table.handover = None

    def _left_click(self, at: tuple[int, int]) -> None:
        table, hits = self.table, self.painter.hits
        if table.handover is not None and table.browse is None:
            self._take_over()
            return
        if hits.banner_close is not None and hits.banner_close.collidepoint(at):
            table.error = None
            table.reload_error = None
            return
        for key, rect in hits.resume.items():
            if rect.collidepoint(at):
                table.resume() if key == "resume" else table.dismiss_resume()
                return
        for sid, rect, _enabled in hits.steps:
            if rect.collidepoint(at):
                table.click_step(sid)
                return
        for b in hits.buttons:
            if b.rect.collidepoint(at):
                if b.enabled:
                    self.press(b.key)
                return
        for p, rect in hits.seats:
            if rect.collidepoint(at):
                table.toggle_seat(p)
                return
        for ply, rect in hits.moves:
            if rect.collidepoint(at):
                table.look_at(ply)
                return
        view = hits.view
        if view is not None and hits.board.collidepoint(at):
            if table.browse is not None:
                table.click_step("")  # says that this is an earlier position
                return
            hit = view.hit(*at, wanted=table.input.next_steps | set(table.input.clicked))
            if hit is None:
                if table.input.moves and not table.error:
                    table.flash(_("Nothing to click there"))
                return
            table.click_step(hit)

    def press(self, key: str) -> None:
        table = self.table
        if key == "undo":
            table.undo()
        elif key == "redo":
            table.redo()
        elif key == "done":
            table.confirm()
        elif key == "restart":
            self.restart()
        elif key == "coords":
            self.toggle_coordinates()
        elif key == "resign":
            table.resign()
        elif key == "draw":
            table.offer_draw()
        elif key == "live":
            table.look_at(None)
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
        ui, hits, table = self.ui, self.painter.hits, self.table
        ui.hover = None
        ui.hover_key = None
        at = ui.mouse
        for b in hits.buttons:
            if b.rect.collidepoint(at):
                ui.hover_key = ("button", b.key)
                return
        for p, rect in hits.seats:
            if rect.collidepoint(at):
                ui.hover_key = ("seat", p)
                return
        for ply, rect in hits.moves:
            if rect.collidepoint(at):
                ui.hover_key = ("move", ply)
                return
        for sid, rect, _enabled in hits.steps:
            if rect.collidepoint(at):
                ui.hover_key = ("step", sid)
                return
        if hits.view is not None and table.human_to_move() and table.handover is None and table.browse is None:
            ui.hover = hits.view.hit(*at, wanted=table.input.next_steps | set(table.input.clicked))


def measure_frame_times(game: str = "nibble", frames: int = 60, size=(1100, 720),
                        options: dict | None = None) -> dict[str, Any]:
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
    items = len(app.view.shapes)
    app.close()
    return {"idle_ms": round(idle, 2), "hover_ms": round(hover, 2), "board": f"{board.w}x{board.h}",
            "items": items}


__all__ = ["App", "measure_frame_times", "pending_autosave", "autosave_path"]
