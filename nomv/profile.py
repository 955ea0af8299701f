"""``nomv profile``: where a script's random games spend their time, and what to do about it.

The Lua side (``nomv/lua/host/profile.lua``) plays random games of the script for a few
seconds while sampling the stack (LuaJIT's own sampling profiler, ``jit.profile``, so that
compiled code stays compiled; under Lua 5.4 a count hook that samples once a millisecond of CPU
time has passed), then plays a few more plies in the interpreter under a call and a line hook,
counting how often each line runs, what it allocates and which function calls which, and
surveys the positions.  This module turns those raw figures into:

* the share of the time in each hook (``setup``, ``moves``, ``steps``, ``play``, ``result``,
  ``random_move``, ``notation``, ...) and in nomv's own work (``nomv``: the playout loop, its
  checks, a move drawn from ``moves`` or ``steps``); under LuaJIT the garbage collector apart;
* the hottest lines of the script with their share (a sample counts for the innermost line of
  the script on the stack, so a line that calls the library, ``nomv.copy``, includes that call);
* the tables allocated per ply, at the lines that make them;
* advice for the patterns that cost most, each pointing at the section of
  ``docs/script-api.md`` that shows the fix.

Time goes to a hook when the hook is the innermost function of the script that nomv called:
``moves`` listed through ``nomv.legal(s)`` inside ``result`` is time in ``moves``, while a
``result`` that calls the script's own listing function spends that time in ``result``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import catalog
from .errors import NomvError
from .game import Game, seed_words
from .scriptlines import strip_lua

#: The hooks random games call, in the order the report lists them.
HOOKS = ("setup", "moves", "steps", "play", "result", "random_move", "notation")
#: nomv's own share of the time: the playout loop, its checks, a move drawn from the list.
NOMV = "nomv"
#: The page the advice points at.
DOC = "docs/script-api.md"

#: Calls of the library that make a new table each time (a new list, a copy).
_TABLE_MAKERS = re.compile(
    r"nomv\s*\.\s*(?:copy|copy_list|shallow|sorted_keys|split)\s*\(|"
    r"[:.]\s*(?:ray|line|lines|flood|groups|copy|frontier|bounds)\s*\(|unionfind\s*\.\s*new\s*\(")
#: Grid methods that build a new list where a field of the grid has it already.
_GRID_LISTS = {"ray": "g.rays[d][i]"}
#: Building a text: concatenation (not `...`), format, tostring, concat.
_STRINGS = re.compile(r"(?<!\.)\.\.(?!\.)|\bformat\s*\(|\btostring\s*\(|\bconcat\s*\(")
#: What keeps LuaJIT from compiling a line, or slows the compiled code (script-api.md).
_UNCOMPILED = {"pairs/next": re.compile(r"\b(?:pairs|next)\s*\("), "unpack": re.compile(r"\bunpack\s*\("),
               "a new closure": re.compile(r"\bfunction\b"), "building a string": _STRINGS,
               "select": re.compile(r"\bselect\s*\(")}


@dataclass
class Advice:
    """What to change, and the section of the docs that shows how."""

    text: str
    doc: str
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "doc": self.doc}
        if self.line is not None:
            out["line"] = self.line
        return out


@dataclass
class LineShare:
    line: int
    share: float
    text: str
    hook: str | None = None
    runs_per_ply: float | None = None      # from the counting pass
    tables_per_ply: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "share": round(self.share, 4), "text": self.text}
        if self.hook:
            out["hook"] = self.hook
        if self.runs_per_ply is not None:
            out["runs_per_ply"] = round(self.runs_per_ply, 2)
        if self.tables_per_ply is not None:
            out["tables_per_ply"] = round(self.tables_per_ply, 2)
        return out


@dataclass
class Profile:
    """One profile of a script's random games (see the module's docstring)."""

    game: str
    title: str
    path: str
    runtime: str
    sampler: str                        # "jit.profile" or "hook"
    games: int
    plies: int
    seconds: float                      # CPU time of the games sampled
    samples: float                      # samples taken (jit.profile) or milliseconds (hook)
    hooks: dict[str, float]
    gc: float | None                    # LuaJIT: the collector's share; Lua 5.4: in the hooks
    interpreted: float | None           # LuaJIT: the share of the script's time not compiled
    lines: list[LineShare]
    tables_per_ply: float | None = None
    kb_per_ply: float | None = None     # allocated by the script's lines (library calls included)
    nomv_kb_per_ply: float | None = None
    moves_per_ply: float | None = None
    allocating: list[LineShare] = field(default_factory=list)
    advice: list[Advice] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def dominant(self, at_least: float = 0.5) -> tuple[str, float] | None:
        """The hook with at least this share of the time, if one has."""
        hooks = [(name, share) for name, share in self.hooks.items() if name != NOMV]
        if not hooks:
            return None
        name, share = max(hooks, key=lambda item: item[1])
        return (name, share) if share >= at_least else None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "path": self.path, "runtime": self.runtime, "sampler": self.sampler,
            "games": self.games, "plies": self.plies, "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1), "samples": round(self.samples, 1),
            "hooks": {k: round(v, 4) for k, v in self.hooks.items()},
            "gc": None if self.gc is None else round(self.gc, 4),
            "interpreted": None if self.interpreted is None else round(self.interpreted, 4),
            "lines": [line.to_json() for line in self.lines],
            "tables_per_ply": _rounded(self.tables_per_ply), "kb_per_ply": _rounded(self.kb_per_ply),
            "nomv_kb_per_ply": _rounded(self.nomv_kb_per_ply), "moves_per_ply": _rounded(self.moves_per_ply),
            "allocating": [line.to_json() for line in self.allocating],
            "advice": [a.to_json() for a in self.advice],
        }

    def format(self) -> str:
        rt = "LuaJIT" if self.runtime == "jit" else "Lua 5.4"
        how = "jit.profile" if self.sampler == "jit.profile" else "a count hook, once a millisecond"
        out = [f"{self.title} on {rt}: {self.games:,} random games in {self.seconds:.1f} s of CPU "
               f"({self.games_per_second:,.0f} games/s while sampled, {self.plies / max(self.games, 1):.1f} "
               f"plies a game); stacks sampled by {how}", "", "Time by hook"]
        named = sorted(self.hooks.items(), key=lambda item: -item[1])
        width = max([len(n) for n, _ in named] + [len("garbage collection")])
        for name, share in named:
            note = "  (the playout loop, its checks, a move drawn from the list)" if name == NOMV else ""
            out.append(f"  {name:<{width}} {100 * share:5.1f}%{note}")
        if self.gc is not None:
            out.append(f"  {'garbage collection':<{width}} {100 * self.gc:5.1f}%")
        if self.interpreted is not None and self.interpreted >= 0.05:
            out.append(f"  ({100 * self.interpreted:.0f}% of the script's time ran in LuaJIT's interpreter, "
                       "not compiled)")
        if self.lines:
            out += ["", "Hottest lines (a line's share includes the library calls it makes)"]
            for ln in self.lines:
                extra = []
                if ln.runs_per_ply is not None:
                    extra.append(f"runs {_amount(ln.runs_per_ply)} a ply")
                if ln.tables_per_ply:
                    extra.append(f"{_amount(ln.tables_per_ply)} tables a ply")
                tail = f"  [{', '.join(extra)}]" if extra else ""
                out.append(f"  {100 * ln.share:5.1f}%  line {ln.line:<4} {_clip(ln.text, 60)}{tail}")
        if self.tables_per_ply is not None:
            out += ["", f"Allocated per ply: {_amount(self.tables_per_ply)} tables, "
                        f"{_amount(self.kb_per_ply or 0)} KB at the script's lines (nomv itself: "
                        f"{_amount(self.nomv_kb_per_ply or 0)} KB)"
                        + (f"; {_amount(self.moves_per_ply)} legal moves a ply" if self.moves_per_ply else "")]
            for ln in self.allocating:
                out.append(f"  line {ln.line:<4} {_amount(ln.tables_per_ply or 0)} tables a ply  {_clip(ln.text, 60)}")
        out += ["", "Advice" if self.advice else "Advice: nothing stands out"]
        doc_path = str(catalog.doc("script-api.md"))
        for k, a in enumerate(self.advice, start=1):
            out.append(f"  {k}. {a.text}")
            out.append(f"     see {doc_path}{a.doc[len(DOC):]}")
        return "\n".join(out)


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _amount(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}" if x >= 1 else f"{x:.2f}"


def _clip(text: str, width: int) -> str:
    text = text.strip()
    return text if len(text) <= width else text[:width - 3] + "..."


# -- running ------------------------------------------------------------------------------------

def profile(game: Game, options: dict[str, Any] | None = None, variant: str | None = None,
            seconds: float = 3.0, seed: int = 0, max_plies: int = 100_000, text: bool = False,
            full: bool = True) -> Profile:
    """Profiles random games of ``game`` for about ``seconds`` of CPU time (then, with ``full``,
    a shorter pass that counts lines, calls and allocations, and a survey of the positions)."""
    values = game.resolve_options(options, variant, text)
    raw = game.engine.profile(values, seed_words(seed), seconds, int(values["players"]), max_plies, full)
    return analyse(raw, game)


# -- reading the raw figures --------------------------------------------------------------------

@dataclass
class _Script:
    """What the analysis needs to know of the script: its lines, its functions and hooks."""

    path: str
    lines: list[str]          # the source's lines
    code: list[str]           # the same with comments and strings blanked
    ranges: list[tuple[int, int]]
    hook_of_function: dict[int, str]
    hook_lines: dict[str, int]
    tails: dict[int, dict[int, float]] = field(default_factory=dict)   # function -> tail-calling lines

    def function_at(self, line: int) -> int | None:
        """The first line of the innermost function holding `line`."""
        best = None
        for first, last in self.ranges:
            if first <= line <= last and (best is None or first > best):
                best = first
        return best

    def hook_named(self, first: int | None) -> str:
        """The hook a function is, or the hook that tail-called it (a tail call leaves no frame
        of the caller on the stack); else "function at line N"."""
        seen = set()
        f = first
        while f is not None and f not in seen:
            if f in self.hook_of_function:
                return self.hook_of_function[f]
            seen.add(f)
            by = self.tails.get(f)
            f = self.function_at(int(max(by, key=lambda l: by[l]))) if by else None
        return f"function at line {first}" if first else "the script"

    def text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def code_at(self, line: int) -> str:
        return self.code[line - 1] if 0 < line <= len(self.code) else ""


def _kind(chunk: str, path: str) -> str:
    if chunk == path:
        return "script"
    if chunk.startswith("nomv/host"):
        return "host"
    if chunk.startswith("[") or chunk in ("?", "C"):
        return "C"
    return "library"


def _frames(stack: str) -> list[tuple[str, int]]:
    out = []
    for frame in stack.split("\n"):
        if not frame:
            continue
        chunk, _, line = frame.rpartition(":")
        try:
            out.append((chunk, int(line)))
        except ValueError:
            out.append((frame, -1))
    return out


def _hook_frame(frames: list[tuple[str, int]], kinds: list[str]) -> int | None:
    """The innermost frame of the script that nomv called (its caller, C functions aside, is the
    host): the hook being run."""
    found = None
    for i, kind in enumerate(kinds):
        if kind != "script":
            continue
        j = i - 1
        while j >= 0 and kinds[j] == "C":
            j -= 1
        if j < 0 or kinds[j] == "host":
            found = i
    return found


def analyse(raw: dict[str, Any], game: Game) -> Profile:
    """The report from the raw figures of ``Engine.profile``."""
    path = game.path
    source = game.source
    code = strip_lua(source).split("\n")
    hook_lines = {k: int(v) for k, v in (game.engine.description.get("hook_lines") or {}).items()}
    ranges = [(int(a), int(b)) for a, b in raw.get("functions", [])]
    hook_of_function: dict[int, str] = {}
    for name in sorted(hook_lines, key=lambda n: (HOOKS.index(n) if n in HOOKS else len(HOOKS), n)):
        hook_of_function.setdefault(hook_lines[name], name)
    script = _Script(path, source.split("\n"), code, ranges, hook_of_function, hook_lines,
                     {int(f): {int(l): n for l, n in by} for f, by in (raw.get("counted") or {}).get("tails", [])})

    total = sum(float(w) for _, w in raw["samples"]) or 1.0
    hooks: dict[str, float] = {h: 0.0 for h in HOOKS if h in hook_lines}
    hooks[NOMV] = 0.0
    line_share: dict[int, float] = {}
    line_hook: dict[int, str] = {}
    inclusive: dict[int, float] = {}
    gc = 0.0
    script_time, interpreted = 0.0, 0.0
    for key, weight in raw["samples"]:
        weight = float(weight)
        vm, _, stack = key.partition("\t")
        if vm == "G":
            gc += weight
            continue
        frames = _frames(stack)
        kinds = [_kind(chunk, path) for chunk, _ in frames]
        h = _hook_frame(frames, kinds)
        if h is None:
            hooks[NOMV] += weight
        else:
            name = script.hook_named(script.function_at(frames[h][1]))
            hooks[name] = hooks.get(name, 0.0) + weight
        inner = next((i for i in range(len(frames) - 1, -1, -1) if kinds[i] == "script"), None)
        if inner is not None:
            line = frames[inner][1]
            line_share[line] = line_share.get(line, 0.0) + weight
            if h is not None:
                line_hook.setdefault(line, script.hook_named(script.function_at(frames[h][1])))
            script_time += weight
            if vm == "I":
                interpreted += weight
        for line in {frames[i][1] for i in range(len(frames)) if kinds[i] == "script"}:
            inclusive[line] = inclusive.get(line, 0.0) + weight
    jit = raw.get("sampler") == "jit.profile"
    prof = Profile(
        game=game.name, title=game.title, path=path, runtime=game.runtime, sampler=raw.get("sampler", "?"),
        games=int(raw["games"]), plies=int(raw["plies"]), seconds=float(raw["seconds"]), samples=total,
        hooks={k: v / total for k, v in hooks.items()}, gc=gc / total if jit else None,
        interpreted=(interpreted / script_time if script_time else 0.0) if jit else None, lines=[])
    hottest = sorted(line_share.items(), key=lambda item: -item[1])[:10]
    prof.lines = [LineShare(line, share / total, script.text(line), line_hook.get(line) or None)
                  for line, share in hottest]
    counted = raw.get("counted")
    if counted and counted.get("plies"):
        _allocations(prof, counted, script)
    survey = raw.get("survey") or {}
    if survey.get("plies"):
        prof.moves_per_ply = survey["moves"] / survey["plies"]
    prof.advice = advise(prof, raw, script, game, {k: v / total for k, v in inclusive.items()})
    return prof


def _tables_at(script: _Script, line: int) -> int:
    """How many tables one run of a line makes when it allocates: its constructors, else one
    for a call of the library that makes a table (nomv.copy, g:ray ...), else none (a longer
    list, a text, a closure)."""
    code = script.code_at(line)
    return code.count("{") or (1 if _TABLE_MAKERS.search(code) else 0)


def _allocations(prof: Profile, counted: dict[str, Any], script: _Script) -> None:
    plies = counted["plies"]
    hits = {int(k): v for k, v in counted["hits"]}
    allocs = {k: v for k, v in counted["allocs"]}
    bytes_ = {k: v for k, v in counted["bytes"]}
    tables: dict[int, float] = {}
    for owner, n in allocs.items():
        if owner == "host":
            continue
        line = int(owner)
        made = n * _tables_at(script, line)
        if made:
            tables[line] = made / plies
    prof.tables_per_ply = sum(tables.values())
    prof.kb_per_ply = sum(v for k, v in bytes_.items() if k != "host") / 1024 / plies
    prof.nomv_kb_per_ply = bytes_.get("host", 0) / 1024 / plies
    for ln in prof.lines:
        ln.runs_per_ply = hits.get(ln.line, 0) / plies
        ln.tables_per_ply = tables.get(ln.line)
    prof.allocating = [LineShare(line, 0.0, script.text(line), tables_per_ply=per_ply)
                       for line, per_ply in sorted(tables.items(), key=lambda item: -item[1])[:5]
                       if per_ply >= 0.05]


# -- advice ---------------------------------------------------------------------------------------

def _anchor(section: str) -> str:
    return f"{DOC}#{section}"


def _named_calls(rows: list[Any]) -> dict[Any, dict[Any, float]]:
    out: dict[Any, dict[Any, float]] = {}
    for key, by in rows:
        out[key] = {k: v for k, v in by}
    return out


def advise(prof: Profile, raw: dict[str, Any], script: _Script, game: Game,
           inclusive: dict[int, float]) -> list[Advice]:
    """The patterns that cost most in this profile, most costly first."""
    found: list[tuple[float, Advice]] = []
    counted = raw.get("counted") or {}
    plies = counted.get("plies") or 0
    calls = _named_calls(counted.get("calls", []))
    callers = _named_calls(counted.get("callers", []))
    library = _named_calls(counted.get("library", []))
    hooks = prof.hooks
    moves_at, result_at = script.hook_lines.get("moves"), script.hook_lines.get("result")
    names = game.engine.description.get("hooks") or []
    result_share = hooks.get("result", 0.0)

    # 1. result() does the work of moves() again (its own listing, or the helper moves uses).
    if plies and moves_at and result_at and result_share >= 0.1:
        listing = {moves_at} | {f for f, by in calls.items() if by.get(moves_at)}
        again = [(f, by.get(result_at, 0)) for f, by in calls.items() if f in listing]
        again = [(f, n) for f, n in again if n / plies >= 0.5]
        if again:
            # The function result() calls itself (moves_of), rather than one it reaches through it.
            result_end = _last_line(script, result_at)
            def from_result(f: int) -> float:
                return sum(n for l, n in callers.get(f, {}).items() if result_at <= int(l) <= result_end)
            f, n = max(again, key=lambda item: (from_result(item[0]) > 0, item[1]))
            where = [int(l) for l in sorted(callers.get(f, {}), key=lambda l: -callers[f][l])
                     if result_at <= int(l) <= result_end]
            line = where[0] if where else None
            what = "moves() itself" if f == moves_at else f"{_function_name(script, f)}, which moves() uses too"
            found.append((result_share, Advice(
                f"result() takes {_pct(result_share)} of the time and calls {what}, {_amount(n / plies)} "
                f"times a ply{f' (at line {line})' if line else ''}: it lists the moves again.  Ask "
                "nomv.legal(s) (the list the random move is drawn from, made once a ply) or "
                "nomv.has_move(s) instead.", _anchor("ask-for-the-moves-once-a-ply"), line)))

    # 1b. result() asks for the list every ply although random_move needs none.
    moves_share = hooks.get("moves", 0.0)
    if plies and moves_at and result_at and "random_move" in names and moves_share >= 0.3:
        listed = calls.get(moves_at, {}).get("host", 0) / plies
        result_end = _last_line(script, result_at)
        asks = [k for k in range(result_at, result_end + 1)
                if re.search(r"nomv\s*\.\s*(?:legal|has_move)\s*\(", script.code_at(k))]
        if listed >= 0.5 and asks:
            found.append((moves_share, Advice(
                f"moves() lists every move at every ply ({_amount(listed)} times a ply, {_pct(moves_share)} of the time) "
                f"although random_move draws a move without the list: result() asks for it (line {asks[0]}).  "
                "Ask only whether the player to move has a move, stopping at the first.",
                _anchor("ask-for-the-moves-once-a-ply"), asks[0])))

    # 2. Lists built only to be counted: #f(...), or a local list used only for its length.
    for line, callee in _counted_lists(script):
        share = inclusive.get(line, 0.0)
        if share >= 0.05:
            found.append((share, Advice(
                f"line {line} builds a list only to count it ({callee}): {_pct(share)} of the time "
                "runs under that line.  Count instead, or stop at the first (\"does this cell flip "
                "anything?\"), without making the list.", _anchor("count-instead-of-collecting"), line)))

    # 3. steps() without most_next_steps.
    survey = raw.get("survey") or {}
    lengths = {int(k): n for k, n in survey.get("lengths", [])}
    steps_share = hooks.get("steps", 0.0) + hooks.get(NOMV, 0.0)
    if "steps" in names and not game.engine.description.get("most_next_steps") and steps_share >= 0.3:
        if len(lengths) == 1 and next(iter(lengths)) > 1:
            k, longest = next(iter(lengths)), survey.get("longest_list", 0)
            found.append((steps_share, Advice(
                f"steps() and the draw of a random move through it take {_pct(steps_share)} of the time: "
                f"every whole move seen had {k} steps, and no list of next steps was longer than "
                f"{longest} in {survey.get('walked', 0)} positions.  most_next_steps = N in the game "
                "table (N: the most next steps any position can have) lets a random move be drawn "
                "from a few lists instead of all of them.", _anchor("bound-the-next-steps"),
                script.hook_lines.get("steps"))))

    # 4. No random_move: every ply lists every move to draw one.
    if ("moves" in names and "random_move" not in names and "steps" not in names
            and moves_share >= 0.4 and (prof.moves_per_ply or 0) >= 8):
        found.append((moves_share * 0.8, Advice(
            f"random games list every move to draw one ({_amount(prof.moves_per_ply or 0)} moves a ply; "
            f"moves() takes {_pct(moves_share)} of the time).  A random_move(state, rng) that draws a "
            "candidate and tries again until it is legal builds no list.",
            _anchor("a-random-move-without-the-list"), moves_at)))

    # 5. Allocation: many tables a ply (the collector's share under LuaJIT).
    gc = prof.gc or 0.0
    if prof.tables_per_ply is not None and (prof.tables_per_ply >= 8 or (prof.tables_per_ply >= 4 and
                                                                       (gc >= 0.1 or prof.gc is None))):
        top = prof.allocating[:3]
        at = ", ".join(f"line {ln.line} ({_amount(ln.tables_per_ply or 0)})" for ln in top)
        cost = f"; the garbage collector takes {_pct(gc)} of the time" if prof.gc is not None else ""
        hints = []
        for ln in top:
            code = script.code_at(ln.line)
            for method, field_ in _GRID_LISTS.items():
                if re.search(rf"[:.]\s*{method}\s*\(", code):
                    hints.append(f"line {ln.line}: read {field_} instead of building the list")
            if re.search(r"nomv\s*\.\s*copy\s*\(", code) and "play" in (ln.hook or script_hook(script, ln.line)):
                hints.append(f"line {ln.line}: copy a list with nomv.copy_list")
        found.append((max(gc, 0.1), Advice(
            f"{_amount(prof.tables_per_ply)} tables a ply ({at}){cost}.  One table a move is the goal"
            + (": " + "; ".join(hints) if hints else "") + ".", _anchor("one-table-a-move"),
            top[0].line if top else None)))

    # 6. Grid methods that build lists, wherever they run often.
    for key, by in library.items():
        grid_method = _library_function(key)
        if grid_method in _GRID_LISTS and plies:
            method = str(grid_method)
            n = sum(by.values()) / plies
            line = int(max(by, key=lambda l: by[l]))
            share = inclusive.get(line, 0.0)
            if n >= 1 and share >= 0.03:
                found.append((share, Advice(
                    f"g:{method}(...) builds a new list each call ({_amount(n)} a ply, line {line}): "
                    f"{_GRID_LISTS[method]} is the same list, made once with the grid.",
                    _anchor("one-table-a-move"), line)))

    # 7. Code LuaJIT does not compile, or strings built in the hot hooks.
    if prof.interpreted is not None and prof.interpreted >= 0.2:
        culprits = []
        for ln in prof.lines[:5]:
            why = [name for name, pattern in _UNCOMPILED.items() if pattern.search(script.code_at(ln.line))]
            if why:
                culprits.append(f"line {ln.line} ({', '.join(why)})")
        found.append((prof.interpreted * 0.5, Advice(
            f"{_pct(prof.interpreted)} of the script's time runs in LuaJIT's interpreter, not compiled"
            + (f": {'; '.join(culprits)}" if culprits else "") + ".  Plain loops, arithmetic and "
            "table reads compile; pairs/next, unpack, new closures and building strings in the hot "
            "hooks do not.", _anchor("code-that-luajit-compiles"),
            prof.lines[0].line if prof.lines else None)))
    else:
        for ln in prof.lines[:5]:
            if ln.share >= 0.05 and _STRINGS.search(script.code_at(ln.line)):
                found.append((ln.share, Advice(
                    f"line {ln.line} builds a text each time it runs ({_pct(ln.share)} of the time): "
                    "compare numbers or ids kept ready instead.", _anchor("code-that-luajit-compiles"), ln.line)))

    # 8. result() searching the position (once the listing is not the reason).
    if result_share >= 0.3 and not any("result() takes" in a.text for _, a in found):
        found.append((result_share * 0.9, Advice(
            f"result() takes {_pct(result_share)} of the time: keep what it needs in the state "
            "(play records the winner when a move wins, and counts), so that it looks instead of "
            "searching.", _anchor("what-result-needs-kept-in-the-state"), result_at)))

    found.sort(key=lambda item: -item[0])
    out: list[Advice] = []
    for _, advice in found:
        if advice.text not in (a.text for a in out):
            out.append(advice)
    return out


def script_hook(script: _Script, line: int) -> str:
    return script.hook_named(script.function_at(line))


def _last_line(script: _Script, first: int) -> int:
    return next((b for a, b in script.ranges if a == first), first)


def _function_name(script: _Script, first: int) -> str:
    """How the script names the function that begins at line `first`: "moves_of (line 31)"."""
    code = script.code_at(first)
    m = re.search(r"function\s+([\w.:]+)\s*\(|([\w.]+)\s*=\s*function\b", code)
    name = next((g for g in m.groups() if g), None) if m else None
    return f"{name} (line {first})" if name else f"the function at line {first}"


def _library_function(key: Any) -> str | None:
    """The name of the library function defined at "nomv/grid.lua:431" (its source's line)."""
    chunk, _, line = str(key).rpartition(":")
    if not chunk.startswith("nomv/"):
        return None
    try:
        text = (catalog_lua(chunk)).split("\n")[int(line) - 1]
    except (OSError, IndexError, ValueError):
        return None
    m = re.search(r"function\s+[\w.]*[.:](\w+)\s*\(|function\s+(\w+)\s*\(|(\w+)\s*=\s*function", text)
    return next((g for g in m.groups() if g), None) if m else None


def catalog_lua(chunk: str) -> str:
    """The text of one of nomv's Lua files, by its chunk name ("nomv/grid.lua")."""
    from .runtime import LUA_DIR
    return (LUA_DIR / chunk.removeprefix("nomv/")).read_text(encoding="utf-8")


def _counted_lists(script: _Script) -> list[tuple[int, str]]:
    """Lines that build a list only to count it: ``#f(...)`` (a call's list, counted), or
    ``local x = f(...)`` where the rest of the function reads ``x`` only as ``#x``."""
    out = []
    for k, code in enumerate(script.code, start=1):
        for m in re.finditer(r"#\s*([A-Za-z_][\w.:]*)\s*\(", code):
            if not re.match(r"nomv\s*\.\s*legal$", m.group(1)):
                out.append((k, f"#{m.group(1)}(...)"))
        assigned = re.search(r"\blocal\s+([A-Za-z_]\w*)\s*=\s*([A-Za-z_][\w.:]*)\s*\(", code)
        if assigned and not assigned.group(2).startswith("nomv"):
            name = assigned.group(1)
            first = script.function_at(k)
            last = _last_line(script, first) if first else len(script.code)
            rest = "\n".join(script.code[k:last])
            uses = [u for u in re.finditer(rf"(?<![\w.:]){re.escape(name)}\b", rest)]
            if uses and all(rest[:u.start()].rstrip().endswith("#") for u in uses):
                out.append((k, f"{name} = {assigned.group(2)}(...), then only #{name}"))
    return out


def _pct(share: float) -> str:
    return f"{100 * share:.0f}%"


# -- the end of nomv check's report ---------------------------------------------------------------

#: A hook with at least this share of the time "clearly dominates" (nomv check then points at
#: nomv profile).
DOMINANT = 0.5
#: CPU seconds of sampled random games behind that pointer, per script.
CHECK_SECONDS = 0.25


def check_speed(scripts: list[Any], options: dict[str, Any] | None = None, limits: Any = None) -> list[dict[str, Any]]:
    """For nomv check: each script's random games/s (from the check's own playouts), and the
    hook that clearly dominates a short profile of them, if one does.  Scripts with errors are
    left out (their speed means nothing yet).  (The checker measures it itself, on the worker
    that played its fast games: :func:`speed_of`.)"""
    out = []
    for report in scripts:
        if not report.stats or report.errors:
            continue
        try:
            with Game.load(report.path, runtime=report.stats["runtime"], limits=limits) as game:
                out.append(speed_of(report, game, options))
        except NomvError as exc:           # (the check has said what is wrong with the script)
            out.append({**_speed_head(report), "profile_error": str(exc)})
    return out


def _speed_head(report: Any) -> dict[str, Any]:
    return {"path": report.path, "runtime": report.stats["runtime"],
            "games_per_second": report.stats["games_per_second"]}


def speed_of(report: Any, game: Game, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One script's speed line (see check_speed), the short profile played by `game`, the
    script loaded on the runtime of the check's fast games."""
    row = _speed_head(report)
    try:
        quick = profile(game, options, seconds=CHECK_SECONDS, text=True, full=False)
        row["hooks"] = {k: round(v, 3) for k, v in quick.hooks.items()}
        found = quick.dominant(DOMINANT)
        if found:
            row["dominant"] = {"hook": found[0], "share": round(found[1], 3)}
    except NomvError as exc:               # (the check has said what is wrong with the script)
        row["profile_error"] = str(exc)
    return row


def format_check_speed(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for row in rows:
        rt = "LuaJIT" if row["runtime"] == "jit" else "Lua 5.4"
        text = f"speed: {row['path']}: {row['games_per_second']:,.0f} random games/s on {rt}"
        if "dominant" in row:
            hook, share = row["dominant"]["hook"], row["dominant"]["share"]
            what = f"{hook}()" if hook in HOOKS else hook
            text += (f"; {what} takes {100 * share:.0f}% of the time: nomv profile {row['path']} shows "
                     "where, and what to do")
        lines.append(text)
    return lines
