"""What each figure of a lab report says: what a good value looks like, and, where the figure
itself can tell, whether this game's value is one.

A verdict is ``ok`` (the figure is a good value), ``watch`` (it is not: the text says what is
off), ``unclear`` (the figure cannot tell yet: more games would), or ``None`` (no value is good
or bad in itself: only the good value is said).  Each is a pure function of the report's
figures, so that no line of a report can call good what its own figures contradict.  The
thresholds are constants here, and docs/lab.md gives the same ones.
"""
from __future__ import annotations

from statistics import NormalDist
from typing import Any, Callable

#: What a good value looks like, by figure (the terminal, the page and docs/lab.md agree).
GOOD = {
    "first_player": "a 95% interval that holds the fair share",
    "balance": "0.95 or more, the seats' win rates within 5 points",
    "ends": "no errors and few games cut (under 1%); draws as the design intends",
    "length": "long enough for plans, short enough to replay; a narrow spread",
    "branching": "a real choice without drowning the player: 2 to 1,000 moves",
    "decision_moves": "90% or more: almost every move is a real choice",
    "tree_size": "10^6 distinct games or more: too many to learn by heart",
    "repetition": "under 1%: positions do not come back",
    "board": "every place gets played",
    "move_kinds": "each kind of move gets played",
    "rules": "every line of the rules runs in some game",
    "openings": "no first move clearly better or worse than the rest",
    "skill": "3 levels or more: a stronger player keeps beating a weaker one",
    "lead_changes": "about 1 to 6 a game: the lead can change hands",
    "drama": "the winner behind at some point in some games, not in all (10% to 90%)",
    "decisiveness": "under 20%: a game ends soon after its winner is clear",
}

BALANCE_GOOD = 0.95
CUT_SHARE = 0.01
BRANCHING = (2.0, 1000.0)
DECISIONS = 0.9
TREE_LOG10 = 6.0
REPETITION = 0.01
LEAD_CHANGES = (0.5, 6.0)
DRAMA = (0.1, 0.9)
DECISIVENESS = 0.2
#: Fewer MCTS games than this cannot tell lead changes, drama or decisiveness.
FEW_GAMES = 10
#: A first move is named only when played in at least this many games.
OPENING_GAMES = 20

Verdict = dict[str, Any]


def _v(key: str, verdict: str | None, says: str = "") -> Verdict:
    return {"verdict": verdict, "says": says, "good": GOOD[key]}


def _pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f}%"


def first_player(rep: dict[str, Any]) -> Verdict | None:
    fp = rep.get("first_player")
    if not fp or fp["score"] is None:
        return None
    lo, hi = fp["ci95"]
    fair = fp["fair"]
    if lo <= fair <= hi:
        return _v("first_player", "ok", f"the interval {lo:.3f}-{hi:.3f} holds the fair share {fair:.3f}")
    side = "above" if lo > fair else "below"
    return _v("first_player", "watch", f"the first player scores {abs(fp['advantage']) * 100:.1f} points {side} the fair "
              f"share {fair:.3f} (interval {lo:.3f}-{hi:.3f})")


def balance(rep: dict[str, Any]) -> Verdict | None:
    b = rep["balance"]
    if b["value"] is None:
        return None
    lo, hi = b["ci95"]
    gap = f"seat {b['seats'][0]} wins {100 * (1 - b['value']):.1f} points more often than seat {b['seats'][1]}"
    if lo >= BALANCE_GOOD:
        return _v("balance", "ok", f"the interval {lo:.3f}-{hi:.3f} lies at {BALANCE_GOOD} or more")
    if hi < BALANCE_GOOD:
        return _v("balance", "watch", f"{gap}: the interval {lo:.3f}-{hi:.3f} lies below {BALANCE_GOOD}")
    return _v("balance", "unclear", f"{gap}; the interval {lo:.3f}-{hi:.3f} straddles {BALANCE_GOOD}: more games tell")


def ends(rep: dict[str, Any]) -> Verdict:
    e = rep["ends"]
    total = max(1, sum(e.values()))
    problems = []
    if e["errors"]:
        problems.append(f"{e['errors']:,} game{'s' if e['errors'] != 1 else ''} failed with a script error")
    if e["cut"] / total >= CUT_SHARE:
        problems.append(f"{_pct(e['cut'] / total, 1)} of games were cut at {rep['max_plies']:,} plies: an end random "
                        "play does not reach")
    if problems:
        return _v("ends", "watch", "; ".join(problems))
    return _v("ends", "ok", "no errors" + (f", {e['cut']:,} games cut" if e["cut"] else ", no game cut"))


def branching(rep: dict[str, Any]) -> Verdict | None:
    mean = rep["branching"]["mean"]
    if mean is None:
        return None
    lo, hi = BRANCHING
    if mean < lo:
        return _v("branching", "watch", f"{mean:.1f} moves a position on average: little to choose from")
    if mean > hi:
        return _v("branching", "watch", f"{mean:,.0f} moves a position on average: too many to weigh")
    return _v("branching", "ok", f"{mean:.1f} moves a position on average")


def decision_moves(rep: dict[str, Any]) -> Verdict | None:
    share = rep["decision_moves"]
    if share is None:
        return None
    if share >= DECISIONS:
        return _v("decision_moves", "ok", f"{_pct(share, 1)} of positions offer a choice")
    return _v("decision_moves", "watch", f"{_pct(1 - share, 1)} of positions offer a single move: forced moves a "
              "player only clicks through")


def tree_size(rep: dict[str, Any]) -> Verdict | None:
    log10 = rep["tree_size"]["log10"]
    if log10 is None:
        return None
    if log10 >= TREE_LOG10:
        return _v("tree_size", "ok", f"about 10^{log10:.1f} games")
    return _v("tree_size", "watch", f"about 10^{log10:.1f} games only: players can learn the game by heart")


def repetition(rep: dict[str, Any]) -> Verdict | None:
    mean = rep["repetition"]["mean"]
    if mean is None:
        return None
    if mean < REPETITION:
        return _v("repetition", "ok", f"{_pct(mean, 2)} of positions repeat")
    return _v("repetition", "watch", f"{_pct(mean, 1)} of a game's positions repeat an earlier one")


def board(rep: dict[str, Any]) -> Verdict | None:
    bd = rep["board"]
    if not bd.get("places") or bd.get("coverage") is None:
        return None
    never = bd["places"] - bd["used"]
    if never == 0:
        return _v("board", "ok", f"all {bd['places']} places were played")
    return _v("board", "watch", f"{never} of {bd['places']} places were never part of a move in {bd['games']:,} games")


def move_kinds(rep: dict[str, Any]) -> Verdict | None:
    return _v("move_kinds", None) if rep["move_kinds"] else None


def rules(rep: dict[str, Any]) -> Verdict | None:
    r = rep["rules"]
    if not r["traced_games"]:
        return None
    never, errors = len(r["unused_lines"]), r.get("errors") or []
    elsewhere = r.get("ran_elsewhere") or 0
    other = f"; {elsewhere} more ran only with other options" if elsewhere else ""
    if errors:
        e = errors[0]
        where = f"line {e['line']}: " if e.get("line") else ""
        return _v("rules", "watch", f"with {e['setting']}, {e['games']} game{'s' if e['games'] != 1 else ''} failed: "
                  f"{where}{e['message']}")
    if never:
        fixed = r.get("fixed_options") or []
        hint = (f" (or reached only through {', '.join(fixed)}, which the lab cannot vary)" if fixed else "")
        return _v("rules", "watch", f"{never} line{'s' if never != 1 else ''} never ran in any traced game{hint}{other}")
    return _v("rules", "ok", f"every line ran{other}")


def opening_intervals(rep: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """The first moves compared (played in OPENING_GAMES games or more), each with its interval
    widened for the number compared (Bonferroni): together they hold the true scores 95% of the
    time.  The page shows these, so that its table and the verdict below it read the same."""
    from ..stats import wilson
    ops = [o for o in rep["openings"] if o["games"] >= OPENING_GAMES]
    if len(ops) < 2:
        return {}
    z = NormalDist().inv_cdf(1 - 0.025 / len(ops))
    return {o["move"]: wilson(o["score"] * o["games"], o["games"], z=z) for o in ops}


def openings(rep: dict[str, Any]) -> Verdict | None:
    """A first move scores clearly apart when its widened interval (opening_intervals) excludes
    the first player's score over all games."""
    fp = rep.get("first_player")
    intervals = opening_intervals(rep)
    if not fp or fp["score"] is None or not intervals:
        return None
    overall = fp["score"]
    apart = []
    for o in sorted(rep["openings"], key=lambda o: -abs(o["score"] - overall)):      # (the farthest first)
        lo, hi = intervals.get(o["move"], (0.0, 1.0))
        if lo > overall or hi < overall:
            apart.append(f"{o['move']} scores {o['score']:.2f} over {o['games']:,} games")
    n = len(intervals)
    if apart:
        return _v("openings", "watch", "; ".join(apart[:3]) + f", against {overall:.2f} over all games")
    return _v("openings", "ok", f"no first move scores clearly apart from {overall:.2f}: every interval of the {n} "
              f"moves played in {OPENING_GAMES} games or more holds it")


def skill(rep: dict[str, Any]) -> Verdict | None:
    sk = rep.get("skill")
    if not sk:
        return None
    levels = sk["levels"]
    unclear = (f"; {', '.join(sk['unclear'])} not clearly better than the rung below, though a later rung is"
               if sk.get("unclear") else "")
    if levels >= 3:
        more = (f"; skill still pays at the top rung, {sk['ladder'][-1]['agent']}" if sk["top_counts"] else
                f"; no level from {sk['stops_at']} up")
        return _v("skill", "ok", f"{levels} levels{more}{unclear}")
    if sk["top_counts"]:
        return _v("skill", "unclear", f"{levels} level{'s' if levels != 1 else ''}, but skill still pays at the top rung "
                  f"({sk['ladder'][-1]['agent']}): more rungs (--rungs) may show more{unclear}")
    return _v("skill", "watch", f"{levels} level{'s' if levels != 1 else ''}: skill stops paying at {sk['stops_at']}"
              f"{unclear}")


def _leads(rep: dict[str, Any]) -> dict[str, Any] | None:
    ld = rep.get("leads") or {}
    return ld if ld.get("games") else None


def lead_changes(rep: dict[str, Any]) -> Verdict | None:
    ld = _leads(rep)
    if ld is None:
        return None
    mean = ld["lead_changes"]["mean"]
    if ld["games"] < FEW_GAMES:
        return _v("lead_changes", "unclear", f"{ld['games']} MCTS games only")
    lo, hi = LEAD_CHANGES
    if mean < lo:
        return _v("lead_changes", "watch", f"{mean:.2f} a game: the first leader usually keeps the lead")
    if mean > hi:
        return _v("lead_changes", "watch", f"{mean:.1f} a game: the lead swings back and forth (a long game, or "
                  "searches too short to judge it)")
    return _v("lead_changes", "ok", f"{mean:.2f} a game")


def drama(rep: dict[str, Any]) -> Verdict | None:
    ld = _leads(rep)
    if ld is None or ld["drama"]["winner_behind"] is None:
        return None
    behind, won = ld["drama"]["winner_behind"], ld["drama"]["games_won"]
    if won < FEW_GAMES:
        return _v("drama", "unclear", f"{won} games won only")
    lo, hi = DRAMA
    if behind > hi:
        return _v("drama", "watch", f"the winner was behind in {_pct(behind)} of games won: being ahead says little "
                  "about who wins")
    if behind < lo:
        return _v("drama", "watch", f"the winner was behind in {_pct(behind)} of games won: no comebacks")
    return _v("drama", "ok", f"the winner was behind in {_pct(behind)} of games won")


def decisiveness(rep: dict[str, Any]) -> Verdict | None:
    ld = _leads(rep)
    if ld is None or ld["decisiveness"]["after_clear"] is None:
        return None
    tail = ld["decisiveness"]["after_clear"]
    if tail <= DECISIVENESS:
        return _v("decisiveness", "ok", f"{_pct(tail)} of a game after its winner is clear")
    return _v("decisiveness", "watch", f"{_pct(tail)} of a game is played after its winner is clear: a long dead end")


def length(rep: dict[str, Any]) -> Verdict | None:
    return _v("length", None) if rep["length"]["mean"] is not None else None


JUDGES: dict[str, Callable[[dict[str, Any]], Verdict | None]] = {
    "first_player": first_player, "balance": balance, "ends": ends, "length": length, "branching": branching,
    "decision_moves": decision_moves, "tree_size": tree_size, "repetition": repetition, "board": board,
    "move_kinds": move_kinds, "rules": rules, "openings": openings, "skill": skill, "lead_changes": lead_changes,
    "drama": drama, "decisiveness": decisiveness,
}


def verdicts(rep: dict[str, Any]) -> dict[str, Verdict]:
    """Every figure's verdict that the report's figures allow, by figure."""
    out = {}
    for key, judge in JUDGES.items():
        v = judge(rep)
        if v is not None:
            out[key] = v
    return out


def line(v: Verdict) -> str:
    """A verdict as one line of text: "ok: ...", "watch: ... (a good value: ...)", or only the
    good value."""
    if v["verdict"] is None:
        return f"a good value: {v['good']}"
    if v["verdict"] == "ok":
        return f"ok: {v['says']}"
    return f"{v['verdict']}: {v['says']} (a good value: {v['good']})"

