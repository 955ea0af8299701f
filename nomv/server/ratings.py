"""Ratings per game (openskill's Plackett-Luce model: 2 to 4 players and more, ties allowed),
updated in the transaction that ends a rated match, and the standings they give."""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce

from .store import now, ratings, users

_model = PlackettLuce()

#: A rated match changes ratings only once every player has made this many moves, however it
#: ends.  A resignation, a loss on time or an agreed draw in the first moves says nothing of
#: anyone's skill, and is how sock-puppet accounts farm a rating (one resigns at once, again and
#: again); a game that its own rules end that early (an uploaded script can) would do as well.
MIN_MOVES_EACH = 2


def too_short(seats: list[int], movers: list[int]) -> str | None:
    """Why a rated match between ``seats`` whose moves were made by ``movers`` (a seat a move)
    changes no rating, or None when it does."""
    if all(movers.count(seat) >= MIN_MOVES_EACH for seat in seats):
        return None
    return (f"not rated: it ended before every player had made {MIN_MOVES_EACH} moves "
            "(a match that short says nothing of anyone's skill)")


#: A rating is provisional while its uncertainty is above this (openskill starts at 25/3 ≈ 8.3;
#: about ten games bring it under).
PROVISIONAL_SIGMA = 5.0


def display(mu: float, sigma: float) -> float:
    """The rating shown: openskill's own conservative estimate (mu - 3 sigma, 0 for a new
    player) on a familiar scale: a new player shows 1000, good players 1800-2200, and it is
    never negative."""
    return max(0.0, round(1000 + (mu - 3 * sigma) * 40, 1))


def provisional(sigma: float) -> bool:
    """Whether a rating is still provisional (too few games to say much)."""
    return sigma > PROVISIONAL_SIGMA


def update(db: sa.Connection, game: str, user_ids: list[int], ranks: list[int]) -> dict[int, dict]:
    """Rates a finished match: ``user_ids[i]`` held seat i+1 and finished ``ranks[i]`` (1 is
    first; equal ranks are a tie).  Returns each user's rating before and after."""
    current: dict[int, sa.Row[Any]] = {}
    row: sa.Row[Any] | None
    # Locked (PostgreSQL) until the match's transaction ends: two matches of one player ending
    # at once must not both update the rating they read.  SQLite writes one at a time anyway.
    for row in db.execute(sa.select(ratings).where(ratings.c.game == game,
                                                   ratings.c.user_id.in_(user_ids)).with_for_update()):
        current[row.user_id] = row
    teams = []
    for uid in user_ids:
        row = current.get(uid)
        teams.append([_model.rating(mu=row.mu, sigma=row.sigma) if row else _model.rating()])
    rated = _model.rate(teams, ranks=list(ranks))
    first = min(ranks)
    shared = ranks.count(first) > 1
    out = {}
    t = now()
    for uid, rank, before, (after,) in zip(user_ids, ranks, teams, rated):
        row = current.get(uid)
        won = rank == first and not shared
        drew = rank == first and shared
        values = {"mu": after.mu, "sigma": after.sigma, "updated_at": t}
        if row is None:
            db.execute(ratings.insert().values(user_id=uid, game=game, games=1, wins=int(won),
                                               draws=int(drew), losses=int(not won and not drew),
                                               **values))
        else:
            db.execute(ratings.update().where(ratings.c.user_id == uid, ratings.c.game == game)
                       .values(games=row.games + 1, wins=row.wins + int(won), draws=row.draws + int(drew),
                               losses=row.losses + int(not won and not drew), **values))
        out[uid] = {"before": display(before[0].mu, before[0].sigma), "after": display(after.mu, after.sigma),
                    "provisional": provisional(after.sigma)}
    return out


def standings(db: sa.Connection, game: str, limit: int = 100) -> list[dict]:
    rows = db.execute(sa.select(ratings, users.c.name).join(users, users.c.id == ratings.c.user_id)
                      .where(ratings.c.game == game)).all()
    rows = sorted(rows, key=lambda r: (-(r.mu - 3 * r.sigma), r.name.lower()))
    return [{"rank": i + 1, "name": r.name, "rating": display(r.mu, r.sigma), "mu": round(r.mu, 3),
             "sigma": round(r.sigma, 3), "provisional": provisional(r.sigma), "games": r.games, "wins": r.wins, "draws": r.draws,
             "losses": r.losses} for i, r in enumerate(rows[:limit])]


def of_user(db: sa.Connection, user_id: int) -> list[dict]:
    rows = db.execute(sa.select(ratings).where(ratings.c.user_id == user_id)).all()
    return [{"game": r.game, "rating": display(r.mu, r.sigma), "provisional": provisional(r.sigma),
             "games": r.games, "wins": r.wins,
             "draws": r.draws, "losses": r.losses} for r in sorted(rows, key=lambda r: r.game)]
