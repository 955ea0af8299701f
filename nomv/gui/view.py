"""Scene -> pixels and pixel -> id.

A scene is a dict ``{"items": [...], "bounds": [x0, y0, x1, y1]?, "status": ...}`` in board
units (y down).  :class:`SceneView` fits the scene into a rectangle of the window keeping its
aspect, draws the items by layer (cached: the scene is drawn once per position and size), draws
highlights, the selection and the hovered item above it, and finds the topmost clickable item
under a pixel.  Nothing here knows about any particular game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import pygame

NAMED = {
    "black": (0, 0, 0), "white": (255, 255, 255), "red": (210, 40, 40), "green": (40, 150, 60),
    "blue": (50, 90, 210), "yellow": (235, 200, 40), "orange": (240, 140, 30),
    "purple": (130, 60, 170), "grey": (128, 128, 128), "gray": (128, 128, 128),
    "brown": (130, 85, 40), "none": None, "transparent": None,
}

HIGHLIGHT = (255, 190, 0)      # next steps
SELECTED = (40, 110, 230)      # steps clicked so far
HOVER_OK = (20, 20, 20)
HOVER_BAD = (200, 40, 40)
TEXT = (40, 40, 40)
FONT_SCALE = 0.95              # font size (em, pixels) per pixel of text size asked by a scene

_colour_cache: dict[Any, tuple | None] = {}


def colour(value: Any, default: tuple | None = None) -> tuple | None:
    """A scene colour ("#rrggbb", "#rrggbbaa", a name) as an (r, g, b, a) tuple, or None."""
    if value is None:
        return default
    key = value if isinstance(value, str) else repr(value)
    if key in _colour_cache:
        return _colour_cache[key]
    out: tuple | None = default
    if isinstance(value, str):
        v = value.strip().lower()
        if v in NAMED:
            rgb = NAMED[v]
            out = None if rgb is None else (*rgb, 255)
        elif v.startswith("#") and len(v) in (4, 7, 9):
            try:
                if len(v) == 4:
                    out = tuple(int(c * 2, 16) for c in v[1:]) + (255,)
                else:
                    out = (int(v[1:3], 16), int(v[3:5], 16), int(v[5:7], 16),
                           int(v[7:9], 16) if len(v) == 9 else 255)
            except ValueError:
                out = default
    _colour_cache[key] = out
    return out


def contrast(fill: tuple | None) -> tuple:
    """Black or white, whichever reads better on fill."""
    if fill is None:
        return (*TEXT, 255)
    r, g, b = fill[:3]
    return (20, 20, 20, 255) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250, 255)


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


def _text_width_units(text: str, size: float, bold: bool) -> float:
    """The width of a scene text in board units (measured with the real font)."""
    f = font(100, bold)
    return f.size(text)[0] / 100 * size * FONT_SCALE


def _pairs(points: Sequence[float]) -> list[tuple[float, float]]:
    if points and isinstance(points[0], (list, tuple)):
        return [(float(p[0]), float(p[1])) for p in points]
    return [(float(points[i]), float(points[i + 1])) for i in range(0, len(points) - 1, 2)]


def _num(item: dict, key: str, default: float = 0.0) -> float:
    v = item.get(key, default)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


@dataclass
class Shape:
    """One scene item, in board units, ready to draw and hit-test."""

    item: dict
    kind: str                 # polygon, circle, rect, line, text
    layer: float
    order: int
    pts: list[tuple[float, float]]
    cx: float
    cy: float
    w: float = 0.0            # rect size, or text extent
    h: float = 0.0
    r: float = 0.0

    @property
    def id(self) -> str | None:
        v = self.item.get("id")
        return None if v is None else str(v)

    def bbox(self) -> tuple[float, float, float, float]:
        if self.kind in ("polygon", "line") and self.pts:
            xs = [p[0] for p in self.pts]
            ys = [p[1] for p in self.pts]
            return min(xs), min(ys), max(xs), max(ys)
        if self.kind == "circle":
            return self.cx - self.r, self.cy - self.r, self.cx + self.r, self.cy + self.r
        return self.cx - self.w / 2, self.cy - self.h / 2, self.cx + self.w / 2, self.cy + self.h / 2

    def contains(self, x: float, y: float, tolerance: float = 0.0) -> bool:
        if self.kind == "polygon":
            return _in_polygon(x, y, self.pts)
        if self.kind == "circle":
            return (x - self.cx) ** 2 + (y - self.cy) ** 2 <= self.r ** 2
        if self.kind in ("rect", "text"):
            return abs(x - self.cx) <= self.w / 2 and abs(y - self.cy) <= self.h / 2
        if self.kind == "line":
            reach = max(_num(self.item, "width", 0.0) / 2, tolerance)
            return any(_seg_dist(x, y, a, b) <= reach for a, b in zip(self.pts, self.pts[1:]))
        return False


def _in_polygon(x: float, y: float, pts: list[tuple[float, float]]) -> bool:
    inside = False
    n = len(pts)
    j = n - 1
    for i in range(n):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _seg_dist(x, y, a, b) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / L))
    return math.hypot(x - (ax + t * dx), y - (ay + t * dy))


def _centroid(pts: list[tuple[float, float]]) -> tuple[float, float]:
    area = cx = cy = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        c = x0 * y1 - x1 * y0
        area += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    if abs(area) < 1e-12:
        return sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n
    return cx / (3 * area), cy / (3 * area)


def build_shapes(items: Iterable[dict]) -> list[Shape]:
    """Scene items as shapes, in drawing order (by layer, then scene order).  Malformed items
    are skipped rather than stopping the drawing."""
    shapes: list[Shape] = []
    for order, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        kind = item.get("shape")
        raw_layer = item.get("layer")
        layer = float(raw_layer) if isinstance(raw_layer, (int, float)) else (2.0 if kind == "text" else 0.0)
        try:
            if kind in ("polygon", "line"):
                pts = _pairs(item.get("points") or [])
                if len(pts) < 2 or (kind == "polygon" and len(pts) < 3):
                    continue
                cx, cy = _centroid(pts) if kind == "polygon" else pts[len(pts) // 2]
                shapes.append(Shape(item, kind, layer, order, pts, cx, cy))
            elif kind == "circle":
                shapes.append(Shape(item, kind, layer, order, [], _num(item, "x"), _num(item, "y"),
                                    r=abs(_num(item, "r", 0.5))))
            elif kind in ("rect", "square", "hex"):
                w = abs(_num(item, "w", _num(item, "size", 1.0)))
                h = abs(_num(item, "h", w))
                shapes.append(Shape(item, "rect", layer, order, [], _num(item, "x"), _num(item, "y"), w, h))
            elif kind == "text":
                text = str(item.get("text", item.get("label", "")))
                size = _num(item, "size", 0.5)
                w = _text_width_units(text, size, bool(item.get("bold")))
                x = _num(item, "x")
                align = item.get("align", "centre")
                cx = x + w / 2 if align == "left" else x - w / 2 if align == "right" else x
                shapes.append(Shape(item, "text", layer, order, [], cx, _num(item, "y"), w, size * 1.1))
        except (TypeError, ValueError, IndexError):
            continue
    shapes.sort(key=lambda s: (s.layer, s.order))
    return shapes


def scene_bounds(scene: dict, shapes: list[Shape]) -> tuple[float, float, float, float]:
    b = scene.get("bounds")
    if isinstance(b, (list, tuple)) and len(b) == 4 and all(isinstance(v, (int, float)) for v in b) \
            and b[2] > b[0] and b[3] > b[1]:
        x0, y0, x1, y1 = (float(v) for v in b)
        # a scene's bounds may leave out text that pokes out; never cut what is drawn
        for s in shapes:
            a, c, d, e = s.bbox()
            x0, y0, x1, y1 = min(x0, a), min(y0, c), max(x1, d), max(y1, e)
        return x0, y0, x1, y1
    if not shapes:
        return 0.0, 0.0, 1.0, 1.0
    boxes = [s.bbox() for s in shapes]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


class SceneView:
    """A scene fitted into a pixel rectangle."""

    def __init__(self, scene: dict, rect: pygame.Rect | Sequence[int], margin: float = 0.03):
        self.scene = scene
        self.rect = pygame.Rect(rect)
        self.shapes = build_shapes(scene.get("items") or [])
        x0, y0, x1, y1 = scene_bounds(scene, self.shapes)
        bw, bh = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        pad = margin * min(self.rect.w, self.rect.h)
        aw, ah = max(self.rect.w - 2 * pad, 10), max(self.rect.h - 2 * pad, 10)
        self.scale = min(aw / bw, ah / bh)
        self.ox = self.rect.x + (self.rect.w - bw * self.scale) / 2 - x0 * self.scale
        self.oy = self.rect.y + (self.rect.h - bh * self.scale) / 2 - y0 * self.scale
        self.by_id: dict[str, Shape] = {}
        for s in self.shapes:
            if s.id is not None:
                self.by_id[s.id] = s  # the topmost item with an id
        self._base: pygame.Surface | None = None
        self._base_key: Any = None
        self._overlay: pygame.Surface | None = None
        self._overlay_key: Any = None

    # -- geometry -----------------------------------------------------------------------------

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.scale, self.oy + y * self.scale

    def to_board(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.ox) / self.scale, (py - self.oy) / self.scale

    def hit(self, px: float, py: float, wanted: set[str] | None = None) -> str | None:
        """The id of the topmost item with an id under the pixel (or None).  With ``wanted``,
        an item whose id is wanted wins over unwanted ones lying above it."""
        if not self.rect.collidepoint(px, py):
            return None
        x, y = self.to_board(px, py)
        tol = 4 / self.scale
        first = None
        for s in reversed(self.shapes):
            sid = s.id
            if sid is not None and s.contains(x, y, tol):
                if wanted is None or sid in wanted:
                    return sid
                if first is None:
                    first = sid
        return first

    def centre_px(self, sid: str) -> tuple[int, int]:
        """The pixel at the drawn centre of the (topmost) item with this id."""
        s = self.by_id[sid]
        px, py = self.to_px(s.cx, s.cy)
        return int(round(px)), int(round(py))

    # -- drawing ------------------------------------------------------------------------------

    def _pts_px(self, s: Shape) -> list[tuple[float, float]]:
        return [self.to_px(x, y) for x, y in s.pts]

    def _stroke_px(self, item: dict) -> int:
        w = item.get("width")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            return max(1, int(round(w * self.scale)))
        return 1

    def _draw_shape(self, surf: pygame.Surface, s: Shape, fill, stroke, width: int) -> None:
        """Draws one shape with optional fill and stroke (colours with alpha)."""
        if fill is not None and fill[3] < 255:
            x0, y0, x1, y1 = s.bbox()
            (a, b), (c, d) = self.to_px(x0, y0), self.to_px(x1, y1)
            box = pygame.Rect(int(a) - 2, int(b) - 2, int(c - a) + 5, int(d - b) + 5)
            layer = pygame.Surface(box.size, pygame.SRCALPHA)
            shifted = _Shifted(self, -box.x, -box.y)
            shifted._draw_shape(layer, s, fill[:3] + (255,), None, 0)
            _multiply_alpha(layer, fill[3])
            surf.blit(layer, box.topleft)
            fill = None
        if s.kind == "polygon":
            pts = self._pts_px(s)
            if fill is not None:
                pygame.draw.polygon(surf, fill, pts)
            line = stroke if stroke is not None else fill
            if line is not None:
                if width <= 1:
                    pygame.draw.aalines(surf, line, True, pts)
                else:
                    pygame.draw.polygon(surf, line, pts, width)
        elif s.kind == "circle":
            c = self.to_px(s.cx, s.cy)
            r = max(1.0, s.r * self.scale)
            if fill is not None:
                pygame.draw.aacircle(surf, fill, c, r)
            if stroke is not None:
                pygame.draw.aacircle(surf, stroke, c, r, max(1, width))
        elif s.kind == "rect":
            x, y = self.to_px(s.cx - s.w / 2, s.cy - s.h / 2)
            rect = pygame.Rect(round(x), round(y), max(1, round(s.w * self.scale)), max(1, round(s.h * self.scale)))
            if fill is not None:
                pygame.draw.rect(surf, fill, rect)
            if stroke is not None:
                pygame.draw.rect(surf, stroke, rect, max(1, width))
        elif s.kind == "line":
            pts = self._pts_px(s)
            line = stroke if stroke is not None else fill
            if line is not None:
                if width <= 1:
                    pygame.draw.aalines(surf, line, False, pts)
                else:
                    pygame.draw.lines(surf, line, False, pts, width)

    def _label_px(self, s: Shape, text: str, bold: bool = True) -> float:
        """A label's size: large for one character, never wider than its item."""
        if s.kind == "circle":
            px, room = s.r * 1.1 * self.scale, s.r * 1.5 * self.scale
        else:
            x0, y0, x1, y1 = s.bbox()
            px, room = min(x1 - x0, y1 - y0) * 0.5 * self.scale, (x1 - x0) * 0.8 * self.scale
        width = _text_width_units(text, 1.0, bold)
        return min(px, room / width) if width > 0 else px

    def _text(self, surf, text: str, px: float, cx: float, cy: float, col, bold=False, align="centre"):
        if not text:
            return
        f = font(px * FONT_SCALE, bold)
        img = f.render(text, True, col[:3])
        if col[3] < 255:
            img.set_alpha(col[3])
        r = img.get_rect()
        if align == "left":
            r.midleft = (round(cx), round(cy))
        elif align == "right":
            r.midright = (round(cx), round(cy))
        else:
            r.center = (round(cx), round(cy))
        surf.blit(img, r)

    def draw_item(self, surf: pygame.Surface, s: Shape) -> None:
        item = s.item
        if s.kind == "text":
            col = colour(item.get("fill") or item.get("colour") or item.get("color"), (*TEXT, 255)) or (*TEXT, 255)
            x, y = self.to_px(_num(item, "x"), _num(item, "y"))
            self._text(surf, str(item.get("text", "")), _num(item, "size", 0.5) * self.scale, x, y, col,
                       bool(item.get("bold")), item.get("align", "centre"))
            return
        fill = colour(item.get("fill"))
        stroke = colour(item.get("stroke"))
        self._draw_shape(surf, s, fill, stroke, self._stroke_px(item))
        label = item.get("label")
        if label not in (None, ""):
            lc = colour(item.get("label_colour") or item.get("label_color")) or contrast(fill)
            x, y = self.to_px(s.cx, s.cy)
            self._text(surf, str(label), self._label_px(s, str(label)), x, y, lc, True)

    def base(self, background, coordinates: bool = False) -> pygame.Surface:
        """The scene drawn once (cached): background, every item by layer, coordinates."""
        key = (tuple(background), coordinates)
        if self._base is None or self._base_key != key:
            surf = pygame.Surface(self.rect.size)
            surf.fill(background)
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            for s in self.shapes:
                try:
                    shifted.draw_item(surf, s)
                except (TypeError, ValueError, pygame.error):
                    continue
            if coordinates:
                shifted.draw_coordinates(surf)
            self._base, self._base_key = surf, key
        return self._base

    def draw_coordinates(self, surf: pygame.Surface) -> None:
        """Each clickable cell's id, small, at the bottom of its cell."""
        seen = set()
        for s in self.shapes:
            sid = s.id
            if sid is None or sid in seen or s.kind == "text":
                continue
            seen.add(sid)
            x0, y0, x1, y1 = s.bbox()
            size = min(x1 - x0, y1 - y0)
            px = max(9.0, size * 0.2 * self.scale)
            x, y = self.to_px(s.cx, y1 - size * 0.15)
            fill = colour(s.item.get("fill"))
            col = contrast(fill if fill is None or fill[3] > 100 else None)
            self._text(surf, sid, px / FONT_SCALE * 1.0, x, y, (*col[:3], 200))

    def overlay(self, highlights: Iterable[str], selected: Sequence[str]) -> pygame.Surface:
        """Highlights of the next steps and the selection (cached while they stay the same)."""
        key = (frozenset(highlights), tuple(selected))
        if self._overlay is None or self._overlay_key != key:
            surf = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            thick = max(2, int(self.scale * 0.04))
            for sid in key[0]:
                s = self.by_id.get(sid)
                if s is not None and s.kind != "text":
                    shifted._mark(surf, s, HIGHLIGHT, thick, 45)
            for sid in key[1]:
                s = self.by_id.get(sid)
                if s is not None and s.kind != "text":
                    shifted._mark(surf, s, SELECTED, thick + 1, 110)
            self._overlay, self._overlay_key = surf, key
        return self._overlay

    def _mark(self, surf, s: Shape, rgb, thick: int, alpha: int) -> None:
        # Outlines only: a fill over the cell would tint the piece on it, and piece colours are
        # what tell players (and Trinim's or Nibble's colours) apart.  A darker halo under the
        # line keeps it visible on light and dark cells alike; alpha sets the halo's strength.
        self._outline(surf, s, (0, 0, 0, min(255, alpha + 60)), thick + 2)
        self._outline(surf, s, (*rgb, 255), thick)

    def _outline(self, surf, s: Shape, col, thick: int) -> None:
        if s.kind == "polygon":
            pygame.draw.polygon(surf, col, self._pts_px(s), thick)
        elif s.kind == "circle":
            pygame.draw.circle(surf, col, self.to_px(s.cx, s.cy), max(2, s.r * self.scale), thick)
        elif s.kind == "rect":
            x, y = self.to_px(s.cx - s.w / 2, s.cy - s.h / 2)
            pygame.draw.rect(surf, col, pygame.Rect(round(x), round(y), round(s.w * self.scale),
                                                   round(s.h * self.scale)), thick)
        elif s.kind == "line":
            pygame.draw.lines(surf, col, False, self._pts_px(s), thick + 2)

    def draw(self, surf: pygame.Surface, background, highlights: Iterable[str] = (),
             selected: Sequence[str] = (), hover: str | None = None, hover_ok: bool = True,
             coordinates: bool = False) -> None:
        surf.blit(self.base(background, coordinates), self.rect.topleft)
        highlights = set(highlights)
        if highlights or selected:
            surf.blit(self.overlay(highlights, selected), self.rect.topleft)
        if hover is not None and hover in self.by_id:
            s = self.by_id[hover]
            self._outline(surf, s, HOVER_OK if hover_ok else HOVER_BAD, max(2, int(self.scale * 0.05)))


class _Shifted(SceneView):
    """The same view drawing onto a surface whose origin is elsewhere (a cached layer)."""

    def __init__(self, view: SceneView, dx: float, dy: float):  # noqa: super not called on purpose
        self.__dict__.update(view.__dict__)
        self.ox = view.ox + dx
        self.oy = view.oy + dy


def _multiply_alpha(surf: pygame.Surface, alpha: int) -> None:
    """Scales the per-pixel alpha of an SRCALPHA surface by alpha/255."""
    if alpha >= 255:
        return
    surf.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
