"""What a reader of the server reads: a match's rows as the play model sees them (nomv/play/
match.py), and the server's answers worded in the reader's language by nomv/play/wording.py,
so that a page, a bot and the desktop window read the same line about the same match.

The reader's language is the ``lang`` of the request (a WebSocket cannot send headers), else
its Accept-Language header, else English.  A script's own texts (titles, rules, player names,
option help) are kept as the script gives them, tables of languages included, from the upload
to the answers; an answer gives each in the reader's language where a plain text is expected
(``title``, a seat's ``role``) and as given in ``info`` and ``title_text``.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..languages import localized
from ..options import OptionSpec
from ..play import wording, words
from ..play.match import COMPUTER, OPEN, PERSON, RUNNING, MatchView, Result, Seat, Takeback


def language(asked: str | None, accept: str | None) -> str:
    """The reader's language: ``asked`` (a request's ``lang``), else the Accept-Language header."""
    return words.normalize(asked) if asked else words.accepted(accept)


def roles(info: Mapping[str, Any] | None) -> list[Any]:
    """The script's names of its seats (texts or tables of languages; None: unnamed)."""
    return list(((info or {}).get("players") or {}).get("names") or [])


def title(info: Mapping[str, Any] | None, game: str, lang: str) -> str:
    """A game's title in the reader's language."""
    return localized((info or {}).get("title"), lang, game) or game


def match_view(row: Any, seats: Sequence[Any], info: Mapping[str, Any] | None, mine: Sequence[int],
               thinking: int | None = None, expects: Mapping[int, float] | None = None) -> MatchView:
    """A match's rows (its row, its seats: objects with seat, kind, user, spec, accepted) as
    the reader holding ``mine`` sees it."""
    names = roles(info)
    kinds = {"computer": COMPUTER, "open": OPEN}
    view_seats = tuple(Seat(s.seat, names[s.seat - 1] if s.seat <= len(names) else None,
                            kinds.get(s.kind, PERSON), name=s.user, spec=s.spec, you=s.seat in mine,
                            accepted=bool(s.accepted), expects=(expects or {}).get(s.seat))
                       for s in seats)
    back = row.takeback
    takeback = Takeback(back["by"], back["ply"], tuple(back.get("agreed") or ())) if back else None
    return MatchView(view_seats, row.status, row.to_move if row.status == RUNNING else None,
                     Result.from_json(row.outcome) if row.outcome else None, tuple(row.draw_offer or ()),
                     takeback, thinking, row.ply)


def worded(view: MatchView, lang: str) -> dict[str, Any]:
    """What an answer about a match says in words: the line (whose turn, or how it ended), the
    offers pending, and each seat's role, player, the two together, and notes."""
    return {"line": wording.turn_line(view, lang).to_json(),
            "offers": wording.offer_lines(view, lang),
            "seats": [{"role": wording.role(s, lang), "label": wording.player_label(s, lang),
                       "who": wording.who(s, lang), "notes": wording.seat_notes(view, s, lang)}
                      for s in view.seats]}


def listed(row: Any, seats: Sequence[Any], info: Mapping[str, Any] | None, mine: Sequence[int],
           lang: str) -> dict[str, Any]:
    """A match of a list (yours, the open challenges, an invitation) in the reader's words: its
    title, the line (whose turn, the result, a challenge) and each seat's words (role, label,
    who, notes), in the order of ``seats``."""
    said = worded(match_view(row, seats, info, mine), lang)
    return {"title": title(info, row.game, lang), "line": said["line"], "seats": said["seats"]}


def record_text(view: MatchView, result: Result) -> str:
    """How a match ends with ``result``, as its record (and the outcome it stores) keeps it: in
    English, each seat by role and player, nobody "you"."""
    anonymous = MatchView(tuple(Seat(s.number, s.role, s.kind, s.name, s.spec) for s in view.seats),
                          view.status, view.to_move, result)
    return wording.result_text(anonymous, "en")


def option(spec: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """An option of the catalogue (as engines.describe keeps it) worded for the reader: its
    label, what it does and the values it allows."""
    known = OptionSpec(spec["name"], spec["type"], spec.get("default"), spec.get("min"), spec.get("max"),
                       tuple(spec.get("choices") or ()), spec.get("help") or "", spec.get("order", 0),
                       spec.get("label"))
    if spec["name"] == "players" and "order" not in spec:     # (described before options kept their order)
        known = OptionSpec(known.name, known.type, known.default, known.min, known.max, known.choices,
                           known.help, -1, known.label)
    return {**spec, "label": wording.option_label(known, lang), "help": wording.option_help(known, lang),
            "allowed": wording.option_allowed(known, lang), "help_text": spec.get("help"),
            "label_text": spec.get("label")}


def game(summary: Mapping[str, Any], info: Mapping[str, Any] | None, lang: str) -> dict[str, Any]:
    """A game of the catalogue worded for the reader: its title, its players' names and its
    options in the reader's language (the script's own texts kept beside, as given)."""
    players = dict(summary.get("players") or {})
    names = roles(info)
    if players:
        players["names"] = [localized(n, lang) or wording.role(Seat(k), lang) for k, n in enumerate(names, start=1)]
        players["name_texts"] = names
    return {**summary, "title": title(info, summary["name"], lang), "title_text": (info or {}).get("title"),
            "players": players or summary.get("players"),
            "options": [option(o, lang) for o in summary.get("options") or []]}


def texts(info: Mapping[str, Any] | None, lang: str) -> dict[str, Any]:
    """A script's information (rules, author, source) in the reader's language."""
    return {k: localized(v, lang, str(v)) for k, v in ((info or {}).get("info") or {}).items()}
