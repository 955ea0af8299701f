"""The lab's figures: pure functions of a run's records (nomv/lab/records.py) and its header.

Each function takes the records (one dict a game, in plan order) and returns plain data for the
JSON report; none reads the clock or the machine, so the same records give the same figures
wherever they were played.  Where a figure has a convention, the docstring says which
(docs/lab.md says what each means to a designer).

>>> recs = [{"set": "main", "game": 1, "end": "won", "winner": 1, "ranks": [1, 2], "plies": 3},
...         {"set": "main", "game": 2, "end": "drawn", "ranks": [1, 1], "plies": 4}]
>>> [s["score"] for s in seats(recs, 2)]
[0.75, 0.25]
>>> balance(recs, 2)["value"]
0.5
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Iterable, Sequence

from ..stats import wilson

#: A rung of the skill ladder counts as a level of its own when the one-sided 90% lower bound
#: of its score against the rung below is at least this.
LEVEL_SCORE = 0.6
Z_LOWER_90 = 1.281552           # one-sided 90%
#: The winner is "clear" once every later search gives them at least this expected result.
CLEAR = 0.9
#: Openings listed at most.
OPENINGS = 12

Record = dict[str, Any]


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def finished(records: Iterable[Record]) -> list[Record]:
    """The games that did not fail (won, drawn, lost by everyone, or cut)."""
    return [r for r in records if r.get("end") != "error"]


# -- outcomes ------------------------------------------------------------------------------------

def _seat_result(r: Record, p: int) -> str:
    """'win', 'draw' or 'loss' for seat p (from 1).  A game cut at --max-plies counts as a draw
    for every seat (as nomv match counts an unfinished game)."""
    if r["end"] == "cut":
        return "draw"
    if r.get("winner") == p:
        return "win"
    ranks = r.get("ranks") or []
    if r["end"] == "drawn" and len(ranks) >= p and ranks[p - 1] == 1:
        return "draw"
    return "loss"


def seats(records: Sequence[Record], players: int) -> list[dict[str, Any]]:
    """Each seat's wins, draws and losses, score ((wins + draws/2)/games) and its 95% Wilson
    interval, over the games that did not fail."""
    games = finished(records)
    out = []
    for p in range(1, players + 1):
        tally = Counter(_seat_result(r, p) for r in games)
        n = len(games)
        points = tally["win"] + tally["draw"] / 2
        lo, hi = wilson(points, n)
        out.append({"seat": p, "wins": tally["win"], "draws": tally["draw"], "losses": tally["loss"],
                    "win_rate": _r(tally["win"] / n if n else None), "score": _r(points / n if n else None),
                    "ci95": [_r(lo), _r(hi)]})
    return out


def balance(records: Sequence[Record], players: int) -> dict[str, Any]:
    """1 - the largest gap between two seats' win rates (1: every seat wins as often; 0: one
    seat always wins), with a 95% interval from the gap's variance ((a + b - (a - b)^2) / n for
    two seats' rates a and b of the same games)."""
    games = finished(records)
    n = len(games)
    if players < 2 or n == 0:
        return {"value": None, "ci95": [None, None], "seats": None}
    rates = [sum(r.get("winner") == p for r in games) / n for p in range(1, players + 1)]
    hi_seat = max(range(players), key=lambda i: (rates[i], -i))
    lo_seat = min(range(players), key=lambda i: (rates[i], i))
    gap = rates[hi_seat] - rates[lo_seat]
    half = 1.959964 * math.sqrt(max(0.0, rates[hi_seat] + rates[lo_seat] - gap * gap) / n)
    return {"value": _r(1 - gap), "ci95": [_r(max(0.0, 1 - gap - half)), _r(min(1.0, 1 - gap + half))],
            "seats": [hi_seat + 1, lo_seat + 1]}


def first_player(seat_list: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Seat 1's score against a fair share (1/players): its advantage, and whether the 95%
    interval excludes the fair share."""
    s = seat_list[0]
    fair = 1 / players
    lo, hi = s["ci95"]
    verdict = ("an advantage" if lo is not None and lo > fair else "a disadvantage" if hi is not None and hi < fair
               else "no clear advantage")
    return {"score": s["score"], "ci95": s["ci95"], "fair": _r(fair),
            "advantage": _r(None if s["score"] is None else s["score"] - fair), "verdict": verdict}


def ends(records: Sequence[Record]) -> dict[str, int]:
    """How games ended: won (one winner), drawn (several share first place), lost (nobody
    first: a puzzle not solved), cut at --max-plies, or failed with a script error."""
    tally = Counter(r.get("end") for r in records)
    return {"won": tally["won"], "drawn": tally["drawn"], "lost": tally["lost"], "cut": tally["cut"],
            "errors": tally["error"]}


def errors(records: Sequence[Record], limit: int = 10) -> list[dict[str, Any]]:
    """The script's errors during games, each with how many games it stopped and the first of
    them.  Errors at the same line of the same hook are one error (LuaJIT and Lua 5.4, on which
    the traced games run, word some messages differently): its message is the first game's."""
    groups: dict[tuple, list[Record]] = defaultdict(list)
    for r in records:
        if r.get("end") == "error":
            e = r.get("error") or {}
            key = (e.get("line"), e.get("hook"), e.get("code"), e.get("kind"))
            groups[key if e.get("line") else key + (e.get("message"),)].append(r)
    out = []
    for key, rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), str(kv[0]))):
        e = rs[0].get("error") or {}
        line, hook, code, kind = key[:4]
        out.append({"message": e.get("message"), "line": line, "hook": hook, "code": code, "kind": kind,
                    "games": len(rs), "first": {"set": rs[0]["set"], "game": rs[0]["game"], "seed": rs[0]["seed"],
                                                "plies": rs[0].get("plies", 0)}})
    return out[:limit]


def _text(reason: Any) -> str:
    if isinstance(reason, dict):
        return str(reason.get("en") or next(iter(reason.values()), ""))
    return str(reason)


def reasons(records: Sequence[Record], limit: int = 8) -> list[dict[str, Any]]:
    """The reasons result() gave for the games' ends, most frequent first."""
    tally = Counter(_text(r["reason"]) for r in records if r.get("reason"))
    return [{"reason": k, "games": v} for k, v in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]


# -- length --------------------------------------------------------------------------------------

def _describe(values: list[int]) -> dict[str, Any]:
    n = len(values)
    if n == 0:
        return {"mean": None, "sd": None, "min": None, "max": None, "median": None}
    mean = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    ordered = sorted(values)
    median = (ordered[(n - 1) // 2] + ordered[n // 2]) / 2
    return {"mean": _r(mean), "sd": _r(sd), "min": ordered[0], "max": ordered[-1], "median": median}


def histogram(values: list[int], bins: int = 30) -> dict[str, list[int]]:
    """Whole-number values in at most ``bins`` bins of equal width: {"edges", "counts"};
    bin i holds edges[i] <= v < edges[i + 1]."""
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    count = (hi - lo) // width + 1
    counts = [0] * count
    for v in values:
        counts[(v - lo) // width] += 1
    return {"edges": [lo + i * width for i in range(count + 1)], "counts": counts}


def length(records: Sequence[Record]) -> dict[str, Any]:
    """Plies (moves) and turns (a turn: one player's moves in a row) of the games that did not
    fail: mean, sample standard deviation, min, max, median, and a histogram of plies."""
    games = finished(records)
    plies = [r["plies"] for r in games]
    out = _describe(plies)
    out["histogram"] = histogram(plies)
    out["turns"] = _describe([int(r["turns"] if "turns" in r else r["plies"]) for r in games])
    return out


# -- branching, decisions, the tree ------------------------------------------------------------

def _branching_games(records: Sequence[Record]) -> list[list[int]]:
    return [r["branching"] for r in finished(records) if isinstance(r.get("branching"), list)]


def branching(records: Sequence[Record], longest: int = 400) -> dict[str, Any]:
    """The legal moves of the positions played (counted in the detailed games): their mean
    over every position, and its course: the mean at each ply over the games that reached it,
    with the quartiles."""
    games = _branching_games(records)
    total = sum(len(b) for b in games)
    if not total:
        return {"mean": None, "games": len(games), "positions": 0, "by_ply": []}
    by_ply = []
    for t in range(min(longest, max(len(b) for b in games))):
        here = sorted(b[t] for b in games if len(b) > t)
        if len(here) < max(3, len(games) // 20):
            break
        by_ply.append({"ply": t + 1, "mean": _r(math.fsum(here) / len(here), 2), "games": len(here),
                       "q1": here[len(here) // 4], "q3": here[(3 * len(here)) // 4]})
    return {"mean": _r(math.fsum(sum(b) for b in games) / total, 3), "games": len(games), "positions": total,
            "max": max(max(b) for b in games if b), "by_ply": by_ply}


def decision_moves(records: Sequence[Record]) -> float | None:
    """The share of the positions played where the player had more than one legal move."""
    games = _branching_games(records)
    total = sum(len(b) for b in games)
    return _r(sum(x > 1 for b in games for x in b) / total) if total else None


def tree_size(records: Sequence[Record]) -> dict[str, Any]:
    """The number of distinct games (the game tree's leaves), as Knuth's estimator gives it: the
    mean over uniformly random games of the product of the legal moves counted at each ply.
    Given as log10; a game cut at --max-plies counts the tree down to that depth."""
    games = _branching_games(records)
    if not games:
        return {"log10": None, "games": 0}
    logs = [math.fsum(math.log(x) for x in b if x > 0) for b in games]
    top = max(logs)
    log_mean = top + math.log(math.fsum(math.exp(v - top) for v in logs) / len(logs))
    return {"log10": _r(log_mean / math.log(10), 3), "games": len(games)}


def repetition(records: Sequence[Record]) -> dict[str, Any]:
    """The share of a game's positions (the start and after each ply) that repeat an earlier
    position of the same game, as a true fraction per game, then the mean over games."""
    games = [r for r in finished(records) if "repeats" in r]
    if not games:
        return {"mean": None, "games": 0, "games_with_repeats": 0}
    shares = [r["repeats"] / (r["plies"] + 1) for r in games]
    return {"mean": _r(math.fsum(shares) / len(shares)), "games": len(games),
            "games_with_repeats": sum(r["repeats"] > 0 for r in games)}


# -- coverage --------------------------------------------------------------------------------------

def board(records: Sequence[Record], places: dict[str, Any]) -> dict[str, Any]:
    """How often each place (a step id that names a place of the start's scene) was part of a
    move, over the detailed games; coverage: the share of places used at least once."""
    counts: Counter[str] = Counter()
    games = 0
    for r in finished(records):
        if isinstance(r.get("cells"), dict):
            games += 1
            counts.update(r["cells"])
    if not places:
        return {"places": 0, "used": None, "coverage": None, "games": games, "counts": {}}
    on_board = {k: counts.get(k, 0) for k in places}
    used = sum(v > 0 for v in on_board.values())
    return {"places": len(places), "used": used, "coverage": _r(used / len(places)) if games else None,
            "games": games, "counts": on_board, "never": sorted(k for k, v in on_board.items() if v == 0)[:40]}


def move_kinds(records: Sequence[Record]) -> list[dict[str, Any]]:
    """The kinds of moves played (a move's label, else what its steps are: "1 place", "2 places",
    "1 place + rotate", "pass": nomv/lua/host/lab.lua), with their share of the moves of the
    detailed games."""
    counts: Counter[str] = Counter()
    for r in finished(records):
        if isinstance(r.get("kinds"), dict):
            counts.update(r["kinds"])
    total = sum(counts.values())
    return [{"kind": k, "moves": v, "share": _r(v / total)} for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def _trivial(line: str) -> bool:
    """A line of only `end`, `else` or closing brackets: never a rule of its own."""
    import re
    return bool(re.fullmatch(r"\s*(end|else|[)}\]]+)[\s,;)}\]]*(--.*)?", line))


def rules(records: Sequence[Record], source: str, settings: Sequence[dict[str, Any]] = (),
          fixed: Sequence[str] = ()) -> dict[str, Any]:
    """Rule coverage from the traced games: of the script's lines that the rules can run, those
    that ran with the run's options; those that ran only in the traced games of other settings
    (``settings``: {set, label}, each with the labels of the settings that ran them); and those
    that never ran at all (``unused_lines``), as lines and ranges (a range ends at the next line
    that ran).  ``fixed``: the options no setting varied (text), named so that lines only they
    reach are not taken for dead code.  Errors in other settings' games are named too."""
    from ..checker.report import line_ranges
    traced = [r for r in records if r.get("traced") and r["set"] == "main"]
    label_of = {st["set"]: st["label"] for st in settings}
    others = [r for r in records if r.get("traced") and r["set"] in label_of]
    if not traced:
        return {"traced_games": 0, "other_games": 0, "active": None, "ran": None, "unused_lines": [], "ranges": [],
                "other_options": [], "settings": [], "fixed_options": list(fixed), "errors": []}
    ran: set[int] = set()
    active: set[int] = set()
    for r in traced + others:
        active.update(r.get("active", []))
    for r in traced:
        ran.update(r.get("lines", []))
    by_line: dict[int, list[str]] = defaultdict(list)
    for r in others:
        for line in r.get("lines", []):
            if label_of[r["set"]] not in by_line[line]:
                by_line[line].append(label_of[r["set"]])
    text = source.split("\n")
    active = {line for line in active if not (0 < line <= len(text) and _trivial(text[line - 1]))}
    elsewhere = {line for line in active - ran if line in by_line}
    unused = sorted(active - ran - elsewhere)
    ran_anywhere = ran | set(by_line)
    other_ranges = []
    for a, b in line_ranges(sorted(active - set(unused)), ran):
        labels = list(dict.fromkeys(lab for line in range(a, b + 1) for lab in by_line.get(line, [])))
        other_ranges.append({"range": [a, b], "settings": labels})
    found = [{**e, "setting": st["label"]} for st in settings
             for e in errors([r for r in others if r["set"] == st["set"]])]
    return {"traced_games": len(traced), "other_games": len(others), "active": len(active), "ran": len(active & ran),
            "ran_elsewhere": len(elsewhere), "unused_lines": unused,
            "ranges": [list(x) for x in line_ranges(sorted(active), ran_anywhere)],
            "other_options": other_ranges, "settings": [st["label"] for st in settings],
            "fixed_options": list(fixed), "errors": found}


# -- openings, MCTS games ------------------------------------------------------------------------

def openings(records: Sequence[Record], players: int, limit: int = OPENINGS) -> list[dict[str, Any]]:
    """Seat 1's score by the first move played (the most played first), with its 95% interval."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for r in finished(records):
        if r.get("first"):
            groups[r["first"]].append(r)
    out = []
    for move, rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:limit]:
        points = sum({"win": 1.0, "draw": 0.5, "loss": 0.0}[_seat_result(r, 1)] for r in rs)
        lo, hi = wilson(points, len(rs))
        out.append({"move": move, "games": len(rs), "score": _r(points / len(rs)), "ci95": [_r(lo), _r(hi)]})
    return out


def _leaders(values: list[Any]) -> list[tuple[int, list[float]]]:
    """(ply index, values) of the plies searched."""
    return [(i, v) for i, v in enumerate(values) if isinstance(v, list) and v]


def _leader(v: list[float]) -> int | None:
    best = max(v)
    top = [p for p, x in enumerate(v) if x == best]
    return top[0] + 1 if len(top) == 1 else None


def lead_changes(values: list[Any]) -> int:
    """How often the leader (the player the search expects most of) changed, counted from the
    second searched ply: the first leader is no change (Ludii counts it as one).

    >>> lead_changes([[0.6, 0.4], False, [0.4, 0.6], [0.5, 0.5], [0.7, 0.3]])
    2
    """
    changes, last = 0, None
    for _, v in _leaders(values):
        now = _leader(v)
        if now is None:
            continue
        if last is not None and now != last:
            changes += 1
        last = now
    return changes


def leads(records: Sequence[Record], agents_searching: Any) -> dict[str, Any]:
    """From games in which every seat searched: lead changes per game; drama (how often, and
    how far, the eventual winner was behind); decisiveness (the share of a game played after
    the winner was clear: from the first search after which every search gave them at least
    CLEAR)."""
    games = [r for r in finished(records) if isinstance(r.get("values"), list)
             and all(agents_searching(s) for s in r["seats"])]
    if not games:
        return {"games": 0}
    changes = [lead_changes(r["values"]) for r in games]
    behind_games, behind_share, deficits, tails = 0, [], [], []
    for r in games:
        w = r.get("winner")
        searched = _leaders(r["values"])
        if not w or not searched:
            continue
        behind = [max(x for p, x in enumerate(v) if p != w - 1) - v[w - 1] for _, v in searched]
        worst = max(behind)
        behind_share.append(sum(b > 0 for b in behind) / len(behind))
        if worst > 0:
            behind_games += 1
            deficits.append(worst)
        clear = r["plies"]
        for i, v in reversed(searched):
            if v[w - 1] < CLEAR:
                break
            clear = i
        tails.append((r["plies"] - clear) / r["plies"] if r["plies"] else 0.0)
    decided = len(behind_share)
    return {"games": len(games),
            "lead_changes": {"mean": _r(math.fsum(changes) / len(changes)), "max": max(changes),
                             "histogram": histogram(changes, bins=20)},
            "drama": {"games_won": decided, "winner_behind": _r(behind_games / decided) if decided else None,
                      "share_behind": _r(math.fsum(behind_share) / decided) if decided else None,
                      "mean_deficit": _r(math.fsum(deficits) / len(deficits)) if deficits else None},
            "decisiveness": {"after_clear": _r(math.fsum(tails) / len(tails)) if tails else None,
                             "threshold": CLEAR}}


# -- the skill ladder -------------------------------------------------------------------------

def _reward(r: Record, seat: int, players: int) -> float:
    """A seat's result from 0 to 1 by ranks (beating every other 1, a tie 1/2 each): two
    players, a win 1, a draw 1/2; a cut game 1/2."""
    ranks = r.get("ranks")
    if r["end"] == "cut" or not ranks:
        return 0.5
    mine = ranks[seat - 1]
    beaten = sum(1.0 if x > mine else 0.5 if x == mine else 0.0 for q, x in enumerate(ranks) if q != seat - 1)
    return beaten / (players - 1)


def ladder(records: Sequence[Record], rungs: Sequence[str], players: int) -> dict[str, Any]:
    """The skill ladder: each rung's score against the rung below (the same deals, every seat
    in turn), its one-sided 90% lower bound, whether it counts as a level of its own (the bound
    at least LEVEL_SCORE), Elo from a Bradley-Terry fit of every game (choix; random at 0), the
    number of levels, the first rung where skill stops paying, and the gap strong - random."""
    import choix
    pairings: list[dict[str, Any]] = []
    comparisons: list[tuple[int, int]] = []
    for k in range(1, len(rungs)):
        games = finished(r for r in records if r["set"] == f"ladder {k}")
        points = 0.0
        for r in games:
            seat = r["seats"].index(rungs[k]) + 1
            reward = _reward(r, seat, players)
            points += reward
            # Two comparisons a game, so that a draw is half a win each way.
            wins = round(2 * reward)
            comparisons += [(k, k - 1)] * wins + [(k - 1, k)] * (2 - wins)
        n = len(games)
        lower = wilson(points, n, z=Z_LOWER_90)[0] if n else 0.0
        pairings.append({"agent": rungs[k], "against": rungs[k - 1], "games": n,
                         "score": _r(points / n if n else None), "lower90": _r(lower),
                         "counts": bool(n and lower >= LEVEL_SCORE)})
    if comparisons:
        strengths = choix.opt_pairwise(len(rungs), comparisons, alpha=0.01)
        elo = [float(x) * 400 / math.log(10) for x in strengths]
        elo = [round(x - elo[0], 1) for x in elo]
    else:
        elo = [0.0] * len(rungs)
    levels = 1 + sum(bool(p["counts"]) for p in pairings)
    # Skill stops paying where no rung from there up is a level of its own: at the first of the
    # rungs above the last that counts (none when the top rung still counts).  A rung below
    # that which does not count is "unclear": a later rung beats it clearly.
    last = max((k for k, p in enumerate(pairings) if p["counts"]), default=-1)
    stops = pairings[last + 1]["agent"] if last + 1 < len(pairings) else None
    unclear = [p["agent"] for p in pairings[:max(last, 0)] if not p["counts"]]
    per_rung = min((int(p["games"]) for p in pairings), default=0)
    return {"ladder": [{"agent": a, "elo": e} for a, e in zip(rungs, elo)], "levels": levels,
            "pairings": pairings, "stops_at": stops, "unclear": unclear, "top_counts": last == len(pairings) - 1,
            "gap": round(elo[-1] - elo[0], 1), "games_per_rung": per_rung,
            "power": {f"{x:.2f}": _r(level_power(per_rung, x), 2) for x in (0.65, 0.7, 0.75, 0.8)},
            "detectable": detectable(per_rung)}


def level_power(games: int, score: float) -> float:
    """The chance that a rung whose true score against the rung below is ``score`` shows as a
    level of its own over ``games`` games (its one-sided 90% lower bound at least LEVEL_SCORE),
    each game a win or a loss (draws, half a point each, make a level a little likelier).

    >>> round(level_power(150, 0.70), 2), round(level_power(20, 0.70), 2)
    (0.91, 0.42)
    """
    if games <= 0:
        return 0.0
    total = 0.0
    for k in range(games + 1):
        if wilson(k, games, z=Z_LOWER_90)[0] >= LEVEL_SCORE:
            total += math.exp(math.lgamma(games + 1) - math.lgamma(k + 1) - math.lgamma(games - k + 1)
                              + (k * math.log(score) if k else 0.0)
                              + ((games - k) * math.log1p(-score) if games - k else 0.0))
    return min(1.0, total)


def detectable(games: int, chance: float = 0.9) -> float | None:
    """The least true score (to 0.01) that shows as a level with at least ``chance`` over
    ``games`` games: the difference between rungs that many games can find.

    >>> detectable(150), detectable(20)
    (0.7, 0.84)
    """
    return next((x / 100 for x in range(60, 100) if level_power(games, x / 100) >= chance), None)
