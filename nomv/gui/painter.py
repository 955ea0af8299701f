"""Draws a Table (table.py) on a surface: the board with its marks and highlights, the buttons
of the steps that have no place, the banners, the bar under the board, and the side panel with
the seats, the status, the buttons and the move list.  It needs no window: ``nomv render``
draws with it on a plain surface, and the window (app.py) on its screen.  ``draw`` returns
where everything clickable was drawn (:class:`Hits`).

Every text gets the width it may use and is shrunk or cut to fit it (theme.Ink), so nothing
overlaps or leaves its box at any window size from 640x480 up.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pygame

from ..errors import NomvError
from ..play import wording
from ..play.drawing import colour, coordinates as shown_coordinates
from ..play.words import _, language, localized
from . import theme
from .table import INFO, WARN, Table
from .theme import Ink, font
from .view import SceneView

BAR_H = 30
STEP_BAR_H = 44


@dataclass
class Ui:
    """What the window shows besides the game: where the pointer is and what it is over, the
    move list's scroll, and whether the coordinates are drawn."""

    hover: str | None = None            # the id of the board item under the pointer
    hover_key: Any = None               # the button, seat or move row under the pointer
    mouse: tuple[int, int] = (-1, -1)
    scroll: int = 0                     # move list: lines scrolled up from the end
    #: None: around the edge where the board has them (nomv.play.drawing.coordinates)
    coordinates: bool | None = None


@dataclass
class Button:
    key: str
    label: str
    rect: pygame.Rect
    enabled: bool = True
    active: bool = False


@dataclass
class Hits:
    """Where the clickable things of the last frame were drawn."""

    board: pygame.Rect = field(default_factory=pygame.Rect)
    view: SceneView | None = None
    buttons: list[Button] = field(default_factory=list)
    seats: list[tuple[int, pygame.Rect]] = field(default_factory=list)
    moves: list[tuple[int, pygame.Rect]] = field(default_factory=list)
    steps: list[tuple[str, pygame.Rect, bool]] = field(default_factory=list)
    banner_close: pygame.Rect | None = None
    resume: dict[str, pygame.Rect] = field(default_factory=dict)
    panel: pygame.Rect = field(default_factory=pygame.Rect)
    bar: pygame.Rect = field(default_factory=pygame.Rect)


class Painter:
    def __init__(self) -> None:
        self.ink = Ink()
        self._view: SceneView | None = None
        self._view_key: Any = None
        self.hits = Hits()

    # -- the whole window ---------------------------------------------------------------------

    def draw(self, surf: pygame.Surface, table: Table, ui: Ui) -> Hits:
        self.ink.new_frame()
        hits = self.hits = Hits()
        surf.fill(theme.BACKGROUND)
        w, h = surf.get_size()
        panel_w = max(240, min(360, int(w * 0.3)))
        panel = hits.panel = pygame.Rect(w - panel_w, 0, panel_w, h)
        bar = hits.bar = pygame.Rect(0, h - BAR_H, w - panel_w, BAR_H)
        area = pygame.Rect(0, 0, w - panel_w, h - BAR_H)
        area = self._safely(table, self.draw_banners, surf, table, area) or area
        steps = table.step_buttons() if not table.error else []
        if steps:
            strip = pygame.Rect(area.x, area.bottom - STEP_BAR_H, area.w, STEP_BAR_H)
            area = pygame.Rect(area.x, area.y, area.w, area.h - STEP_BAR_H)
            self.draw_step_buttons(surf, strip, steps, ui)
        hits.board = area
        self._safely(table, self.draw_board, surf, table, area, ui)
        self._safely(table, self.draw_bar, surf, table, bar, ui)
        self._safely(table, self.draw_panel, surf, table, panel, ui)
        return hits

    @staticmethod
    def _safely(table: Table, draw, *args):
        """Draws one part of the window; a failing script spoils that part only."""
        try:
            return draw(*args)
        except NomvError as exc:
            table.script_failed(exc)
            return None

    # -- the board ------------------------------------------------------------------------------

    def board_view(self, table: Table, board: pygame.Rect, coordinates: bool | None) -> SceneView | None:
        scene = table.shown_scene()
        d = table.drawing() if scene is not None else None
        if scene is None or d is None:
            self._view = None  # (not the last good scene: it may be another game's)
            return None
        key = (id(scene), id(d), tuple(board), coordinates, language())
        if self._view is None or self._view_key != key:
            self._view = SceneView(scene, board, drawing=d, coordinates=coordinates)
            self._view_key = key
        return self._view

    def draw_board(self, surf: pygame.Surface, table: Table, board: pygame.Rect, ui: Ui) -> None:
        if table.handover is not None and table.browse is None:
            self.draw_cover(surf, table, board)
            return
        view = self.hits.view = self.board_view(table, board, ui.coordinates)
        if view is None:
            return
        live = table.browse is None and table.human_to_move() and not table.error
        inp = table.input
        view.draw(surf, theme.BACKGROUND, inp.next_steps if live else (), inp.clicked if live else (),
                  ui.hover if live else None, inp.is_clickable(ui.hover) if live and ui.hover else True,
                  ready=live and inp.needs_confirm)
        if live and inp.needs_confirm and inp.clicked and inp.clicked[-1] in view.by_id:
            assert inp.complete is not None, "needs_confirm means the clicks complete a move"
            self.draw_callout(surf, board, view.box_px(inp.clicked[-1]),
                              _("{move}: click again to play").format(move=inp.notations[inp.complete]), view)
        if table.browse is not None:
            # an earlier position: framed, so that it is not taken for the game (the bar says
            # which move it is)
            pygame.draw.rect(surf, theme.INFO_BG, board, 3)

    def draw_callout(self, surf: pygame.Surface, board: pygame.Rect, near: pygame.Rect, text: str,
                     view: SceneView | None = None) -> None:
        """A label beside a place, saying what the pending move awaits: in the nearest spot on
        its row (or just above or below it) where it hides nothing drawn; nowhere when there is
        none (the bar says the same)."""
        text, size = theme.fit(text, board.w - 24, 15, True)
        tw, th = font(size, True).size(text)
        box = pygame.Rect(0, 0, tw + 18, th + 10)
        taken = [] if view is None else [view.box_px(sid) for sid in view.place] + \
            [_px_box(view, s) for s in view.shapes if s.kind != "text"]
        inside = board.inflate(-8, -8)
        spots = []
        for k in range(0, board.w, 12):
            spots += [(near.left - 6 - k - box.w, near.centery - box.h // 2), (near.right + 6 + k, near.centery - box.h // 2)]
        for k in range(0, board.h, 12):
            spots += [(near.centerx - box.w // 2, near.top - 6 - k - box.h), (near.centerx - box.w // 2, near.bottom + 6 + k)]
        spots.sort(key=lambda p: abs(p[0] + box.w / 2 - near.centerx) + abs(p[1] + box.h / 2 - near.centery))
        for x, y in spots:
            box.topleft = (x, y)
            if inside.contains(box) and box.collidelist(taken) < 0:
                break
        else:
            return
        pygame.draw.rect(surf, (30, 120, 55), box, border_radius=7)
        pygame.draw.rect(surf, (255, 255, 255), box, 2, border_radius=7)
        self.ink.text(surf, text, (box.centerx, box.y + 5), size, True, (255, 255, 255), "centre")

    def draw_cover(self, surf: pygame.Surface, table: Table, board: pygame.Rect) -> None:
        pygame.draw.rect(surf, theme.COVER, board)
        name = wording.role(table.match_view().seat(table.handover or 1), language())
        self.ink.text(surf, _("Pass to {name}").format(name=name), (board.centerx, board.centery - 40), 30, True,
                      (250, 250, 250), "centre", width=board.w - 20)
        self.ink.text(surf, _("{name}: click to continue").format(name=name), (board.centerx, board.centery + 10),
                      18, False, (220, 220, 230), "centre", width=board.w - 20)

    def draw_step_buttons(self, surf: pygame.Surface, strip: pygame.Rect, steps, ui: Ui) -> None:
        """The moves that have no place on the board (pass, roll), as buttons under it."""
        pygame.draw.line(surf, theme.PANEL_LINE, strip.topleft, strip.topright)
        gap = 10
        widths = [min(220, max(90, font(15).size(b["text"])[0] + 28)) for b, _on in steps]
        total = sum(widths) + gap * (len(widths) - 1)
        scale = min(1.0, (strip.w - 20) / total) if total > 0 else 1.0
        x = strip.centerx - int(total * scale) // 2
        for (button, enabled), bw in zip(steps, widths):
            r = pygame.Rect(x, strip.y + 7, int(bw * scale), STEP_BAR_H - 14)
            key = ("step", button["id"])
            bg = theme.BUTTON_OFF if not enabled else theme.BUTTON_HOVER if ui.hover_key == key else theme.BUTTON
            pygame.draw.rect(surf, bg, r, border_radius=6)
            pygame.draw.rect(surf, theme.HIGHLIGHT_EDGE if enabled else theme.BUTTON_EDGE, r, 2 if enabled else 1,
                             border_radius=6)
            self.ink.centred(surf, button["text"], r, 15, enabled, theme.INK if enabled else theme.DISABLED)
            self.hits.steps.append((button["id"], r, enabled))
            x += r.w + gap

    # -- banners and the bar ------------------------------------------------------------------

    def draw_banners(self, surf: pygame.Surface, table: Table, area: pygame.Rect) -> pygame.Rect:
        """The error and the resume offer at the top of the board's area; returns the area
        left for the board below them."""
        y = area.y
        message = table.reload_error or table.error
        if message:
            f = font(15)
            lines = theme.wrap(message, f, area.w - 60)
            if len(lines) > 8:
                lines = lines[:8]
                lines[-1] = theme.fit(lines[-1] + " …", area.w - 60, 15)[0]
            rect = pygame.Rect(area.x, y, area.w, 14 + 20 * len(lines))
            pygame.draw.rect(surf, theme.ERROR_BG, rect)
            for i, line in enumerate(lines):
                self.ink.text(surf, line, (rect.x + 12, rect.y + 7 + 20 * i), 15, False, (255, 255, 255),
                              width=area.w - 60)
            close = self.hits.banner_close = pygame.Rect(rect.right - 36, rect.y + 4, 30, 26)
            self.ink.centred(surf, "×", close, 20, True, (255, 255, 255))
            y = rect.bottom
        if table.resume_offer is not None:
            rec = table.resume_offer
            bw = 100
            text = _("An unfinished game of {game} ({moves}) was autosaved.").format(
                game=rec.game, moves=wording.count_moves(len(rec.moves), language()))
            room = area.w - 2 * bw - 40
            one_line = room >= 200
            lines = theme.wrap(text, font(15), room if one_line else area.w - 24)[:3]
            height = max(40, 14 + 20 * len(lines)) if one_line else 14 + 20 * len(lines) + 36
            rect = pygame.Rect(area.x, y, area.w, height)
            pygame.draw.rect(surf, theme.INFO_BG, rect)
            for i, line in enumerate(lines):
                self.ink.text(surf, line, (rect.x + 12, rect.y + 8 + 20 * i), 15, False, (255, 255, 255),
                              width=(room if one_line else area.w - 24))
            by = rect.centery - 14 if one_line else rect.bottom - 34
            r1 = pygame.Rect(rect.right - 2 * bw - 16, by, bw, 28)
            r2 = pygame.Rect(rect.right - bw - 8, by, bw, 28)
            for key, r, label in (("resume", r1, _("Resume")), ("dismiss", r2, _("Dismiss"))):
                pygame.draw.rect(surf, theme.BUTTON_HOVER if self._hovered(r) else theme.BUTTON, r, border_radius=5)
                self.ink.centred(surf, label, r, 15)
                self.hits.resume[key] = r
            y = rect.bottom
        return pygame.Rect(area.x, y, area.w, area.bottom - y)

    @staticmethod
    def _hovered(rect: pygame.Rect) -> bool:
        return pygame.display.get_init() and pygame.display.get_surface() is not None and \
            rect.collidepoint(pygame.mouse.get_pos())

    def draw_bar(self, surf: pygame.Surface, table: Table, bar: pygame.Rect, ui: Ui) -> None:
        pygame.draw.rect(surf, theme.BAR, bar)
        text, kind = table.hint(ui.hover if table.browse is None else None)
        col = theme.WARN if kind == WARN else theme.GOOD if kind == INFO else theme.INK
        self.ink.text(surf, text, (bar.x + 10, bar.y + 7), 15, False, col, width=bar.w - 20)

    # -- the panel ------------------------------------------------------------------------------

    def draw_panel(self, surf: pygame.Surface, table: Table, panel: pygame.Rect, ui: Ui) -> None:
        pygame.draw.rect(surf, theme.PANEL, panel)
        pygame.draw.line(surf, theme.PANEL_LINE, panel.topleft, panel.bottomleft)
        x, width = panel.x + 14, panel.w - 28
        labels = self.button_list(table)
        rows = (len(labels) + 1) // 2
        line = table.line().text
        status = table.status() or ""
        lines = len(theme.wrap(line, font(15, True), width)) + len(theme.wrap(status, font(15), width)) if status else \
            len(theme.wrap(line, font(15, True), width))
        # Room: the title, the seats, the line, the status, the buttons and at least three
        # moves.  When the window is short, seats take one line each and the buttons get thinner.
        roomy = 34 + 46 * table.pos.players + 22 * min(4, max(1, lines)) \
            + rows * 34 + 8 + 24 + 3 * 19 + 20 <= panel.h
        seat_h, button_h, button_gap = (42, 28, 6) if roomy else (28, 25, 4)
        y = panel.y + 10
        self.ink.text(surf, localized(table.game.title_text, table.game.name), (x, y), 22, True, width=width)
        y += 34
        y = self.draw_seats(surf, table, x, y, width, seat_h, ui)
        y += 6
        if line:
            y = self.ink.lines(surf, line, x, y, width, 15, True, max_lines=2)
        if status:
            y = self.ink.lines(surf, status, x, y, width, 15, False, max_lines=2 if roomy else 1)
        y += 6
        bw = (width - 8) // 2
        for i, (key, label, enabled, strong) in enumerate(labels):
            r = pygame.Rect(x + (i % 2) * (bw + 8), y + (i // 2) * (button_h + button_gap), bw, button_h)
            b = Button(key, label, r, enabled, key == "coords" and self.coordinates_shown(table, ui))
            self.hits.buttons.append(b)
            bg = theme.BUTTON_OFF if not enabled else theme.BUTTON_STRONG if strong else \
                theme.BUTTON_HOVER if (ui.hover_key == ("button", key) or b.active) else theme.BUTTON
            pygame.draw.rect(surf, bg, r, border_radius=6)
            pygame.draw.rect(surf, theme.BUTTON_EDGE, r, 1, border_radius=6)
            self.ink.centred(surf, label, r, 15, False, theme.INK if enabled else theme.DISABLED)
        y += rows * (button_h + button_gap) + 6
        self.draw_moves(surf, table, pygame.Rect(x, y, width, panel.bottom - y - 8), ui)

    def button_list(self, table: Table) -> list[tuple[str, str, bool, bool]]:
        """(key, label, enabled, emphasised) of the panel's buttons, in order."""
        inp = table.input
        live = table.browse is None
        out = [("undo", _("Undo"), table.can_undo(), False),
               ("redo", _("Redo"), table.pos.can_redo, False),
               ("done", _("Done"), live and inp.complete is not None, live and inp.complete is not None),
               ("coords", _("Coordinates"), self.coordinates_possible(table), False),
               ("new", _("New game"), True, False), ("restart", _("Restart"), True, False),
               ("save", _("Save"), True, False), ("open", _("Open"), True, False),
               ("rules", _("Rules"), True, False)]
        if table.against_computer() and not table.over():
            out += [("resign", _("Resign"), True, False), ("draw", _("Offer a draw"), True, False)]
        return out

    def draw_seats(self, surf: pygame.Surface, table: Table, x: int, y: int, width: int, row_h: int,
                   ui: Ui) -> int:
        """One row a seat: the player's colour and name, and who plays it.  The whole row is a
        button: a click changes who plays the seat."""
        outcome = table.outcome()
        to_move = None if outcome is not None else table.to_move()
        colours = table.game.players.colours
        match = table.match_view()
        for p in range(1, table.pos.players + 1):
            row = pygame.Rect(x - 6, y, width + 12, row_h)
            hovered = ui.hover_key == ("seat", p)
            if p == to_move:
                pygame.draw.rect(surf, theme.TURN, row, border_radius=6)
            elif hovered:
                pygame.draw.rect(surf, theme.ROW_HOVER, row, border_radius=6)
            edge = theme.TURN_EDGE if p == to_move else theme.BUTTON_EDGE if hovered else theme.PANEL_LINE
            pygame.draw.rect(surf, edge, row, 1, border_radius=6)
            one_line = row_h < 36
            cy = y + (row_h // 2 if one_line else 13)
            c = colour(colours[p - 1]) if p <= len(colours) else None
            if c is not None:
                pygame.draw.circle(surf, c[:3], (x + 7, cy), 7)
                pygame.draw.circle(surf, theme.INK, (x + 7, cy), 7, 1)
            # the chevron says the row can be clicked: it cycles who plays
            chev = pygame.Rect(row.right - 22, row.y, 18, row_h)
            self.ink.centred(surf, "⇄", chev, 14, False, theme.MUTED if not hovered else theme.INK)
            name = wording.role(match.seat(p), language())
            if outcome is not None and outcome.winner == p:
                name = "★ " + name
            kind, note = self.seat_kind(table, match, p, to_move)
            text_w = chev.x - (x + 20) - 4
            bold = p == to_move
            if one_line:
                kind = f"{kind} · {note}" if note else kind
                name_w = min(font(15, bold).size(name)[0], text_w // 2)
                self.ink.text(surf, name, (x + 20, cy - 9), 15, bold, width=name_w)
                self.ink.text(surf, kind, (x + 20 + name_w + 8, cy - 7), 13, False, theme.MUTED,
                              width=text_w - name_w - 8)
            else:
                # the name, and what the computer says (its estimate, or that it thinks) at the
                # right of the same line; who plays the seat below
                note_w = min(font(13).size(note)[0], text_w // 2) if note else 0
                name_w = text_w - note_w - (8 if note else 0)
                self.ink.text(surf, name, (x + 20, y + 4), 15, bold, width=name_w)
                if note:
                    self.ink.text(surf, note, (x + 20 + text_w, y + 6), 13, False, theme.MUTED, "right",
                                  width=note_w)
                self.ink.text(surf, kind, (x + 20, y + 22), 13, False, theme.MUTED, width=text_w)
            self.hits.seats.append((p, row))
            y += row_h + 4
        return y

    @staticmethod
    def seat_kind(table: Table, match, p: int, to_move: int | None) -> tuple[str, str]:
        """Who plays seat p, and what the computer there says now (or "")."""
        seat = match.seat(p)
        label = wording.player_label(seat, language())
        if seat.kind != "computer":
            return label, ""
        if p == to_move and table.browse is None:
            if table.waiting():
                return label, _("waiting")
            return label, _("thinking") + "." * (1 + int(time.monotonic() * 3) % 3)
        if seat.expects is not None and not match.over:
            return label, wording.expects(seat.expects, language())
        return label, ""

    @staticmethod
    def coordinates_possible(table: Table) -> bool:
        """Whether the board has coordinates to show (not one that writes its own)."""
        d = table.drawing()
        return d is not None and bool(d.edge or d.cells)

    @staticmethod
    def coordinates_shown(table: Table, ui: Ui) -> bool:
        """Whether the board shows coordinates now (nomv.play.drawing.coordinates)."""
        d = table.drawing()
        return d is not None and bool(shown_coordinates(d, ui.coordinates))

    def draw_moves(self, surf: pygame.Surface, table: Table, box: pygame.Rect, ui: Ui) -> None:
        """The moves so far, newest at the bottom; a click on one shows the position after it."""
        header_h = 24
        self.ink.text(surf, _("Moves"), (box.x, box.y + 3), 15, True)
        if table.browse is not None:
            back = pygame.Rect(box.right - min(150, box.w // 2 + 20), box.y, min(150, box.w // 2 + 20), 22)
            b = Button("live", _("Back to the game"), back, True)
            self.hits.buttons.append(b)
            pygame.draw.rect(surf, theme.BUTTON_STRONG, back, border_radius=6)
            pygame.draw.rect(surf, theme.BUTTON_EDGE, back, 1, border_radius=6)
            self.ink.centred(surf, b.label, back, 13)
        y = box.y + header_h
        texts = table.pos.history_notation
        room = max(1, (box.bottom - y) // 19)
        scroll = min(ui.scroll, max(0, len(texts) - room))
        ui.scroll = scroll
        end = len(texts) - scroll
        if table.browse is not None and not (end - room < table.browse <= end):
            end = min(len(texts), max(room, table.browse + room // 2))  # keep the shown move in view
        if not texts:
            self.ink.text(surf, _("none yet"), (box.x, y), 14, False, theme.MUTED)
        shown = table.shown_ply
        for i in range(max(0, end - room), end):
            row = pygame.Rect(box.x - 6, y - 1, box.w + 12, 19)
            if i + 1 == shown and table.browse is not None:
                pygame.draw.rect(surf, theme.TURN, row, border_radius=4)
            elif ui.hover_key == ("move", i + 1):
                pygame.draw.rect(surf, theme.ROW_HOVER, row, border_radius=4)
            self.ink.text(surf, f"{i + 1}.", (box.x + 34, y), 14, False, theme.MUTED, "right")
            self.ink.text(surf, texts[i], (box.x + 42, y), 14, i + 1 == shown and table.browse is not None,
                          width=box.w - 42)
            self.hits.moves.append((i + 1, row))
            y += 19


def _px_box(view: SceneView, s) -> pygame.Rect:
    x0, y0, x1, y1 = s.bbox()
    v = view._for(s)
    (a, b), (c, d) = v.to_px(x0, y0), v.to_px(x1, y1)
    return pygame.Rect(int(a), int(b), max(1, int(c - a)), max(1, int(d - b)))
