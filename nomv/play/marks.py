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

Everything is in the scene's board units; items are the scene's own dicts.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..languages import localized

Box = tuple[float, float, float, float]


# -- geometry of scene items ---------------------------------------------------------------------

def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def points_of(item: Mapping) -> list[tuple[float, float]]:
    """A polygon's or a line's points, as pairs ({x1, y1, x2, y2, ...} or {{x1, y1}, ...}); [] when
    any is not a finite number."""
    raw = item.get("points")
    if not isinstance(raw, list):
        return []
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
    if not isinstance(item, Mapping):
        return None
    shape = item.get("shape")
    if shape in ("polygon", "line"):
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
    items = scene.get("items") if isinstance(scene, Mapping) else None
    return [i for i in items if isinstance(i, Mapping)] if isinstance(items, list) else []


def _layer(item: Mapping) -> float:
    v = _num(item.get("layer"))
    return v if v is not None else (2.0 if item.get("shape") == "text" else 0.0)


def places(scene: Any) -> dict[str, Mapping]:
    """Each clickable id of a scene and the item that is its place: the lowest drawn item with
    that id (a cell rather than the piece on it)."""
    out: dict[str, tuple[float, int, Mapping]] = {}
    for order, item in enumerate(_items(scene)):
        sid = item.get("id")
        if isinstance(sid, str) and item.get("shape") != "text" and item_box(item) is not None:
            key = (_layer(item), order)
            if sid not in out or key < out[sid][:2]:
                out[sid] = (key[0], key[1], item)
    return {sid: v[2] for sid, v in out.items()}


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
    boxes = [item_box(i) if isinstance(i, Mapping) and i.get("shape") != "text" else None for i in items]
    box: dict[int, Box] = {k: b for k, b in enumerate(boxes) if b is not None}  # the items that have a box
    shown = list(box)
    if not shown:
        return [True] * len(items)
    sizes = sorted(_size(box[k]) for k in shown)
    typical = max(sizes[len(sizes) // 2], 1e-9)
    parent = {k: k for k in shown}

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    # Neighbours are looked for in buckets of the typical size, not among all pairs: a scene
    # may hold thousands of items.
    buckets: dict[tuple[int, int], list[int]] = {}
    for k in shown:
        x0, y0, x1, y1 = box[k]
        if max(x1 - x0, y1 - y0) > 50 * typical:
            continue  # a background under everything joins nothing (it is drawn over the board)
        gap = min(_size(box[k]), typical) / 3
        for bx in range(int(math.floor((x0 - gap) / typical)), int(math.floor((x1 + gap) / typical)) + 1):
            for by in range(int(math.floor((y0 - gap) / typical)), int(math.floor((y1 + gap) / typical)) + 1):
                for j in buckets.setdefault((bx, by), []):
                    if find(j) != find(k) and _near(box[j], box[k], typical):
                        parent[find(j)] = find(k)
                buckets[(bx, by)].append(k)
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
            x, y = _num(item.get("x")) if isinstance(item, Mapping) else None, \
                _num(item.get("y")) if isinstance(item, Mapping) else None
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


def _signature(item: Mapping) -> str:
    return json.dumps(item, sort_keys=True, default=str)


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
    if before is None or script_marks_last_move(after):
        return []
    old, new = _items(before), _items(after)
    old_places, new_places = places(before), places(after)
    area = _board_box(new, board)
    # (each item's signature once: a server makes these marks after every move)
    old_signed = [(i, _signature(i)) for i in old if i.get("shape") != "text"]
    new_signed = [(i, _signature(i)) for i in new if i.get("shape") != "text"]
    old_count = Counter(sig for _i, sig in old_signed)
    new_count = Counter(sig for _i, sig in new_signed)
    removed = [i for i, sig in old_signed if old_count[sig] > new_count[sig]]
    added = [i for i, sig in new_signed if new_count[sig] > old_count[sig]]
    removed_at = [(_centre(b), i, b) for i in removed if (b := item_box(i)) is not None]
    added_at = [(_centre(b), i) for i in added if (b := item_box(i)) is not None]

    def on_board(item: Mapping) -> Box | None:
        box = item_box(item)
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


def _board_box(items: list[Mapping], flags: Sequence[bool] | None = None) -> Box | None:
    """The area of a scene's board (see board_items: ``flags``), a little enlarged; None if
    unknown."""
    if flags is None or len(flags) != len(items):
        flags = board_items(items)
    boxes = [b for item, on in zip(items, flags) if on and (b := item_box(item)) is not None]
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
    cells: dict[str, tuple[str, int, tuple[float, float]]] = {}
    for sid, item in places(scene).items():
        m = _CELL_ID.fullmatch(sid)
        box = item_box(item)
        if m and box is not None:
            cells[sid] = (m.group(1), int(m.group(2)), _centre(box))
    if len(cells) < 4 or 2 * len(cells) < len(places(scene)):
        return None
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

