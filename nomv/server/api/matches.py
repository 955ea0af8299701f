"""Matches: starting one, the lists, a match as you may see it (and its earlier positions), and
the acts of a running match: moves, resigning, draws, takebacks.  Each act answers the match as
you see it after it, a move too: a page needs nothing else."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response
from fastapi.concurrency import run_in_threadpool

from .deps import BaseUrl, Lang, MatchId, MaybeMe, Me, ServicesDep, as_seen
from .errors import errors
from .models import AS_SEEN, Created, DrawIn, Earlier, MatchSummary, MoveIn, MyMatch, NewMatch, TakebackIn

router = APIRouter(prefix="/api", tags=["matches"])


def with_links(created: dict[str, Any], base: str) -> dict[str, Any]:
    """A new match's answer with its invitation as links (the API's, and the page's)."""
    token = created.pop("invite")
    return {**created, "invite": f"{base}/api/invites/{token}" if token else None,
            "invite_page": f"{base}/invite/{token}" if token else None}


@router.post("/matches", status_code=201, response_model=Created, summary="Start a match, or challenge people",
             responses=errors(401, 429, write=True))
def create_match(body: NewMatch, base: BaseUrl, current: Me, s: ServicesDep) -> dict[str, Any]:
    """A match of a catalogue game, with options or a variant, and one seat per player:
    a user's name (they accept or decline the challenge: `/accept`, `/decline`), `open`
    (anyone logged in may take it through the invitation link, `invite`), or a computer
    player (`easy`, `medium`, `hard`, `random`, `mcts:1s`, ..., up to the server's limit).
    The match starts once every seat is taken and accepted. 429 when you have created the
    most matches waiting or running that the server keeps for one player."""
    created = s.lobby.create(current, body.game, body.options, body.variant, body.seats,
                             body.time_per_move, body.rated, body.clock)
    return with_links(created, base)


@router.get("/matches", response_model=list[MatchSummary], summary="Recent matches", responses=errors())
def list_matches(s: ServicesDep, status: str | None = Query(None, description="waiting, active, ended, ..."),
                 game: str | None = Query(None)) -> list[dict[str, Any]]:
    """The most recently changed matches, optionally of one status (`waiting` lists the
    matches looking for players) or one game."""
    return s.listings.recent(status, game)


@router.get("/me/matches", response_model=list[MyMatch], summary="Your matches, your turn first",
            responses=errors(401))
def my_matches(current: Me, s: ServicesDep, lang: Lang) -> list[dict[str, Any]]:
    """Your matches: first those where it is your turn (the soonest deadline first), then
    challenges to accept or decline, then your other running matches, then the rest, most
    recently changed first. Each reads as on its page, in your language: its `title`, its
    `line` (your turn, whose turn, the result, a challenge) and its seats' words."""
    return s.listings.mine(current, lang=lang)


@router.get("/matches/{match_id}", **AS_SEEN, summary="A match, as you may see it",
            responses=errors(401, 404))
async def get_match(match_id: MatchId, current: MaybeMe, s: ServicesDep, lang: Lang) -> Response:
    """The match built from your view: a player sees what the game's `view` hook leaves
    them (another's hidden target is not there), a spectator the view of no player, and
    everyone the whole state once the match has ended. `legal_moves` lists your legal moves
    when it is your turn. `outcome` is null while the match runs. What it says in words (`title`,
    `line`, `offers`, `status_line`, the seats' `role`, `label`, `who` and `notes`) is in your
    language (`lang`, else Accept-Language), as the desktop says it (nomv.play.wording); `drawing`
    is what the desktop window draws of `scene` (nomv.play.drawing)."""
    # (an answer made already for your viewer class and sure to be current is sent at once)
    found = s.rounds.remembered(match_id, current, lang=lang)
    if found is None:
        found = await run_in_threadpool(s.rounds.show, match_id, current, lang)
    return as_seen(found)


@router.get("/matches/{match_id}/positions/{ply}", response_model=Earlier, response_model_exclude_unset=True,
            summary="An earlier position of a match, as you may see it", responses=errors(401, 404, 502))
def earlier(ply: int, match_id: MatchId, current: MaybeMe, s: ServicesDep) -> dict[str, Any]:
    """The position after the match's first `ply` moves, from your view (the move list shows
    it when you click a move)."""
    return s.rounds.earlier(match_id, ply, current)


@router.post("/matches/{match_id}/moves", **AS_SEEN, summary="Play a move",
             responses=errors(401, 404, 409, 502, write=True))
def play(body: MoveIn, match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """`{"ply": N, "move": [...steps] or "notation"}`, where N is the ply of the position
    you saw (pbmserv's `move#moveno`). Answers the match as you see it after the move, worded
    in your language (`last_move` is the move played, with its notation). 409 if the match has
    moved on (with the current position in `match`), 422 if the move is illegal (with the
    script's reason), 403 if it is not your turn or not your match, 502 if the game's script failed."""
    return as_seen(s.rounds.play(current, match_id, body.ply, body.move, lang))


@router.post("/matches/{match_id}/resign", **AS_SEEN, summary="Resign",
             responses=errors(401, 404, 409, write=True))
def resign(match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """You lose; with more than two players, the others share the win. Holding several seats,
    you resign the one to move (409 when none is)."""
    return as_seen(s.rounds.resign(current, match_id, lang))


@router.post("/matches/{match_id}/abort", **AS_SEEN, summary="Abort a match before every player has moved",
             responses=errors(401, 404, 409, write=True))
def abort(match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """Ends a running match that no one wins or loses, while some player has made no move yet
    (someone who never turns up; a wrong game chosen). Not rated."""
    return as_seen(s.rounds.abort(current, match_id, lang))


@router.post("/matches/{match_id}/draw", **AS_SEEN, summary="Offer, accept or decline a draw",
             responses=errors(401, 404, 409, write=True))
def draw(body: DrawIn, match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """The match is drawn when every player has offered or accepted. An offer lapses at
    the next move. Computer players answer at once, as on the desktop (nomv.play.policy): each
    accepts when it expects half the points or less; else `draw_offer` stays null and the
    answer's `message` says who declined and why."""
    return as_seen(s.rounds.draw(current, match_id, body.action, lang))


@router.post("/matches/{match_id}/takeback", **AS_SEEN,
             summary="Ask for a takeback, accept or refuse one", responses=errors(401, 404, 409, 502, write=True))
def takeback(body: TakebackIn, match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """`ask` takes back your last move and every move after it once the other players
    accept. Computer players accept at once, except where it would show the future: in a
    game with hidden information, or when the moves to take back drew chance (409)."""
    return as_seen(s.rounds.takeback(current, match_id, body.action, lang))
