"""The checker's diagnostic codes.  A code never changes meaning; docs/checker.md shows a bad
and a fixed example of each.  E = error (``nomv check`` exits 1), W = warning."""
from __future__ import annotations

#: code -> (short name, what it means)
CODES: dict[str, tuple[str, str]] = {
    "E001": ("syntax", "the script is not valid Lua"),
    "E002": ("not-a-table", "the script does not return a table"),
    "E003": ("forbidden", "the script names a facility the sandbox refuses (io, os, require, load, debug, ...)"),
    "E010": ("missing-field", "a required field or hook (name, setup, moves, play, result) is missing"),
    "E011": ("bad-field-type", "a field of the game table has the wrong type"),
    "W020": ("unknown-field", "the game table has a field nomv does not know (often a misspelled hook)"),
    "E030": ("bad-option", "an option table is malformed (default outside its range, empty choices, ...)"),
    "E031": ("bad-variant", "a variant sets an unknown option or a value the option does not allow"),
    "E032": ("bad-players", "the players table is not sane"),
    "E033": ("options-refused", "the game's check() refuses its own default options or a variant"),
    "E040": ("setup-not-plain", "setup returned something other than plain data"),
    "E041": ("state-not-plain", "play (or view) returned something other than a plain-data state"),
    "E050": ("bad-move", "a move is empty, or a step is not a non-empty string, or moves (or steps) returned no list"),
    "E051": ("duplicate-move", "the same move is listed twice in one position"),
    "E052": ("dead-end", "moves is empty while result says the game goes on"),
    "E053": ("bad-result", "result returned something malformed"),
    "E054": ("steps-disagree", "steps describes other moves than moves lists"),
    "E055": ("bad-return", "check, view, text or another hook returned the wrong kind of value"),
    "E056": ("bad-determinize", "determinize gave a state the player could tell from the real one, "
                                "or one with other legal moves"),
    "W057": ("no-determinize", "the game hides information (view) but has no determinize: the "
                               "computer player searches the view as if it were the whole state"),
    "E058": ("bad-evaluate", "evaluate returned something other than a number from 0 to 1"),
    "E060": ("play-mutates-input", "play (or random_move, view, determinize, evaluate) changed the state it was given"),
    "E061": ("nondeterministic", "the same seed and moves gave a different game"),
    "E062": ("no-end", "a random game did not end within the ply limit"),
    "E063": ("to-move-out-of-range", "the player to move is not a player number"),
    "W064": ("over-at-start", "every random game ended before its first move: the game is over "
                              "at the start (often a steps that returns {} for a whole move)"),
    "E070": ("random-move-illegal", "random_move returned a move that is not legal"),
    "W071": ("random-move-misses-moves", "random_move never returned some legal move in a small position"),
    "E080": ("notation-round-trip", "a move's notation does not name that move (duplicate notation, parse disagrees)"),
    "E090": ("step-not-in-scene",
             "a step of a legal move names no item of the scene, though it looks like one of the scene's places"),
    "E091": ("bad-scene", "the scene is malformed (unknown shape, missing field, bad colour, size not positive)"),
    "W092": ("scene-outside-bounds", "a scene item lies outside the scene's bounds"),
    "W093": ("duplicate-scene-id", "two scene items have the same id, so a click is ambiguous"),
    "E100": ("script-raised", "the script raised an error"),
    "E101": ("time-limit", "a call into the script took longer than the time limit (an endless loop?)"),
    "E102": ("memory-limit", "the script used more memory than the limit"),
    "W110": ("uncovered-lines", "lines of the script never ran during the random games"),
}


def is_error(code: str) -> bool:
    return code.startswith("E")
