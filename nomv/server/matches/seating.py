"""Who sits at a match: a seat as a request names it (a user, ``open``, a computer player).  How
seats are named in texts is nomv.play.wording's (through nomv.server.reading)."""
from __future__ import annotations

from typing import Any, Callable

from ...ai.agents import AgentSpecError, MctsAgent, make_agent
from ...play.policy import LEVELS
from ..accounts import User
from ..errors import Invalid
from ..settings import Settings
from .repository import SeatRow

#: The computer levels a seat may name (easy, medium, hard, random) and the player each is.
LEVEL_SPECS = {name: spec for spec, name in LEVELS}


def agent_spec(seat: SeatRow) -> str:
    """The computer player of a computer seat, as nomv.ai.make_agent takes it."""
    return LEVEL_SPECS.get(seat.spec or "", seat.spec or "mcts")


def parse_seat(raw: Any, find_user: Callable[[str], User | None], settings: Settings) -> SeatRow:
    """A seat from its name in a request (its number is set by the caller)."""
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 200:
        raise Invalid("each seat is a user's name, \"open\", or a computer player "
                      "(easy, medium, hard, random, mcts:1s, ...)")
    text = raw.strip()
    low = text.lower()
    if low == "open":
        return SeatRow(0, "open")
    if low in LEVEL_SPECS or low.startswith(("mcts", "random")) and (":" in low or low in ("mcts", "random")):
        spec = LEVEL_SPECS.get(low, text)
        try:
            agent = make_agent(spec)
        except (AgentSpecError, ValueError) as exc:
            raise Invalid(f"seat {text!r}: {exc}") from None
        if isinstance(agent, MctsAgent):
            if agent.seconds is not None and agent.seconds > settings.computer_seconds:
                raise Invalid(f"seat {text!r}: this server lets a computer think at most "
                              f"{settings.computer_seconds:g} s a move")
            if agent.iterations is not None and agent.iterations > settings.computer_iterations:
                raise Invalid(f"seat {text!r}: this server allows at most "
                              f"{settings.computer_iterations} iterations a move")
        return SeatRow(0, "computer", spec=text if low not in LEVEL_SPECS else low, accepted=True)
    if low == "human":
        raise Invalid("name the person: a seat is a user's name, \"open\" or a computer player")
    user = find_user(text)
    if user is None:
        raise Invalid(f"seat {text!r}: no user has this name (a seat is a user's name, "
                      "\"open\", or a computer player such as medium or mcts:1s)")
    return SeatRow(0, "user", user.id, user.name, email=user.email, notify=user.notify)


def parse_seats(raw: Any, players: int, creator: User, find_user: Callable[[str], User | None],
                settings: Settings) -> list[SeatRow]:
    """The seats of a new match, one per player; the creator's own seats are accepted."""
    if not isinstance(raw, list) or not raw:
        raise Invalid(f"seats lists who plays each seat: {players} here")
    if len(raw) != players:
        raise Invalid(f"this match has {players} players: seats must list {players}, not {len(raw)} "
                      "(set the number of players with the option players)")
    out = []
    for number, item in enumerate(raw, start=1):
        seat = parse_seat(item, find_user, settings)
        seat.seat = number
        if seat.kind == "user" and seat.user_id == creator.id:
            seat.accepted = True
        out.append(seat)
    return out

