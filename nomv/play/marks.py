"""What a front end draws on a game's scene besides the scene: decided here once, from plain data,
for the desktop window and the browser alike (the model never imports pygame).

- :func:`last_move_marks`: where the last move happened, from the scenes before and after it:
  the places of its steps, and for a taking move the places the pieces were taken from.  A
  script that marks the last move itself gives one of its items ``last_move = true``.
- :func:`move_buttons`: the steps that name no item of the scene (pass, roll, stay); a front
  end draws a button for each, so such a game needs no drawing code for them.
- :func:`step_names`: how messages name a step: its notation where the notation shows it, else
  the label drawn on its item (Nonads' ``slot:1,0`` is the slot labelled ``1,0``).
- :func:`edge_coordinates`: a grid's letters and numbers placed around its edge, where the
  cells' ids and their positions allow it (files and ranks on straight lines).
- :func:`board_items`: which items form the board and which stand beside it (score tables,
  hands), so that the side items can keep a readable size when the board is large.

Everything is in the scene's board units; items are the scene's own dicts.  What is worked out
of one scene (each item's box, the places, the board, each item's signature) is worked out once:
:class:`SceneFacts`, which a caller that keeps a scene may keep beside it (a server marks every
move against the scene before it, which was the scene after the move before).
"""
from __future__ import annotations

import collections.abc
import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..languages import localized

Box = tuple[float, float, float, float]


# -- geometry of scene items ---------------------------------------------------------------------

def _is_map(value: Any) -> bool:
    """isinstance(value, Mapping), quickly for the dicts scenes are made of."""
    return type(value) is dict or isinstance(value, collections.abc.Mapping)


def _num(v: Any) -> float | None:
    t = type(v)
    if t is float:
        return v if math.isfinite(v) else None
    if t is int:
        return float(v)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def _flat_box(raw: list) -> Box | None:
    """The box of a flat list of coordinates (x1, y1, x2, y2, ...) of plain numbers, at once;
    None when it is anything else (the slow way then decides)."""
    if len(raw) < 4 or len(raw) % 2:
        return None
    for v in raw:
        t = type(v)
        if t is not float and t is not int:
            return None
    if not math.isfinite(sum(raw)):
        return None
    xs, ys = raw[0::2], raw[1::2]
    return float(min(xs)), float(min(ys)), float(max(xs)), float(max(ys))


_PLAIN_NUMBERS = {int, float}


def points_of(item: Mapping) -> list[tuple[float, float]]:
    """A polygon's or a line's points, as pairs ({x1, y1, x2, y2, ...} or {{x1, y1}, ...}); [] when
    any is not a finite number."""
    raw = item.get("points")
    if not isinstance(raw, list):
        return []
    if type(raw) is list and len(raw) % 2 == 0 and set(map(type, raw)) <= _PLAIN_NUMBERS:
        # the common case, done by the interpreter's own loops: a flat list of plain numbers
        if not math.isfinite(sum(raw)):
            return []
        flat = list(map(float, raw))
        return list(zip(flat[0::2], flat[1::2]))
    if raw and isinstance(raw[0], (list, tuple)):
        pairs = [(p[0], p[1]) for p in raw if isinstance(p, (list, tuple)) and len(p) >= 2]
    else:
        pairs = list(zip(raw[0::2], raw[1::2]))
    out = []
    for x, y in pairs:
        fx, fy = _num(x), _num(y)
        if fx is None or fy is None:
            return []
        out.append((fx, fy))
    return out


def item_box(item: Any) -> Box | None:
    """The bounding box of a drawable item (texts excluded: their size depends on the font), or
    None for a malformed one."""
    if not _is_map(item):
        return None
    shape = item.get("shape")
    if shape in ("polygon", "line"):
        raw = item.get("points")
        if type(raw) is list:
            box = _flat_box(raw)
            if box is not None:
                return box
        pts = points_of(item)
        if len(pts) < 2:
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)
    x, y = _num(item.get("x")), _num(item.get("y"))
    if x is None or y is None:
        return None
    if shape == "circle":
        r = abs(_num(item.get("r")) or 0.5)
        return x - r, y - r, x + r, y + r
    if shape in ("rect", "square", "hex"):
        w = abs(_num(item.get("w")) or _num(item.get("size")) or 1.0)
        h = abs(_num(item.get("h")) or w)
        return x - w / 2, y - h / 2, x + w / 2, y + h / 2
    return None


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _inside(point: tuple[float, float], box: Box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _size(box: Box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def _items(scene: Any) -> list[Mapping]:
    items = scene.get("items") if _is_map(scene) else None
    return [i for i in items if _is_map(i)] if isinstance(items, list) else []


def _layer(item: Mapping) -> float:
    v = _num(item.get("layer"))
    return v if v is not None else (2.0 if item.get("shape") == "text" else 0.0)


def places(scene: Any) -> dict[str, Mapping]:
    """Each clickable id of a scene and the item that is its place: the lowest drawn item with
    that id (a cell rather than the piece on it)."""
    return SceneFacts.of(scene).places


def _places(items: list[Mapping], boxes: list[Box | None]) -> dict[str, Mapping]:
    out: dict[str, tuple[float, int, Mapping]] = {}
    for order, item in enumerate(items):
        sid = item.get("id")
        if isinstance(sid, str) and boxes[order] is not None and item.get("shape") != "text":
            key = (_layer(item), order)
            if sid not in out or key < out[sid][:2]:
                out[sid] = (key[0], key[1], item)
    return {sid: v[2] for sid, v in out.items()}


class SceneFacts:
    """One scene and what is worked out of it, each at most once: its items, their boxes
    (:func:`item_box`), its places (:func:`places`), which items are its board
    (:func:`board_items`) and each item's signature (what makes two items the same)."""

    __slots__ = ("scene", "items", "_boxes", "_places", "_board", "_signatures")

    def __init__(self, scene: Any):
        self.scene = scene
        self.items = _items(scene)
        self._boxes: list[Box | None] | None = None
        self._places: dict[str, Mapping] | None = None
        self._board: list[bool] | None = None
        self._signatures: list[str | bytes] | None = None

    @classmethod
    def of(cls, scene: Any) -> "SceneFacts":
        return scene if isinstance(scene, SceneFacts) else cls(scene)

    @property
    def boxes(self) -> list[Box | None]:
        if self._boxes is None:
            self._boxes = [None if i.get("shape") == "text" else item_box(i) for i in self.items]
        return self._boxes

    @property
    def places(self) -> dict[str, Mapping]:
        if self._places is None:
            self._places = _places(self.items, self.boxes)
        return self._places

    def board(self, flags: Sequence[bool] | None = None) -> list[bool]:
        """:func:`board_items` of the items (``flags``: as the caller worked them out)."""
        if flags is not None and len(flags) == len(self.items):
            self._board = list(flags)
        if self._board is None:
            self._board = _board_flags(self.items, self.boxes)
        return self._board

    @property
    def signatures(self) -> list[str | bytes]:
        if self._signatures is None:
            self._signatures = [_signature(i) for i in self.items]
        return self._signatures


def clickable_ids(scene: Any) -> set[str]:
    """The ids of every item a click can hit (texts with an id included)."""
    return {i["id"] for i in _items(scene) if isinstance(i.get("id"), str) and i["id"]}


# -- the board and the side items ----------------------------------------------------------------

def board_items(items: Sequence[Any]) -> list[bool]:
    """For each item, whether it belongs to the board (True) or stands beside it (False).

    Items that touch each other (or nearly: a gap of a third of the smaller one) form clusters;
    the board is the cluster with the most clickable items, and everything drawn over its area,
    when it has at least twice as many as any other cluster (else all is board).
    Scene texts belong to the board when they stand within half a cell of it.  A scene that is
    one cluster is all board."""
    boxes = [item_box(i) if _is_map(i) and i.get("shape") != "text" else None for i in items]
    return _board_flags(items, boxes)


def _board_flags(items: Sequence[Any], boxes: list[Box | None]) -> list[bool]:
    box: dict[int, Box] = {k: b for k, b in enumerate(boxes) if b is not None}  # the items that have a box
    shown = list(box)
    if not shown:
        return [True] * len(items)
    size = {k: max(b[2] - b[0], b[3] - b[1]) for k, b in box.items()}
    sizes = sorted(size.values())
    typical = max(sizes[len(sizes) // 2], 1e-9)
    parent = {k: k for k in shown}

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    # Neighbours are looked for in buckets of the typical size, not among all pairs: a scene
    # may hold thousands of items.  Two items are near when the gap between their boxes is at
    # most a third of the smallest of the two and the typical size (_near, written out here:
    # a server works this out for every scene it shows).
    buckets: dict[tuple[int, int], list[int]] = {}
    floor = math.floor
    for k in shown:
        x0, y0, x1, y1 = box[k]
        own = size[k]
        if own > 50 * typical:
            continue  # a background under everything joins nothing (it is drawn over the board)
        gap = min(own, typical) / 3
        keys = [(bx, by)
                for bx in range(int(floor((x0 - gap) / typical)), int(floor((x1 + gap) / typical)) + 1)
                for by in range(int(floor((y0 - gap) / typical)), int(floor((y1 + gap) / typical)) + 1)]
        met: set[int] = set()
        for key in keys:
            met.update(buckets.get(key, ()))
        root = k                  # the new item's cluster; it joins each older one it is near
        for j in met:
            other = parent[j]
            if other != j:
                other = find(j)
            if other == root:
                continue
            a0, b0, a1, b1 = box[j]
            g = min(own, size[j], typical) / 3
            if not (a1 + g < x0 or x1 + g < a0 or b1 + g < y0 or y1 + g < b0):
                parent[root] = other
                root = other
        for key in keys:
            buckets.setdefault(key, []).append(k)
    clusters: dict[int, list[int]] = {}
    for k in shown:
        clusters.setdefault(find(k), []).append(k)
    if len(clusters) == 1:
        return [True] * len(items)

    def weight(members: list[int]) -> tuple[int, int]:
        return sum(1 for k in members if isinstance(items[k].get("id"), str)), len(members)
    ranked = sorted(clusters.values(), key=weight, reverse=True)
    board = ranked[0]
    if weight(board)[0] < 2 * weight(ranked[1])[0]:
        return [True] * len(items)   # no cluster stands out as the board (Nonads' first tile)
    bx0 = min(box[k][0] for k in board)
    by0 = min(box[k][1] for k in board)
    bx1 = max(box[k][2] for k in board)
    by1 = max(box[k][3] for k in board)
    near = typical / 2
    area = (bx0 - near, by0 - near, bx1 + near, by1 + near)
    in_board = set(board)
    out = []
    for k, item in enumerate(items):
        if k in in_board:
            out.append(True)
        elif k in box:
            out.append(_inside(_centre(box[k]), (bx0, by0, bx1, by1)) and _size(box[k]) <= 50 * typical)
        else:
            x, y = _num(item.get("x")) if _is_map(item) else None, \
                _num(item.get("y")) if _is_map(item) else None
            out.append(x is not None and y is not None and _inside((x, y), area))
    return out


def _near(a: Box, b: Box, typical: float) -> bool:
    gap = min(_size(a), _size(b), typical) / 3
    return not (a[2] + gap < b[0] or b[2] + gap < a[0] or a[3] + gap < b[1] or b[3] + gap < a[1])


# -- the last move -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mark:
    """A place where the last move happened.  ``kind`` is "step" (a place the move named) or
    "vacated" (a piece left it: taken, or moved away); ``item`` is the scene item whose outline is the
    place (a cell, or the piece itself when nothing remains under it); ``id`` its id if any."""

    kind: str
    item: Mapping
    id: str | None


def _signature(item: Mapping) -> str | bytes:
    """What makes two items the same: their keys and values, in a canonical form."""
    if _orjson is not None:
        try:
            return _orjson.dumps(item, option=_orjson.OPT_SORT_KEYS | _orjson.OPT_NON_STR_KEYS)
        except TypeError:
            pass
    return json.dumps(item, sort_keys=True, default=str)


_orjson: Any
try:        # (orjson makes signatures ten times faster where it is installed: nomv[serve])
    import orjson as _orjson
except ImportError:     # pragma: no cover - the core alone
    _orjson = None


def script_marks_last_move(scene: Any) -> bool:
    """Whether the scene marks the last move itself (an item with ``last_move = true``)."""
    return any(i.get("last_move") is True for i in _items(scene))


def last_move_marks(before: Any, after: Any, steps: Sequence[str],
                    board: Sequence[bool] | None = None) -> list[Mark]:
    """Where the move ``steps`` happened, from the scene before it and the scene after it (as
    the same player sees them): the places of its steps on the board (a step beside the board,
    such as a choice of rotation, is no place), then the board's places whose piece (an item at
    least half the place's size) went without another appearing there (the middle of a Trinim
    line, where the Nipple stood).
    Empty when the scene marks the move itself, or nothing is known before.  ``board``:
    :func:`board_items` of ``after``'s items, when the caller has it already.

    >>> cell = lambda i, x: {"id": i, "shape": "rect", "x": x, "y": 0, "w": 1, "h": 1}
    >>> stone = lambda x: {"shape": "circle", "x": x, "y": 0, "r": 0.4}
    >>> before = {"items": [cell("a", 0), cell("b", 1), cell("c", 2), stone(0), stone(1), stone(2)]}
    >>> after = {"items": [cell("a", 0), cell("b", 1), cell("c", 2)]}
    >>> [(m.kind, m.id) for m in last_move_marks(before, after, ["a", "c"])]
    [('step', 'a'), ('step', 'c'), ('vacated', 'b')]
    """
    if before is None or after is None:
        return []
    old, new = SceneFacts.of(before), SceneFacts.of(after)
    if any(i.get("last_move") is True for i in new.items):
        return []           # (script_marks_last_move)
    old_places, new_places = old.places, new.places
    area = _board_box(new.items, new.board(board), new.boxes)
    old_signed = [(k, sig) for k, sig in enumerate(old.signatures) if old.items[k].get("shape") != "text"]
    new_signed = [(k, sig) for k, sig in enumerate(new.signatures) if new.items[k].get("shape") != "text"]
    old_count = Counter(sig for _k, sig in old_signed)
    new_count = Counter(sig for _k, sig in new_signed)
    removed = [k for k, sig in old_signed if old_count[sig] > new_count[sig]]
    added = [k for k, sig in new_signed if new_count[sig] > old_count[sig]]
    removed_at = [(_centre(b), old.items[k], b) for k in removed if (b := old.boxes[k]) is not None]
    added_at = [(_centre(b), new.items[k]) for k in added if (b := new.boxes[k]) is not None]
    place_boxes = {id(item): item_box(item) for item in (*new_places.values(), *old_places.values())}

    def on_board(item: Mapping) -> Box | None:
        box = place_boxes[id(item)]
        return box if box is not None and (area is None or _inside(_centre(box), area)) else None

    marks: list[Mark] = []
    marked: set[str] = set()
    for sid in dict.fromkeys(steps):
        place = new_places.get(sid) or old_places.get(sid)
        if place is not None and on_board(place) is not None:
            marks.append(Mark("step", place, sid))
            marked.add(sid)
    for sid, place in new_places.items():
        box = on_board(place)
        if sid in marked or box is None:
            continue
        # a piece (half the place or more), not a smaller mark that went (3verse's marks expire)
        gone = [i for c, i, b in removed_at if _inside(c, box) and i.get("id") in (None, sid)
                and _size(b) >= 0.5 * _size(box)]
        if gone and not any(_inside(c, box) for c, _i in added_at):
            marks.append(Mark("vacated", place, sid))
            marked.add(sid)
    return marks


def _board_box(items: list[Mapping], flags: Sequence[bool] | None = None,
               item_boxes: Sequence[Box | None] | None = None) -> Box | None:
    """The area of a scene's board (see board_items: ``flags``), a little enlarged; None if
    unknown.  ``item_boxes``: each item's box, when the caller has them."""
    if flags is None or len(flags) != len(items):
        flags = board_items(items)
    if item_boxes is None:
        item_boxes = [item_box(item) for item in items]
    boxes = [b for b, on in zip(item_boxes, flags) if on and b is not None]
    if not boxes:
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    pad = 0.02 * max(x1 - x0, y1 - y0)
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


# -- steps that are not places -------------------------------------------------------------------

@dataclass(frozen=True)
class StepButton:
    """A step that names no item of the scene, drawn as a button: its id and its text."""

    id: str
    text: str


def move_buttons(scene: Any, moves: Sequence[Any], notations: Sequence[str] | None = None) -> list[StepButton]:
    """A button for each step of the legal moves that names no scene item, in the order the
    moves first use them.  Its text is the notation of the move it makes alone (``pass``), else
    the move's label, else the step's id.

    >>> from types import SimpleNamespace as M
    >>> scene = {"items": [{"id": "a1", "shape": "rect", "x": 0, "y": 0, "w": 1, "h": 1}]}
    >>> move_buttons(scene, [M(steps=("a1",), label=None), M(steps=("pass",), label=None)], ["a1", "Pass"])
    [StepButton(id='pass', text='Pass')]
    """
    ids = clickable_ids(scene)
    texts: dict[str, str] = {}
    alone: dict[str, str] = {}
    for k, move in enumerate(moves):
        steps = tuple(getattr(move, "steps", ()))
        for step in steps:
            if step not in ids and step not in texts:
                texts[step] = step
        if len(steps) == 1 and steps[0] not in ids:
            label = getattr(move, "label", None)
            if notations is not None and k < len(notations) and notations[k]:
                alone.setdefault(steps[0], notations[k])
            elif label:
                alone.setdefault(steps[0], localized(label, "en", steps[0]))
    return [StepButton(step, alone.get(step, text)) for step, text in texts.items()]


def step_names(scene: Any, moves: Sequence[Any], notations: Sequence[str], lang: str = "en") -> dict[str, str]:
    """How to name each step in a message: the id itself where some move's notation shows it
    (``b1`` in ``a1-b1-b2-c2``), else the label drawn on its item (``1,0``), else the notation of
    the move it makes alone.  Steps with none of these are left out (say "this place")."""
    out: dict[str, str] = {}
    labels: dict[str, str] = {}
    for item in _items(scene):
        sid, label = item.get("id"), item.get("label")
        if isinstance(sid, str) and label not in (None, "") and sid not in labels:
            text = localized(label, lang)
            if text and len(text) <= 16:
                labels[sid] = text
    seen: set[str] = set()
    for k, move in enumerate(moves):
        notation = notations[k] if k < len(notations) else ""
        steps = tuple(getattr(move, "steps", ()))
        for step in steps:
            if step in out:
                continue
            if re.search(rf"(?<![\w]){re.escape(step)}(?![\w])", notation):
                out[step] = step
            elif len(steps) == 1 and step not in labels:
                out[step] = notation
            seen.add(step)
    for step in seen:
        if step not in out and step in labels:
            out[step] = labels[step]
    return out


# -- coordinates around the edge -----------------------------------------------------------------

@dataclass(frozen=True)
class EdgeLabel:
    """A file letter or rank number, centred at (x, y) in board units, outside the board."""

    text: str
    x: float
    y: float


_CELL_ID = re.compile(r"([A-Za-z]{1,2})(\d{1,3})")


def edge_coordinates(scene: Any) -> list[EdgeLabel] | None:
    """The letters and numbers of the cells' ids around the board, or None where the geometry
    does not allow it (ids that are not letters and a number, files or ranks that are not
    straight lines, or a label that would fall on a cell).  Letters go beyond the end of each
    file with the lowest number, numbers beyond the end of each rank with the first letter."""
    placed = places(scene)
    cells: dict[str, tuple[str, int, tuple[float, float]]] = {}
    for sid, item in placed.items():
        m = _CELL_ID.fullmatch(sid)
        box = item_box(item)
        if m and box is not None:
            cells[sid] = (m.group(1), int(m.group(2)), _centre(box))
    if len(cells) < 4 or 2 * len(cells) < len(placed):
        return None
    # The same cells give the same labels: a server draws every move's scene, and a board's
    # cells stay where they were (the checks below compare every label with every cell)
    key = tuple(cells.items())
    if key in _EDGES:
        found = _EDGES[key]
    else:
        if len(_EDGES) >= 256:
            _EDGES.clear()
        found = _EDGES[key] = _edge_labels(cells)
    return None if found is None else list(found)


#: edge_coordinates' answers by the cells they came from (a few boards per process).
_EDGES: dict[tuple, list[EdgeLabel] | None] = {}


def _edge_labels(cells: dict[str, tuple[str, int, tuple[float, float]]]) -> list[EdgeLabel] | None:
    files: dict[str, list[tuple[int, tuple[float, float]]]] = {}
    ranks: dict[int, list[tuple[int, tuple[float, float]]]] = {}
    for letters, number, c in cells.values():
        files.setdefault(letters, []).append((number, c))
        ranks.setdefault(number, []).append((_letter_key(letters), c))
    spacing = _spacing(files, ranks)
    if spacing is None:
        return None
    file_direction, rank_direction = _common_direction(files, spacing), _common_direction(ranks, spacing)
    if file_direction is None or rank_direction is None:
        return None
    directions = [file_direction, rank_direction]
    centres = [c for _l, _n, c in cells.values()]
    # Letters beyond the end of each file with the lowest number, numbers beyond the end of each
    # rank with the first letter (a chessboard's bottom and left); the other ends where those
    # would fall on a cell or on each other (Trinim's letters go under its "\" diagonals).
    for file_end, rank_end in ((0, 0), (-1, 0), (0, -1), (-1, -1)):
        out: list[EdgeLabel] = []
        sides: tuple[tuple[Mapping[Any, list[tuple[int, tuple[float, float]]]], Callable[[Any], str]], ...] = (
            (files, lambda k: k), (ranks, str))
        for (groups, text_of), direction, end in zip(sides, directions, (file_end, rank_end)):
            sign = 1 if end == 0 else -1
            for key, members in groups.items():
                (x, y) = sorted(members)[end][1]
                out.append(EdgeLabel(text_of(key), x - sign * direction[0] * spacing,
                                     y - sign * direction[1] * spacing))
        clear = all(math.hypot(e.x - cx, e.y - cy) >= 0.6 * spacing for e in out for cx, cy in centres)
        apart = all(math.hypot(a.x - b.x, a.y - b.y) >= 0.6 * spacing
                    for i, a in enumerate(out) for b in out[i + 1:])
        if clear and apart:
            return out
    return None


def _letter_key(letters: str) -> int:
    value = 0
    for ch in letters.lower():
        value = value * 26 + ord(ch) - 96
    return value


def _spacing(*groupings: dict) -> float | None:
    gaps = []
    for groups in groupings:
        for members in groups.values():
            members = sorted(members)
            for (_a, p), (_b, q) in zip(members, members[1:]):
                gaps.append(math.hypot(q[0] - p[0], q[1] - p[1]))
    gaps = sorted(g for g in gaps if g > 1e-9)
    return gaps[len(gaps) // 2] if gaps else None


def _common_direction(groups: dict, spacing: float) -> tuple[float, float] | None:
    """The unit direction from each group's first member to its last, when every group of two
    or more is a straight line and all run the same way; None otherwise."""
    found: list[tuple[float, float]] = []
    for members in groups.values():
        members = sorted(members)
        if len(members) < 2:
            continue
        (x0, y0), (x1, y1) = members[0][1], members[-1][1]
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-9:
            return None
        d = ((x1 - x0) / length, (y1 - y0) / length)
        for _k, (x, y) in members:
            # distance from the line through the ends
            if abs((x - x0) * d[1] - (y - y0) * d[0]) > 0.25 * spacing:
                return None
        found.append(d)
    if not found:
        return None
    dx, dy = found[0]
    if any(d[0] * dx + d[1] * dy < 0.97 for d in found):
        return None
    n = len(found)
    sx, sy = sum(d[0] for d in found) / n, sum(d[1] for d in found) / n
    length = math.hypot(sx, sy)
    return sx / length, sy / length

