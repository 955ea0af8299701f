"""Game options: specs read from a script's ``options`` table, validated at the boundary.

A script declares ``options = { size = {default=5, min=3, max=20, help="..."}, ... }``.  The
type comes from the default (whole number, number, boolean, string) or from ``choices``.
Values given as text (``-o size=7`` on the command line) are converted by the same spec.
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import OptionError, ScriptError
from .languages import is_text, localized

TYPES = ("int", "number", "bool", "string", "choice")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def suggestion(name: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, type, default, and allowed values."""

    name: str
    type: str
    default: Any
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] = ()
    #: What the option does, for players: a text, or a table of languages (nomv.languages).
    help: Any = ""
    order: float = 0
    #: The option's name as players read it (a text or a table of languages), when the script
    #: gives one; else its name.
    label: Any = None

    @classmethod
    def from_script(cls, name: str, raw: Any, path: str) -> "OptionSpec":
        if not isinstance(raw, dict):
            raise ScriptError(f"options.{name} must be a table like {{default=..., help=...}}", path)
        if "default" not in raw:
            raise ScriptError(f"options.{name} has no default", path)
        default = raw["default"]
        choices = tuple(_listish(raw.get("choices") or [], f"options.{name}.choices", "a list of values", path))
        for key in ("min", "max", "order"):
            bound = raw.get(key)
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, (int, float))
                                      or not math.isfinite(bound)):
                raise ScriptError(f"options.{name}.{key} must be a number, got {bound!r}"[:200], path)
        kind = raw.get("type")
        if kind is None:
            if choices:
                kind = "choice"
            elif isinstance(default, bool):
                kind = "bool"
            elif isinstance(default, (int, float)):
                whole = all(isinstance(v, int) or (isinstance(v, float) and v.is_integer())
                            for v in (default, raw.get("min", 0), raw.get("max", 0)))
                kind = "int" if whole else "number"
            else:
                kind = "string"
        if kind not in TYPES:
            raise ScriptError(f"options.{name}.type is {kind!r}; use one of {', '.join(TYPES)}", path)
        if kind == "int" and isinstance(default, float):
            default = int(default)
        if kind == "choice" and isinstance(default, float) and default.is_integer():
            default = int(default)
        for key in ("help", "label"):
            if raw.get(key) not in (None, "") and not is_text(raw[key]):
                raise ScriptError(f"options.{name}.{key} must be a text, or a table of languages like "
                                  f"{{en = \"...\", it = \"...\"}}", path)
        spec = cls(name, kind, default, raw.get("min"), raw.get("max"),
                   tuple(int(c) if isinstance(c, float) and c.is_integer() else c for c in choices),
                   raw.get("help") or "", float(raw.get("order") or 0), raw.get("label") or None)
        try:
            spec.validate(default)
        except OptionError as exc:
            raise ScriptError(f"options.{name}: the default is not allowed: {exc}", path) from None
        return spec

    def allowed(self, _: Callable[[str], str] = str) -> str:
        """The allowed values in words, for messages and help; ``_`` translates nomv's words
        (nomv.play.words.translator): English by default."""
        if self.choices:
            return ", ".join(_show(c) for c in self.choices)
        if self.type == "bool":
            return "true, false"
        if self.type in ("int", "number"):
            lo = "-inf" if self.min is None else _show(self.min)
            hi = "inf" if self.max is None else _show(self.max)
            if self.type == "int":
                return _("a whole number from {lo} to {hi}").format(lo=lo, hi=hi)
            return _("a number from {lo} to {hi}").format(lo=lo, hi=hi)
        return _("any text")

    def parse(self, text: str) -> Any:
        """Converts text (from the command line or a record) to a value and validates it."""
        value: Any = text
        if self.type == "bool":
            low = text.strip().lower()
            if low in ("true", "yes", "on", "1"):
                value = True
            elif low in ("false", "no", "off", "0"):
                value = False
            else:
                raise OptionError(f"option '{self.name}': {text!r} is not allowed; allowed: true, false", self.name)
        elif self.type in ("int", "number") or (self.choices and all(isinstance(c, (int, float)) for c in self.choices)):
            try:
                number = float(text)
            except ValueError:
                raise OptionError(f"option '{self.name}': {text!r} is not a number; allowed: {self.allowed()}",
                                  self.name) from None
            value = int(number) if number.is_integer() and self.type != "number" else number
        return self.validate(value)

    def validate(self, value: Any) -> Any:
        """Returns the value in canonical form, or raises OptionError naming the allowed values."""
        name = self.name
        if self.choices:
            for c in self.choices:
                if c == value and isinstance(c, bool) == isinstance(value, bool):
                    return c
            raise OptionError(f"option '{name}': {value!r} is not allowed; allowed: {self.allowed()}", name)
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            raise OptionError(f"option '{name}': {value!r} is not true or false", name)
        if self.type in ("int", "number"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise OptionError(f"option '{name}': {value!r} is not a number; allowed: {self.allowed()}", name)
            if self.type == "int":
                if not float(value).is_integer():
                    raise OptionError(f"option '{name}': {_show(value)} is not a whole number; allowed: {self.allowed()}", name)
                value = int(value)
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise OptionError(f"option '{name}': {_show(value)} is out of range; allowed: {self.allowed()}", name)
            return value
        if not isinstance(value, str):
            raise OptionError(f"option '{name}': {value!r} is not text", name)
        try:
            value.encode("utf-8")  # (command-line bytes that are not UTF-8 arrive as surrogates)
        except UnicodeEncodeError:
            raise OptionError(f"option '{name}': {value!r} is not valid text (not UTF-8)", name) from None
        return value


@dataclass(frozen=True)
class PlayerSpec:
    """How many players a game takes, and their display names and colours."""

    min: int
    max: int
    default: int
    names: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    #: Each name as the script gives it: a string, or a table of languages (nomv.languages);
    #: ``names`` holds them in English.
    name_texts: tuple[Any, ...] = ()

    @classmethod
    def from_script(cls, raw: Any, path: str) -> "PlayerSpec":
        if raw is None:
            raw = 2
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            raw = {"min": raw, "max": raw}
        if not isinstance(raw, dict):
            raise ScriptError("players must be a number or a table like {min=2, max=4, default=2}", path)
        try:
            lo = int(raw.get("min", raw.get("default", 2)))  # type: ignore[arg-type]
            hi = int(raw.get("max", lo))
            default = int(raw.get("default", lo))
        except (TypeError, ValueError):
            raise ScriptError("players.min, max and default must be whole numbers", path) from None
        if not 1 <= lo <= default <= hi <= 16:
            raise ScriptError(f"players: need 1 <= min <= default <= max <= 16, got min={lo} default={default} max={hi}", path)
        texts = tuple(_listish(raw.get("names"), "players.names", 'a list such as {"Red", "Blue"}', path))
        names = tuple(localized(n, "en", str(n)) for n in texts)
        colours = tuple(str(c) for c in _listish(raw.get("colours") or raw.get("colors"), "players.colours",
                                                 'a list such as {"#c03030", "blue"}', path))
        return cls(lo, hi, default, names, colours, texts)

    def name(self, player: int, lang: str = "en") -> str:
        """A player's name (1-based) in a language, when the script gives it in several."""
        if player > len(self.names):
            return f"Player {player}"
        if lang != "en" and player <= len(self.name_texts):
            return localized(self.name_texts[player - 1], lang, self.names[player - 1])
        return self.names[player - 1]

    def option(self) -> OptionSpec | None:
        if self.min == self.max:
            return None
        return OptionSpec("players", "int", self.default, self.min, self.max, (),
                          "number of players", -1)


_INDEX = re.compile(r"[1-9][0-9]{0,5}")  # a Lua list's index as a JSON object's key


def _listish(raw: Any, where: str, want: str, path: str) -> list[Any]:
    """A Lua list from the script's data.  A list with holes arrives as a JSON object keyed by
    index; any other key (``x``, ``"²"``), or a number where the list should be, is the
    script's mistake, named as such."""
    if raw is None:
        return []
    if isinstance(raw, list):
        return raw
    if isinstance(raw, dict):
        bad = next((k for k in raw if not _INDEX.fullmatch(k)), None)
        if bad is not None:
            raise ScriptError(f"{where} must be {want}, but it has the key {bad[:40]!r}", path)
        return [raw[k] for k in sorted(raw, key=int)]
    shown = "a table" if isinstance(raw, dict) else repr(raw)[:40]
    raise ScriptError(f"{where} must be {want}, not {shown}", path)


@dataclass
class OptionSet:
    """The options of one game: specs, named variants, and validation of user input."""

    specs: dict[str, OptionSpec]
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)

    def resolve(self, given: dict[str, Any] | None = None, variant: str | None = None,
                text: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
        """Returns (all values with defaults filled in, the values set explicitly).

        ``given`` holds values, or text to convert when ``text`` is true.  A variant's preset
        comes first; explicit values override it.
        """
        chosen: dict[str, Any] = {}
        if variant is not None:
            if variant not in self.variants:
                names = sorted(self.variants)
                raise OptionError(f"unknown variant {variant!r}{suggestion(variant, names)}; "
                                  f"variants: {', '.join(names) if names else 'none'}")
            chosen.update(self.variants[variant])
        for name, value in (given or {}).items():
            if name not in self.specs:
                names = sorted(self.specs)
                raise OptionError(f"unknown option '{name}'{suggestion(name, names)}; options: "
                                  f"{', '.join(names) if names else 'none'}", name)
            spec = self.specs[name]
            chosen[name] = spec.parse(value) if text and isinstance(value, str) else spec.validate(value)
        values = {name: spec.default for name, spec in self.specs.items()}
        for name, value in chosen.items():
            if name not in self.specs:
                raise OptionError(f"variant {variant!r} sets unknown option '{name}'", name)
            values[name] = self.specs[name].validate(value)
        return values, chosen

    def ordered(self) -> list[OptionSpec]:
        return sorted(self.specs.values(), key=lambda s: (s.order, s.name))
