"""Headless pictures of a position, drawn by the same code as the window, without opening one."""
from __future__ import annotations

from pathlib import Path

from . import headless_if_no_display


def render_surface(pos, size=(800, 600), player: int | None = None, coordinates: bool = False,
                   panel: bool = False, seats: list[str] | None = None):
    """The position drawn on a new surface: its scene (or ``player``'s view of it) with the
    last move marked, or with ``panel`` the whole window (side panel, bar) as it would show."""
    import pygame
    from .painter import Painter, Ui
    from .table import Table
    from .theme import BACKGROUND
    if not pygame.font.get_init():
        pygame.font.init()
    surf = pygame.Surface(size)
    table = Table(pos, seats or ["human"] * pos.players, autosave=None, watch=False, viewer=player)
    table.handover = None        # a picture shows the board, not the screen handed over
    ui = Ui(coordinates=coordinates)
    if panel:
        Painter().draw(surf, table, ui)
    else:
        surf.fill(BACKGROUND)
        painter = Painter()
        painter.draw_board(surf, table, surf.get_rect(), ui)
    table.close()
    return surf


def render_png(pos, out: str | Path, size=(800, 600), player: int | None = None,
               coordinates: bool = False, panel: bool = False, seats: list[str] | None = None) -> Path:
    """Writes a PNG of the position; with ``panel`` the whole window (side panel included)."""
    headless_if_no_display()
    import pygame
    out = Path(out)
    pygame.image.save(render_surface(pos, size, player, coordinates, panel, seats), str(out))
    return out
