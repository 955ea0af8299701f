"""Checks made by reading the script's text and the description of its game table."""
from __future__ import annotations

import difflib
import re
from typing import Any

from ..errors import OptionError, ScriptError
from ..languages import is_text
from ..options import OptionSet, OptionSpec, PlayerSpec, TYPES
from ..schema import (FIELD_TYPES, FIELDS, FORBIDDEN, FORBIDDEN_MEMBERS as MEMBERS,
                      OPTION_FIELDS, PLAYERS_FIELDS, STANDS_IN, missing_hooks)
from ..scriptlines import Lines, declared_names as _locals, line_of as _line_of, strip_lua
from .report import ScriptReport
from .scene import colour_ok

# What the game table may hold and which names the sandbox refuses: nomv/schema.py, the list
# host.lua uses too.  A refused library is reported where it is indexed (io.open), a refused
# function wherever it is named.
LIBRARIES = {name: r.message for name, r in FORBIDDEN.items() if r.kind == "library"}
CALLS = {name: r.message for name, r in FORBIDDEN.items() if r.kind == "function"}


def check_forbidden(report: ScriptReport, source: str) -> None:
    """E003: names of facilities the sandbox refuses, with their lines."""
    code = strip_lua(source)
    own = _locals(code)
    for m in re.finditer(r"(?<![\w.:])([A-Za-z_]\w*)", code):
        name = m.group(1)
        if name in own:
            continue
        after = code[m.end():m.end() + 40]
        rest = after.lstrip()
        member = re.match(r"\.\s*([A-Za-z_]\w*)", rest)
        if member and (name, member.group(1)) in MEMBERS:
            report.add(_line_of(code, m.start()), "E003", MEMBERS[(name, member.group(1))])
        elif name in LIBRARIES and rest[:1] in (".", "[", ":"):
            report.add(_line_of(code, m.start()), "E003", LIBRARIES[name])
        elif name in CALLS and not re.match(r"=(?!=)", rest):
            report.add(_line_of(code, m.start()), "E003", CALLS[name])


def suggest(name: str, candidates) -> str:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def check_description(report: ScriptReport, desc: dict[str, Any], source: str) -> None:
    """Static checks of the game table: fields, hooks, players, options, variants."""
    lines = Lines(source)
    types = desc.get("types", {})
    unknown = desc.get("unknown", [])
    for f in unknown:
        report.add(lines.field(f) or lines.return_line, "W020",
                   f"the game table has an unknown field '{f}'{suggest(f, FIELDS)}")
    if "name" not in types:
        report.add(lines.return_line, "E010", 'the game table has no name (add name = "mygame")')
    elif types["name"] != "string" or not desc.get("name"):
        report.add(lines.field("name"), "E011", "name must be a non-empty string such as \"mygame\"")
    for hook in missing_hooks(types):
        near = difflib.get_close_matches(hook, unknown, n=1, cutoff=0.6)
        line = (lines.field(near[0]) if near else None) or lines.return_line
        hint = f" (did you mean '{hook}' instead of '{near[0]}'?)" if near else ""
        alone = f" (or '{STANDS_IN[hook]}')" if hook in STANDS_IN and not near else ""
        report.add(line, "E010", f"the game table has no '{hook}' function{alone}{hint}")
    for f, t in types.items():
        if f in FIELD_TYPES and t not in FIELD_TYPES[f]:
            want = " or a ".join(FIELD_TYPES[f])
            report.add(lines.field(f), "E011", f"{f} must be a {want}, not a {t}")
    if types.get("title") == "table" and not is_text(desc.get("title")):
        report.add(lines.field("title"), "E011", 'title must be a string, or a table of languages such as '
                   '{en = "Lines", it = "Linee"}')
    if types.get("view") == "function" and "determinize" not in types:
        report.add(lines.field("view"), "W057",
                   "the game hides information (view) but has no determinize(view, player, rng): "
                   "the computer player will search the view as if it were the whole state; add "
                   "determinize to fill in what the player does not know at random")
    if types.get("players") in ("number", "table"):
        _check_players(report, desc.get("players"), lines.field("players"))
    if types.get("options") == "table":
        _check_options(report, desc.get("options"), lines, source)
    if types.get("variants") == "table" and not report.has_error("E030"):
        _check_variants(report, desc, lines, source)


def _check_players(report: ScriptReport, raw: Any, line: int | None) -> None:
    try:
        spec = PlayerSpec.from_script(raw, report.path)
    except ScriptError as exc:
        report.add(line, "E032", exc.message)
        return
    if isinstance(raw, dict):
        for key in raw:
            if key not in PLAYERS_FIELDS:
                report.add(line, "E032", f"players has an unknown field '{key}'{suggest(key, PLAYERS_FIELDS)}")
        for k, name in enumerate(spec.name_texts, start=1):
            if not is_text(name):
                report.add(line, "E032", f"players.names[{k}] must be a string, or a table of languages such as "
                           '{en = "Red", it = "Rosso"}')
        if spec.names and len(spec.names) < spec.max:
            report.add(line, "E032", f"players.names lists {len(spec.names)} names for up to {spec.max} players")
        for c in spec.colours:
            if not colour_ok(c):
                report.add(line, "E032", f"players.colours: {c!r} is not a colour ('#rrggbb' or a name such as red)")


def _option_line(lines: Lines, source: str, name: str) -> int | None:
    start = lines.field("options")
    return lines.field(name, after=start) or start


def _check_options(report: ScriptReport, raw: Any, lines: Lines, source: str) -> None:
    if isinstance(raw, list) and not raw:
        return
    if not isinstance(raw, dict):
        report.add(lines.field("options"), "E030", "options must be a table of name = {default = ...}")
        return
    for name, spec in raw.items():
        line = _option_line(lines, source, name)
        where = f"options.{name}"
        if name == "players":
            report.add(line, "E030", "options.players: set the number of players in the players table instead")
            continue
        if not isinstance(spec, dict):
            report.add(line, "E030", f"{where} must be a table like {{default = 3, min = 1, max = 5}}")
            continue
        for key in spec:
            if key not in OPTION_FIELDS:
                report.add(line, "E030", f"{where} has an unknown field '{key}'{suggest(key, OPTION_FIELDS)}")
        if "default" not in spec:
            report.add(line, "E030", f"{where} has no default")
            continue
        if "type" in spec and spec["type"] not in TYPES:
            report.add(line, "E030", f"{where}.type is {spec['type']!r}; use one of {', '.join(TYPES)}")
            continue
        if "choices" in spec and (not isinstance(spec["choices"], (list, dict)) or not spec["choices"]):
            report.add(line, "E030", f"{where}.choices is empty: list the allowed values, e.g. choices = {{3, 5, 7}}")
            continue
        lo, hi = spec.get("min"), spec.get("max")
        for k, v in (("min", lo), ("max", hi)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                report.add(line, "E030", f"{where}.{k} must be a number, not {v!r}")
                lo = hi = None
        if lo is not None and hi is not None and lo > hi:
            report.add(line, "E030", f"{where}: min ({lo}) is larger than max ({hi})")
            continue
        try:
            OptionSpec.from_script(name, spec, report.path)
        except ScriptError as exc:
            report.add(line, "E030", exc.message)


def _check_variants(report: ScriptReport, desc: dict[str, Any], lines: Lines, source: str) -> None:
    variants = desc.get("variants")
    if isinstance(variants, list) and not variants:
        return
    start = lines.field("variants")
    if not isinstance(variants, dict):
        report.add(start, "E031", "variants must be a table of name = {option = value, ...}")
        return
    try:
        specs = {n: OptionSpec.from_script(n, raw, report.path)
                 for n, raw in (desc.get("options") or {}).items() if isinstance(raw, dict)}
        players = PlayerSpec.from_script(desc.get("players"), report.path).option()
    except ScriptError:
        return
    if players:
        specs["players"] = players
    for vname, preset in variants.items():
        line = lines.field(vname, after=start) or lines.quoted_key(vname, source, start) or start
        if not isinstance(preset, dict):
            if isinstance(preset, list) and not preset:
                continue
            report.add(line, "E031", f"variants[{vname!r}] must be a table of option = value")
            continue
        try:
            OptionSet(specs, {vname: preset}).resolve(variant=vname)
        except OptionError as exc:
            report.add(line, "E031", f"variant {vname!r}: {exc}")
