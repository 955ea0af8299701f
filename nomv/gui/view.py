"""Scene -> pixels and pixel -> id.

A scene is a dict ``{"items": [...], "bounds": [x0, y0, x1, y1]?, "status": ...}`` in board
units (y down).  :class:`SceneView` fits the scene into a rectangle of the window keeping its
aspect, draws the items by layer (cached: the scene is drawn once per position and size) with
the last move's places marked under the pieces, draws the highlights of what may be clicked,
the selection and the hovered item above it, and finds the topmost clickable item under a pixel.
What to mark comes from nomv/boardmarks.py; nothing here knows about any particular game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import pygame

from ..boardmarks import EdgeLabel, Mark, board_items
from .i18n import localized
from .theme import MIN_TEXT, font

NAMED = {
    "black": (0, 0, 0), "white": (255, 255, 255), "red": (210, 40, 40), "green": (40, 150, 60),
    "blue": (50, 90, 210), "yellow": (235, 200, 40), "orange": (240, 140, 30),
    "purple": (130, 60, 170), "grey": (128, 128, 128), "gray": (128, 128, 128),
    "brown": (130, 85, 40), "none": None, "transparent": None,
}

# What may be clicked next, what was clicked, and the last move, each in a style that shows on
# any fill: a bright line between two dark ones (or a dark line between two light ones), thick
# enough to stand out from the thin strokes that cells have of their own.
HIGHLIGHT = (255, 200, 0)      # next steps: gold between black
SELECTED = (30, 100, 235)      # steps clicked so far: blue between white
READY = (30, 170, 70)          # the steps so far make a move: green between white
LAST_MOVE = (70, 150, 255)     # the last move's places: a tint and a blue rim
HOVER_OK = (20, 20, 20)
HOVER_BAD = (200, 40, 40)
TEXT = (40, 40, 40)
FONT_SCALE = 0.95              # font size (em, pixels) per pixel of text size asked by a scene

_colour_cache: dict[Any, tuple | None] = {}


def colour(value: Any, default: tuple | None = None) -> tuple | None:
    """A scene colour ("#rrggbb", "#rrggbbaa", a name) as an (r, g, b, a) tuple, or None."""
    if not isinstance(value, str):
        return default   # (nomv check reports it; no repr of what may be a huge table, every frame)
    key = value
    if key in _colour_cache:
        return _colour_cache[key]
    if len(_colour_cache) >= 1024:   # a script may make a new colour every ply: the cache stays small
        _colour_cache.clear()
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
    text: str = ""            # a text item's words, in the player's language
    side: bool = False        # stands beside the board, drawn at the side's own scale

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
                text = localized(item.get("text", item.get("label", "")))
                size = _num(item, "size", 0.5)
                w = _text_width_units(text, size, bool(item.get("bold")))
                x = _num(item, "x")
                align = item.get("align", "centre")
                cx = x + w / 2 if align == "left" else x - w / 2 if align == "right" else x
                shapes.append(Shape(item, "text", layer, order, [], cx, _num(item, "y"), w, size * 1.1, text=text))
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
    """A scene fitted into a pixel rectangle.  ``edge`` labels (file letters and rank numbers
    around the board, when the coordinates are shown) are fitted in with it.

    Items that stand beside the board (a score table, the hands; see boardmarks.board_items) may
    get a scale of their own and a place beside or below the board, when that gives the board
    clearly more room or keeps their texts readable: a small table far from a large board
    would otherwise make the board small, or the table's text too small to read."""

    #: The split layout is used only when it makes the board this much larger (or the side's
    #: texts readable): a script's own arrangement is kept otherwise.
    GAIN = 1.15

    def __init__(self, scene: dict, rect: pygame.Rect | Sequence[int], margin: float = 0.03,
                 edge: Sequence[EdgeLabel] | None = None):
        self.scene = scene
        self.rect = pygame.Rect(rect)
        self.shapes = build_shapes(scene.get("items") or [])
        self.edge = list(edge or ())
        self.arrangement = "scene"   # or where the side items went: right, left, below, above
        x0, y0, x1, y1 = scene_bounds(scene, self.shapes)
        if self.edge:
            x0, y0, x1, y1 = self._with_edge((x0, y0, x1, y1))
        bw, bh = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        self.pad = margin * min(self.rect.w, self.rect.h)
        aw, ah = max(self.rect.w - 2 * self.pad, 10), max(self.rect.h - 2 * self.pad, 10)
        self.scale = min(aw / bw, ah / bh)
        self.ox = self.rect.x + (self.rect.w - bw * self.scale) / 2 - x0 * self.scale
        self.oy = self.rect.y + (self.rect.h - bh * self.scale) / 2 - y0 * self.scale
        self.side_scale, self.side_ox, self.side_oy = self.scale, self.ox, self.oy
        self._side_view: SceneView | None = None
        self._split(aw, ah)
        self.by_id: dict[str, Shape] = {}
        self.place: dict[str, Shape] = {}   # each id's lowest item: the cell under a piece
        for s in self.shapes:
            if s.id is not None:
                self.by_id[s.id] = s  # the topmost item with an id
                if s.kind != "text":
                    self.place.setdefault(s.id, s)
        self._base: pygame.Surface | None = None
        self._base_key: Any = None
        self._top: pygame.Surface | None = None
        self._top_key: Any = None
        self.texts_drawn: list[tuple[str, float]] = []   # (text, em in pixels) of the scene's texts
        self._overlay: pygame.Surface | None = None
        self._overlay_key: Any = None

    def _with_edge(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        reach = self._edge_reach()
        x0, y0, x1, y1 = box
        return (min([x0] + [e.x - reach for e in self.edge]), min([y0] + [e.y - reach for e in self.edge]),
                max([x1] + [e.x + reach for e in self.edge]), max([y1] + [e.y + reach for e in self.edge]))

    def _split(self, aw: float, ah: float) -> None:
        """Gives the side items their own scale and place when that is clearly better."""
        flags = board_items([s.item for s in sorted(self.shapes, key=lambda s: s.order)])
        on_board = {s.order: f for s, f in zip(sorted(self.shapes, key=lambda s: s.order), flags)}
        for s in self.shapes:
            s.side = not on_board.get(s.order, True)
        board = [s for s in self.shapes if not s.side]
        side = [s for s in self.shapes if s.side]
        if not board or not side:
            for s in self.shapes:
                s.side = False
            return
        B = _union(b.bbox() for b in board)
        if self.edge:
            B = self._with_edge(B)
        S = _union(b.bbox() for b in side)
        bw, bh, sw, sh = B[2] - B[0], B[3] - B[1], S[2] - S[0], S[3] - S[1]
        sizes = [_num(t.item, "size", 0.5) for t in side if t.kind == "text"]
        # the side's smallest text at MIN_TEXT + 1 pixels, its largest at no more than 20
        readable = (MIN_TEXT + 1) / (FONT_SCALE * min(sizes)) if sizes else 0.0
        comfortable = max(readable, 20 / (FONT_SCALE * max(sizes))) if sizes else math.inf
        if S[0] >= B[2] - 1e-6:
            where = "right"
        elif S[2] <= B[0] + 1e-6:
            where = "left"
        elif S[1] >= B[3] - 1e-6:
            where = "below"
        elif S[3] <= B[1] + 1e-6:
            where = "above"
        else:
            for s in self.shapes:   # tangled with the board: the script's own layout
                s.side = False
            return
        gap = max(12.0, 0.03 * min(self.rect.w, self.rect.h))
        best = None
        for option in dict.fromkeys([where, "below" if where in ("right", "left") else "right"]):
            scale = _largest_scale(option, bw, bh, sw, sh, readable, comfortable, aw, ah, gap)
            if scale > 0 and (best is None or scale > best[0] * 1.02):
                best = (scale, option)
        if best is None:
            for s in self.shapes:
                s.side = False
            return
        scale, option = best
        unreadable = bool(sizes) and self.scale < readable
        if scale < self.GAIN * self.scale and not (unreadable and scale >= 0.9 * self.scale):
            for s in self.shapes:
                s.side = False
            return
        side_scale = min(max(scale, readable), comfortable)
        if option in ("right", "left") and bw * scale + gap + sw * side_scale > aw + 0.5:
            side_scale = scale
        if option in ("below", "above") and bh * scale + gap + sh * side_scale > ah + 0.5:
            side_scale = scale
        self.arrangement = option
        bpw, bph, spw, sph = bw * scale, bh * scale, sw * side_scale, sh * side_scale
        cx, cy = self.rect.centerx, self.rect.centery
        if option in ("right", "left"):
            total = bpw + gap + spw
            left = cx - total / 2
            bx, sx = (left, left + bpw + gap) if option == "right" else (left + spw + gap, left)
            by, sy = cy - bph / 2, cy - sph / 2
        else:
            total = bph + gap + sph
            top = cy - total / 2
            by, sy = (top, top + bph + gap) if option == "below" else (top + sph + gap, top)
            bx, sx = cx - bpw / 2, cx - spw / 2
        self.scale, self.ox, self.oy = scale, bx - B[0] * scale, by - B[1] * scale
        self.side_scale = side_scale
        self.side_ox, self.side_oy = sx - S[0] * side_scale, sy - S[1] * side_scale

    def _for(self, s: Shape) -> "SceneView":
        """The view that draws shape s: this one, or the same with the side items' scale."""
        if not s.side:
            return self
        if self._side_view is None:
            v = _Framed(self, self.side_ox, self.side_oy, self.side_scale)
            self._side_view = v
        return self._side_view

    def _edge_reach(self) -> float:
        """How far (board units) an edge label reaches from its centre."""
        xs = sorted({round(e.x, 6) for e in self.edge})
        gaps = [b - a for a, b in zip(xs, xs[1:]) if b - a > 1e-6]
        return 0.45 * (min(gaps) if gaps else 1.0)

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
        board = self.to_board(px, py) + (4 / self.scale,)
        beside = ((px - self.side_ox) / self.side_scale, (py - self.side_oy) / self.side_scale, 4 / self.side_scale)
        first = None
        for s in reversed(self.shapes):
            sid = s.id
            x, y, tol = beside if s.side else board
            if sid is not None and s.contains(x, y, tol):
                if wanted is None or sid in wanted:
                    return sid
                if first is None:
                    first = sid
        return first

    def centre_px(self, sid: str) -> tuple[int, int]:
        """The pixel at the drawn centre of the (topmost) item with this id."""
        s = self.by_id[sid]
        px, py = self._for(s).to_px(s.cx, s.cy)
        return int(round(px)), int(round(py))

    def box_px(self, sid: str) -> pygame.Rect:
        """The pixel rectangle around the place of an id."""
        s = self.place.get(sid) or self.by_id[sid]
        x0, y0, x1, y1 = s.bbox()
        v = self._for(s)
        (a, b), (c, d) = v.to_px(x0, y0), v.to_px(x1, y1)
        return pygame.Rect(int(a), int(b), max(1, int(c - a)), max(1, int(d - b)))

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
            centre = self.to_px(s.cx, s.cy)
            r = max(1.0, s.r * self.scale)
            if fill is not None:
                pygame.draw.aacircle(surf, fill, centre, r)
            if stroke is not None:
                pygame.draw.aacircle(surf, stroke, centre, r, max(1, width))
        elif s.kind == "rect":
            rect = self._rect_px(s)
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

    def _rect_px(self, s: Shape, inset: float = 0.0) -> pygame.Rect:
        x, y = self.to_px(s.cx - s.w / 2, s.cy - s.h / 2)
        w, h = s.w * self.scale, s.h * self.scale
        return pygame.Rect(round(x + inset), round(y + inset), max(1, round(w - 2 * inset)),
                           max(1, round(h - 2 * inset)))

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
            # a scene's text stays readable on a small board (it may then reach past its place)
            px = max(_num(item, "size", 0.5) * self.scale, MIN_TEXT / FONT_SCALE)
            self._text(surf, s.text, px, x, y, col, bool(item.get("bold")), item.get("align", "centre"))
            self.texts_drawn.append((s.text, px * FONT_SCALE))
            return
        fill = colour(item.get("fill"))
        stroke = colour(item.get("stroke"))
        self._draw_shape(surf, s, fill, stroke, self._stroke_px(item))
        label = localized(item.get("label"))
        if label:
            lc = colour(item.get("label_colour") or item.get("label_color")) or contrast(fill)
            x, y = self.to_px(s.cx, s.cy)
            self._text(surf, label, self._label_px(s, label), x, y, lc, True)

    def base(self, background, coordinates: bool = False, marks: Sequence[Mark] = ()) -> pygame.Surface:
        """The scene's shapes drawn once (cached): background, every item but the texts by layer,
        with the last move's marks just above the layer of their place (under the pieces); a
        mark whose place is gone from the scene (a taken block) above everything."""
        key = (tuple(background), tuple((m.kind, id(m.item)) for m in marks))
        if self._base is None or self._base_key != key:
            surf = pygame.Surface(self.rect.size)
            surf.fill(background)
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            shapes = [(shape, shape.item is m.item) for m in marks if (shape := self._mark_shape(m)) is not None]
            pending = sorted(((shape.layer if here else math.inf, k, shape)
                              for k, (shape, here) in enumerate(shapes)), key=lambda t: (t[0], t[1]))
            for s in self.shapes:
                if s.kind == "text":
                    continue
                while pending and pending[0][0] < s.layer:
                    shifted._draw_last_move(surf, pending.pop(0)[2])
                try:
                    shifted._for(s).draw_item(surf, s)
                except (TypeError, ValueError, pygame.error):
                    continue
            for _layer, _k, shape in pending:
                shifted._draw_last_move(surf, shape)
            self._base, self._base_key = surf, key
        return self._base

    def top(self, coordinates: bool = False) -> pygame.Surface:
        """The scene's texts and the coordinates (cached), drawn over the highlights so that no
        ring hides a number written in the corner of a cell."""
        if self._top is None or self._top_key != coordinates:
            surf = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            self.texts_drawn = []
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            shifted.texts_drawn = self.texts_drawn
            for s in self.shapes:
                if s.kind == "text":
                    try:
                        shifted._for(s).draw_item(surf, s)
                    except (TypeError, ValueError, pygame.error):
                        continue
            if coordinates:
                shifted.draw_coordinates(surf)
            self._top, self._top_key = surf, coordinates
        return self._top

    def _mark_shape(self, mark: Mark) -> Shape | None:
        if mark.id is not None and mark.id in self.place and self.place[mark.id].item is mark.item:
            return self.place[mark.id]
        shapes = build_shapes([dict(mark.item)])   # a place from the scene before the move
        return shapes[0] if shapes and shapes[0].kind != "text" else None

    def _draw_last_move(self, surf: pygame.Surface, s: Shape) -> None:
        """A place of the last move: tinted, with a rim."""
        try:
            self._draw_shape(surf, s, (*LAST_MOVE, 95), None, 0)
            self._ring(surf, s, (*LAST_MOVE, 255), None, max(2, min(5, int(self.scale * 0.04))))
        except (TypeError, ValueError, pygame.error):
            pass

    def draw_coordinates(self, surf: pygame.Surface) -> None:
        """The file letters and rank numbers around the board when the view has them; else
        each clickable cell's id, small, at the bottom of its cell."""
        if self.edge:
            gaps = sorted({round(e.x, 6) for e in self.edge})
            step = min([b - a for a, b in zip(gaps, gaps[1:]) if b - a > 1e-6] or [1.0])
            px = max(MIN_TEXT + 1.0, min(18.0, step * self.scale * 0.4)) / FONT_SCALE
            for e in self.edge:
                x, y = self.to_px(e.x, e.y)
                self._text(surf, e.text, px, x, y, (90, 80, 65, 255), True)
            return
        seen = set()
        for s in self.shapes:
            sid = s.id
            if sid is None or sid in seen or s.kind == "text":
                continue
            seen.add(sid)
            x0, y0, x1, y1 = s.bbox()
            size = min(x1 - x0, y1 - y0)
            v = self._for(s)
            px = max(float(MIN_TEXT - 2), size * 0.2 * v.scale)
            ux, uy = s.cx, y1 - size * 0.15
            x, y = v.to_px(ux, uy)
            # The colour of what lies under the text: a piece on the cell (a light piece on a
            # dark cell) as much as the cell itself.
            fill = self._fill_under(ux, uy, s)
            col = contrast(fill)
            back = (255, 255, 255) if sum(col[:3]) < 384 else (0, 0, 0)
            for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):    # a halo: readable across an edge
                self._text(surf, sid, px / FONT_SCALE, x + dx, y + dy, (*back, 150))
            self._text(surf, sid, px / FONT_SCALE, x, y, (*col[:3], 235))

    def _fill_under(self, x: float, y: float, cell: Shape) -> tuple | None:
        """The fill of the topmost filled shape at (x, y) in board units, from ``cell`` up."""
        fill = colour(cell.item.get("fill"))
        under = fill if fill is not None and fill[3] > 100 else None
        above = False
        for t in self.shapes:          # in drawing order: the last one that covers the point wins
            if t is cell:
                above = True
                continue
            if not above or t.kind in ("text", "line") or t.side != cell.side:
                continue
            f = colour(t.item.get("fill"))
            try:
                covers = f is not None and f[3] > 100 and t.contains(x, y)
            except (TypeError, ValueError):
                covers = False
            if covers:
                under = f
        return under

    def overlay(self, highlights: Iterable[str], selected: Sequence[str], ready: bool = False) -> pygame.Surface:
        """Highlights of the next steps and the selection (cached while they stay the same).
        ``ready``: the selection already makes a move (drawn green)."""
        key = (frozenset(highlights), tuple(selected), ready)
        if self._overlay is None or self._overlay_key != key:
            surf = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            thick = max(3, min(6, int(self.scale * 0.05)))
            for sid in key[0]:
                s = self.place.get(sid)
                if s is not None:
                    core = _unlike(HIGHLIGHT, colour(s.item.get("fill")), (255, 255, 255))
                    shifted._for(s)._ring(surf, s, (*core, 255), (20, 20, 20, 255), thick)
            for sid in key[1]:
                s = self.place.get(sid)
                if s is not None:
                    core = _unlike(READY if ready else SELECTED, colour(s.item.get("fill")), (15, 30, 90))
                    shifted._for(s)._ring(surf, s, (*core, 255), (255, 255, 255, 255), thick + 1)
            self._overlay, self._overlay_key = surf, key
        return self._overlay

    def _ring(self, surf, s: Shape, core, edge, thick: int) -> None:
        """A line of ``thick`` pixels along the inside of a shape's outline, between two lines of
        ``edge`` (when given): visible on any fill, and never over the neighbouring cells."""
        outer = thick + (4 if edge is not None else 0)
        if edge is not None:
            self._outline(surf, s, edge, outer, 0)
        self._outline(surf, s, core, thick, (outer - thick) / 2)

    def _outline(self, surf, s: Shape, col, thick: int, inset: float = 0.0) -> None:
        """An outline of ``thick`` pixels drawn inside the shape, ``inset`` pixels from its edge."""
        if s.kind == "polygon":
            cx, cy = self.to_px(s.cx, s.cy)
            pts = []
            for x, y in self._pts_px(s):
                d = math.hypot(x - cx, y - cy)
                k = max(0.0, 1 - (inset + thick / 2) / d) if d > 0 else 0.0
                pts.append((cx + (x - cx) * k, cy + (y - cy) * k))
            pygame.draw.lines(surf, col, True, pts, thick)
            for p in pts:  # round the joints, which pygame leaves notched
                pygame.draw.circle(surf, col, p, max(1, thick / 2 - 0.5))
        elif s.kind == "circle":
            r = max(2.0, s.r * self.scale - inset)
            pygame.draw.circle(surf, col, self.to_px(s.cx, s.cy), r, min(thick, int(r)))
        elif s.kind == "rect":
            pygame.draw.rect(surf, col, self._rect_px(s, inset), thick)
        elif s.kind == "line":
            pygame.draw.lines(surf, col, False, self._pts_px(s), thick + 2)

    def draw(self, surf: pygame.Surface, background, highlights: Iterable[str] = (),
             selected: Sequence[str] = (), hover: str | None = None, hover_ok: bool = True,
             coordinates: bool = False, marks: Sequence[Mark] = (), ready: bool = False) -> None:
        surf.blit(self.base(background, coordinates, marks), self.rect.topleft)
        highlights = set(highlights)
        if highlights or selected:
            surf.blit(self.overlay(highlights, selected, ready), self.rect.topleft)
        if hover is not None and hover in self.by_id:
            s = self.place.get(hover) or self.by_id[hover]
            v = self._for(s)
            if hover_ok and s.kind != "line":   # lightened under the pointer: shows on any fill
                v._draw_shape(surf, s, (255, 255, 255, 90), None, 0)
            v._outline(surf, s, HOVER_OK if hover_ok else HOVER_BAD, max(2, int(v.scale * 0.04)))
        surf.blit(self.top(coordinates), self.rect.topleft)


class _Shifted(SceneView):
    """The same view drawing onto a surface whose origin is elsewhere (a cached layer)."""

    def __init__(self, view: SceneView, dx: float, dy: float):  # super().__init__ not called on purpose
        self.__dict__.update(view.__dict__)
        self.ox = view.ox + dx
        self.oy = view.oy + dy
        self.side_ox = view.side_ox + dx
        self.side_oy = view.side_oy + dy
        self._side_view = None


class _Framed(SceneView):
    """The same view at the side items' scale and origin."""

    def __init__(self, view: SceneView, ox: float, oy: float, scale: float):  # super().__init__ not called on purpose
        self.__dict__.update(view.__dict__)
        self.ox, self.oy, self.scale = ox, oy, scale
        self._side_view = self

    def _for(self, s: Shape) -> SceneView:
        return self


def _union(boxes: Iterable[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _largest_scale(option: str, bw: float, bh: float, sw: float, sh: float, readable: float,
                   comfortable: float, aw: float, ah: float, gap: float) -> float:
    """The largest scale of the board with the side items ``option`` of it (right, left, below,
    above) at that scale kept between ``readable`` and ``comfortable``, within aw x ah pixels
    (0 if none)."""
    def fits(scale: float, side: float) -> bool:
        if option in ("right", "left"):
            return bw * scale + gap + sw * side <= aw and bh * scale <= ah and sh * side <= ah
        return bh * scale + gap + sh * side <= ah and bw * scale <= aw and sw * side <= aw

    for side_of in (lambda k: min(max(k, readable), comfortable), lambda k: k):   # readable if it can be
        lo, hi = 0.0, min(aw / max(bw, 1e-9), ah / max(bh, 1e-9))
        if not fits(lo + 1e-9, side_of(1e-9)):
            continue
        for _i in range(40):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if fits(mid, side_of(mid)) else (lo, mid)
        if lo > 0:
            return lo
    return 0.0


def _unlike(rgb: tuple, fill: tuple | None, instead: tuple) -> tuple:
    """rgb, or ``instead`` when the fill under it is of a like colour (gold on a yellow or an
    orange block would not show)."""
    if fill is None or fill[3] < 128:
        return rgb
    distance = math.sqrt(sum((a - b) ** 2 for a, b in zip(rgb, fill[:3])))
    return instead if distance < 130 else rgb


def _multiply_alpha(surf: pygame.Surface, alpha: int) -> None:
    """Scales the per-pixel alpha of an SRCALPHA surface by alpha/255."""
    if alpha >= 255:
        return
    surf.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
