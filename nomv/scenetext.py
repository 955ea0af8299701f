"""A text picture of any scene, for games without a ``text`` hook (``nomv show``, terminal play).

Clickable cells are grouped into rows by their centres; a row's cells are placed by their x
position (two characters a cell, so the half-offset rows of hex boards line up).  A cell shows
the label of the piece on it, else a letter for the piece's colour (with a legend), else the
cell's own label, else ".".  Each row starts with the id of its leftmost cell.
"""
from __future__ import annotations

from typing import Any

from .languages import localized

SYMBOLS = "XOABCDEFGHIJKLMNPQRSTUVWYZ"


def _centre(item: dict) -> tuple[float, float] | None:
    try:
        if item.get("shape") == "polygon":
            pts = item["points"]
            xs, ys = pts[0::2], pts[1::2]
            return sum(xs) / len(xs), sum(ys) / len(ys)
        return float(item["x"]), float(item["y"])
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


def _size(item: dict) -> float:
    if item.get("shape") == "polygon":
        pts = item["points"]
        return max(max(pts[0::2]) - min(pts[0::2]), max(pts[1::2]) - min(pts[1::2]))
    if item.get("shape") == "circle":
        return 2 * float(item.get("r", 0.5))
    return max(float(item.get("w", 1)), float(item.get("h", 1)))


def scene_text(scene: dict[str, Any], lang: str = "en") -> str | None:
    """The picture, or None when the scene has no clickable cells to arrange.  Texts the script
    gives in several languages are shown in ``lang``."""
    items = [i for i in scene.get("items", []) if isinstance(i, dict)]
    cells = []
    for item in items:
        if item.get("id") and item.get("shape") in ("polygon", "rect", "circle"):
            c = _centre(item)
            if c is not None:
                cells.append((item, c))
    if not cells:
        return None
    size = min(_size(item) for item, _ in cells) or 1.0
    # Pieces: shapes without an id whose centre lies within half a cell of a cell's centre.
    legend: dict[str, str] = {}
    on_cell: dict[int, str] = {}
    for item in items:
        if item.get("id") or item.get("shape") not in ("circle", "rect", "polygon"):
            continue
        c = _centre(item)
        if c is None:
            continue
        best = min(range(len(cells)), key=lambda k: (cells[k][1][0] - c[0]) ** 2 + (cells[k][1][1] - c[1]) ** 2)
        (bx, by) = cells[best][1]
        # Marks much smaller than a cell (an empty hole, a dot) are decoration, not pieces.
        if (bx - c[0]) ** 2 + (by - c[1]) ** 2 > (size / 2) ** 2 or not size * 0.45 <= _size(item) <= size * 0.99:
            continue
        label = localized(item.get("label"), lang).strip()
        if label:
            on_cell[best] = label[:2]
        else:
            fill = str(item.get("fill") or "?")
            if fill not in legend:
                legend[fill] = SYMBOLS[len(legend) % len(SYMBOLS)]
            on_cell[best] = legend[fill]
    rows: dict[float, list[int]] = {}
    for k, (_, (_x, y)) in enumerate(cells):
        key = next((r for r in rows if abs(r - y) < size * 0.3), None)
        rows.setdefault(y if key is None else key, []).append(k)
    xs = sorted({round(c[0], 3) for _, c in cells})
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b - a > 1e-6]
    unit = min(gaps) if gaps else 1.0
    x0 = xs[0]
    width = max(len(item["id"]) for item, _ in cells)
    lines = []
    for y in sorted(rows):
        row = sorted(rows[y], key=lambda k: cells[k][1][0])
        chars: dict[int, str] = {}
        for k in row:
            item, (x, _) = cells[k]
            col = round((x - x0) / unit * 2)
            own = localized(item.get("label"), lang).strip()[:2]
            chars[col] = on_cell.get(k) or own or "."
        line = [" "] * (max(chars) + 2)
        for col, text in chars.items():
            for j, ch in enumerate(text):
                if col + j < len(line):
                    line[col + j] = ch
        lines.append(f"{cells[row[0]][0]['id']:>{width}}  " + "".join(line).rstrip())
    if legend:
        lines.append("")
        lines.append(", ".join(f"{sym} = {fill}" for fill, sym in legend.items()))
    status = localized(scene.get("status"), lang)
    if status:
        lines.append(status)
    return "\n".join(lines)
