"""Computer players.  An agent plays one seat: ``agent.choose(position)`` returns the move it
plays (it never plays it itself).  Agents are made from specs, the text users type after
``--players``:

``human``                   a person (not an agent: front ends ask them)
``random``                  a uniformly random legal move
``mcts``                    Monte Carlo tree search, 1 second a move
``mcts:0.5s`` ``mcts:300ms`` thinking time per move (CPU seconds of the game's worker)
``mcts:5000it``             a fixed number of iterations (repeatable with a seed)
``mcts:1s:c=0.7:depth=40``  exploration constant; playouts cut after 40 plies and scored by
                            the script's ``evaluate`` (or as a draw)
``...:seed=7``              the agent's own random seed
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from ..errors import GameOverError, NomvError
from ..game import Move, Position, seed_words
from ..options import suggestion
from ..play.policy import LEVELS  # noqa: F401  (nomv.ai's names for the computer players offered)

KINDS = ("human", "random", "mcts")

#: Who plays a seat that nobody named.
DEFAULT_COMPUTER = "mcts:1s"


class AgentSpecError(NomvError):
    """A player spec that cannot be understood (``--players mcts:fast``)."""


def describe_kinds() -> str:
    return "human, random, mcts[:TIME|:Nit][:c=X][:depth=N][:seed=S] (e.g. mcts:2s, mcts:500ms, mcts:20000it)"


class Agent:
    """A computer player for one seat."""

    #: The spec the agent was made from, e.g. ``mcts:1s``.
    spec: str = ""
    #: Figures about the last choice (for display), or None.
    last: dict[str, Any] | None = None

    def choose(self, position: Position) -> Move:
        raise NotImplementedError

    @staticmethod
    def _legal(position: Position) -> list[Move]:
        outcome = position.outcome()
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.describe(position.game.players)}); "
                                "there is no move to choose")
        return position.legal_moves

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None, spec: str = "random"):
        self.spec = spec
        self._rng = random.Random(seed)

    def choose(self, position: Position) -> Move:
        return self._rng.choice(self._legal(position))


def move_key(move: Move) -> str:
    """A move as the search knows it (host.lua's move_key): its steps, sorted when their
    order does not matter, one per line."""
    return "\n".join(move.key)


class MctsAgent(Agent):
    """UCT with random playouts, run inside the game's Lua runtime (nomv/lua/search.lua).

    ``seconds`` and ``iterations`` bound each move (whichever comes first; with neither, one
    second).  The tree is kept between moves: a search starts from what the previous one
    learnt below the position it reached.  Hidden information is searched from the mover's view
    only; chance by drawing a new future for every iteration."""

    def __init__(self, seconds: float | None = None, iterations: int | None = None,
                 c: float | None = None, depth: int | None = None, seed: int | None = None,
                 max_nodes: int | None = None, spec: str | None = None):
        if seconds is None and iterations is None:
            seconds = 1.0
        for name, value, least in (("seconds", seconds, None), ("iterations", iterations, 1),
                                   ("depth", depth, 1), ("max_nodes", max_nodes, 1), ("c", c, 0)):
            bad = value is not None and (value <= 0 if least is None else value < least)
            if bad:
                want = "more than 0" if least is None else f"at least {least}"
                raise ValueError(f"MctsAgent: {name} must be {want}, got {value!r}")
        self.seconds, self.iterations = seconds, iterations
        self.c, self.depth, self.max_nodes = c, depth, max_nodes
        self._rng = random.Random(seed)
        self.spec = spec or "mcts"
        self._tree: Any = None
        self._owner: tuple | None = None

    def _tree_for(self, position: Position, engine: Any) -> Any:
        """This agent's tree in the engine's runtime: a new one for another game (the tree
        knows a game only by its moves), or when the game's worker process was restarted (the
        old tree died with it)."""
        owner = (id(engine), getattr(engine, "epoch", None), position.game.sha256, position.seed,
                 repr(sorted(position.options.items())))
        if self._tree is None or owner != self._owner:
            self._tree = engine.search_tree(seed_words(self._rng.randrange(2**62)), self.c,
                                            self.depth, self.max_nodes)
            self._owner = owner
        return self._tree

    def choose(self, position: Position) -> Move:
        legal = self._legal(position)
        if len(legal) == 1:           # nothing to think about
            self.last = None
            return legal[0]
        history = [move_key(m) for m in position.history]

        def search(engine: Any, state: Any) -> dict:
            return engine.search(self._tree_for(position, engine), state, position.players,
                                 history, self.iterations, self.seconds)
        last = position.with_state(search)
        notations = position.notations()   # each ranked move named (indices into legal_moves)
        for m in last["moves"]:
            m["move"] = notations[m["index"]]
            m.pop("exact", None)
        self.last = last
        return legal[last["index"]]


# -- specs --------------------------------------------------------------------------------------

_TIME = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)(s|ms)$")
_ITERATIONS = re.compile(r"^(\d+)(it|i)$")


@dataclass(frozen=True)
class _Parsed:
    kind: str
    params: dict[str, Any]


def _parse(spec: str) -> _Parsed:
    text = spec.strip()
    kind, *parts = text.split(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise AgentSpecError(f"unknown player {spec!r}{suggestion(kind, list(KINDS))}; "
                             f"players: {describe_kinds()}")
    params: dict[str, Any] = {}
    if kind != "mcts":
        if parts and not (kind == "random" and all(p.startswith("seed=") for p in parts)):
            raise AgentSpecError(f"{kind!r} takes no settings, got {spec!r}")
    for part in parts:
        part = part.strip()
        key = "seconds" if _TIME.match(part) else "iterations" if _ITERATIONS.match(part) else part.partition("=")[0]
        if key in params:
            raise AgentSpecError(f"{spec!r} sets {'the time' if key == 'seconds' else key} twice")
        if (m := _TIME.match(part)):
            seconds = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
            if not 0 < seconds <= 3600:
                raise AgentSpecError(f"{spec!r}: the time per move must be more than 0 and at most an hour")
            params["seconds"] = seconds
        elif (m := _ITERATIONS.match(part)):
            if not 1 <= int(m.group(1)) <= 10**9:
                raise AgentSpecError(f"{spec!r}: iterations must be from 1 to 1000000000")
            params["iterations"] = int(m.group(1))
        elif "=" in part:
            key, _, value = part.partition("=")
            key = key.strip()
            try:
                if key == "c":
                    params["c"] = float(value)
                    ok = 0 <= params["c"] <= 100
                elif key in ("depth", "seed"):
                    params[key] = int(value)
                    ok = params[key] >= (1 if key == "depth" else 0)
                else:
                    raise AgentSpecError(f"{spec!r}: unknown setting {key!r}"
                                         f"{suggestion(key, ['c', 'depth', 'seed'])}; settings: c, depth, seed")
            except ValueError:
                ok = False
            if not ok:
                raise AgentSpecError(f"{spec!r}: {key}={value!r} is not a valid value "
                                     "(c: a number from 0 to 100; depth: a whole number from 1; seed: a whole number)")
        else:
            raise AgentSpecError(f"{spec!r}: cannot read {part!r}; write a time (2s, 500ms), "
                                 "iterations (5000it) or a setting (c=0.7, depth=40, seed=3)")
    return _Parsed(kind, params)


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent for a spec (``random``, ``mcts:1s``, ...).  ``seed`` is used unless the spec
    gives its own."""
    parsed = _parse(spec)
    params = dict(parsed.params)
    params.setdefault("seed", seed)
    if parsed.kind == "random":
        return RandomAgent(params["seed"], spec=spec.strip())
    if parsed.kind == "mcts":
        return MctsAgent(spec=spec.strip(), **params)
    raise AgentSpecError(f"{spec!r} is a person, not a computer player")


def is_player(spec: str) -> bool:
    """Whether spec names a player (``human`` or a computer player)."""
    try:
        _parse(spec)
    except AgentSpecError:
        return False
    return True


def parse_players(text: str | None, players: int, default: str = DEFAULT_COMPUTER) -> list[str]:
    """'human,mcts:2s' -> one checked spec per seat; seats not given are played by ``default``."""
    seats = [s.strip() for s in text.split(",")] if text else ["human"]
    if any(not s for s in seats):
        raise AgentSpecError(f"an empty player in {text!r}: separate players with commas, e.g. human,mcts:2s")
    for s in seats:
        _parse(s)
    if len(seats) > players:
        raise AgentSpecError(f"{len(seats)} players given, but this game has {players}")
    return seats + [default] * (players - len(seats))
