"""Scene well-formedness: the shapes, fields, colours and sizes the GUI can draw."""
from __future__ import annotations

import math
import re
from typing import Any

from ..languages import is_text
from ..play.drawing import NAMED

#: The colour names a scene may use (nomv/play/colours.json, which the window and the browser
#: draw with; "none" and "transparent" are no colour).
COLOUR_NAMES = tuple(NAMED)
SHAPES = {"polygon": ("points",), "line": ("points",), "circle": ("x", "y", "r"),
          "rect": ("x", "y", "w", "h"), "text": ("x", "y", "text")}
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


def colour_ok(c: Any) -> bool:
    return isinstance(c, str) and (bool(_HEX.match(c)) or c.lower() in COLOUR_NAMES)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _item_problem(item: Any) -> str | None:
    if not isinstance(item, dict):
        return f"is a {type(item).__name__}, not an item table like {{shape = \"circle\", x = 0, y = 0, r = 1}}"
    shape = item.get("shape")
    if shape not in SHAPES:
        return f"has shape {shape!r}; use one of {', '.join(SHAPES)}"
    for key in SHAPES[shape]:
        if key not in item:
            return f"({shape}) has no {key}"
    if shape in ("polygon", "line"):
        pts = item["points"]
        least = 6 if shape == "polygon" else 4
        if not isinstance(pts, list) or not all(_number(v) for v in pts):
            return f"({shape}): points must be a list of numbers {{x1, y1, x2, y2, ...}}"
        if len(pts) % 2 or len(pts) < least:
            return f"({shape}): points has {len(pts)} numbers; it needs pairs, at least {least}"
    else:
        for key in ("x", "y"):
            if not _number(item[key]):
                return f"({shape}): {key} is {item[key]!r}, not a number"
    for key in ("r", "w", "h", "size"):
        if key in item and (not _number(item[key]) or item[key] <= 0):
            return f"({shape}): {key} must be a positive number, got {item[key]!r}"
    if "width" in item and (not _number(item["width"]) or item["width"] < 0):
        return f"({shape}): width must be a number of 0 or more, got {item['width']!r}"
    if shape == "text" and not (is_text(item["text"]) or isinstance(item["text"], (int, float))):
        return "(text): text must be a string (or a table of languages such as {en = \"Red\", it = \"Rosso\"})"
    for key in ("fill", "stroke", "label_colour"):
        if key in item and not colour_ok(item[key]):
            return (f"({shape}): {key} {item[key]!r} is not a colour; use '#rrggbb', '#rrggbbaa' "
                    f"or one of {', '.join(COLOUR_NAMES)}")
    if "id" in item and (not isinstance(item["id"], str) or not item["id"]):
        return f"({shape}): id must be a non-empty string, got {item['id']!r}"
    if "layer" in item and not _number(item["layer"]):
        return f"({shape}): layer must be a number"
    if "label" in item and not (is_text(item["label"]) or isinstance(item["label"], (int, float))):
        return f"({shape}): label must be text (or a table of languages)"
    if "align" in item and item["align"] not in ("left", "centre", "center", "right"):
        return f"({shape}): align is {item['align']!r}; use left, centre or right"
    return None


def extent(item: dict) -> tuple[float, float, float, float]:
    shape = item["shape"]
    if shape in ("polygon", "line"):
        xs, ys = item["points"][0::2], item["points"][1::2]
        return min(xs), min(ys), max(xs), max(ys)
    x, y = item["x"], item["y"]
    if shape == "circle":
        r = item["r"]
        return x - r, y - r, x + r, y + r
    if shape == "rect":
        return x - item["w"] / 2, y - item["h"] / 2, x + item["w"] / 2, y + item["h"] / 2
    return x, y, x, y


def validate(scene: Any) -> tuple[list[tuple[str, str]], set[str]]:
    """Returns ([(code, message)], ids of the clickable items)."""
    problems: list[tuple[str, str]] = []
    ids: set[str] = set()
    if not isinstance(scene, dict):
        return [("E091", "scene must return a list of items")], ids
    items = scene.get("items") or []
    if isinstance(items, dict):
        return [("E091", "the scene's items must be a list (items 1, 2, 3, ... without gaps)")], ids
    for k, item in enumerate(items, start=1):
        problem = _item_problem(item)
        if problem:
            problems.append(("E091", f"scene item {k} {problem}"))
            continue
        if "id" in item:
            if item["id"] in ids:
                problems.append(("W093", f"two scene items have the id {item['id']!r}; a click on it is ambiguous"))
            ids.add(item["id"])
    status = scene.get("status")
    if status is not None and not is_text(status):
        problems.append(("E091", "the scene's status must be text, or a table of languages such as "
                                 "{en = \"Red to move\", it = \"Tocca al rosso\"}"))
    bounds = scene.get("bounds")
    if bounds is not None:
        if (not isinstance(bounds, list) or len(bounds) != 4 or not all(_number(v) for v in bounds)
                or bounds[2] <= bounds[0] or bounds[3] <= bounds[1]):
            problems.append(("E091", f"the scene's bounds must be {{x0, y0, x1, y1}} with x0 < x1 and y0 < y1, got {bounds!r}"))
        elif not any(code == "E091" for code, _ in problems):
            x0, y0, x1, y1 = bounds
            slack = 0.02 * max(x1 - x0, y1 - y0)
            for k, item in enumerate(items, start=1):
                ex0, ey0, ex1, ey1 = extent(item)
                if ex0 < x0 - slack or ey0 < y0 - slack or ex1 > x1 + slack or ey1 > y1 + slack:
                    problems.append(("W092", f"scene item {k} ({item['shape']}"
                                     f"{', id ' + repr(item['id']) if 'id' in item else ''}) reaches "
                                     f"({ex0:g}, {ey0:g})-({ex1:g}, {ey1:g}), outside the bounds "
                                     f"{{{x0:g}, {y0:g}, {x1:g}, {y1:g}}}"))
                    break
    return problems, ids
