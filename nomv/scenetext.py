"""A text picture of any scene, for games without a ``text`` hook (``nomv show``, terminal play).

Clickable cells are grouped into rows by their centres; a row's cells are placed by their x
position (two characters a cell, so the half-offset rows of hex boards line up).  A cell shows
the label of the piece on it, else a letter for the piece's colour (with a legend naming the
player of that colour), else the cell's own label, else ".".  Two kinds of piece never print
alike: a label that two colours share is upper case for the first and lower case for the other.

A row whose cells are named like a chessboard's (letters, then one number for the whole row:
a8 b8 c8) is labelled with its rank, and the files' letters are printed under the last row;
other rows are labelled with the id of their leftmost cell.  Clickable items that are not board
cells (a "pass" or "roll" button: an id without digits among cells whose ids have them, or a
label longer than a cell can show) are listed under the board as ``[pass]``.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from .languages import localized
from .play.drawing import nearest_name

SYMBOLS = "XOABCDEFGHIJKLMNPQRSTUVWYZ"
_CHESS_ID = re.compile(r"^([A-Za-z]+)(\d+)$")


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


def _colour_key(colour: Any) -> str:
    return str(colour or "").strip().lower()


def colour_name(colour: str) -> str:
    """The plain name nearest to a colour written #rgb or #rrggbb (anything else as written),
    for the legend of a piece that belongs to no player (an Amazons arrow, a neutral stone):
    "A = brown" reads better than "A = #b5651d" (nomv/play/colours.json names the colours).

    >>> colour_name("#b5651d"), colour_name("#f4f4f4"), colour_name("red")
    ('brown', 'white', 'red')
    """
    return nearest_name(colour)


def _is_button(item: dict, lang: str, cells_have_digits: bool) -> bool:
    """A clickable item that is not a board cell: a button such as "pass" or "roll"."""
    label = localized(item.get("label"), lang).strip()
    return len(label) > 2 or (cells_have_digits and not any(ch.isdigit() for ch in str(item["id"])))


def scene_text(scene: dict[str, Any], lang: str = "en",
               players: Sequence[tuple[str, str]] = ()) -> str | None:
    """The picture, or None when the scene has no clickable cells to arrange.  Texts the script
    gives in several languages are shown in ``lang``.  ``players`` are the game's (name, colour)
    pairs: a legend names the player whose colour a piece has rather than the colour."""
    items = [i for i in scene.get("items", []) if isinstance(i, dict)]
    clickable = []
    for item in items:
        if item.get("id") and item.get("shape") in ("polygon", "rect", "circle"):
            c = _centre(item)
            if c is not None:
                clickable.append((item, c))
    with_digits = sum(any(ch.isdigit() for ch in str(item["id"])) for item, _ in clickable)
    cells_have_digits = with_digits * 2 > len(clickable)
    buttons = [item for item, _ in clickable if _is_button(item, lang, cells_have_digits)]
    cells = [(item, c) for item, c in clickable if not any(item is b for b in buttons)]
    if not cells:
        return None
    size = min(_size(item) for item, _ in cells) or 1.0
    # Pieces: shapes without an id whose centre lies within half a cell of a cell's centre.
    pieces: dict[int, tuple[str, str]] = {}      # cell -> (label, fill key)
    kinds: list[tuple[str, str]] = []            # (label, fill key), in the order met
    fills: dict[str, str] = {}                   # fill key -> the fill as the script wrote it
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
        kind = (localized(item.get("label"), lang).strip()[:2], _colour_key(item.get("fill") or "?"))
        fills.setdefault(kind[1], str(item.get("fill") or "?"))
        pieces[best] = kind
        if kind not in kinds:
            kinds.append(kind)
    owners = {_colour_key(colour): name for name, colour in players if colour}
    seats = [_colour_key(colour) for _, colour in players]
    seat = {fill: p for p, fill in enumerate(seats) if fill}
    # The players' pieces first, in the order of the players (player 1 is X, player 2 O), then
    # the others: an order that does not depend on where the pieces stand.
    kinds.sort(key=lambda kind: (seat.get(kind[1], len(players)), kind[1], kind[0] != "", kind[0]))
    symbol, legend = _symbols(kinds, seats)

    def owner(fill: str) -> str:
        return owners.get(fill) or colour_name(fills.get(fill, fill))

    rows: dict[float, list[int]] = {}
    for k, (_, (_x, y)) in enumerate(cells):
        key = next((r for r in rows if abs(r - y) < size * 0.3), None)
        rows.setdefault(y if key is None else key, []).append(k)
    xs = sorted({round(c[0], 3) for _, c in cells})
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b - a > 1e-6]
    unit = min(gaps) if gaps else 1.0
    x0 = xs[0]
    ordered = [sorted(rows[y], key=lambda k: cells[k][1][0]) for y in sorted(rows)]
    names = [_row_name(row, cells) for row in ordered]
    ranked = all(n is not None for n in names)
    heads = [n if ranked and n is not None else str(cells[row[0]][0]["id"]) for n, row in zip(names, ordered)]
    width = max(len(h) for h in heads)

    def column(k: int) -> int:
        return round((cells[k][1][0] - x0) / unit * 2)

    lines = []
    for head, row in zip(heads, ordered):
        chars: dict[int, str] = {}
        for k in row:
            own = localized(cells[k][0].get("label"), lang).strip()[:2]
            chars[column(k)] = symbol[pieces[k]] if k in pieces else own or "."
        lines.append(f"{head:>{width}}  " + _place(chars))
    if ranked:
        # The files' letters under the last row, where each is under its own cell.
        files = {column(k): _CHESS_ID.match(str(cells[k][0]["id"])).group(1)   # type: ignore[union-attr]
                 for k in ordered[-1]}
        lines.append(" " * width + "  " + _place(files))
    if buttons:
        lines.append("")
        lines.append("  ".join(f"[{localized(b.get('label'), lang).strip() or b['id']}]" for b in buttons))
    if legend:
        # A label two kinds share is named with its owner ("A = White A", "a = Black A"); a
        # label of one kind only is its own symbol ("K = Black").
        shared = {label for label, _ in kinds if label and sum(1 for other, _ in kinds if other == label) > 1}
        lines.append("")
        lines.append(", ".join(f"{sym} = {owner(fill)}" + (f" {label}" if label in shared or (label and label != sym) else "")
                               for sym, (label, fill) in legend))
    status = localized(scene.get("status"), lang)
    if status:
        lines.append(status)
    return "\n".join(lines)


def _symbols(kinds: list[tuple[str, str]], seats: Sequence[str] = ()
             ) -> tuple[dict[tuple[str, str], str], list[tuple[str, tuple[str, str]]]]:
    """What each kind of piece (label, fill) prints as, and the legend, which lists every symbol
    drawn.  A player's pieces without a label print as the player's own letter, whatever else is
    on the board: player 1 X, player 2 O, then A, B... (``seats``: the players' fills, in order),
    and once one of them is drawn the legend names every player in that order, so that it reads
    the same all game long.  Another piece without a label gets a letter of its own; a label
    shown by one fill only stands for itself; a label two fills share is upper case for the
    first, lower case for the second, and a letter of its own beyond that.  No two kinds print
    alike.  (A label that is a number, a count, is not in the legend.)"""
    by_label: dict[str, list[str]] = {}
    for label, fill in kinds:
        if label:
            by_label.setdefault(label, []).append(fill)
    plain_fills = {fill for label, fill in kinds if not label}
    players_drawn = any(fill in plain_fills for fill in seats if fill)
    # Each player's letter, kept for them even when none of their pieces is on the board.
    reserved = {fill: SYMBOLS[p] for p, fill in enumerate(seats) if fill and p < len(SYMBOLS)
                and players_drawn}
    symbol: dict[tuple[str, str], str] = {}
    legend: list[tuple[str, tuple[str, str]]] = [(letter, ("", fill)) for fill, letter in reserved.items()]
    taken = set(reserved.values())
    for label, fills in by_label.items():
        if len(fills) == 1 and label not in taken:
            taken.add(label)
    spare = (s for s in SYMBOLS + SYMBOLS.lower() + "0123456789#@%&*+=" if s not in taken)
    letters: dict[str, str] = dict(reserved)   # fill -> the letter of its unlabelled pieces
    for kind in kinds:
        label, fill = kind
        if label and len(by_label[label]) == 1 and (label in taken and symbol.get(kind) is None
                                                    and label not in reserved.values()):
            symbol[kind] = label
            if not label.isdigit():
                legend.append((label, kind))
            continue
        if label:
            n = by_label[label].index(fill)
            variants = [label.upper(), label.lower()]
            text = (variants[n] if len(by_label[label]) > 1 and n < 2 and variants[0] != variants[1]
                    and variants[n] not in taken else None)
            if text is None:
                text = next(spare, "?")
                while text in taken:
                    text = next(spare, "?")
            taken.add(text)
            symbol[kind] = text
            legend.append((text, kind))
            continue
        if fill not in letters:
            text = next(spare, "?")
            while text in taken:
                text = next(spare, "?")
            letters[fill] = text
            taken.add(text)
            legend.append((text, kind))
        symbol[kind] = letters[fill]
    return symbol, legend


def _row_name(row: list[int], cells: list[tuple[dict, tuple[float, float]]]) -> str | None:
    """The rank of a row named like a chessboard's (a8 b8 c8: "8"), else None."""
    parts = [_CHESS_ID.match(str(cells[k][0]["id"])) for k in row]
    if not all(parts):
        return None
    numbers = {m.group(2) for m in parts if m}
    letters = [m.group(1) for m in parts if m]
    return numbers.pop() if len(numbers) == 1 and len(set(letters)) == len(letters) else None


def _place(chars: dict[int, str]) -> str:
    """Texts at their columns, on one line."""
    if not chars:
        return ""
    line = [" "] * (max(chars) + 3)
    for col, text in chars.items():
        for j, ch in enumerate(text):
            if col + j < len(line):
                line[col + j] = ch
    return "".join(line).rstrip()
