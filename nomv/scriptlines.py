r"""Where something is written in a script's text: the line of a game table's field or option.

Errors found after a script ran (a malformed ``players`` table, say) come from data, which
knows no lines; these searches of the text find the author's own line for them.  The text is
searched with comments and string contents blanked, so a name in a comment is not found.

>>> Lines('return {\n  name = "x", -- players = 9\n  players = {names = 5},\n}').field("players")
3
"""
from __future__ import annotations

import re


def strip_lua(source: str) -> str:
    """The source with comments and string contents blanked (newlines kept), so that a search
    for names finds only code.  Quotes stay, so ``"x"`` becomes ``" "``."""
    out = []
    i, n = 0, len(source)

    def blank(text: str) -> str:
        return re.sub(r"[^\n]", " ", text)

    long_open = re.compile(r"\[(=*)\[")
    while i < n:
        c = source[i]
        if source.startswith("--", i):
            m = long_open.match(source, i + 2)
            if m:
                close = "]" + m.group(1) + "]"
                j = source.find(close, m.end())
                j = n if j < 0 else j + len(close)
            else:
                j = source.find("\n", i)
                j = n if j < 0 else j
            out.append(blank(source[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            j = min(j, n - 1)
            out.append(c + blank(source[i + 1:j]) + c)
            i = j + 1
        elif c == "[" and (m := long_open.match(source, i)):
            close = "]" + m.group(1) + "]"
            j = source.find(close, m.end())
            j = n if j < 0 else j + len(close)
            out.append(blank(source[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1



class Lines:
    """Finds the line where a field of the game table (or an option) is written."""

    def __init__(self, source: str):
        self.code = strip_lua(source)
        returns = [m.start() for m in re.finditer(r"^return\b", self.code, re.M)]
        self.return_line = line_of(self.code, returns[-1]) if returns else None

    def field(self, name: str, after: int | None = None) -> int | None:
        key = re.escape(name)
        patterns = (rf"^\s*{key}\s*=(?!=)", rf"^\s*\[\s*[\"']{key}[\"']\s*\]\s*=",
                    rf"[{{,]\s*{key}\s*=(?!=)")
        start = 0
        if after:
            start = sum(len(l) + 1 for l in self.code.split("\n")[:after - 1])
        for pattern in patterns:
            m = re.compile(pattern, re.M).search(self.code, start)
            if m:
                return line_of(self.code, m.start() + len(m.group(0)) - len(m.group(0).lstrip()))
        return None

    @staticmethod
    def text_of(source: str, line: int, most: int = 60) -> str:
        """The code on a line, without its comment and blanks at either end, cut at ``most``
        characters (for quoting the author's own line in a message)."""
        lines = source.split("\n")
        if not 1 <= line <= len(lines):
            return ""
        stripped = strip_lua(lines[line - 1])
        cut = stripped.find("--")
        code = lines[line - 1][:cut if cut >= 0 else None].strip()
        return code if len(code) <= most else code[:most - 3] + "..."

    def quoted_key(self, name: str, source: str, after: int | None = None) -> int | None:
        """The line of ``["some name"] =`` (string contents are blanked in self.code)."""
        lines = source.split("\n")
        for i in range((after or 1) - 1, len(lines)):
            if re.search(rf"\[\s*[\"']{re.escape(name)}[\"']\s*\]\s*=", lines[i]):
                return i + 1
        return None


def declared_names(code: str) -> set[str]:
    """Names a script declares itself (locals, parameters, loop variables), in its code with
    comments and strings blanked (:func:`strip_lua`): those shadow the globals."""
    names: set[str] = set()
    for m in re.finditer(r"\blocal\s+function\s+([A-Za-z_]\w*)", code):
        names.add(m.group(1))
    for m in re.finditer(r"\blocal\s+([A-Za-z_][\w\s,]*)", code):
        if not m.group(1).startswith("function"):
            names.update(n.strip() for n in m.group(1).split("=")[0].split(",") if n.strip())
    for m in re.finditer(r"\bfunction\b[^(]*\(([^)]*)\)", code):
        names.update(n.strip() for n in m.group(1).split(",") if n.strip() and n.strip() != "...")
    for m in re.finditer(r"\bfor\s+([\w\s,]+?)\s+(?:=|in)\b", code):
        names.update(n.strip() for n in m.group(1).split(","))
    return names


def suggest_declared(source: str, name: str) -> str:
    """" (did you mean 'EMPTY'?)" when the main chunk declares a local close to ``name`` (at the
    start of a line: in scope for every function below it, though a function that never used it
    did not capture it, so the host, which sees the locals of the running code, cannot offer
    it), else ""."""
    import difflib
    code = strip_lua(source)
    names = set(re.findall(r"^local\s+function\s+([A-Za-z_]\w*)", code, re.M))
    for m in re.finditer(r"^local\s+([A-Za-z_][\w \t,]*?)\s*(?:=|$)", code, re.M):
        names.update(n.strip() for n in m.group(1).split(","))
    candidates = sorted(n for n in names if n.isidentifier() and n != name)
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""
