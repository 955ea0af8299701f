"""What nomv draws for a scene, finished once for every face: the window draws it with pygame,
the server sends it to the browser, which draws it as SVG.  Neither decides a place, an order
or a colour of its own.

:func:`drawing` turns a scene, and what is known around it (the scene before the last move and
that move's steps, the legal moves), into a :class:`Drawing`: everything to draw, in order, in
the scene's board units, every colour decided:

- ``base``: the scene's shapes by layer (then scene order), each with its geometry made plain
  (a rect's width and height, a circle's radius, a polygon's points and centre), its fill,
  stroke, line width and label; the last move's marks among them, just above the layer of their
  place (under the pieces), or above every shape for a place gone from the scene (a taken
  block);
- ``texts``: the scene's texts, drawn above the highlights so that no ring hides a number;
- ``edge``: the coordinates around the board (file letters, rank numbers), when the cells'
  ids and places allow it (marks.edge_coordinates);
- ``cells``: else each place's id, small, at the bottom of its place, in an ink that reads on
  what lies there;
- ``places``: for each clickable id, its place's entry in ``base`` and the colours of its
  rings: a next step, a step clicked, steps that make a move (:func:`rings`);
- ``buttons``: the steps of the legal moves that name no scene item (pass, roll);
- ``bounds``: the box of the whole scene (its own ``bounds``, grown to take in whatever is
  drawn outside them); when some entries stand beside the board (``side``: a score table, the
  hands), ``board_bounds`` and ``side_bounds`` too, for a face that gives them places and
  scales of their own; ``edge_reach``: how far a coordinate reaches from its centre.

Texts (a label, a scene text) are kept as the script gives them, a string or a table of
languages: a face shows them in its reader's language (nomv.languages.localized), so that one
drawing serves every reader of the same view.  Colours are [r, g, b, a] lists.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .marks import EdgeLabel, board_items, edge_coordinates, last_move_marks, move_buttons, points_of

STYLE: dict[str, Any] = json.loads((Path(__file__).with_name("colours.json")).read_text(encoding="utf-8"))
#: The colour names a scene may use ("none" and "transparent" are no colour).
NAMED: dict[str, tuple[int, int, int] | None] = {
    k: None if v is None else (int(v[0]), int(v[1]), int(v[2])) for k, v in STYLE["named"].items()}
AROUND: dict[str, Any] = STYLE["around"]

RGBA = tuple[int, int, int, int]
Box = tuple[float, float, float, float]

#: The smallest and largest coordinate around the edge, in pixels (an em).
COORDINATE_PX = (12.0, 18.0)
#: The smallest cell id written in a cell, in pixels.
CELL_ID_PX = 9.0
#: A scene text's width per character, in ems, for the boxes of texts (an estimate on the wide
#: side: a face measures with its own font, but the board's box is decided here, once).
TEXT_WIDTH_EM = 0.6

_colour_cache: dict[str, object] = {}
_NOT_A_COLOUR = object()


def rgba(name: str, alpha: int = 255) -> RGBA:
    """One of the colours of what nomv draws around a scene (colours.json: "around")."""
    r, g, b = AROUND[name]
    return (r, g, b, alpha)


def colour(value: Any, default: RGBA | None = None) -> RGBA | None:
    """A scene colour ("#rgb", "#rgba", "#rrggbb", "#rrggbbaa", a name) as (r, g, b, a); None
    for "none" and "transparent"; ``default`` for anything else.

    >>> colour("red"), colour("#0f08"), colour("none"), colour(3, (1, 2, 3, 4))
    ((210, 40, 40, 255), (0, 255, 0, 136), None, (1, 2, 3, 4))
    """
    if not isinstance(value, str):
        return default   # (nomv check reports it; no repr of what may be a huge table)
    found = _colour_cache.get(value)
    if found is None and value not in _colour_cache:
        if len(_colour_cache) >= 1024:   # a script may make a new colour every ply: the cache stays small
            _colour_cache.clear()
        found = _colour_cache[value] = _parse_colour(value)
    if found is _NOT_A_COLOUR:
        return default
    return found  # type: ignore[return-value]


def _parse_colour(value: str) -> object:
    v = value.strip().lower()
    if v in NAMED:
        rgb = NAMED[v]
        return None if rgb is None else (*rgb, 255)
    if v.startswith("#") and len(v) in (4, 5, 7, 9) and all(c in "0123456789abcdef" for c in v[1:]):
        digits = "".join(c * 2 for c in v[1:]) if len(v) in (4, 5) else v[1:]
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16),
                int(digits[6:8], 16) if len(digits) == 8 else 255)
    return _NOT_A_COLOUR


def contrast(fill: Sequence[int] | None) -> RGBA:
    """Dark or light ink, whichever reads better on ``fill`` (the text colour on no fill)."""
    if fill is None:
        return rgba("text")
    r, g, b = fill[:3]
    return rgba("dark_ink") if 0.299 * r + 0.587 * g + 0.114 * b > 140 else rgba("light_ink")


def unlike(core: Sequence[int], fill: Sequence[int] | None, instead: Sequence[int]) -> RGBA:
    """``core``, or ``instead`` when the fill under it is of a like colour (gold on a yellow or
    an orange block would not show)."""
    if fill is not None and len(fill) > 3 and fill[3] >= 128 and \
            math.sqrt(sum((a - b) ** 2 for a, b in zip(core[:3], fill[:3]))) < 130:
        core = instead
    return (int(core[0]), int(core[1]), int(core[2]), 255)


def nearest_name(text: str) -> str:
    """The colour name nearest to a colour written #rgb or #rrggbb (anything else as written),
    for a legend in words ("A = brown" reads better than "A = #b5651d").

    >>> nearest_name("#b5651d"), nearest_name("#f4f4f4"), nearest_name("red")
    ('brown', 'white', 'red')
    """
    value = colour(text)
    if value is None or not text.strip().startswith("#"):
        return text
    names = [n for n, rgb in NAMED.items() if rgb is not None and n != "gray"]
    return min(names, key=lambda n: sum((a - b) ** 2 for a, b in zip(value[:3], NAMED[n] or (0, 0, 0))))


# -- geometry --------------------------------------------------------------------------------------

def _num(item: Mapping[str, Any], key: str, default: float = 0.0) -> float:
    v = item.get(key, default)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else default


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


def layer_of(item: Mapping[str, Any]) -> float:
    """An item's drawing layer: its ``layer``, else 2 for a text and 0 for a shape."""
    v = item.get("layer")
    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
        return float(v)
    return 2.0 if item.get("shape") == "text" else 0.0


def geometry(item: Any) -> dict[str, Any] | None:
    """A scene item's shape made plain, or None when it cannot be drawn (a polygon of two
    points, an unknown shape): {"shape": polygon or line, "points", "cx", "cy"}, {"shape":
    circle, "x", "y", "r", ...}, {"shape": rect, "x", "y", "w", "h", ...} (squares and hexes
    given by ``size`` are rects); (cx, cy) is the centre, where a label goes."""
    if not isinstance(item, Mapping):
        return None
    kind = item.get("shape")
    if kind in ("polygon", "line"):
        pts = points_of(item)
        if len(pts) < 2 or (kind == "polygon" and len(pts) < 3):
            return None
        cx, cy = _centroid(pts) if kind == "polygon" else pts[len(pts) // 2]
        return {"shape": kind, "points": [[_n(x), _n(y)] for x, y in pts], "cx": _n(cx), "cy": _n(cy)}
    if kind == "circle":
        return {"shape": "circle", "x": _n(_num(item, "x")), "y": _n(_num(item, "y")), "r": _n(abs(_num(item, "r", 0.5)))}
    if kind in ("rect", "square", "hex"):
        w = abs(_num(item, "w", _num(item, "size", 1.0)))
        h = abs(_num(item, "h", w))
        return {"shape": "rect", "x": _n(_num(item, "x")), "y": _n(_num(item, "y")), "w": _n(w), "h": _n(h)}
    return None


def _n(v: float) -> float:
    """A number as short as it can be written: whole numbers as ints, others to 6 decimals
    (a drawing crosses the network after every move)."""
    if type(v) is int and -2**53 < v < 2**53:
        return v                # most coordinates of most boards: nothing to round
    r = round(float(v), 6)
    return int(r) if r.is_integer() and abs(r) < 2**53 else r


def centre(entry: Mapping[str, Any]) -> tuple[float, float]:
    """Where an entry's label goes: a polygon's centroid, a line's middle point, else (x, y)."""
    if "cx" in entry:
        return entry["cx"], entry["cy"]
    return entry["x"], entry["y"]


def box_of(entry: Mapping[str, Any]) -> Box:
    """The bounding box of a drawn entry (a shape, a mark, a text, a coordinate)."""
    shape = entry.get("shape")
    if shape in ("polygon", "line"):
        xs = [p[0] for p in entry["points"]]
        ys = [p[1] for p in entry["points"]]
        return min(xs), min(ys), max(xs), max(ys)
    if shape == "circle":
        r = entry["r"]
        return entry["x"] - r, entry["y"] - r, entry["x"] + r, entry["y"] + r
    if shape == "rect":
        return entry["x"] - entry["w"] / 2, entry["y"] - entry["h"] / 2, entry["x"] + entry["w"] / 2, entry["y"] + entry["h"] / 2
    # a text: its width estimated from its longest language
    size = entry.get("size", 0.5)
    text = entry.get("text")
    longest = max((len(t) for t in (text.values() if isinstance(text, Mapping) else [text]) if isinstance(t, str)),
                  default=0)
    w = longest * size * TEXT_WIDTH_EM
    x, align = entry["x"], entry.get("align", "centre")
    left = x if align == "left" else x - w if align == "right" else x - w / 2
    return left, entry["y"] - size * 0.55, left + w, entry["y"] + size * 0.55


def contains(entry: Mapping[str, Any], x: float, y: float) -> bool:
    """Whether the point lies inside a drawn shape (a line contains nothing)."""
    shape = entry.get("shape")
    if shape == "polygon":
        pts = entry["points"]
        inside = False
        j = len(pts) - 1
        for i in range(len(pts)):
            (xi, yi), (xj, yj) = pts[i], pts[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            j = i
        return inside
    if shape == "circle":
        return (x - entry["x"]) ** 2 + (y - entry["y"]) ** 2 <= entry["r"] ** 2
    if shape == "rect":
        return abs(x - entry["x"]) <= entry["w"] / 2 and abs(y - entry["y"]) <= entry["h"] / 2
    return False


def _union(boxes: Iterable[Box]) -> Box | None:
    boxes = list(boxes)
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


# -- the drawing -------------------------------------------------------------------------------------

#: The colours of what nomv draws around a scene, as a drawing carries them.
COLOURS: dict[str, list[int]] = {
    "last_move_tint": list(rgba("last_move", AROUND["last_move_tint"])), "last_move_rim": list(rgba("last_move")),
    "highlight": list(rgba("highlight")), "highlight_edge": list(rgba("highlight_edge")),
    "selected": list(rgba("selected")), "ready": list(rgba("ready")), "selected_edge": list(rgba("selected_edge")),
    "hover": list(rgba("hover")), "hover_refused": list(rgba("hover_refused"))}


@dataclass
class Drawing:
    """Everything to draw for one scene as one reader sees it (see the module's docstring).
    An entry leaves out what it does not have (no ``fill``: not filled; no ``side``: on the
    board)."""

    base: list[dict[str, Any]] = field(default_factory=list)
    texts: list[dict[str, Any]] = field(default_factory=list)
    edge: list[dict[str, Any]] = field(default_factory=list)
    cells: list[dict[str, Any]] = field(default_factory=list)
    #: each clickable id -> the index in ``base`` of its place
    places: dict[str, int] = field(default_factory=dict)
    #: the ring colours that differ from COLOURS on a place (gold on a yellow block would not
    #: show): id -> {"highlight": rgba, ...}
    ring_colours: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    buttons: list[dict[str, str]] = field(default_factory=list)
    bounds: Box = (0.0, 0.0, 1.0, 1.0)
    board_bounds: Box | None = None
    side_bounds: Box | None = None
    edge_reach: float = 0.0
    #: the board's box with room for the coordinates around it, as much on each side as on the
    #: opposite one (the board stays centred)
    edge_bounds: Box | None = None

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "texts": self.texts, "edge": self.edge, "cells": self.cells,
                "places": self.places, "ring_colours": self.ring_colours, "buttons": self.buttons,
                "bounds": list(self.bounds),
                "board_bounds": None if self.board_bounds is None else list(self.board_bounds),
                "side_bounds": None if self.side_bounds is None else list(self.side_bounds),
                "edge_reach": self.edge_reach,
                "edge_bounds": None if self.edge_bounds is None else list(self.edge_bounds), "colours": COLOURS,
                "coordinate_px": list(COORDINATE_PX), "cell_id_px": CELL_ID_PX}

    @property
    def marks(self) -> list[dict[str, Any]]:
        """The last move's marks, in drawing order."""
        return [e for e in self.base if e["draw"] == "mark"]


def drawing(scene: Any, before: Any = None, last_steps: Sequence[str] = (), moves: Sequence[Any] = (),
            notations: Sequence[str] | None = None, facts: Any = None) -> Drawing:
    """The drawing of ``scene``: ``before`` is the scene before the last move (or its
    nomv.play.marks.SceneFacts) and ``last_steps`` that move's steps (its marks: none without
    them); ``moves`` the legal moves (objects with ``steps`` and ``label``, with their
    ``notations``), for the buttons of steps that name no scene item; ``facts`` the SceneFacts
    of ``scene`` when the caller keeps them (what is worked out of a scene, once)."""
    raw = scene.get("items") if isinstance(scene, Mapping) else None
    items: list[Any] = raw if isinstance(raw, list) else []
    # (the facts' items are the scene's items that are tables: the same list when all are)
    aligned = facts is not None and len(facts.items) == len(items)
    flags = facts.board() if aligned else board_items(items)
    out = Drawing()
    shapes: list[tuple[float, int, dict[str, Any]]] = []
    texts: list[tuple[float, int, dict[str, Any]]] = []
    signatures = facts.signatures if aligned else None
    for k, item in enumerate(items):
        entry = _entry(item, k, not flags[k]) if signatures is None else _remembered_entry(item, k, not flags[k], signatures[k])
        if entry is not None:
            (texts if entry["draw"] == "text" else shapes).append((layer_of(item), k, entry))
    shapes.sort(key=lambda t: (t[0], t[1]))
    texts.sort(key=lambda t: (t[0], t[1]))
    placed: dict[str, tuple[float, dict[str, Any]]] = {}
    for layer, _k, entry in shapes:
        if "id" in entry and entry["id"] not in placed:
            placed[entry["id"]] = (layer, entry)
    out.base = _with_marks(shapes, placed, items, flags, scene if facts is None else facts, before, last_steps)
    out.texts = [e for _l, _k, e in texts]
    for n, entry in enumerate(out.base):
        sid = entry.get("id")
        if entry["draw"] == "shape" and sid is not None and placed[sid][1] is entry:
            out.places[sid] = n
            fill = entry.get("fill")
            changed = {}
            for kind, instead in (("highlight", "highlight_on_like"), ("selected", "selected_on_like"),
                                  ("ready", "selected_on_like")):
                core = list(unlike(rgba(kind), fill, rgba(instead)))
                if core != COLOURS[kind]:
                    changed[kind] = core
            if changed:
                out.ring_colours[sid] = changed
    if moves:
        out.buttons = [{"id": b.id, "text": b.text} for b in move_buttons(scene, moves, notations)]
    shown = [e for e in out.base if e["draw"] == "shape"] + out.texts
    board_boxes = [box_of(e) for e in shown if not e.get("side")]
    side_boxes = [box_of(e) for e in shown if e.get("side")]
    out.bounds = scene_bounds(scene, board_boxes + side_boxes)
    if side_boxes:
        out.board_bounds = _union(board_boxes)
        out.side_bounds = _union(side_boxes)
    out.edge = _edge_entries(edge_coordinates(facts if aligned else scene))
    if out.edge and _written_by_the_script(out.edge, out.texts):
        out.edge = []           # the scene writes its own coordinates: nomv adds none, even on request
        return out
    if out.edge:
        out.edge_reach = _n(0.45 * _edge_step(out.edge))
        out.edge_bounds = _around(out.board_bounds or out.bounds, out.edge, out.edge_reach)
    else:
        out.cells = _cell_ids(out.base, {sid: e for sid, (_l, e) in placed.items()})
    return out


#: Entries of items seen before, by the item's signature and whether it stands beside the board:
#: a server draws every move's scene, and most of a scene (a board's cells, the pieces that did
#: not move) is what the scene before it was.  Bounded: emptied when it grows past this.
_ENTRIES: dict[tuple[Any, bool], dict[str, Any] | None] = {}
ENTRIES_KEPT = 20000


def _remembered_entry(item: Any, k: int, side: bool, signature: Any) -> dict[str, Any] | None:
    """:func:`_entry` of an item drawn before (its entry is never changed once made: a copy
    with this index), else made and remembered."""
    key = (signature, side)
    found = _ENTRIES.get(key, _ENTRIES)
    if found is _ENTRIES:
        found = _entry(item, 0, side)
        if len(_ENTRIES) >= ENTRIES_KEPT:
            _ENTRIES.clear()
        _ENTRIES[key] = found
    if found is None:
        return None
    entry = dict(found)
    entry["index"] = k
    return entry


def _entry(item: Any, k: int, side: bool) -> dict[str, Any] | None:
    """The entry of scene item ``k``: a shape or a text, or None when it cannot be drawn."""
    if not isinstance(item, Mapping):
        return None
    entry: dict[str, Any]
    if item.get("shape") == "text":
        text = item.get("text", item.get("label", ""))
        entry = {"draw": "text", "index": k, "text": text if text is not None else "",
                 "x": _n(_num(item, "x")), "y": _n(_num(item, "y")), "size": _n(_num(item, "size", 0.5)),
                 "ink": list(colour(item.get("fill") or item.get("colour") or item.get("color"), rgba("text"))
                             or rgba("text"))}
        if item.get("align") in ("left", "right"):
            entry["align"] = item["align"]
        if item.get("bold"):
            entry["bold"] = True
    else:
        shape = geometry(item)
        if shape is None:
            return None
        entry = {"draw": "shape", "index": k, **shape}
        fill, stroke, width = colour(item.get("fill")), colour(item.get("stroke")), item.get("width")
        if fill is not None:
            entry["fill"] = list(fill)
        if stroke is not None:
            entry["stroke"] = list(stroke)
        if isinstance(width, (int, float)) and not isinstance(width, bool) and math.isfinite(width):
            entry["width"] = _n(float(width))
        label = item.get("label")
        if label not in (None, ""):
            entry["label"] = label
            entry["label_ink"] = list(colour(item.get("label_colour") or item.get("label_color")) or contrast(fill))
    sid = item.get("id")
    if isinstance(sid, str) and sid:
        entry["id"] = sid
    if side:
        entry["side"] = True
    return entry


def scene_bounds(scene: Any, boxes: list[Box]) -> Box:
    """The scene's ``bounds`` (grown to take in whatever is drawn outside them), else the box
    of everything drawn."""
    b = scene.get("bounds") if isinstance(scene, Mapping) else None
    if isinstance(b, (list, tuple)) and len(b) == 4 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in b) \
            and b[2] > b[0] and b[3] > b[1]:
        return _union([(float(b[0]), float(b[1]), float(b[2]), float(b[3]))] + boxes) or (0.0, 0.0, 1.0, 1.0)
    return _union(boxes) or (0.0, 0.0, 1.0, 1.0)


def _with_marks(shapes: list[tuple[float, int, dict[str, Any]]], placed: Mapping[str, tuple[float, dict[str, Any]]],
                items: list[Any], flags: Sequence[bool], scene: Any, before: Any,
                steps: Sequence[str]) -> list[dict[str, Any]]:
    """The shapes in drawing order with the last move's marks among them: a mark whose place
    is in the scene right after the shapes of its place's layer and below (under the pieces
    above it); a place gone from the scene (its item from the scene before the move) after
    every shape."""
    if before is None or not steps:
        return [e for _l, _k, e in shapes]
    marks: list[tuple[float, int, dict[str, Any]]] = []
    for mark in last_move_marks(before, scene, list(steps), flags):
        found = placed.get(mark.id) if mark.id is not None else None
        here = found if found is not None and items[found[1]["index"]] is mark.item else None
        shape = here[1] if here is not None else geometry(mark.item)
        if shape is None:
            continue
        entry: dict[str, Any] = {"draw": "mark", "kind": mark.kind}
        entry.update({k: shape[k] for k in ("shape", "points", "x", "y", "r", "w", "h", "cx", "cy") if k in shape})
        if mark.id is not None:
            entry["id"] = mark.id
        if here is not None:
            entry["index"] = here[1]["index"]
            if here[1].get("side"):
                entry["side"] = True
        marks.append((here[0] if here is not None else math.inf, len(marks), entry))
    marks.sort(key=lambda t: (t[0], t[1]))
    out: list[dict[str, Any]] = []
    pending = list(marks)
    for layer, _k, entry in shapes:
        while pending and pending[0][0] < layer:
            out.append(pending.pop(0)[2])
        out.append(entry)
    out += [m for _l, _n, m in pending]
    return out


def _around(box: Box, edge: list[dict[str, Any]], reach: float) -> Box:
    """``box`` grown to take in the coordinates (each ``reach`` around its centre), by as much
    on each side as on the opposite one."""
    x0, y0, x1, y1 = box
    left = max(0.0, x0 - min(e["x"] - reach for e in edge))
    right = max(0.0, max(e["x"] + reach for e in edge) - x1)
    top = max(0.0, y0 - min(e["y"] - reach for e in edge))
    bottom = max(0.0, max(e["y"] + reach for e in edge) - y1)
    dx, dy = max(left, right), max(top, bottom)
    return (_n(x0 - dx), _n(y0 - dy), _n(x1 + dx), _n(y1 + dy))


def _edge_entries(labels: list[EdgeLabel] | None) -> list[dict[str, Any]]:
    if not labels:
        return []
    entries = [{"draw": "coordinate", "text": e.text, "x": _n(e.x), "y": _n(e.y), "size": 0.0,
                "ink": list(rgba("coordinate"))} for e in labels]
    size = _n(0.4 * _edge_step(entries))
    for e in entries:
        e["size"] = size
    return entries


def _written_by_the_script(edge: list[dict[str, Any]], texts: list[dict[str, Any]]) -> bool:
    """Whether the scene's own texts already write most of these coordinates around the board
    (Breakthrough and Hex draw their files and ranks): the same words within a cell of where
    nomv would put them."""
    step = _edge_step(edge)
    near = 0
    for e in edge:
        if any(isinstance(t["text"], str) and t["text"] == e["text"] and
               math.hypot(t["x"] - e["x"], t["y"] - e["y"]) <= 1.5 * step for t in texts):
            near += 1
    return 2 * near >= len(edge)


def _edge_step(entries: list[dict[str, Any]]) -> float:
    """The distance between neighbouring coordinates (the cells' spacing)."""
    xs = sorted({round(e["x"], 6) for e in entries})
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b - a > 1e-6]
    return min(gaps) if gaps else 1.0


def _cell_ids(base: list[dict[str, Any]], placed: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each place's id, small, at the bottom of its place, in the ink that reads on what lies
    under it there (a piece on the cell as much as the cell), with a halo of the other ink."""
    out = []
    shapes = [e for e in base if e["draw"] == "shape"]
    for sid, cell in placed.items():
        x0, y0, x1, y1 = box_of(cell)
        size = min(x1 - x0, y1 - y0)
        x, y = centre(cell)[0], y1 - size * 0.15
        fill = cell.get("fill")
        under = fill if fill is not None and fill[3] > 100 else None
        above = False
        for other in shapes:        # in drawing order: the last that covers the point wins
            if other is cell:
                above = True
                continue
            f = other.get("fill")
            if above and other["shape"] != "line" and other.get("side") == cell.get("side") and f is not None \
                    and f[3] > 100 and contains(other, x, y):
                under = f
        ink = contrast(under)
        entry = {"draw": "cell-id", "text": sid, "x": _n(x), "y": _n(y), "size": _n(size * 0.2),
                 "index": cell["index"], "ink": [ink[0], ink[1], ink[2], 235],
                 "halo": [255, 255, 255, 150] if sum(ink[:3]) < 384 else [0, 0, 0, 150]}
        if cell.get("side"):
            entry["side"] = True
        out.append(entry)
    return out


# -- what a face adds: the rings of what may be clicked, the coordinates shown -------------------------

def rings(d: Drawing | Mapping[str, Any], highlights: Iterable[str] = (), selected: Sequence[str] = (),
          ready: bool = False) -> list[dict[str, Any]]:
    """The rings on the places of the next steps (``highlights``, in sorted order) and of the
    steps clicked so far (``selected``; ``ready``: they make a move): each names its place's
    index in ``base`` (``entry``) and its colours."""
    places = d.places if isinstance(d, Drawing) else d["places"]
    own = d.ring_colours if isinstance(d, Drawing) else d["ring_colours"]
    out = []
    for kinds, edge in (((sorted(set(highlights)), "highlight"), "highlight_edge"),
                        ((list(dict.fromkeys(selected)), "ready" if ready else "selected"), "selected_edge")):
        ids, kind = kinds
        for sid in ids:
            if sid in places:
                out.append({"draw": "ring", "kind": kind, "entry": places[sid],
                            "core": own.get(sid, {}).get(kind, COLOURS[kind]), "edge": COLOURS[edge]})
    return out


def coordinates(d: Drawing | Mapping[str, Any], shown: bool | None = None) -> list[dict[str, Any]]:
    """The coordinates to draw: ``shown`` None (as nomv starts) draws the letters and numbers
    around the edge where the board has them; True draws them, or on a board without them each
    place's id in its cell; False draws none."""
    edge = d.edge if isinstance(d, Drawing) else d["edge"]
    cells = d.cells if isinstance(d, Drawing) else d["cells"]
    if shown is False:
        return []
    if edge:
        return list(edge)
    return list(cells) if shown else []

