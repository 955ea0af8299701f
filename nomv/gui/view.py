"""Drawing -> pixels and pixel -> id.

:class:`SceneView` draws a scene's :class:`~nomv.play.drawing.Drawing` (nomv/play/drawing.py:
what to draw, in order, in board units, every colour decided, the same list the server sends
the browser) into a rectangle of the window keeping its aspect: the shapes with the last
move's marks among them (cached: drawn once per position and size), the rings of what may be
clicked and what was clicked, the hovered item, then the scene's texts and the coordinates
above; and it finds the topmost clickable item under a pixel.  Nothing here decides what to
draw or in which colour, and nothing knows about any particular game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import pygame

from ..play.drawing import CELL_ID_PX, COLOURS, COORDINATE_PX, Drawing, coordinates as shown_coordinates, \
    drawing as make_drawing, rings, scene_bounds
from ..play.marks import EdgeLabel
from ..play.words import localized
from .theme import MIN_TEXT, font

FONT_SCALE = 0.95              # font size (em, pixels) per pixel of text size asked by a scene


def _text_width_units(text: str, size: float, bold: bool) -> float:
    """The width of a scene text in board units (measured with the real font)."""
    f = font(100, bold)
    return f.size(text)[0] / 100 * size * FONT_SCALE


def _seg_dist(x, y, a, b) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / L))
    return math.hypot(x - (ax + t * dx), y - (ay + t * dy))


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


@dataclass
class Shape:
    """One entry of the drawing (a shape, a mark or a scene text), in board units, ready to
    draw and hit-test.  ``item`` is the drawing's entry."""

    item: dict
    kind: str                 # polygon, circle, rect, line, text
    order: int                # its place in the drawing's order
    pts: list[tuple[float, float]]
    cx: float
    cy: float
    w: float = 0.0            # rect size, or text extent
    h: float = 0.0
    r: float = 0.0
    text: str = ""            # a text's words (or a shape's label), in the player's language
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
            width = self.item.get("width") or 0.0
            reach = max(width / 2, tolerance)
            return any(_seg_dist(x, y, a, b) <= reach for a, b in zip(self.pts, self.pts[1:]))
        return False


def shape_of(entry: Mapping[str, Any], order: int) -> Shape:
    """A drawing's entry as a Shape (its geometry is already plain: nomv.play.drawing)."""
    kind = entry["shape"]
    side = bool(entry.get("side"))
    if kind in ("polygon", "line"):
        pts = [(float(x), float(y)) for x, y in entry["points"]]
        return Shape(dict(entry), kind, order, pts, entry["cx"], entry["cy"], side=side)
    if kind == "circle":
        return Shape(dict(entry), kind, order, [], entry["x"], entry["y"], r=entry["r"], side=side)
    return Shape(dict(entry), "rect", order, [], entry["x"], entry["y"], entry["w"], entry["h"], side=side)


def text_shape(entry: Mapping[str, Any], order: int) -> Shape:
    """A scene text of the drawing as a Shape: its words in the player's language, measured."""
    text = localized(entry.get("text"))
    size = float(entry.get("size", 0.5))
    w = _text_width_units(text, size, bool(entry.get("bold")))
    x = float(entry["x"])
    align = entry.get("align", "centre")
    cx = x + w / 2 if align == "left" else x - w / 2 if align == "right" else x
    return Shape(dict(entry), "text", order, [], cx, float(entry["y"]), w, size * 1.1, text=text,
                 side=bool(entry.get("side")))


def build_shapes(items: Iterable[Any]) -> list[Shape]:
    """A scene's items as shapes in drawing order (a scene drawn without a Drawing at hand)."""
    d = make_drawing({"items": list(items)})
    return [shape_of(e, k) for k, e in enumerate(d.base) if e["draw"] == "shape"] + \
        [text_shape(e, len(d.base) + k) for k, e in enumerate(d.texts)]


class SceneView:
    """A scene's drawing fitted into a pixel rectangle.  ``coordinates``: whether the
    coordinates are shown (None: around the edge where the board has them; see
    nomv.play.drawing.coordinates); they are fitted in with the board.

    Items that stand beside the board (a score table, the hands; see marks.board_items) may
    get a scale of their own and a place beside or below the board, when that gives the board
    clearly more room or keeps their texts readable: a small table far from a large board
    would otherwise make the board small, or the table's text too small to read.

    ``drawn`` lists what the last frame drew, in order, as {"draw", ...} entries whose places
    are read back from the pixels into board units (tests hold it against the drawing)."""

    #: The split layout is used only when it makes the board this much larger (or the side's
    #: texts readable): a script's own arrangement is kept otherwise.
    GAIN = 1.15

    def __init__(self, scene: dict, rect: pygame.Rect | Sequence[int], margin: float = 0.03,
                 drawing: Drawing | None = None, coordinates: bool | None = False):
        self.scene = scene
        self.drawing = drawing if drawing is not None else make_drawing(scene)
        self.rect = pygame.Rect(rect)
        d = self.drawing
        self.shapes: list[Shape] = []          # shapes and texts, in drawing order
        self.marks: list[tuple[int, Shape]] = []   # (the base entry's index, its shape)
        self.entry_shape: dict[int, Shape] = {}    # base entry index -> its shape
        for n, entry in enumerate(d.base):
            shape = shape_of(entry, n)
            if entry["draw"] == "mark":
                self.marks.append((n, shape))
            else:
                self.shapes.append(shape)
            self.entry_shape[n] = shape
        self.shapes += [text_shape(e, len(d.base) + k) for k, e in enumerate(d.texts)]
        self.around = shown_coordinates(d, coordinates)
        self.edge = [EdgeLabel(e["text"], e["x"], e["y"]) for e in self.around if e["draw"] == "coordinate"]
        self.arrangement = "scene"   # or where the side items went: right, left, below, above
        # (the texts as this window's font measures them: a drawing's boxes estimate them)
        x0, y0, x1, y1 = scene_bounds(scene, [s.bbox() for s in self.shapes])
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
        for shape in self.shapes:
            if shape.id is not None:
                self.by_id[shape.id] = shape  # the topmost item with an id
        self.place: dict[str, Shape] = {sid: self.entry_shape[n] for sid, n in d.places.items()}
        self._base: pygame.Surface | None = None
        self._base_key: Any = None
        self._top: pygame.Surface | None = None
        self._overlay: pygame.Surface | None = None
        self._overlay_key: Any = None
        self.texts_drawn: list[tuple[str, float]] = []   # (text, em in pixels) of the scene's texts
        self._logs: dict[str, list[dict[str, Any]]] = {"base": [], "overlay": [], "top": []}

    @property
    def drawn(self) -> list[dict[str, Any]]:
        """What the last frame drew, in order (see the class's docstring)."""
        return self._logs["base"] + self._logs["overlay"] + self._logs["top"]

    def _with_edge(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """The box with the drawing's room for the coordinates (as much on each side as on the
        opposite one: the board stays centred)."""
        edge = self.drawing.edge_bounds
        return _union([box, edge]) if edge is not None else box

    def _split(self, aw: float, ah: float) -> None:
        """Gives the side items their own scale and place when that is clearly better."""
        board = [s for s in self.shapes if not s.side]
        side = [s for s in self.shapes if s.side]
        if not board or not side:
            self._unsplit()
            return
        B = _union(b.bbox() for b in board)
        if self.edge:
            B = self._with_edge(B)
        S = _union(b.bbox() for b in side)
        bw, bh, sw, sh = B[2] - B[0], B[3] - B[1], S[2] - S[0], S[3] - S[1]
        sizes = [float(t.item.get("size", 0.5)) for t in side if t.kind == "text"]
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
            self._unsplit()         # tangled with the board: the script's own layout
            return
        gap = max(12.0, 0.03 * min(self.rect.w, self.rect.h))
        best = None
        for option in dict.fromkeys([where, "below" if where in ("right", "left") else "right"]):
            scale = _largest_scale(option, bw, bh, sw, sh, readable, comfortable, aw, ah, gap)
            if scale > 0 and (best is None or scale > best[0] * 1.02):
                best = (scale, option)
        if best is None:
            self._unsplit()
            return
        scale, option = best
        unreadable = bool(sizes) and self.scale < readable
        if scale < self.GAIN * self.scale and not (unreadable and scale >= 0.9 * self.scale):
            self._unsplit()
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

    def _unsplit(self) -> None:
        """One scale for everything: the script's own arrangement."""
        for shape in self.shapes + [m for _n, m in self.marks]:
            shape.side = False

    def _for(self, s: Shape) -> "SceneView":
        """The view that draws shape s: this one, or the same with the side items' scale."""
        if not s.side:
            return self
        if self._side_view is None:
            v = _Framed(self, self.side_ox, self.side_oy, self.side_scale)
            self._side_view = v
        return self._side_view

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
        return max(1, int(round(w * self.scale))) if w is not None else 1

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

    def _log(self, layer: str, entry: dict[str, Any]) -> None:
        self._logs[layer].append(entry)

    def _at(self, s: Shape) -> list[float]:
        """Where a shape was drawn, read back from its pixels into board units."""
        v = self._for(s)
        px, py = v.to_px(s.cx, s.cy)
        return [round((px - v.ox) / v.scale, 4), round((py - v.oy) / v.scale, 4)]

    def draw_item(self, surf: pygame.Surface, s: Shape) -> None:
        item = s.item
        if s.kind == "text":
            x, y = self.to_px(item["x"], item["y"])
            # a scene's text stays readable on a small board (it may then reach past its place)
            px = max(float(item.get("size", 0.5)) * self.scale, MIN_TEXT / FONT_SCALE)
            self._text(surf, s.text, px, x, y, tuple(item["ink"]), bool(item.get("bold")), item.get("align", "centre"))
            self.texts_drawn.append((s.text, px * FONT_SCALE))
            self._log("top", {"draw": "text", "index": item["index"], "text": s.text,
                              "at": [round((x - self.ox) / self.scale, 4), round((y - self.oy) / self.scale, 4)]})
            return
        fill, stroke = item.get("fill"), item.get("stroke")
        self._draw_shape(surf, s, None if fill is None else tuple(fill), None if stroke is None else tuple(stroke),
                         self._stroke_px(item))
        label = localized(item.get("label"))
        if label:
            x, y = self.to_px(s.cx, s.cy)
            self._text(surf, label, self._label_px(s, label), x, y, tuple(item["label_ink"]), True)
        self._log("base", {"draw": "shape", "index": item["index"], "at": self._at(s)})

    def base(self, background) -> pygame.Surface:
        """The drawing's shapes (cached), with the last move's marks where the drawing puts
        them: under the pieces of their place, or above every shape for a place gone."""
        key = tuple(background)
        if self._base is None or self._base_key != key:
            surf = pygame.Surface(self.rect.size)
            surf.fill(background)
            self._logs["base"] = []
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            shifted._logs = self._logs
            for n, entry in enumerate(self.drawing.base):
                shape = self.entry_shape[n]
                try:
                    if entry["draw"] == "mark":
                        shifted._for(shape)._draw_last_move(surf, shape)
                    else:
                        shifted._for(shape).draw_item(surf, shape)
                except (TypeError, ValueError, pygame.error):
                    continue
            self._base, self._base_key = surf, key
        return self._base

    def top(self) -> pygame.Surface:
        """The scene's texts and the coordinates (cached), drawn over the highlights so that no
        ring hides a number written in the corner of a cell."""
        if self._top is None:
            surf = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            self.texts_drawn = []
            self._logs["top"] = []
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            shifted.texts_drawn = self.texts_drawn
            shifted._logs = self._logs
            for s in self.shapes:
                if s.kind == "text":
                    try:
                        shifted._for(s).draw_item(surf, s)
                    except (TypeError, ValueError, pygame.error):
                        continue
            shifted.draw_coordinates(surf)
            self._top = surf
        return self._top

    def _draw_last_move(self, surf: pygame.Surface, s: Shape) -> None:
        """A place of the last move: tinted, with a rim."""
        try:
            self._draw_shape(surf, s, tuple(COLOURS["last_move_tint"]), None, 0)
            self._ring(surf, s, tuple(COLOURS["last_move_rim"]), None, max(2, min(5, int(self.scale * 0.04))))
        except (TypeError, ValueError, pygame.error):
            pass
        self._log("base", {"draw": "mark", "kind": s.item["kind"], "id": s.item.get("id"), "at": self._at(s)})

    def draw_coordinates(self, surf: pygame.Surface) -> None:
        """The coordinates the drawing gives, as shown: the file letters and rank numbers around
        the board, or each place's id at the bottom of its place, with a halo that keeps it
        readable across an edge."""
        low, high = COORDINATE_PX
        for entry in self.around:
            if entry["draw"] == "coordinate":
                v: SceneView = self
                px = max(low, min(high, entry["size"] * self.scale)) / FONT_SCALE
            else:
                v = self._for(self.entry_shape[self.drawing.places[entry["text"]]])
                px = max(CELL_ID_PX, entry["size"] * v.scale) / FONT_SCALE
            x, y = v.to_px(entry["x"], entry["y"])
            if "halo" in entry:
                for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    self._text(surf, entry["text"], px, x + dx, y + dy, tuple(entry["halo"]))
            self._text(surf, entry["text"], px, x, y, tuple(entry["ink"]), entry["draw"] == "coordinate")
            self._log("top", {"draw": entry["draw"], "text": entry["text"],
                              "at": [round((x - v.ox) / v.scale, 4), round((y - v.oy) / v.scale, 4)]})

    def overlay(self, highlights: Iterable[str], selected: Sequence[str], ready: bool = False) -> pygame.Surface:
        """The rings of the next steps and of the steps clicked so far (cached while they stay
        the same); ``ready``: the steps clicked make a move."""
        key = (frozenset(highlights), tuple(selected), ready)
        if self._overlay is None or self._overlay_key != key:
            surf = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            self._logs["overlay"] = []
            shifted = _Shifted(self, -self.rect.x, -self.rect.y)
            thick = max(3, min(6, int(self.scale * 0.05)))
            for ring in rings(self.drawing, key[0], key[1], ready):
                s = self.entry_shape[ring["entry"]]
                width = thick if ring["kind"] == "highlight" else thick + 1
                shifted._for(s)._ring(surf, s, tuple(ring["core"]), tuple(ring["edge"]), width)
                self._log("overlay", {"draw": "ring", "kind": ring["kind"], "id": s.id, "at": self._at(s)})
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
             ready: bool = False) -> None:
        surf.blit(self.base(background), self.rect.topleft)
        highlights = set(highlights)
        if highlights or selected:
            surf.blit(self.overlay(highlights, selected, ready), self.rect.topleft)
        else:
            self._logs["overlay"] = []
        if hover is not None and hover in self.by_id:
            s = self.place.get(hover) or self.by_id[hover]
            v = self._for(s)
            if hover_ok and s.kind != "line":   # lightened under the pointer: shows on any fill
                v._draw_shape(surf, s, (255, 255, 255, 90), None, 0)
            v._outline(surf, s, tuple(COLOURS["hover" if hover_ok else "hover_refused"]), max(2, int(v.scale * 0.04)))
        surf.blit(self.top(), self.rect.topleft)


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


def _multiply_alpha(surf: pygame.Surface, alpha: int) -> None:
    """Scales the per-pixel alpha of an SRCALPHA surface by alpha/255."""
    if alpha >= 255:
        return
    surf.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
