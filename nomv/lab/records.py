"""The records of a lab run as lines of JSON: a header (the run: game, script, options, seed,
players, games), then one line a game.  ``nomv analyze --records FILE`` writes them, ``--shard
k/n`` writes a part, and ``nomv analyze --merge FILE...`` reads parts back and reports on them
as one run: every figure is a function of the records alone.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any, Iterable

from .plan import FORMAT, LabError

#: Header keys that may differ between the parts of one run.
_PART_KEYS = ("shard",)


def order(record: dict[str, Any]) -> tuple[int, str, int]:
    """Records in plan order: the main games, then the ladder's rungs, each by number."""
    s = record["set"]
    rank = 0 if s == "main" else int(s.split()[-1]) if s.startswith("ladder ") else 10**6
    return rank, s, record["game"]


class Writer:
    """Writes a header, then records as they come."""

    def __init__(self, path: str | Path, header: dict[str, Any]):
        try:
            self._file: IO[str] = open(path, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise LabError(f"cannot write {path}: {exc.strerror or exc}") from None
        self.path = str(path)
        self._line(header)

    def _line(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n")

    def write(self, records: Iterable[dict[str, Any]]) -> None:
        for r in records:
            self._line(r)
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def read(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A records file: its header and records.  A line that is not a record is an error naming
    the file and line (a file cut short loses only its last, partial, line: with a warning)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LabError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise LabError(f"{path} is not a records file of nomv analyze (not UTF-8 text)") from None
    lines = text.split("\n")
    if not lines or not lines[0].strip():
        raise LabError(f"{path} is empty: not a records file of nomv analyze")
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or "nomv_lab" not in header:
        raise LabError(f"{path}:1: not a records file of nomv analyze (it starts with no header)")
    if header["nomv_lab"] != FORMAT:
        raise LabError(f"{path}: records of format {header['nomv_lab']}, this nomv reads format {FORMAT}")
    records = []
    last = len(lines) - 1
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not {"set", "game", "seed"} <= record.keys():
                raise ValueError
        except ValueError:
            if number - 1 == last or (number == last and not lines[-1].strip()):
                continue      # a run stopped while writing: its last line is cut
            raise LabError(f"{path}:{number}: not a game's record") from None
        records.append(record)
    return header, records


def merge(parts: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The parts of one run as one: (header, records in plan order, games missing).  Parts of
    different runs (another script, seed, options, players...) are refused, naming the first
    difference; a game in two parts must have the same record in both."""
    if not parts:
        raise LabError("--merge needs records files (nomv analyze GAME --shard K/N --records FILE)")
    first_path, first, _ = parts[0]
    base = {k: v for k, v in first.items() if k not in _PART_KEYS}
    seen: dict[tuple[str, int], dict[str, Any]] = {}
    for path, header, records in parts:
        mine = {k: v for k, v in header.items() if k not in _PART_KEYS}
        if mine != base:
            key = next(k for k in sorted(set(mine) | set(base)) if mine.get(k) != base.get(k))
            raise LabError(f"{path} is not a part of the same run as {first_path}: its {key} differs")
        for r in records:
            k = (r["set"], r["game"])
            if k in seen and seen[k] != r:
                raise LabError(f"{path}: {r['set']} game {r['game']} differs from the same game in another part")
            seen[k] = r
    records = sorted(seen.values(), key=order)
    missing = max(0, int(base.get("total", len(records))) - len(records))
    return base, records, missing
