"""The plan of a lab run: which games, with which seeds and players, in which batches.

Every game of a run is a :class:`GameSpec`: the set it belongs to (``main``, the games of the
chosen agents; ``ladder N``, rung N of the skill ladder against rung N-1), its number in the
set, its seed and who sits in each seat.  A game's seed depends only on the run's seed, its set
and its deal, never on where or in which batch it runs: the same seed gives the same games, and
so the same figures, on one core, many, a cluster, or in shards merged afterwards.

>>> agents = parse_agents("mcts:200it,random", 2)
>>> [a.spec for a in agents]
['mcts:200it', 'random']
>>> game_seed(7, "main", 1) == game_seed(7, "main", 1) != game_seed(7, "main", 2)
True
>>> [g.detail for g in main_games(21, 7, ("random", "random"), lists_moves=False)][::10]
[2, 1, 1]
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from ..ai.agents import AgentSpecError, MctsAgent, make_agent
from ..errors import NomvError
from ..languages import localized
from ..limits import Limits

#: Lines of the records' format (nomv/lab/records.py); a reader refuses other versions.
FORMAT = 1

#: Default number of games of random players: enough for a 95% interval of at most +-2 points
#: on balance, the gap between two seats' win rates (its variance is at most 1/n: 1.96^2/0.02^2).
DEFAULT_GAMES = 9604
#: With an MCTS player a game costs hundreds of random ones: fewer games by default (+-4.4
#: points on a seat's win rate; --games asks for more).
DEFAULT_SEARCH_GAMES = 500
#: One game in DETAIL_EVERY is described in detail (its positions hashed for repetition, the
#: steps and kinds of its moves counted), one in BRANCHING_EVERY also has its legal moves counted
#: at every ply (branching, decision moves, the tree's size).  Listing the moves costs the seed
#: games 10 to 50 random games' time where the script has a random_move that spares it (so one
#: game in a hundred costs about half the others' time); a game that lists its moves anyway is
#: counted wherever it is described.
DETAIL_EVERY = 10
BRANCHING_EVERY = 100
#: Games whose lines run are traced (rule coverage), on Lua 5.4 (LuaJIT's compiled code calls
#: no line hook): the first games of the main set.
DEFAULT_TRACED = 10
#: Rule coverage with other options: this many traced games for each other setting (a variant,
#: another choice of one option, a number option's least and greatest value), at most
#: MAX_SETTINGS settings, so that code only other options reach is not called unused.
OTHER_TRACED = 2
MAX_SETTINGS = 16
#: The skill ladder: random, then MCTS from this many iterations, doubling.
DEFAULT_RUNGS = 5
DEFAULT_BASE_ITERATIONS = 16
#: 150 games a rung (75 deals, the seats swapped): a rung that truly scores 0.70 against the
#: one below (about +150 Elo) shows as a level 91% of the time (metrics.level_power); 20 games
#: find it 42% of the time, 100 games 78%.  The cost: the ladder's games on 5 rungs.
DEFAULT_SKILL_GAMES = 150


class LabError(NomvError):
    """A lab run that cannot be planned or merged (bad players, shards of different runs, ...)."""


@dataclass(frozen=True)
class Agent:
    """A player the lab can repeat exactly: random, or MCTS with a number of iterations."""

    spec: str
    kind: str
    iterations: int | None = None
    c: float | None = None
    depth: int | None = None

    def lua(self) -> dict[str, Any]:
        """What the lab's Lua loop gets (nomv/lua/host/lab.lua)."""
        out: dict[str, Any] = {"kind": self.kind}
        for key in ("iterations", "c", "depth"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @property
    def searches(self) -> bool:
        return self.kind == "mcts"


def parse_agent(spec: str) -> Agent:
    """An agent from a player spec (``random``, ``mcts:200it``, ``mcts:400it:c=0.7``)."""
    try:
        made = make_agent(spec.strip(), seed=0)
    except AgentSpecError as exc:
        raise LabError(str(exc)) from None
    if _has_seed(spec):
        raise LabError(f"{spec!r}: the lab seeds its players from --seed; leave out seed=")
    if isinstance(made, MctsAgent):
        # (MctsAgent thinks a second a move when given neither a time nor iterations)
        if made.iterations is None or made.seconds is not None:
            raise LabError(f"{spec!r}: the lab's players must be repeatable, so MCTS needs a number of "
                           "iterations and no time (e.g. mcts:200it)")
        return Agent(spec.strip(), "mcts", made.iterations, made.c, made.depth)
    return Agent(spec.strip(), "random")


def _has_seed(spec: str) -> bool:
    return any(p.strip().startswith("seed=") for p in spec.split(":")[1:])


def parse_agents(text: str | None, players: int) -> list[Agent]:
    """``--agents``: one player for every seat (``mcts:200it``), or one per seat in seat order
    (``mcts:200it,random``)."""
    specs = [s.strip() for s in (text or "random").split(",")]
    if any(not s for s in specs):
        raise LabError(f"--agents takes players separated by commas, got {text!r}")
    agents = [parse_agent(s) for s in specs]
    if len(agents) == 1:
        return agents * players
    if len(agents) != players:
        raise LabError(f"--agents names {len(agents)} players, but the game has {players} seats here: "
                       "name one for every seat, or one for all")
    return agents


def ladder_agents(rungs: int, base: int) -> list[Agent]:
    """The skill ladder: random, then MCTS with ``base`` iterations doubling ``rungs`` times."""
    out = [parse_agent("random")]
    for k in range(rungs):
        out.append(parse_agent(f"mcts:{base * 2 ** k}it"))
    return out


def game_seed(run_seed: int, set_key: str, deal: int) -> int:
    """A game's seed (what ``nomv play --seed`` takes): from the run's seed, the set and the
    deal alone."""
    digest = hashlib.sha256(f"nomv-lab:{run_seed}:{set_key}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 2**62


def mover_seed(seed: int) -> int:
    """The seed of the players' own choices in the game of ``seed`` (not the game's chance)."""
    return seed + 2**62


@dataclass(frozen=True)
class GameSpec:
    """One game of a run: its set, number (from 1), seed, the agent spec of each seat, how
    much of it is described (0, 1, 2: nomv/lua/host/lab.lua), and whether its lines are traced."""

    set: str
    number: int
    seed: int
    seats: tuple[str, ...]
    detail: int = 0
    traced: bool = False


def detail_level(number: int, lists_moves: bool) -> int:
    """How much of main game ``number`` is described (see DETAIL_EVERY)."""
    if (number - 1) % BRANCHING_EVERY == 0:
        return 2
    if (number - 1) % DETAIL_EVERY == 0:
        return 2 if lists_moves else 1
    return 0


def main_games(games: int, seed: int, seats: Sequence[str], lists_moves: bool, traced: int = 0) -> list[GameSpec]:
    return [GameSpec("main", n, game_seed(seed, "main", n), tuple(seats), detail_level(n, lists_moves), n <= traced)
            for n in range(1, games + 1)]


def ladder_games(rung: int, agents: Sequence[Agent], games: int, seed: int, players: int) -> list[GameSpec]:
    """Rung ``rung`` against rung ``rung - 1``: each deal played once with the stronger in each
    seat in turn (the others the weaker), the same deals for every rung."""
    strong, weak = agents[rung].spec, agents[rung - 1].spec
    out = []
    for n in range(1, games + 1):
        deal, turn = (n - 1) // players + 1, (n - 1) % players
        seats = tuple(strong if s == turn else weak for s in range(players))
        out.append(GameSpec(f"ladder {rung}", n, game_seed(seed, "ladder", deal), seats))
    return out


@dataclass(frozen=True)
class Setting:
    """Other options than the run's, for rule coverage: a set of traced games of its own."""

    set: str
    label: str
    options: dict[str, Any]

    @property
    def players(self) -> int:
        return int(self.options["players"])


def _show(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def other_settings(specs: dict[str, Any], variants: dict[str, dict[str, Any]], values: dict[str, Any],
                   resolve: Any) -> tuple[list[Setting], list[str]]:
    """The settings other than ``values`` whose games rule coverage also traces: each variant,
    then one option at a time set to each of its other choices (numbers: the least and the
    greatest; a true/false option to the other; a number option to its least and greatest
    value; a text option to the examples its help gives); each resolved by ``resolve``
    (options -> values, refusing what the script's check refuses), the same values once.  And
    the options that cannot be varied so (numbers without both bounds; text whose help gives no
    example the script accepts)."""
    candidates: list[tuple[str, dict[str, Any], str | None]] = []
    examples: dict[str, list[str]] = {}          # text option -> the labels of its examples
    for name in sorted(variants):
        preset = variants[name]
        shown = ", ".join(f"{k}={_show(v)}" for k, v in preset.items())
        candidates.append((f"variant {name}" + (f" ({shown})" if shown else ""), {}, name))
    fixed: list[str] = []
    for spec in sorted(specs.values(), key=lambda sp: (sp.order, sp.name)):
        if spec.choices and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in spec.choices):
            # (numbers: the least and the greatest, as for a range; code for one size alone is rare)
            others = [c for c in dict.fromkeys((min(spec.choices), max(spec.choices))) if c != values.get(spec.name)]
        elif spec.choices:
            others = [c for c in spec.choices if c != values.get(spec.name)]
        elif spec.type == "bool":
            others = [not values.get(spec.name)]
        elif spec.type in ("int", "number") and spec.min is not None and spec.max is not None:
            others = [v for v in dict.fromkeys((spec.min, spec.max)) if v != values.get(spec.name)]
            others = [int(v) if spec.type == "int" else v for v in others]
        elif spec.type == "string" and help_examples(spec.help, values.get(spec.name)):
            others = help_examples(spec.help, values.get(spec.name))
            examples[spec.name] = [f"{spec.name}={v}" for v in others]
        else:
            fixed.append(spec.name)
            continue
        for v in others:
            candidates.append((f"{spec.name}={_show(v)}", {**values, spec.name: v}, None))
    out: list[Setting] = []
    seen = [values]
    for label, options, variant in candidates:
        if len(out) >= MAX_SETTINGS:
            break
        try:
            resolved = resolve(options, variant)
        except NomvError:
            continue            # (a choice the script refuses on its own: board=hex needs colours=13)
        if resolved in seen:
            continue
        seen.append(resolved)
        out.append(Setting(f"options {len(out) + 1}", label, resolved))
    labels = {st.label for st in out}
    fixed += [name for name, tried in examples.items() if not labels & set(tried)]
    return out, sorted(fixed, key=lambda name: (specs[name].order, name))


def help_examples(help_text: Any, current: Any, most: int = 3) -> list[str]:
    """The values a text option's help shows as examples: its words that are not plain words
    (Trinim's layout: "rows from the apex: b/bb/bgr/grgg/rbgrr"), at most ``most``.  The script's
    own check then refuses those that are not values (Nibble's "colours 1-9")."""
    if not isinstance(help_text, str):      # (a help in several languages: its English)
        help_text = localized(help_text)
    words = [w.strip("()[]{},;:'\"").rstrip(".") for w in help_text.split()]
    found = [w for w in dict.fromkeys(words) if w and w != current and not w.isalpha() and not w.isdigit()
             and any(c.isalnum() for c in w)]
    return found[:most]


@dataclass
class Plan:
    """A whole run: the game and its options, the agents, and every game to play."""

    name: str
    path: str
    source: str
    sha256: str
    options: dict[str, Any]
    players: int
    seed: int
    max_plies: int
    agents: list[Agent]
    games: int
    traced: int
    skill: dict[str, Any] | None
    runtime: str
    limits: Limits
    specs: list[GameSpec] = field(default_factory=list)
    #: The scene's places (id -> [x, y]) at the start, for board coverage (nomv/lab/metrics.py).
    places: dict[str, list[float]] = field(default_factory=dict)
    variant: str | None = None
    #: The skill ladder's agents, weakest first (with --skill).
    ladder: list[Agent] = field(default_factory=list)
    #: Other options whose traced games rule coverage adds, and the options it cannot vary.
    settings: list[Setting] = field(default_factory=list)
    fixed_options: list[str] = field(default_factory=list)
    #: The start scene's places with their shapes, for the board's heat map (nomv/lab/html.py).
    shapes: dict[str, Any] = field(default_factory=dict)

    def options_of(self, set_key: str) -> dict[str, Any]:
        """The options of a set's games: another setting's, or the run's."""
        for st in self.settings:
            if st.set == set_key:
                return st.options
        return self.options

    def header(self) -> dict[str, Any]:
        """What identifies the run in a records file: shards merge only with the same header."""
        return {"nomv_lab": FORMAT, "game": self.name, "path": self.path, "sha256": self.sha256,
                "source": self.source, "options": self.options, "variant": self.variant,
                "players": self.players, "seed": self.seed, "max_plies": self.max_plies,
                "agents": [a.spec for a in self.agents], "games": self.games, "traced": self.traced,
                "skill": self.skill, "places": self.places, "shapes": self.shapes,
                "settings": [{"set": st.set, "label": st.label, "options": st.options} for st in self.settings],
                "fixed_options": self.fixed_options, "total": len(self.specs)}


def shard_of(specs: list[GameSpec], shard: tuple[int, int] | None) -> list[GameSpec]:
    """The games of shard k of n (``--shard k/n``): every n-th game of the plan from the k-th."""
    if shard is None:
        return list(specs)
    k, n = shard
    return [g for i, g in enumerate(specs) if i % n == k - 1]


def parse_shard(text: str) -> tuple[int, int]:
    """``--shard 2/4`` -> (2, 4).

    >>> parse_shard("2/4")
    (2, 4)
    """
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise LabError(f"--shard takes K/N, the K-th of N parts (e.g. 1/4), got {text!r}") from None
    if not 1 <= k <= n:
        raise LabError(f"--shard {text}: K must be from 1 to N")
    return k, n


@dataclass(frozen=True)
class Batch:
    """Games played together in one request: same set and seats (the unit of work an
    executor hands out, about a second of it)."""

    source: str
    path: str
    runtime: str
    limits: Limits
    options: dict[str, Any]
    players: int
    max_plies: int
    agents: tuple[Agent, ...]
    games: tuple[GameSpec, ...]
    traced: bool = False
    #: The ids of the start scene's places (a step naming one is a place in a kind of move).
    places: tuple[str, ...] = ()


def batches(plan: Plan, specs: list[GameSpec], seconds_per_game: dict[str, float],
            target: float = 1.0) -> Iterator[Batch]:
    """The games in batches of about ``target`` seconds: runs of games with the same set and
    seats (the traced games first, together: their lines are recorded game by game on Lua 5.4).
    ``seconds_per_game`` estimates a game's time by the set's first agents."""
    agents = {"random": parse_agent("random")}
    for a in plan.agents + plan.ladder:
        agents[a.spec] = a
    run: list[GameSpec] = []

    def flush() -> Iterator[Batch]:
        if run:
            seats = run[0].seats
            options = plan.options_of(run[0].set)
            yield Batch(plan.source, plan.path, "5.4" if run[0].traced else plan.runtime, plan.limits,
                        options, int(options.get("players", plan.players)), plan.max_plies,
                        tuple(agents[s] for s in dict.fromkeys(seats)), tuple(run), run[0].traced,
                        tuple(plan.places))
            run.clear()
    size = 1
    # The traced games first, a batch a set: only their processes start a Lua 5.4 runtime.
    for key in dict.fromkeys(g.set for g in specs if g.traced):
        run.extend(g for g in specs if g.traced and g.set == key)
        yield from flush()
    for g in specs:
        if g.traced:
            continue
        if run and (g.set != run[0].set or g.seats != run[0].seats or len(run) >= size):
            yield from flush()
        if not run:
            per = seconds_per_game.get(g.set, 0.001)
            size = max(1, min(20000, int(target / max(per, 1e-6))))
        run.append(g)
    yield from flush()


def estimate(games_per_second: float, plies: float, agents: Sequence[Agent], players: int) -> float:
    """Seconds a game of these agents takes, from random games' speed: an MCTS iteration costs
    about a random game from where it starts (half a game, on average)."""
    per_random = 1 / max(games_per_second, 1e-3)
    searching = [a for a in agents if a.searches]
    if not searching:
        return per_random * 2          # (the lab's described games cost more than a playout's)
    iterations = sum(a.iterations or 0 for a in searching) / len(agents)
    return per_random * max(plies, 1) * iterations * 0.5


def default_games(agents: Sequence[Agent]) -> int:
    return DEFAULT_SEARCH_GAMES if any(a.searches for a in agents) else DEFAULT_GAMES


def interval_width(games: int) -> float:
    """The largest half-width of a 95% interval on a win rate over ``games`` games."""
    return 1.959964 * 0.5 / math.sqrt(max(games, 1))
