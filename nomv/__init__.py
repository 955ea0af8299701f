"""nomv: play and write abstract board games as Lua scripts.

The core API::

    game = nomv.Game.load("trinim")            # a bundled name or a path to a .lua file
    pos = game.start(options={"size": 5}, seed=1)
    pos.legal_moves; pos.play("D4-D2"); pos.undo(); pos.outcome()
    nomv.Record.from_position(pos).save("game.nomv.json"); nomv.Record.load("game.nomv.json").replay()
"""
from .errors import (GameNotFoundError, GameOverError, IllegalMoveError, LimitError, NomvError,
                     OptionError, RecordError, ScriptError)
from .game import Game, Move, Outcome, PlayoutStats, Position
from .limits import Limits
from .pool import EnginePool
from .record import Record

__version__ = "0.1.0"
__all__ = ["Game", "Position", "Move", "Outcome", "PlayoutStats", "Record", "NomvError",
           "ScriptError", "LimitError", "OptionError", "IllegalMoveError", "GameOverError",
           "RecordError", "GameNotFoundError", "Limits", "EnginePool", "__version__"]
