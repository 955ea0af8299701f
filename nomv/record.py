"""Game records: the script, options, seed and moves of a game, saved as readable JSON.

Reading is strict: a record that is malformed, names unknown options, or whose moves stop being
legal is refused with a message naming what is wrong and where (the file, and the ply).
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from .errors import GameNotFoundError, IllegalMoveError, NomvError, RecordError
from .files import UnreadableFile, read_text_file
from .game import Game, Move, Position
from .limits import Limits

FORMAT = "nomv-record"
#: Version 2 adds ``steps``: each move's step ids beside its notation, so that a game replays
#: exactly even where the notation is ambiguous or has changed.  Version 1 is still read.
VERSION = 2
VERSIONS = (1, 2)
_FIELDS = {"format", "version", "game", "script", "script_sha256", "options", "seed", "moves",
           "steps", "players", "result"}
MAX_FILE_BYTES = 16 * 2**20
MAX_STEP = 1000           # characters of a step id (the host's cap)
MAX_STEPS = 1000          # steps of one move
MAX_OPTION_NUMBER = 2**53  # an option's number beyond this is no game's size, and loses precision
MAX_MOVES = 100_000
#: Sizes no genuine record comes near: a file past them is damaged or hostile, and refused
#: before any of it reaches a script.
MAX_TEXT = {"game": 200, "script": 4096, "script_sha256": 64, "result": 10_000}
MAX_MOVE_TEXT = 10_000
MAX_OPTIONS = 200
MAX_OPTION_TEXT = 100_000
MAX_PLAYERS = 16
SEED_RANGE = (-2**63, 2**63 - 1)


def _valid_text(s: str) -> bool:
    """Whether a string can be written as UTF-8 (JSON's \ud800 escapes give lone surrogates,
    which neither a script nor a file can take)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


@dataclass
class Record:
    game: str
    script: str
    options: dict[str, Any]
    seed: int
    moves: list[str] = field(default_factory=list)
    script_sha256: str | None = None
    players: list[str] | None = None
    result: str | None = None
    #: Each move's step ids (None in a version 1 record, which names moves by notation only).
    steps: list[list[str]] | None = None

    @classmethod
    def from_position(cls, position: Position, players: list[str] | None = None,
                      result: str | None = None) -> "Record":
        """The record of a position: its script, options, seed and moves; ``players`` says who
        played each seat, ``result`` overrides the outcome's text (a game ended by resigning)."""
        game = position.game
        script = game.name if game.origin == "bundled" else str(Path(game.path).resolve())
        if result is None:
            try:
                outcome = position.outcome()
            except NomvError:  # the script's result fails here: saved as a game that goes on
                outcome = None
            result = outcome.describe(game.players) if outcome else None
        return cls(game.name, script, dict(position.chosen), position.seed, position.history_notation,
                   game.sha256, players, result, [list(m.steps) for m in position.history])

    def to_text(self) -> str:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game,
                                "script": self.script, "script_sha256": self.script_sha256,
                                "options": self.options, "seed": self.seed}
        if self.players is not None:
            data["players"] = self.players
        if self.result is not None:
            data["result"] = self.result
        data["moves"] = self.moves
        text = json.dumps(data, indent=2, ensure_ascii=False)
        if self.steps is not None:
            # one move's steps a line, after the notation: the file stays easy to read
            rows = ",".join(f"\n    {json.dumps(s, ensure_ascii=False)}" for s in self.steps)
            text = text[:-2] + f',\n  "steps": [{rows}\n  ]\n}}'
        return text + "\n"

    def save(self, path: str | Path) -> None:
        """Writes the record atomically: a crash mid-write leaves the old file intact."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.to_text())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        """Reads a record file.  A file of several records, one per line (``nomv match --out``),
        is read one record at a time: ``games.jsonl#3`` is its third game."""
        path, number = _numbered(Path(path))
        try:
            text = read_text_file(path, MAX_FILE_BYTES)
        except UnreadableFile as exc:
            raise RecordError(str(exc)) from None
        lines = [line for line in text.splitlines() if line.strip()]
        one_per_line = len(lines) > 1 and _one_object(lines[0])
        if number is not None:
            # One record a line: record N is line N, whatever the other lines hold.
            if not one_per_line and number == 1:
                return cls.from_text(text, str(path))
            if not one_per_line or not 1 <= number <= len(lines):
                count = len(lines) if one_per_line else 1
                raise RecordError(f"{path}: holds {count} game record{'s' if count != 1 else ''}, "
                                  f"so there is no record #{number}")
            return cls.from_text(lines[number - 1], f"{path}#{number}")
        if one_per_line and all(map(_one_object, lines)):
            raise RecordError(f"{path}: holds {len(lines)} game records, one per line (as nomv match "
                              f"writes them): open one as {path}#N, N from 1 to {len(lines)}")
        return cls.from_text(text, str(path))

    @classmethod
    def from_text(cls, text: str, where: str = "<record>") -> "Record":
        if _DEEP.search(text):
            # A record is nested three deep (the steps of a move); deeper is a crafted file, and
            # whether Python's parser runs out of stack on it depends on how deep it was called.
            raise RecordError(f"{where}: nested too deeply to be a game record")
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}:{exc.lineno}: not a nomv game record: {exc.msg} (column {exc.colno})") from None
        except RecursionError:
            raise RecordError(f"{where}: nested too deeply to be a game record") from None
        except ValueError as exc:  # NaN, Infinity, a number of thousands of digits
            raise RecordError(f"{where}: not a nomv game record: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError(f"{where}: a game record is a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise RecordError(f"{where}: not a nomv game record (format is {data.get('format')!r}, expected {FORMAT!r})")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version not in VERSIONS:
            raise RecordError(f"{where}: record version {json.dumps(version)[:20]} is not supported (this nomv reads "
                              f"{' and '.join(map(str, VERSIONS))})")
        unknown = sorted(set(data) - _FIELDS)
        if unknown:
            raise RecordError(f"{where}: unknown field(s) {', '.join(unknown)}")

        def show(value: Any) -> str:
            return json.dumps(value)[:60]

        def text_field(key: str, value: Any) -> None:
            if isinstance(value, str):
                if not _valid_text(value):
                    raise RecordError(f"{where}: {key!r} is not valid text (it holds a lone surrogate)")
                if key in MAX_TEXT and len(value) > MAX_TEXT[key]:
                    raise RecordError(f"{where}: {key!r} is too long ({len(value)} characters; at most {MAX_TEXT[key]})")

        def need(key: str, kind: type | tuple[type, ...], label: str) -> Any:
            if key not in data:
                raise RecordError(f"{where}: the field {key!r} is missing")
            value = data[key]
            if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
                raise RecordError(f"{where}: {key!r} must be {label}, got {show(value)}")
            text_field(key, value)
            return value

        game = need("game", str, "a game name")
        script = need("script", str, "a script name or path")
        options = need("options", dict, "an object of option values")
        if len(options) > MAX_OPTIONS:
            raise RecordError(f"{where}: {len(options)} options is more than a record may hold ({MAX_OPTIONS})")
        for k, v in options.items():
            if not isinstance(v, (str, int, float, bool)):
                raise RecordError(f"{where}: option {k[:60]!r} has a value that is not text, a number or true/false")
            for part in (k, v) if isinstance(v, str) else (k,):
                if not _valid_text(part) or len(part) > MAX_OPTION_TEXT:
                    raise RecordError(f"{where}: option {k[:60]!r} is not valid text or is too long")
            if isinstance(v, (int, float)) and not isinstance(v, bool) and not (abs(v) <= MAX_OPTION_NUMBER):
                shown = f"a number of {len(str(abs(v)))} digits" if isinstance(v, int) else show(v)
                raise RecordError(f"{where}: option {k[:60]!r} is {shown}, beyond any game's options "
                                  f"(at most {MAX_OPTION_NUMBER:,} either way)")
        seed = need("seed", int, "a whole number")
        if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
            raise RecordError(f"{where}: 'seed' must be a whole number from {SEED_RANGE[0]} to {SEED_RANGE[1]}, "
                              f"got {show(seed)}")
        moves = need("moves", list, "a list of moves in the game's notation")
        if len(moves) > MAX_MOVES:
            raise RecordError(f"{where}: {len(moves)} moves is more than a record may hold ({MAX_MOVES})")
        for i, m in enumerate(moves):
            if not isinstance(m, str):
                raise RecordError(f"{where}: move {i + 1} is not text: {show(m)}")
            if not _valid_text(m) or len(m) > MAX_MOVE_TEXT:
                raise RecordError(f"{where}: move {i + 1} is not valid text (or longer than {MAX_MOVE_TEXT} characters)")
        sha = data.get("script_sha256")
        if sha is not None and not isinstance(sha, str):
            raise RecordError(f"{where}: 'script_sha256' must be text")
        text_field("script_sha256", sha)
        players = data.get("players")
        if players is not None and (not isinstance(players, list) or len(players) > MAX_PLAYERS
                                    or not all(isinstance(p, str) and len(p) <= 100 and _valid_text(p) for p in players)):
            raise RecordError(f"{where}: 'players' must be a list of at most {MAX_PLAYERS} short texts")
        steps = data.get("steps")
        if steps is not None:
            if version < 2:
                raise RecordError(f"{where}: 'steps' is a field of record version 2, not {version}")
            if not isinstance(steps, list) or len(steps) != len(moves):
                raise RecordError(f"{where}: 'steps' must list the steps of each of the {len(moves)} moves")
            for i, move_steps in enumerate(steps):
                if (not isinstance(move_steps, list) or not 1 <= len(move_steps) <= MAX_STEPS
                        or not all(isinstance(x, str) and 0 < len(x) <= MAX_STEP and _valid_text(x) for x in move_steps)):
                    raise RecordError(f"{where}: the steps of move {i + 1} must be a list of step ids "
                                      f"(texts of 1 to {MAX_STEP} characters), got {show(move_steps)}")
        result = data.get("result")
        if result is not None and not isinstance(result, str):
            raise RecordError(f"{where}: 'result' must be text")
        text_field("result", result)
        return cls(game, script, options, seed, moves, sha, players, result, steps)

    def replay(self, game: Game | None = None, runtime: str | None = None, where: str = "record",
               limits: Limits | None = None) -> Position:
        """Plays the record's moves from the start and returns the position.

        ``game`` may be a loaded Game (e.g. the one on screen); otherwise the script is found
        by the record's name or path (and loaded with ``runtime`` and ``limits``).
        """
        if game is None:
            try:
                game = Game.load(self.script, runtime, limits=limits)
            except GameNotFoundError as exc:
                # A script saved by its path on another machine: the game of that name here.
                by_path = self.script.endswith(".lua") or "/" in self.script or "\\" in self.script
                try:
                    if not by_path:
                        raise exc
                    game = Game.load(self.game, runtime, limits=limits)
                except NomvError:
                    raise RecordError(f"{where}: cannot load the game {self.script!r}: {exc}") from None
            except NomvError as exc:
                raise RecordError(f"{where}: cannot load the game {self.script!r}: {exc}") from None
        if game.name != self.game:
            raise RecordError(f"{where}: this record is a game of {self.game!r}, not {game.name!r}")
        try:
            position = game.start(self.options, seed=self.seed, text=False)
        except NomvError as exc:
            raise RecordError(f"{where}: {exc}") from None
        for ply, text in enumerate(self.moves, start=1):
            try:
                play_recorded(position, text, None if self.steps is None else self.steps[ply - 1])
            except NomvError as exc:  # an illegal move, or the script failed on the way
                changed = ""
                if self.script_sha256 and self.script_sha256 != game.sha256:
                    changed = " (the script has changed since the game was saved)"
                shown = repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
                raise RecordError(f"{where}: move {ply} ({shown}) cannot be played: {exc}{changed}") from None
        return position


def play_recorded(position: Position, notation: str, steps: list[str] | None = None) -> Move:
    """Plays a move of a record: by its ``steps`` where the record has them (version 2: the very
    move played, whatever its notation says today), which must still be written ``notation``;
    else by the notation, which the position refuses when it names several moves.  Either way
    a replay never silently plays another game.  IllegalMoveError otherwise."""
    if steps is None:
        return position.play(notation)
    move = position.play(steps)
    if position.history_notation[-1] != notation:
        # The steps and the notation disagree: the record was edited, or the game's notation
        # changed.  Neither is taken on trust.
        raise IllegalMoveError(f"its steps {'-'.join(steps)!r} are written {position.history_notation[-1]!r} "
                               f"by the game, not {notation!r} as recorded")
    return move


_DEEP = re.compile(r"[\[{](?:\s*[\[{]){15}")


def _one_object(line: str) -> bool:
    """Whether a line looks like a whole JSON object (a record of a file of one per line)."""
    return line.lstrip().startswith("{") and line.rstrip().endswith("}")


def _numbered(path: Path) -> tuple[Path, int | None]:
    """``games.jsonl#3`` -> (games.jsonl, 3), when no file has the whole name."""
    m = re.fullmatch(r"(.+)#(\d{1,9})", str(path))
    if m and not path.exists():
        return Path(m.group(1)), int(m.group(2))
    return path, None
