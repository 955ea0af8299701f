"""The lab's report as one self-contained page: plots drawn by matplotlib as inline SVG, tables,
no JavaScript and nothing fetched, so that it opens offline and can be mailed around.
(Needs the ``lab`` extra: matplotlib.)"""
from __future__ import annotations

import html
import io
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .report import played_text, power_text, share  # noqa: E402


INK, ACCENT, SOFT, WARN = "#2b2b2b", "#3c64d4", "#c9d6f5", "#d04040"
SEAT_COLOURS = ["#3c64d4", "#d04040", "#2e9e5b", "#d08a20", "#8a4fc0", "#20a0b0"]

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #2b2b2b; margin: 0 auto;
       max-width: 1100px; padding: 24px; line-height: 1.45; background: #fbfaf7; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
.meta { color: #555; } .warn { color: #b03030; } .good { color: #555; }
.verdict { padding: 4px 10px; border-left: 4px solid #bbb; background: #f3f1ec; }
.verdict.ok { border-color: #2e9e5b; } .verdict.ok b { color: #2e7d4f; }
.verdict.watch { border-color: #d08a20; } .verdict.watch b { color: #a05a00; }
.verdict.unclear { border-color: #8a8a8a; } .verdict.note { color: #555; }
table { border-collapse: collapse; margin: 0.6em 0; } td, th { padding: 3px 10px; text-align: right; }
th { border-bottom: 1px solid #bbb; } td.l, th.l { text-align: left; } tr:nth-child(even) td { background: #f0eee8; }
.figure svg { max-width: 100%; height: auto; } .moves { font-family: ui-monospace, monospace; }
pre { background: #f0eee8; padding: 8px; overflow-x: auto; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; align-items: end; }
table { display: block; overflow-x: auto; max-width: 100%; } td { white-space: nowrap; }
@media (max-width: 800px) { .grid { display: block; } }
@media (max-width: 600px) { body { padding: 12px; font-size: 15px; } td, th { padding: 3px 4px; }
  table { font-size: 0.8em; }
  h1 { font-size: 1.4em; } }
"""


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return '<div class="figure">' + text[text.index("<svg"):] + "</div>"


def _fig(width: float = 6.4, height: float = 3.2) -> tuple[Any, Any]:
    fig, ax = plt.subplots(figsize=(width, height))
    ax.spines[["top", "right"]].set_visible(False)
    return fig, ax


def _e(x: Any) -> str:
    return html.escape(str(x))


def _pct(x: float | None, d: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{d}f}%"


def _f(x: float | None, d: int = 3) -> str:
    return "–" if x is None else f"{x:.{d}f}"


def _ci(pair: list[float | None]) -> str:
    return f"{_f(pair[0])}–{_f(pair[1])}"


def _verdict(rep: dict[str, Any], key: str) -> str:
    """The figure's verdict (nomv/lab/verdicts.py): ok, watch or unclear with what it says, or
    only what a good value looks like."""
    v = (rep.get("verdicts") or {}).get(key)
    if not v:
        return ""
    if v["verdict"] is None:
        return f'<p class="verdict note">A good value: {_e(v["good"])}.</p>'
    label = {"ok": "OK", "watch": "Watch", "unclear": "Unclear"}[v["verdict"]]
    good = "" if v["verdict"] == "ok" else f' <span class="good">(a good value: {_e(v["good"])})</span>'
    return f'<p class="verdict {v["verdict"]}"><b>{label}:</b> {_e(v["says"])}.{good}</p>'


def _outcomes(rep: dict[str, Any], names: list[str]) -> str:
    seats = rep["seats"]
    n = max(1, rep["games"] - rep["ends"]["errors"])
    height = 1.6 + 0.4 * len(seats)
    fig, ax = _fig(5.6, height)
    ys = list(range(len(seats)))[::-1]
    wins = [s["wins"] / n for s in seats]
    draws = [s["draws"] / n for s in seats]
    losses = [s["losses"] / n for s in seats]
    ax.barh(ys, wins, color=ACCENT, label="wins")
    ax.barh(ys, draws, left=wins, color="#b8b8b8", label="draws")
    ax.barh(ys, losses, left=[w + d for w, d in zip(wins, draws)], color="#e7b3b3", label="losses")
    ax.set_yticks(ys, names)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(loc="lower right", fontsize=9, frameon=False, ncol=3, bbox_to_anchor=(1, 1))
    shares = _svg(fig)
    # The scores zoomed on their intervals and the fair share: whether an interval holds it shows.
    fig, bx = _fig(5.6, height)
    scores = [s["score"] or 0 for s in seats]
    lows = [s["ci95"][0] or 0 for s in seats]
    highs = [s["ci95"][1] or 0 for s in seats]
    bx.errorbar(scores, ys, xerr=[[sc - lo for sc, lo in zip(scores, lows)], [hi - sc for sc, hi in zip(scores, highs)]],
                fmt="o", color=INK, capsize=4)
    marks = lows + highs
    if rep["players"] > 1:
        fair = 1 / rep["players"]
        marks.append(fair)
        bx.axvline(fair, color=WARN, linestyle="--", linewidth=1, label=f"fair share {fair:.3f}")
        bx.legend(fontsize=9, frameon=False, loc="lower right", bbox_to_anchor=(1, 1))
    pad = max(0.01, 0.15 * (max(marks) - min(marks)))
    bx.set_xlim(max(0.0, min(marks) - pad), min(1.0, max(marks) + pad))
    bx.set_yticks(ys, names)
    bx.set_xlabel("score (wins + draws/2), 95% interval")
    intervals = _svg(fig)
    rows = "".join(f'<tr><td class="l">{_e(name)}</td><td>{s["wins"]:,}</td><td>{s["draws"]:,}</td><td>{s["losses"]:,}'
                   f'</td><td>{_f(s["score"])}</td><td>{_ci(s["ci95"])}</td></tr>' for name, s in zip(names, seats))
    out = [f'<div class="grid">{shares}{intervals}</div>',
           '<table><tr><th class="l">seat</th><th>wins</th><th>draws</th><th>losses</th><th>score</th>'
           f"<th>95% interval</th></tr>{rows}</table>"]
    fp, b = rep.get("first_player"), rep["balance"]
    if fp:
        out.append(f"<p>First player: score {_f(fp['score'])} (95% interval {_ci(fp['ci95'])}) against a "
                   f"fair {_f(fp['fair'])}: <b>{_e(fp['verdict'])}</b>.</p>{_verdict(rep, 'first_player')}")
        out.append(f"<p>Balance: <b>{_f(b['value'])}</b> (95% interval {_ci(b['ci95'])}): 1 minus the largest "
                   f"gap between two seats' win rates.</p>{_verdict(rep, 'balance')}")
    return "".join(out)


def _ends(rep: dict[str, Any], script: str) -> str:
    e = rep["ends"]
    total = max(1, sum(e.values()))
    cells = "".join(f"<td>{v:,} ({_pct(v / total)})</td>" for v in e.values())
    out = [f"<table><tr>{''.join(f'<th>{k}</th>' for k in e)}</tr><tr>{cells}</tr></table>"]
    if rep["reasons"]:
        out.append("<p>Reasons given: " + "; ".join(f"{_e(r['reason'])} ({r['games']:,})" for r in rep["reasons"]) + "</p>")
    for err in rep["errors"]:
        where = f"{script}:{err['line']}" if err.get("line") else script
        first = err["first"]
        out.append(f'<p class="warn">Error in {err["games"]:,} games: {_e(where)}: {_e(err["message"])}'
                   f'{" (in " + _e(err["hook"]) + ")" if err.get("hook") else ""}; first in game {first["game"]} '
                   f'(seed {first["seed"]}) at ply {first["plies"] + 1}.</p>')
    return "".join(out) + _verdict(rep, "ends")


def _length(rep: dict[str, Any]) -> str:
    ln = rep["length"]
    if ln["mean"] is None:
        return "<p>No game finished.</p>"
    h = ln["histogram"]
    fig, ax = _fig()
    widths = [b - a for a, b in zip(h["edges"], h["edges"][1:])]
    # A bin holds the whole numbers a .. a + width - 1: drawn from a - 1/2, so that a bar stands over its values.
    ax.bar([a - 0.5 for a in h["edges"][:-1]], h["counts"], width=widths, align="edge", color=ACCENT, edgecolor="white")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.axvline(ln["mean"], color=WARN, linestyle="--", linewidth=1, label=f"mean {ln['mean']:.1f}")
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.legend(frameon=False, fontsize=8)
    turns = ("" if ln["turns"]["mean"] == ln["mean"] else
             f"; {ln['turns']['mean']:.1f} turns (a turn: one player's moves in a row)")
    text = (f"<p>{ln['mean']:.1f} plies on average (sd {ln['sd']:.1f}, from {ln['min']} to {ln['max']}, median "
            f"{ln['median']:g}){turns}.</p>")
    return _svg(fig) + text + _verdict(rep, "length")


def _branching(rep: dict[str, Any]) -> str:
    br = rep["branching"]
    if br["mean"] is None:
        return "<p>No game was counted move by move.</p>"
    by = br["by_ply"]
    fig, ax = _fig()
    xs = [p["ply"] for p in by]
    ax.fill_between(xs, [p["q1"] for p in by], [p["q3"] for p in by], color=SOFT, label="middle half of games")
    ax.plot(xs, [p["mean"] for p in by], color=ACCENT, label="mean")
    ax.set_xlabel("ply")
    ax.set_ylabel("legal moves")
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False, fontsize=8)
    ts = rep["tree_size"]
    text = (f"<p>{br['mean']:.1f} legal moves on average (at most {br['max']:,}), over {br['games']:,} games counted "
            f"move by move. Decision moves: {_pct(rep['decision_moves'])} of positions have more than one legal move. "
            f"The game tree holds about 10<sup>{ts['log10']:.1f}</sup> distinct games (Knuth's estimate).</p>")
    return (_svg(fig) + text + _verdict(rep, "branching") + _verdict(rep, "decision_moves")
            + _verdict(rep, "tree_size"))


def _board(rep: dict[str, Any], header: dict[str, Any]) -> str:
    """The heat map: the start scene's places drawn as they are (cells' polygons; circles where
    a place is drawn as one), coloured by how many moves touched them, never-played ones ringed."""
    bd = rep["board"]
    shapes = header.get("shapes") or {}
    if not shapes or bd.get("coverage") is None:
        return ""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle, Polygon
    counts = bd["counts"]
    ids = list(shapes)
    patches: list[Any] = []
    for k in ids:
        sh = shapes[k]
        if "polygon" in sh:
            pts = sh["polygon"]
            patches.append(Polygon(list(zip(pts[0::2], pts[1::2])), closed=True))
        else:
            x, y, r = sh["circle"]
            patches.append(Circle((x, y), r))
    values = [counts.get(k, 0) for k in ids]
    fig, ax = plt.subplots(figsize=(5.6, 4.6))
    cells = PatchCollection(patches, cmap="viridis", edgecolor="white", linewidth=0.8)
    cells.set_array(values)
    cells.set_clim(0, max(1, max(values)))          # (from 0: equal use looks equal)
    ax.add_collection(cells)
    never = [p for p, v in zip(patches, values) if v == 0]
    if never:
        import copy
        ax.add_collection(PatchCollection([copy.copy(p) for p in never], facecolor="none", edgecolor=WARN, linewidth=2))
    ax.autoscale_view()
    ax.invert_yaxis()
    ax.set_aspect("equal")
    ax.axis("off")
    fig.colorbar(cells, ax=ax, shrink=0.8, label="moves touching the place")
    text = (f"<p>{bd['used']} of {bd['places']} places were part of a move ({_pct(bd['coverage'], 0)}), over "
            f"{bd['games']:,} games counted place by place")
    text += (f"; never (ringed in red): {_e(', '.join(bd['never']))}</p>" if bd["never"] else ".</p>")
    return "<h2>Board coverage</h2>" + _svg(fig) + text + _verdict(rep, "board")


def _kinds(rep: dict[str, Any]) -> str:
    kinds = rep["move_kinds"]
    if not kinds:
        return ""
    rows = "".join(f'<tr><td class="l">{_e(k["kind"])}</td><td>{k["moves"]:,}</td><td>{share(k)}</td></tr>'
                   for k in kinds[:12])
    more = f"<p>And {len(kinds) - 12} more kinds.</p>" if len(kinds) > 12 else ""
    return ("<h2>Kinds of moves</h2><p>A move's kind: its label, else what its steps are (a place of the board, a "
            "named item such as <code>rotate</code>, a step such as <code>pass</code>), over the games counted "
            f'place by place.</p><table><tr><th class="l">kind</th><th>moves</th><th>share</th></tr>{rows}</table>'
            + more + _verdict(rep, "move_kinds"))


def _source_lines(source: list[str], a: int, b: int) -> str:
    shown = "\n".join(f"{n:>4}  {source[n - 1]}" for n in range(a, min(b, a + 5) + 1) if 0 < n <= len(source))
    return shown + (f"\n      ... to line {b}" if b > a + 5 else "")


def _rules(rep: dict[str, Any], header: dict[str, Any], script: str) -> str:
    rules = rep["rules"]
    if not rules["traced_games"]:
        return ""
    others = (f" and {rules['other_games']} with other options ({_e('; '.join(rules['settings']))})"
              if rules.get("settings") else "")
    out = [f"<p>{rules['ran']} of {rules['active']} lines of the rules ran in {rules['traced_games']} traced games "
           f"with these options{others}.</p>"]
    source = header.get("source", "").split("\n")
    for part in (rules.get("other_options") or [])[:12]:
        a, b = part["range"]
        out.append(f"<p>{_e(script)}:{a}{'' if a == b else '-' + str(b)} ran only with "
                   f"{_e(', '.join(part['settings']))}:</p><pre>{_e(_source_lines(source, a, b))}</pre>")
    fixed = rules.get("fixed_options") or []
    if rules["ranges"]:
        why = (f" The lab cannot vary {_e(', '.join(fixed))} (text): lines only "
               f"{'it reaches' if len(fixed) == 1 else 'they reach'} are among them." if fixed else "")
        out.append(f"<p>Lines that never ran with any option tried.{why}</p>")
    for a, b in rules["ranges"][:12]:
        out.append(f"<p>{_e(script)}:{a}{'' if a == b else '-' + str(b)}:</p>"
                   f"<pre>{_e(_source_lines(source, a, b))}</pre>")
    if len(rules["ranges"]) > 12:
        out.append(f"<p>And {len(rules['ranges']) - 12} more ranges of lines that never ran.</p>")
    for err in rules.get("errors") or []:
        where = f"{script}:{err['line']}: " if err.get("line") else ""
        out.append(f'<p class="warn">Error with {_e(err["setting"])} in {err["games"]} games: {_e(where)}'
                   f'{_e(err["message"])}.</p>')
    return "<h2>Rule coverage</h2>" + "".join(out) + _verdict(rep, "rules")


def _skill(rep: dict[str, Any]) -> str:
    sk = rep.get("skill")
    if not sk:
        return "<p>Run with <code>--skill</code> for the skill ladder.</p>"
    fig, ax = _fig(6.4, 3.0)
    names = [r["agent"] for r in sk["ladder"]]
    elo = [r["elo"] for r in sk["ladder"]]
    ax.plot(range(len(elo)), elo, "o-", color=ACCENT)
    for i, p in enumerate(sk["pairings"], start=1):
        ax.annotate(f"{p['score']:.2f}" if p["score"] is not None else "–", (i, elo[i]), textcoords="offset points",
                    xytext=(0, 8), ha="center", fontsize=8, color=INK if p["counts"] else WARN)
    ax.set_xticks(range(len(names)), names, rotation=20)
    ax.set_ylabel("Elo (random = 0)")
    rows = "".join(f'<tr><td class="l">{_e(p["agent"])}</td><td class="l">{_e(p["against"])}</td><td>{p["games"]}</td>'
                   f'<td>{_f(p["score"])}</td><td>{_f(p["lower90"])}</td>'
                   f'<td class="l">{"yes" if p["counts"] else "not clearly"}</td></tr>' for p in sk["pairings"])
    return (_svg(fig) + '<table><tr><th class="l">rung</th><th class="l">against</th><th>games</th>'
            f"<th>score</th><th>90% lower</th><th class='l'>a level?</th></tr>{rows}</table>"
            f"<p><b>{sk['levels']} level{'s' if sk['levels'] != 1 else ''}</b>; skill gap {_e(names[-1])} − random: "
            f"{sk['gap']:+.0f} Elo. A rung is a level of its own when its score against the rung below has a 90% "
            f"lower bound of 0.6 or more. {_e(power_text(sk))}.</p>" + _verdict(rep, "skill"))


def _leads(rep: dict[str, Any]) -> str:
    ld = rep["leads"]
    if not ld.get("games"):
        return "<p>Lead changes, drama and decisiveness come from games between MCTS players: run with " \
               "<code>--agents mcts:200it</code> or <code>--skill</code>.</p>"
    lc, dr, dc = ld["lead_changes"], ld["drama"], ld["decisiveness"]
    h = lc["histogram"]
    fig, ax = _fig(6.4, 2.8)
    widths = [b - a for a, b in zip(h["edges"], h["edges"][1:])]
    ax.bar([a + (w - 1) / 2 for a, w in zip(h["edges"], widths)], h["counts"], width=[w * 0.85 for w in widths],
           color=ACCENT)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("lead changes in a game")
    ax.set_ylabel("games")
    return (_svg(fig) + f"<p>{lc['mean']:.2f} lead changes a game (at most {lc['max']}) over {ld['games']} games of MCTS "
            "players, counted from the second search (the leader: the player the search expects most of).</p>"
            + _verdict(rep, "lead_changes")
            + f"<p>Drama: the winner was behind at some point in {_pct(dr['winner_behind'], 0)} of games won, for "
            f"{_pct(dr['share_behind'], 0)} of the searches, by {_f(dr['mean_deficit'], 2)} "
            "at worst on average.</p>" + _verdict(rep, "drama")
            + f"<p>Decisiveness: {_pct(dc['after_clear'], 0)} of a game is played after its winner is clear "
            f"(expected to win at {dc['threshold']:.0%} or more at every later search).</p>" + _verdict(rep, "decisiveness"))


def _openings(rep: dict[str, Any]) -> str:
    ops = rep["openings"]
    if not ops or rep["players"] < 2:
        return ""
    from .verdicts import OPENING_GAMES, opening_intervals
    joint = opening_intervals(rep)
    fp = rep.get("first_player") or {}
    intro = ("<h2>Openings</h2><p>The first player's score by the first move played, the most played first"
             + (f" (all games: {_f(fp['score'])})" if fp.get("score") is not None else ""))
    if joint:           # (the intervals the verdict reads: widened for the moves compared)
        cells = [_ci(list(joint[o["move"]])) if o["move"] in joint else "–" for o in ops]
        intro += (f". The {len(joint)} moves played in {OPENING_GAMES} games or more are compared, each interval "
                  f"widened so that all {len(joint)} hold their true scores together 95% of the time (of many "
                  "plain 95% intervals, one in twenty misses by chance alone).</p>")
        head = "interval"
    else:
        cells = [_ci(o["ci95"]) for o in ops]
        intro += ".</p>"
        head = "95% interval"
    rows = "".join(f'<tr><td class="l moves">{_e(o["move"])}</td><td>{o["games"]:,}</td><td>{_f(o["score"])}</td>'
                   f"<td>{cell}</td></tr>" for o, cell in zip(ops, cells))
    return (intro + f'<table><tr><th class="l">first move</th><th>games</th><th>score</th><th>{head}</th></tr>'
            f"{rows}</table>" + _verdict(rep, "openings"))


def _representative(rep: dict[str, Any], names: list[str]) -> str:
    g = rep.get("representative")
    if not g:
        return ""
    plies = g["plies"]
    parts = []
    if g.get("branching") or g.get("values"):
        fig, ax = _fig(6.4, 2.8)
        if g.get("branching"):
            ax.plot(range(1, len(g["branching"]) + 1), g["branching"], color=ACCENT, label="legal moves")
            ax.set_ylabel("legal moves")
        if g.get("values"):
            bx = ax.twinx()
            for p in range(rep["players"]):
                pts = [(i + 1, v[p]) for i, v in enumerate(g["values"]) if isinstance(v, list)]
                if pts:
                    bx.plot([x for x, _ in pts], [y for _, y in pts], color=SEAT_COLOURS[p % 6], linestyle="--",
                            label=f"{names[p]} expects")
            bx.set_ylim(0, 1)
            bx.legend(frameon=False, fontsize=8, loc="upper right")
        ax.set_xlabel("ply")
        parts.append(_svg(fig))
    end = {"won": f"{names[g['winner'] - 1]} won" if g.get("winner") else "won", "drawn": "a draw",
           "lost": "lost by everyone"}.get(g.get("end") or "", g.get("end") or "")
    reason = g.get("reason")
    reason = reason.get("en") if isinstance(reason, dict) else reason
    moves = " ".join(f"<b>{i // rep['players'] + 1}.</b> {_e(m)}" if i % rep["players"] == 0 else _e(m)
                     for i, m in enumerate(g["moves"]))
    return ("<h2>A representative game</h2>" + f"<p>Game {g['game']} (seed {g['seed']}: <code>nomv play "
            f"{_e(rep['game'])} --seed {g['seed']}</code> and these moves replay it), {plies} plies, the median length; "
            f"{_e(end)}{': ' + _e(reason) if reason else ''}.</p>" + "".join(parts)
            + f'<p class="moves">{moves}</p>')


def page(rep: dict[str, Any], header: dict[str, Any], title: str, names: list[str]) -> str:
    """The whole page."""
    script = header.get("path", "").replace("\\", "/").rsplit("/", 1)[-1]
    opts = ", ".join(f"{k}={v}" for k, v in rep["options"].items() if k != "players" and v != "")
    # (merged parts have no time of their own: the games played all the same)
    speed = f". Played: {_e(played_text(rep))}" + (f" in {rep['seconds']:.1f} s, {rep['games_per_second']:,.0f} games/s "
                                                    f"on {_e(rep['where'])}" if rep.get("games_per_second") else "")
    missing = (f'<p class="warn">{rep["missing_games"]:,} games of the run are missing (a part not merged): the '
               "figures are of the others.</p>" if rep.get("missing_games") else "")
    body = [
        f"<h1>{_e(title)}: the designer's lab</h1>",
        f'<p class="meta">{rep["games"]:,} games of {_e(" against ".join(dict.fromkeys(rep["agents"])))} players, '
        f"{rep['players']} players{', ' + _e(opts) if opts else ''}, seed {rep['seed']}{speed}. "
        "Made by <code>nomv analyze</code>. Under each figure: <b>OK</b> when it is a good value, <b>Watch</b> when "
        "it is not, <b>Unclear</b> when more games would tell, or only what a good value looks like.</p>", missing,
        "<h2>Outcomes by seat</h2>", _outcomes(rep, names),
        "<h2>How games end</h2>", _ends(rep, script),
        '<h2>Length</h2>', _length(rep),
        "<h2>Branching over the game</h2>", _branching(rep),
        "<h2>Repetition</h2>",
        f"<p>{_pct(rep['repetition']['mean'], 2)} of a game's positions repeat an earlier position of the same game "
        f"(over {rep['repetition']['games']:,} games).</p>" + _verdict(rep, "repetition")
        if rep["repetition"]["mean"] is not None else "<p>Not measured.</p>",
        _board(rep, header), _kinds(rep), _rules(rep, header, script),
        "<h2>Skill ladder</h2>", _skill(rep),
        "<h2>Lead changes</h2>", _leads(rep),
        _openings(rep), _representative(rep, names),
    ]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{_e(title)}: nomv analyze</title>'
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
