"""The lab's report as text for the terminal: every figure, then under it its verdict (ok, watch,
unclear: nomv/lab/verdicts.py) or, where no value is good or bad in itself, what a good value
looks like.  (The same figures as JSON are nomv/lab/run.py's ``report``; as a page,
nomv/lab/html.py.)"""
from __future__ import annotations

from typing import Any

from .verdicts import line

INDENT = " " * 14


def _pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def share(kind: dict[str, Any]) -> str:
    """A kind's share of the moves: whole percents, but never "0%" for moves that were played."""
    return "<1%" if kind["moves"] and kind["share"] < 0.005 else f"{100 * kind['share']:.0f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def ranges_text(ranges: list[list[int]], limit: int = 12) -> str:
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:limit]]
    more = f" and {len(ranges) - limit} more ranges" if len(ranges) > limit else ""
    return ", ".join(parts) + more


def kinds_text(kinds: list[dict[str, Any]], limit: int = 6) -> str:
    shown = ", ".join(f"{k['kind']} {share(k)}" for k in kinds[:limit])
    return shown + (f" and {len(kinds) - limit} more kinds" if len(kinds) > limit else "")


def power_text(sk: dict[str, Any]) -> str:
    """What the ladder's games per rung can find, in words."""
    n, power = sk["games_per_rung"], sk["power"]
    found = f"a rung that truly scores 0.70 against the one below shows as a level {_pct(power['0.70'], 0)} of the time"
    least = (f"; it finds a rung at least 90% of the time once the rung truly scores {sk['detectable']:.2f} or more"
             if sk.get("detectable") else "; no true score finds a rung 90% of the time with so few games")
    return f"{n} games a rung (every seat in turn on the same deals): {found}{least}"


def played_text(rep: dict[str, Any]) -> str:
    """The games played in all: the run's, the skill ladder's, those with other options."""
    played = rep.get("played") or {"main": rep["games"]}
    parts = [f"{played['main']:,} games"]
    if played.get("ladder"):
        parts.append(f"{played['ladder']:,} of the skill ladder")
    if played.get("options"):
        parts.append(f"{played['options']:,} with other options (rule coverage)")
    return " + ".join(parts)


def format_text(rep: dict[str, Any], title: str, seat_names: list[str], script: str = "") -> str:
    """The report as the terminal shows it."""
    out: list[str] = []
    verdicts = rep.get("verdicts") or {}
    who = " against ".join(dict.fromkeys(rep["agents"])) + " players"
    opts = ", ".join(f"{k}={v}" for k, v in rep["options"].items() if k != "players" and v != "")
    out.append(f"{title}, {rep['players']} player{'s' if rep['players'] != 1 else ''}"
               f"{', ' + opts if opts else ''}: {rep['games']:,} games of {who}, seed {rep['seed']}")
    if "seconds" in rep:
        out.append(f"{'':<14}{played_text(rep)} in {rep['seconds']:.1f} s ({rep['games_per_second']:,.0f} games/s, "
                   f"{rep['where']})")
    if rep.get("missing_games"):
        out.append(f"  note: {rep['missing_games']:,} games of the run are missing (a part not merged): "
                   "the figures are of the others")

    def section(name: str, text: str, key: str | None = None) -> None:
        out.append(f"{name:<14}{text}")
        if key and key in verdicts:
            out.append(f"{INDENT}  {line(verdicts[key])}")

    out.append("")
    width = max(8, *(len(n) for n in seat_names))
    out.append(f"{'outcomes':<14}{'seat':<{width}}  {'wins':>6} {'draws':>6} {'losses':>6}  {'score':>5}  95% interval")
    for s, name in zip(rep["seats"], seat_names):
        lo, hi = s["ci95"]
        out.append(f"{INDENT}{name:<{width}}  {s['wins']:>6} {s['draws']:>6} {s['losses']:>6}  "
                   f"{_num(s['score'], 3):>5}  {_num(lo, 3)}-{_num(hi, 3)}")
    fp = rep.get("first_player")
    if fp:
        lo, hi = fp["ci95"]
        section("first player", f"score {_num(fp['score'], 3)} ({_num(lo, 3)}-{_num(hi, 3)}) against a fair "
                f"{_num(fp['fair'], 3)}: {fp['verdict']}", "first_player")
        b = rep["balance"]
        section("balance", f"{_num(b['value'], 3)} (95% interval {_num(b['ci95'][0], 3)}-{_num(b['ci95'][1], 3)})",
                "balance")
    e = rep["ends"]
    total = max(1, sum(e.values()))
    ends = ", ".join(f"{k} {_pct(v / total)}" for k, v in e.items() if v or k in ("won", "drawn", "cut"))
    section("ends", ends)
    for r in rep["reasons"][:4]:
        out.append(f"{INDENT}  {r['games']:,} × {r['reason']}")
    if len(rep["reasons"]) > 4:
        out.append(f"{INDENT}  and {len(rep['reasons']) - 4} more reasons")
    for err in rep["errors"]:
        where = f"{script}:{err['line']}" if err.get("line") else script
        code = f" [{err['code']}]" if err.get("code") else ""
        first = err["first"]
        out.append(f"{INDENT}  error{code} in {err['games']:,} game{'s' if err['games'] != 1 else ''}: {where}: "
                   f"{err['message']}{' (in ' + err['hook'] + ')' if err.get('hook') else ''}"
                   f" — first in game {first['game']} (seed {first['seed']}) at ply {first['plies'] + 1}")
    if "ends" in verdicts:
        out.append(f"{INDENT}  {line(verdicts['ends'])}")
    ln = rep["length"]
    if ln["mean"] is not None:
        turns = ln["turns"]
        extra = f"; {_num(turns['mean'])} turns" if turns["mean"] != ln["mean"] else ""
        section("length", f"{_num(ln['mean'])} plies (sd {_num(ln['sd'])}, {ln['min']}-{ln['max']}, median "
                f"{ln['median']:g}){extra}", "length")
    br = rep["branching"]
    if br["mean"] is not None:
        section("branching", f"{_num(br['mean'])} legal moves on average (at most {br['max']:,}), over "
                f"{br['games']:,} games counted move by move", "branching")
        section("decisions", f"{_pct(rep['decision_moves'])} of positions have more than one legal move", "decision_moves")
        ts = rep["tree_size"]
        section("game tree", f"about 10^{ts['log10']:.1f} distinct games (Knuth's estimate from {ts['games']:,} games)",
                "tree_size")
    rp = rep["repetition"]
    if rp["mean"] is not None:
        section("repetition", f"{_pct(rp['mean'], 2)} of a game's positions repeat an earlier one "
                f"({rp['games_with_repeats']:,} of {rp['games']:,} games have a repeat)", "repetition")
    bd = rep["board"]
    if bd.get("places") and bd.get("coverage") is not None:
        never = f"; never: {', '.join(bd['never'][:10])}" if bd["never"] else ""
        section("board", f"{bd['used']} of {bd['places']} places played ({_pct(bd['coverage'], 0)}){never}", "board")
    kinds = rep["move_kinds"]
    if kinds:
        section("move kinds", kinds_text(kinds), "move_kinds")
    _rules(rep, script, section, out)
    ops = rep["openings"]
    if ops and rep["players"] > 1:
        shown = ", ".join(f"{o['move']} {_num(o['score'], 2)} ({o['games']:,})" for o in ops[:6])
        section("openings", f"first player's score by first move (games): {shown}", "openings")
    sk = rep.get("skill")
    if sk:
        ladder = ", ".join(f"{r['agent']} {r['elo']:+.0f}" for r in sk["ladder"])
        section("skill", f"Elo {ladder}")
        for p in sk["pairings"]:
            mark = "a level of its own" if p["counts"] else "not clearly better"
            out.append(f"{INDENT}  {p['agent']} vs {p['against']}: score {_num(p['score'], 3)} over {p['games']} games, "
                       f"90% lower bound {_num(p['lower90'], 3)}: {mark}")
        out.append(f"{INDENT}  {power_text(sk)}")
        out.append(f"{INDENT}  {sk['levels']} level{'s' if sk['levels'] != 1 else ''}; skill gap "
                   f"{sk['ladder'][-1]['agent']} - random: {sk['gap']:+.0f} Elo")
        if "skill" in verdicts:
            out.append(f"{INDENT}  {line(verdicts['skill'])}")
    ld = rep["leads"]
    if ld.get("games"):
        lc, dr, dc = ld["lead_changes"], ld["drama"], ld["decisiveness"]
        section("lead changes", f"{_num(lc['mean'], 2)} a game (at most {lc['max']}) over {ld['games']} MCTS games",
                "lead_changes")
        section("drama", f"the winner was behind at some point in {_pct(dr['winner_behind'], 0)} of games won, "
                f"for {_pct(dr['share_behind'], 0)} of the searches, by {_num(dr['mean_deficit'], 2)} on average "
                "at worst", "drama")
        section("decisiveness", f"{_pct(dc['after_clear'], 0)} of a game is played after the winner is clear "
                f"(expected to win at {dc['threshold']:.0%} or more at every later search)", "decisiveness")
    elif not sk:
        out.append(f"{INDENT}(lead changes, drama, decisiveness and the skill ladder need MCTS games: "
                   "--agents mcts:200it, or --skill)")
    return "\n".join(out)


def _rules(rep: dict[str, Any], script: str, section: Any, out: list[str]) -> None:
    rules = rep["rules"]
    if not rules["traced_games"]:
        return
    text = f"{rules['ran']} of {rules['active']} lines of the rules ran in {rules['traced_games']} traced games"
    if rules.get("settings"):
        text += f" (and {rules['other_games']} with other options)"
    section("rules", text)
    for part in rules.get("other_options") or []:
        a, b = part["range"]
        out.append(f"{INDENT}  {script}:{a if a == b else f'{a}-{b}'} ran only with {', '.join(part['settings'][:3])}")
    if rules["ranges"]:
        fixed = rules.get("fixed_options") or []
        why = f" (with no option tried; the lab cannot vary {', '.join(fixed)})" if fixed else ""
        out.append(f"{INDENT}  never ran{why}: {script}:{ranges_text(rules['ranges'])}")
    for err in rules.get("errors") or []:
        where = f"{script}:{err['line']}: " if err.get("line") else ""
        out.append(f"{INDENT}  error with {err['setting']} in {err['games']} game{'s' if err['games'] != 1 else ''}: "
                   f"{where}{err['message']}")
    verdict = (rep.get("verdicts") or {}).get("rules")
    if verdict:
        out.append(f"{INDENT}  {line(verdict)}")
