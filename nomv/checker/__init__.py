"""``nomv check``: finds the mistakes in a game script before any player does.

>>> from nomv.checker import check
>>> report = check("games/tictactoe.lua", playouts=2, stats_games=20)
>>> report.ok
True

The model only: no pygame.  Codes are listed in :data:`CODES` and documented with examples in
docs/checker.md.
"""
from .codes import CODES
from .core import check
from .report import Diagnostic, Report, ScriptReport

__all__ = ["CODES", "Diagnostic", "Report", "ScriptReport", "check"]
