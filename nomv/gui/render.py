"""Headless pictures of a position, drawn by the same code as the window."""
from __future__ import annotations

from pathlib import Path

from . import headless_if_no_display

BACKGROUND = (246, 243, 236)


def render_surface(pos, size=(800, 600), player: int | None = None, coordinates: bool = False,
                   highlights=(), selected=()):
    """The position's scene (or ``player``'s view of it) drawn on a new surface."""
    import pygame
    from .view import SceneView
    if not pygame.font.get_init():
        pygame.font.init()
    surf = pygame.Surface(size)
    surf.fill(BACKGROUND)
    view = SceneView(pos.scene(player=player), surf.get_rect())
    view.draw(surf, BACKGROUND, highlights, selected, coordinates=coordinates)
    return surf


def render_png(pos, out: str | Path, size=(800, 600), player: int | None = None,
               coordinates: bool = False, panel: bool = False) -> Path:
    """Writes a PNG of the position; with ``panel`` the whole window (side panel included)."""
    headless_if_no_display()
    import pygame
    out = Path(out)
    if panel:
        from .app import App
        app = App(pos, size=size, autosave=None, watch=False, viewer=player)
        app.coordinates = coordinates
        app.step()
        pygame.image.save(app.screen, str(out))
        app.close()
    else:
        pygame.font.init()
        pygame.image.save(render_surface(pos, size, player, coordinates), str(out))
    return out
