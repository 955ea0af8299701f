"""The window's words for the things of a game: seats, players, results, counts.  Translated
(nomv/gui/i18n.py), with the script's own texts in the player's language; no pygame here."""
from __future__ import annotations

from typing import Any

from ..ai import LEVELS
from ..game import Game, Outcome
from . import i18n
from .i18n import _

#: What a click on a seat cycles through: a person, then the computer players (nomv/ai), from
#: the easiest.  Any other player spec ("mcts:5s") given on the command line works too.
SEAT_KINDS = ("human",) + tuple(spec for spec, _level in LEVELS)


def seat_label(kind: str) -> str:
    """Who plays a seat, in words: "human", "computer (medium, 1 s)"."""
    if kind == "human":
        return _("human")
    level = dict(LEVELS).get(kind)
    if level == "random":
        return _("computer (random)")
    if level is not None:
        seconds = kind.split(":", 1)[1].rstrip("s")
        return _("computer ({level}, {seconds} s)").format(level=_(level), seconds=seconds)
    return _("computer ({kind})").format(kind=kind)


def next_seat_kind(kind: str) -> str:
    """The seat kind after ``kind`` in SEAT_KINDS (a kind not offered there goes to human)."""
    return SEAT_KINDS[(SEAT_KINDS.index(kind) + 1) % len(SEAT_KINDS)] if kind in SEAT_KINDS else "human"


def player_name(game: Game, p: int) -> str:
    """Player p's name in the player's language (the script may give it in several)."""
    if p <= len(game.players.names):
        return game.players.name(p, i18n.language)
    return _("Player {n}").format(n=p)


def game_title(game: Game) -> str:
    return i18n.localized(game.engine.description.get("title"), game.title)


def count_moves(n: int) -> str:
    return _("1 move") if n == 1 else _("{n} moves").format(n=n)


def describe_outcome(game: Game, outcome: Outcome) -> str:
    """The result in words: "Black wins (3, 1): reason"."""
    if outcome.winner is not None:
        text = _("{name} wins").format(name=player_name(game, outcome.winner))
    elif 1 not in outcome.ranks:
        text = _("Everyone loses") if len(outcome.ranks) > 1 else _("{name} loses").format(name=player_name(game, 1))
    else:
        best = [player_name(game, p + 1) for p, r in enumerate(outcome.ranks) if r == 1]
        text = _("Draw") if len(best) == len(outcome.ranks) else _("Draw between {names}").format(names=", ".join(best))
    if outcome.scores is not None:
        text += " (" + ", ".join(_number(s) for s in outcome.scores) + ")"
    if outcome.reason:
        text += ": " + i18n.localized(outcome.reason, str(outcome.reason))
    return text


def _number(x: Any) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
