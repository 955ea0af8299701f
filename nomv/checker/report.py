"""What ``nomv check`` found: diagnostics, figures from the random games, and rule coverage."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..stats import wilson
from .codes import CODES, is_error


@dataclass(frozen=True)
class Diagnostic:
    """One finding: ``path:line: error[E052]: message``."""

    path: str
    line: int | None
    code: str
    message: str

    @property
    def severity(self) -> str:
        return "error" if is_error(self.code) else "warning"

    @property
    def name(self) -> str:
        return CODES[self.code][0]

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.severity}[{self.code}]: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "severity": self.severity,
                "code": self.code, "name": self.name, "message": self.message}


def line_ranges(lines: list[int], ran: set[int]) -> list[tuple[int, int]]:
    """Groups the never-run lines into ranges; a range ends at the next line that ran."""
    out: list[tuple[int, int]] = []
    start: int | None = None
    prev = 0  # the last never-run line of the range that starts at start
    for line in sorted(set(lines)):
        if line in ran:
            if start is not None:
                out.append((start, prev))
                start = None
            continue
        if start is None:
            start = line
        prev = line
    if start is not None:
        out.append((start, prev))
    return out


@dataclass
class ScriptReport:
    """Everything found about one script."""

    path: str
    name: str | None = None
    runtime: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    configurations: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    games: int = 0                      # detailed random games (every rule checked at every ply)
    games_seconds: float = 0.0          # the CPU time they took
    fast_games: int = 0                 # fast random games (inside Lua, the cheap checks)
    fast_plies: int = 0
    fast_seconds: float = 0.0           # the CPU time they took
    fast_found: list[str] = field(default_factory=list)   # codes of what the fast games found
    plies: int = 0
    positions: int = 0
    branching_total: int = 0
    branching_max: int = 0
    stats: dict[str, Any] | None = None  # in-Lua playouts of the default options
    player_names: list[str] = field(default_factory=list)
    coverage: dict[str, Any] | None = None
    seconds: float = 0.0                # the whole check, wall-clock time
    cpu_seconds: float = 0.0            # the whole check, CPU time (nomv's and its workers')
    #: What each configuration played: {label, budget, games, plies, cut, traced_games,
    #: fast_games, hooks, seconds} (the games checked ply by ply, their plies, how many of them
    #: stopped when the configuration's share was spent, the fast games traced for coverage and
    #: the others, the hooks its games checked ply by ply called, its CPU seconds).
    tiers: list[dict[str, Any]] = field(default_factory=list)
    thorough: bool = False              # checked with --thorough
    speed: dict[str, Any] | None = None  # nomv profile's speed line (nomv check asks for it)
    #: When this report is that of an earlier check of the same script (nomv check keeps them:
    #: checker/cache.py), the time of that check (seconds since the epoch); else None.
    checked_at: float | None = None

    def add(self, line: int | None, code: str, message: str) -> Diagnostic | None:
        """Adds a finding unless the same code was already reported at the same line."""
        assert code in CODES, code
        for d in self.diagnostics:
            if d.code == code and d.line == line:
                return None
        d = Diagnostic(self.path, line, code, message)
        self.diagnostics.append(d)
        return d

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def has_error(self, *codes: str) -> bool:
        return any(d.code in codes for d in self.diagnostics) if codes else bool(self.errors)

    def sorted_diagnostics(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=lambda d: (d.line or 0, d.code))

    def summary_lines(self) -> list[str]:
        out = []
        n_err, n_warn = len(self.errors), len(self.warnings)
        head = f"{self.path}: {_plural(n_err, 'error')}, {_plural(n_warn, 'warning')}"
        if self.games:
            fast = f" and {_plural(self.fast_games, 'fast random game')}" if self.fast_games else ""
            head += (f"; {_plural(self.games, 'random game')} checked ply by ply{fast} over "
                     f"{_plural(len(self.configurations), 'configuration')} "
                     f"in {self.games_seconds + self.fast_seconds:.1f} s of CPU ({self.seconds:.1f} s in all)")
        out.append(head)
        if self.checked_at is not None:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.checked_at))
            out.append(f"  unchanged since its check of {when}: that check's report (nomv check --fresh checks it again)")
        out.extend(self._tier_lines())
        s = self.stats
        if s:
            rt = "LuaJIT" if s["runtime"] == "jit" else "Lua 5.4"
            out.append(f"  speed: {s['games_per_second']:,.0f} games/s on {rt} ({s['games']:,} games of the default options)")
            out.append(f"  length: average {s['average_length']:.1f} plies, longest {s['longest']}")
        if self.positions:
            out.append(f"  branching: average {self.branching_total / self.positions:.1f} moves, "
                       f"largest {self.branching_max}")
        if s and s["games"]:
            out.append("  results: " + self._results())
        if self.coverage is not None:
            c = self.coverage
            if c["active"]:
                pct = 100 * c["covered"] / c["active"]
                line = f"  coverage: {c['covered']} of {c['active']} code lines ran ({pct:.0f}%)"
                if c["ranges"]:
                    line += f"; {_plural(len(c['ranges']), 'range')} never ran (W110)"
                out.append(line)
        if self.skipped:
            out.append("  not checked: " + "; ".join(self.skipped))
        return out

    def _tier_lines(self) -> list[str]:
        """What each configuration played, when there are several (one: the line above says
        it), and the hooks its games checked ply by ply never called."""
        out = []
        for t in self.tiers:
            if len(self.tiers) == 1 and not t["hooks_missed"]:
                break
            what = [_plural(t["games"], "game") + " checked ply by ply"]
            if t["cut"]:
                what[0] += (" (stopped after its first plies: its share of the time was spent)" if t["games"] == 1
                            else f" ({t['cut']} stopped after their first plies: their share of the time was spent)")
            if t["hooks_missed"]:
                what.append("never calling " + ", ".join(t["hooks_missed"]))
            fast = t["traced_games"] + t["fast_games"]
            if fast:
                what.append(_plural(fast, "fast game"))
            out.append(f"  {t['label']}: {', '.join(what)}; {t['seconds']:.1f} s of CPU")
        if len(self.tiers) > 1 and not self.thorough:
            out.append(f"  the {_plural(len(self.tiers) - 1, 'configuration')} beside the defaults had a share "
                       "of the time each and stopped early once every hook had run: nomv check --thorough "
                       "plays them all in full")
        return out

    def _results(self) -> str:
        s = self.stats
        assert s is not None, "summary_lines asks for the results only when there are stats"
        games, wins = s["games"], s["wins"]
        names = self.player_names or [f"Player {p + 1}" for p in range(len(wins))]
        if len(wins) == 1:  # a puzzle: a game without a winner is a loss
            text = f"solved {100 * wins[0] / games:.1f}%, not solved {100 * (games - wins[0]) / games:.1f}%"
            return text + (f"; unfinished {s['unfinished']}" if s.get("unfinished") else "")
        parts = [f"{names[p]} {100 * w / games:.1f}%" for p, w in enumerate(wins)]
        text = ", ".join(parts) + f"; draws {100 * s['draws'] / games:.1f}%"
        if s.get("lost"):
            text += f"; everyone lost {100 * s['lost'] / games:.1f}%"
        if s.get("unfinished"):
            text += f"; unfinished {s['unfinished']}"
        if len(wins) >= 2:
            decisive = sum(wins)
            lo, hi = wilson(wins[0], decisive)
            fair = 1 / len(wins)
            if decisive:
                p1 = wins[0] / decisive
                text += (f"; first player wins {100 * p1:.1f}% of decisive games "
                         f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%, fair share {100 * fair:.0f}%"
                         f"{', an advantage' if lo > fair else ', a disadvantage' if hi < fair else ''})")
        return text

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path, "name": self.name, "runtime": self.runtime,
            "errors": len(self.errors), "warnings": len(self.warnings),
            "diagnostics": [d.to_json() for d in self.sorted_diagnostics()],
            "configurations": self.configurations, "skipped": self.skipped,
            "games": self.games, "games_seconds": round(self.games_seconds, 3), "plies": self.plies,
            "fast_games": self.fast_games, "fast_plies": self.fast_plies,
            "fast_seconds": round(self.fast_seconds, 3), "fast_found": self.fast_found,
            "branching": {"average": self.branching_total / self.positions if self.positions else None,
                          "largest": self.branching_max},
            "stats": self.stats, "coverage": self.coverage, "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3), "tiers": self.tiers, "thorough": self.thorough,
            "cached": None if self.checked_at is None else time.strftime(
                "%Y-%m-%dT%H:%M:%S%z", time.localtime(self.checked_at)),
        }
        if self.stats and len(self.stats["wins"]) >= 2:
            decisive = sum(self.stats["wins"])
            lo, hi = wilson(self.stats["wins"][0], decisive)
            data["first_player"] = {"wins": self.stats["wins"][0], "decisive": decisive,
                                    "ci95": [lo, hi], "fair": 1 / len(self.stats["wins"])}
        return data


@dataclass
class Report:
    """The reports of every script checked."""

    scripts: list[ScriptReport] = field(default_factory=list)
    seconds: float = 0.0                # the whole run's wall time (scripts checked in parallel too)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for s in self.scripts for d in s.sorted_diagnostics()]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def codes(self) -> list[str]:
        return [d.code for d in self.diagnostics]

    def format(self) -> str:
        lines = [str(d) for d in self.diagnostics]
        if lines:
            lines.append("")
        for s in self.scripts:
            lines.extend(s.summary_lines())
        n_err, n_warn = len(self.errors), len(self.warnings)
        lines.append(f"checked {_plural(len(self.scripts), 'script')}: "
                     f"{_plural(n_err, 'error')}, {_plural(n_warn, 'warning')}")
        lines.append("is the game any good (balance, length, choices, skill)? nomv analyze GAME")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        # The run's totals over its scripts (each script's own figures are in "scripts").
        return {"ok": self.ok, "errors": len(self.errors), "warnings": len(self.warnings),
                "seconds": round(self.seconds, 3),
                "cpu_seconds": round(sum(s.cpu_seconds for s in self.scripts), 3),
                "games": sum(s.games for s in self.scripts),
                "fast_games": sum(s.fast_games for s in self.scripts),
                "scripts": [s.to_json() for s in self.scripts]}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n:,} {word}s"


def short(path: str) -> str:
    return Path(path).name
