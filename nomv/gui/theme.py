"""The window's look: colours, fonts, and text that fits its box.

Every part of the window (the panel, the bar, the dialogs, the board's marks) takes its colours
and fonts from here, and draws its words with :class:`Ink`, which never lets a text run out of
the width it is given: it shrinks to a readable minimum, then ends with an ellipsis.
"""
from __future__ import annotations

import pygame

BACKGROUND = (246, 243, 236)
PANEL = (232, 227, 216)
PANEL_LINE = (200, 193, 178)
BAR = (238, 234, 225)
INK = (35, 35, 35)
MUTED = (105, 100, 90)
DISABLED = (150, 145, 135)
WARN = (170, 40, 40)
GOOD = (30, 110, 50)
BUTTON = (250, 248, 243)
BUTTON_HOVER = (255, 236, 190)
BUTTON_OFF = (222, 218, 208)
BUTTON_EDGE = (180, 172, 155)
BUTTON_STRONG = (255, 214, 120)     # the button that finishes what the player started (Done)
HIGHLIGHT_EDGE = (205, 150, 0)      # a button that plays a move now (pass, roll)
TURN = (255, 246, 215)              # the seat whose turn it is
TURN_EDGE = (225, 180, 60)
ROW_HOVER = (244, 238, 226)
ERROR_BG = (190, 40, 40)
INFO_BG = (60, 100, 160)
COVER = (40, 45, 60)
SHADE = (0, 0, 0, 120)
BOX = (248, 246, 240)
BOX_EDGE = (160, 150, 130)
FIELD = (255, 255, 255)
FOCUS = (60, 110, 200)
SELECTION = (180, 205, 250)

#: The smallest text the window draws, in pixels (an em): board texts and labels included.
MIN_TEXT = 11

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_font_files: dict[bool, str | None] = {}
# pygame's built-in font (FreeSans Bold) is drawn at about 0.69 of the size asked
_DEFAULT_FONT_FACTOR = 1 / 0.6875


def _font_file(bold: bool) -> str | None:
    """A system sans-serif (DejaVu Sans and the like) when one is installed, else None: the
    font built into pygame (which is bold only)."""
    if bold not in _font_files:
        found = None
        for name in ("dejavusans", "notosans", "liberationsans", "freesans", "arial", "helvetica"):
            try:
                found = pygame.font.match_font(name, bold=bold)
            except Exception:  # fc-list missing or failing: use the default
                found = None
            if found:
                break
        _font_files[bold] = found
    return _font_files[bold]


def font(px: float, bold: bool = False) -> pygame.font.Font:
    """A font whose em is about px pixels."""
    path = _font_file(bold)
    if path is None:
        px *= _DEFAULT_FONT_FACTOR
    size = max(6, min(400, int(round(px))))
    key = (size, bold)
    f = _fonts.get(key)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        try:
            f = pygame.font.Font(path, size)
        except (OSError, pygame.error):
            _font_files[bold] = None
            f = pygame.font.Font(None, int(size * _DEFAULT_FONT_FACTOR))
        _fonts[key] = f
    return f


def wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    """The text cut into lines no wider than width (a word longer than the width is cut too)."""
    lines: list[str] = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split(" "):
            trial = word if not line else line + " " + word
            if f.size(trial)[0] <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while f.size(word)[0] > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and f.size(word[:cut])[0] > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def fit(text: str, width: int, size: int = 15, bold: bool = False, smallest: int = MIN_TEXT) -> tuple[str, int]:
    """The text and the largest font size from ``size`` down to ``smallest`` at which it fits
    in width pixels; cut with an ellipsis when even the smallest does not."""
    for s in range(size, smallest - 1, -1):
        if font(s, bold).size(text)[0] <= width:
            return text, s
    f = font(smallest, bold)
    while len(text) > 1 and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…", smallest


class Ink:
    """Draws texts (cached as images) and remembers where, frame by frame: ``drawn`` lists the
    (rect, text) of everything drawn since ``new_frame()``, so tests can check that no two
    texts overlap and none leaves its box."""

    def __init__(self) -> None:
        self._cache: dict[tuple, pygame.Surface] = {}
        self.drawn: list[tuple[pygame.Rect, str]] = []

    def new_frame(self) -> None:
        self.drawn = []

    def image(self, text: str, size: int, bold: bool, col) -> pygame.Surface:
        key = (text, size, bold, tuple(col))
        img = self._cache.get(key)
        if img is None:
            if len(self._cache) > 3000:
                self._cache.clear()
            img = font(size, bold).render(text, True, col)
            self._cache[key] = img
        return img

    def text(self, surf: pygame.Surface, text: str, pos, size: int = 15, bold: bool = False, col=INK,
             align: str = "left", width: int | None = None) -> pygame.Rect:
        """Draws one line at pos (its top-left, top-centre or top-right by ``align``); with
        ``width``, shrunk and cut to fit that many pixels."""
        if width is not None:
            text, size = fit(text, max(1, width), size, bold, min(size, MIN_TEXT))
        img = self.image(text, size, bold, col)
        r = img.get_rect()
        if align == "left":
            r.topleft = pos
        elif align == "centre":
            r.midtop = pos
        else:
            r.topright = pos
        surf.blit(img, r)
        if text.strip():
            self.drawn.append((r.copy(), text))
        return r

    def centred(self, surf: pygame.Surface, text: str, rect: pygame.Rect, size: int = 15, bold: bool = False,
                col=INK) -> pygame.Rect:
        """One line centred in rect, shrunk and cut to fit its width."""
        text, size = fit(text, max(1, rect.w - 8), size, bold, min(size, MIN_TEXT))
        h = font(size, bold).get_height()
        return self.text(surf, text, (rect.centerx, rect.centery - h // 2), size, bold, col, "centre")

    def lines(self, surf: pygame.Surface, text: str, x: int, y: int, width: int, size: int = 15,
              bold: bool = False, col=INK, max_lines: int = 99, gap: int = 4) -> int:
        """A wrapped paragraph of at most max_lines lines (the last cut with an ellipsis when
        more would follow); returns the y below it."""
        f = font(size, bold)
        rows = wrap(text, f, width)
        if len(rows) > max_lines:
            rows = rows[:max_lines]
            rows[-1] = fit(rows[-1] + " …", width, size, bold, size)[0]
        step = f.get_linesize() + gap - 2
        for row in rows:
            self.text(surf, row, (x, y), size, bold, col, width=width)
            y += step
        return y
