"""The words a player reads about a match, in the reader's language, the same in every face.

- :func:`turn_line`: the one line that says whose turn it is (by person and role) or how the
  match ended (naming the winner, or the places);
- :func:`result_text`: how a match ended, in words;
- :func:`offer_lines`: the offers pending (a draw, a takeback);
- :func:`role`, :func:`who`, :func:`player_label`, :func:`computer_label`: how seats are named;
- :func:`option_label`, :func:`option_help`: a game's options as players read them.

A seat is named by its role (the script's name for it: "White") and, where known, the person
or program playing it: "White (alice)", "Black (computer)".  The reader's own seat is "you".

>>> from .match import COMPUTER, PERSON, MatchView, Result, Seat
>>> seats = (Seat(1, {"en": "White", "it": "Bianco"}, PERSON, name="alice"),
...          Seat(2, {"en": "Black", "it": "Nero"}, COMPUTER, spec="medium", you=False))
>>> turn_line(MatchView(seats, to_move=2), "it").text
'Muove Nero (computer)'
>>> result_text(MatchView(seats, result=Result((1, 2), (3, 1))), "en")
'White (alice) wins (3, 1)'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..languages import localized
from ..options import OptionSpec
from .match import (ABORT, ABORTED, CANCELLED, COMPUTER, DECLINED, DRAW_AGREED, OPEN, RESIGNED, RUNNING,
                    TIMEOUT, WAITING, MatchView, Result, Seat)
from .policy import LEVELS
from .words import translator

#: The line's kinds: the reader's turn, another's turn, the end, waiting for players, a match
#: that was never played.
YOURS, TURN, RESULT, WAITS, NOT_PLAYED = "yours", "turn", "result", "waiting", "not played"


@dataclass(frozen=True)
class Line:
    """The one line a player reads about a match, and what kind of line it is."""

    text: str
    kind: str

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "kind": self.kind}


# -- seats -----------------------------------------------------------------------------------------

def role(seat: Seat, lang: str) -> str:
    """The seat's role as the script names it ("White"), else "Player 2"."""
    _ = translator(lang)
    return localized(seat.role, lang) or _("Player {n}").format(n=seat.number)


def person(seat: Seat, lang: str) -> str | None:
    """Who plays the seat, in a word: a person's name, "computer", "open"; None for a person at
    this screen (who needs no name)."""
    _ = translator(lang)
    if seat.kind == COMPUTER:
        return _("computer")
    if seat.kind == OPEN:
        return _("open seat")
    return seat.name


def who(seat: Seat, lang: str) -> str:
    """The seat by role and person: "White (alice)", "Black (computer)", "White"."""
    named = person(seat, lang)
    return f"{role(seat, lang)} ({named})" if named else role(seat, lang)


def _names(seats: Sequence[Seat], lang: str) -> str:
    _ = translator(lang)
    names = [who(s, lang) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def computer_label(spec: str | None, lang: str) -> str:
    """A computer player in words, from its spec or its level's name: "computer (medium, 1 s)"."""
    _ = translator(lang)
    kind = dict((name, s) for s, name in LEVELS).get(spec or "", spec or "")
    level = dict(LEVELS).get(kind)
    if level == "random":
        return _("computer (random)")
    if level is not None:
        seconds = kind.split(":", 1)[1].rstrip("s")
        return _("computer ({level}, {seconds} s)").format(level=level_name(level, lang), seconds=seconds)
    return _("computer ({kind})").format(kind=kind or "?")


def level_name(level: str, lang: str) -> str:
    """A computer player's level in words: easy, medium, hard, random."""
    _ = translator(lang)
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard"), "random": _("random")}.get(level, level)


def player_label(seat: Seat, lang: str) -> str:
    """Who plays a seat, for the seat's row: a person's name (or "human" at this screen), the
    computer player and its level, or an open seat."""
    _ = translator(lang)
    if seat.kind == COMPUTER:
        return computer_label(seat.spec, lang)
    if seat.kind == OPEN:
        return _("open seat")
    return seat.name or _("human")


def seat_notes(match: MatchView, seat: Seat, lang: str) -> list[str]:
    """What a seat's row says beside its player: you, thinking, the computer's estimate, a
    challenge not yet accepted."""
    _ = translator(lang)
    notes = []
    if seat.you and any(not s.you for s in match.seats):
        notes.append(_("you"))
    if match.status == RUNNING and match.thinking == seat.number:
        notes.append(_("thinking"))
    elif seat.kind == COMPUTER and seat.expects is not None and not match.over:
        notes.append(expects(seat.expects, lang))
    if not seat.accepted and match.status == WAITING:
        notes.append(_("not accepted yet"))
    return notes


def expects(value: float, lang: str) -> str:
    """A computer player's estimate of its share of the points: "expects 62%"."""
    _ = translator(lang)
    return _("expects {percent}%").format(percent=round(100 * value))


# -- the line ----------------------------------------------------------------------------------------

def turn_line(match: MatchView, lang: str) -> Line:
    """The one line about the match: the result once it has ended, else whose turn it is (the
    reader's own, or another's by role and person), or what it waits for."""
    _ = translator(lang)
    if match.result is not None:
        return Line(result_text(match, lang), RESULT)
    if match.status == CANCELLED:
        return Line(_("The match was cancelled"), NOT_PLAYED)
    if match.status == DECLINED:
        return Line(_("The challenge was declined"), NOT_PLAYED)
    if match.status == ABORTED:
        return Line(_("The match was aborted"), NOT_PLAYED)
    if match.status == WAITING:
        if any(s.you and not s.accepted for s in match.seats):
            return Line(_("You are challenged: accept or decline"), WAITS)
        waiting = [s for s in match.seats if s.kind == OPEN or not s.accepted]
        return Line(_("Waiting for {names}").format(names=_names(waiting, lang)), WAITS)
    if match.to_move is None:
        return Line("", TURN)
    seat = match.seat(match.to_move)
    if seat.you:
        return Line(_("Your turn ({role})").format(role=role(seat, lang)), YOURS)
    return Line(_("{who} to move").format(who=who(seat, lang)), TURN)


def result_text(match: MatchView, lang: str, result: Result | None = None) -> str:
    """How the match ended: the winner (or those who share the win, or a draw), the places of
    a game of three or more, the scores, and why (the script's reason, a resignation, time)."""
    _ = translator(lang)
    result = result or match.result
    if result is None:
        return ""
    if result.how == DRAW_AGREED:
        return _("Draw agreed")
    if result.how == ABORT:
        return _("The match was aborted")
    seats = match.seats
    firsts = [match.seat(p) for p in result.firsts if p <= len(seats)]
    if len(firsts) == 1:
        text = _("You win ({role})").format(role=role(firsts[0], lang)) if firsts[0].you else \
            _("{who} wins").format(who=who(firsts[0], lang))
    elif not firsts:
        if len(seats) == 1:
            text = _("You lose") if seats[0].you else _("{who} loses").format(who=who(seats[0], lang))
        else:
            text = _("Everyone loses")
    elif len(firsts) == len(seats):
        text = _("Draw")
    else:
        text = _("{names} share the win").format(names=_names(firsts, lang))
    if result.scores is not None:
        text += " (" + ", ".join(_number(s) for s in result.scores) + ")"
    if len(seats) > 2 and len(set(result.ranks)) > 2:
        places = ", ".join(f"{r}. {who(match.seat(p), lang)}"
                           for p, r in sorted(enumerate(result.ranks, start=1), key=lambda t: (t[1], t[0])))
        text += "; " + _("places: {places}").format(places=places)
    by = match.seat(result.by) if result.by is not None and result.by <= len(seats) else None
    if result.how == RESIGNED and by is not None:
        text += ": " + (_("you resigned") if by.you else _("{who} resigned").format(who=who(by, lang)))
    elif result.how == TIMEOUT and by is not None:
        text += ": " + (_("your time ran out") if by.you else _("{who} ran out of time").format(who=who(by, lang)))
    elif result.reason:
        text += ": " + localized(result.reason, lang, str(result.reason))
    return text


def status_line(match: MatchView, status: Any, lang: str) -> str:
    """The script's status line of the position (a text or a table of languages) while the
    match runs; nothing once it has ended, when the one line says how (a status written for a
    running game would be stale after a resignation, and the result would read twice)."""
    return "" if match.over else localized(status, lang)


def offer_lines(match: MatchView, lang: str) -> list[str]:
    """The offers pending: a draw offered, a takeback asked for (the reader's own, or another's)."""
    _ = translator(lang)
    if match.status != RUNNING or match.result is not None:
        return []
    out = []
    offered = [match.seat(p) for p in match.draw_offer if p <= len(match.seats)]
    if any(s.you for s in offered):
        out.append(_("You offered a draw"))
    elif offered:
        out.append(_("{who} offers a draw").format(who=_names(offered, lang)))
    back = match.takeback
    if back is not None and back.by <= len(match.seats):
        by = match.seat(back.by)
        if by.you:
            out.append(_("You asked to take back a move"))
        else:
            out.append(_("{who} asks to take back a move").format(who=who(by, lang)))
    return out


def draw_declined(match: MatchView, seat: int, value: float | None, lang: str) -> str:
    """Why a computer player declined a draw: it expects more than half, or has not judged yet."""
    _ = translator(lang)
    name = who(match.seat(seat), lang)
    if value is None:
        return _("{who} declines the draw: it has not judged the game yet").format(who=name)
    return _("{who} declines the draw: it expects {percent}%").format(who=name, percent=round(100 * value))


def status_word(status: str, lang: str) -> str:
    """A match's state in a word, for lists: waiting, playing, ended, cancelled, declined."""
    _ = translator(lang)
    return {WAITING: _("waiting"), RUNNING: _("playing"), "ended": _("ended"), CANCELLED: _("cancelled"),
            DECLINED: _("declined"), ABORTED: _("aborted")}.get(status, status)


def count_moves(n: int, lang: str) -> str:
    _ = translator(lang)
    return _("1 move") if n == 1 else _("{n} moves").format(n=n)


def _number(x: Any) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


# -- options ---------------------------------------------------------------------------------------

def _nomv_players_option(spec: OptionSpec) -> bool:
    """The ``players`` option nomv makes from a script's players table (not the script's own)."""
    return spec.name == "players" and spec.order == -1


def option_label(spec: OptionSpec, lang: str) -> str:
    """An option's name as players read it: the script's ``label``, else its name."""
    _ = translator(lang)
    if spec.label:
        return localized(spec.label, lang, spec.name)
    if _nomv_players_option(spec):
        return _("players")
    return spec.name.replace("_", " ")


def option_help(spec: OptionSpec, lang: str) -> str:
    """What an option does: the script's ``help``, else the values it allows, in words."""
    _ = translator(lang)
    if _nomv_players_option(spec):
        return _("number of players")
    return localized(spec.help, lang) or spec.allowed(_)


def option_allowed(spec: OptionSpec, lang: str) -> str:
    """The values an option allows, in words."""
    return spec.allowed(translator(lang))
