"""Challenges and invitations: the open challenges anyone may join, an invitation and its seat,
and answering a challenge (accept, decline) or cancelling your match before it starts.  Each
answer to a challenge is the match as you see it afterwards."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Response

from .deps import Lang, MatchId, Me, ServicesDep, as_seen
from .errors import errors
from .models import AS_SEEN, Challenge, Invitation, JoinIn, Joined

router = APIRouter(prefix="/api", tags=["matches"])


@router.get("/challenges", response_model=list[Challenge], summary="Open challenges to join", responses=errors())
def challenges(s: ServicesDep, lang: Lang) -> list[dict[str, Any]]:
    """Matches waiting for players with a seat open to anyone logged in, newest first,
    each with its invitation token (`POST /api/invites/{token}` takes the seat)."""
    return s.listings.challenges(lang=lang)


@router.post("/matches/{match_id}/accept", **AS_SEEN, summary="Accept a challenge",
             responses=errors(401, 404, 409, write=True))
def accept(match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """Accepts the challenge of a match that names you in a seat; the match starts when
    every seat is taken and accepted."""
    return as_seen(s.lobby.accept(current, match_id, lang))


@router.post("/matches/{match_id}/decline", **AS_SEEN, summary="Decline a challenge",
             responses=errors(401, 404, 409, write=True))
def decline(match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """Declines the challenge of a match that names you: the match will not be played."""
    return as_seen(s.lobby.decline(current, match_id, lang))


@router.post("/matches/{match_id}/cancel", **AS_SEEN, summary="Cancel a match that has not started",
             responses=errors(401, 404, 409, write=True))
def cancel(match_id: MatchId, current: Me, s: ServicesDep, lang: Lang) -> Response:
    """Cancels a match you created, while it waits for players."""
    return as_seen(s.lobby.cancel(current, match_id, lang))


@router.get("/invites/{token}", response_model=Invitation, summary="What an invitation is for",
            responses=errors(404))
def invitation(token: str, s: ServicesDep, lang: Lang) -> dict[str, Any]:
    """The match an invitation link is for: its game, seats and open seats."""
    return s.lobby.invitation_info(token, lang)


#: The body of taking an open seat is optional: without it, the first open seat.
ANY_SEAT = Body(default_factory=JoinIn)


@router.post("/invites/{token}", response_model=Joined, summary="Take an open seat",
             responses=errors(401, 404, 409, write=True))
def join(token: str, current: Me, s: ServicesDep, body: JoinIn = ANY_SEAT) -> dict[str, Any]:
    """Takes an open seat of the invitation's match (the first, or `seat`)."""
    return s.lobby.join(current, token, body.seat)
