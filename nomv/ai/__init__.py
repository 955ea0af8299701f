"""Computer players: a uniformly random player and Monte Carlo tree search (which runs inside
the game's Lua runtime), a parser for player specs such as ``mcts:1s``, and matches between
players.

>>> import nomv
>>> from nomv.ai import make_agent
>>> pos = nomv.Game.load("tictactoe").start(seed=1)
>>> for move in ("a1", "a2", "b1", "b2"):
...     _ = pos.play(move)
>>> make_agent("mcts:2000it:seed=1").choose(pos)     # X completes the top row
Move(steps=('c1',))
"""
from .agents import (DEFAULT_COMPUTER, LEVELS, Agent, MctsAgent, RandomAgent, describe_kinds,
                     is_player, make_agent, parse_players)

__all__ = ["Agent", "RandomAgent", "MctsAgent", "make_agent", "parse_players", "describe_kinds",
           "is_player", "LEVELS", "DEFAULT_COMPUTER"]
