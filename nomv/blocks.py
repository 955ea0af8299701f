r"""Which block a syntax error leaves open: a missing ``end`` told from the script's indentation.

Lua reads a missing ``end`` where it can no longer make sense of the text, often far from the
mistake: an ``if`` without its ``end`` lets the next ``end`` close it, the ``end`` after that
closes the enclosing function, and Lua stops at the ``,`` after the function in the game table
("unexpected symbol near ','"), or at the end of the file naming the outermost block.  Code is
indented by its blocks, so the first ``end`` that lines up with an outer block rather than the
block it closes shows which block lost its ``end``.

>>> src = "local function f(b)\n  for i = 1, 3 do\n    if b[i] then\n      return i\n  end\nend\n"
>>> missing_end(src, 7)
"the 'if' on line 3 seems to have no 'end' (the 'end' on line 5 lines up with the 'for' on line 2)"
"""
from __future__ import annotations

import re
from typing import NamedTuple

from .scriptlines import strip_lua

#: Keywords that open a block closed by ``end`` (``do`` after ``for`` or ``while`` belongs to them).
_TOKENS = re.compile(r"\b(function|if|for|while|do|repeat|until|end)\b|([(){}\[\]])")
_CLOSERS = {")": "(", "}": "{", "]": "["}


class _Open(NamedTuple):
    kind: str      # function, if, for, while, do, repeat, or a bracket
    line: int
    indent: int    # the indentation of the line it is on


def missing_end(source: str, error_line: int, message: str = "") -> str | None:
    """Words naming the block that seems to lack its ``end``, from the text up to
    ``error_line`` (where Lua stopped), or None when the indentation tells nothing.  ``message``
    is Lua's: a block it already names is not named again, and for "unexpected symbol near ','"
    (a table's or a call's comma met inside a block) the block still open there is named."""
    code = strip_lua(source)
    lines = code.split("\n")
    indent = [len(line) - len(line.lstrip(" \t")) for line in lines]
    stack: list[_Open] = []
    loop_wants_do = 0
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    line_no = 1
    for m in _TOKENS.finditer(code):
        while line_no < len(offsets) - 1 and m.start() >= offsets[line_no]:
            line_no += 1
        if line_no > error_line:
            break
        word, bracket = m.group(1), m.group(2)
        here = _Open(word or bracket, line_no, indent[line_no - 1])
        if bracket:
            if bracket in "({[":
                stack.append(here)
            elif stack and stack[-1].kind == _CLOSERS[bracket]:
                stack.pop()
            continue
        if word in ("for", "while"):
            loop_wants_do += 1
            stack.append(here)
        elif word == "do":
            if loop_wants_do:
                loop_wants_do -= 1
            else:
                stack.append(here)
        elif word in ("function", "if", "repeat"):
            stack.append(here)
        elif word in ("end", "until"):
            if not stack or stack[-1].kind in "({[":
                continue
            opened = stack.pop()
            first_on_line = lines[line_no - 1].lstrip().startswith(word)
            if first_on_line and opened.line != line_no and here.indent < opened.indent:
                outer = next((o for o in reversed(stack) if o.indent == here.indent and o.kind not in "({["), None)
                if _already_named(message, opened):
                    return None
                where = f" (the '{word}' on line {line_no} lines up with the '{outer.kind}' on line {outer.line})" \
                    if outer else f" (the '{word}' on line {line_no} is indented less than it)"
                return f"the '{opened.kind}' on line {opened.line} seems to have no '{_closer(opened.kind)}'{where}"
    if re.match(r"unexpected symbol near '[,)}]'", message):
        blocks = [o for o in stack if o.kind not in "({["]
        if blocks and stack[-1].kind not in "({[":
            b = blocks[-1]
            return f"the '{b.kind}' on line {b.line} is still open here: is its '{_closer(b.kind)}' missing?"
    return None


def _closer(kind: str) -> str:
    return "until" if kind == "repeat" else "end"


def _already_named(message: str, opened: _Open) -> bool:
    return f"to close '{opened.kind}' at line {opened.line})" in message


def explain(source: str, line: int | None, message: str) -> str:
    """Lua's syntax error message, with the block a missing ``end`` left open when that can be
    told."""
    if not line or not source:
        return message
    try:
        hint = missing_end(source, line, message)
    except Exception:   # noqa: BLE001 - a hint must never hide Lua's own message
        return message
    return f"{message}: {hint}" if hint else message
