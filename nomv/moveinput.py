"""Clicks to moves: narrows the legal moves by the steps clicked so far.

A move is a list of steps, each the id of something the player clicks.  ``MoveInput`` keeps the
steps clicked so far and answers what a front end needs to know:

- ``candidates``: the legal moves the clicks so far can still become;
- ``next_steps``: the ids that can be clicked next (to highlight them);
- ``complete``: the move the clicks so far already form, if any;
- ``needs_confirm``: the clicks form a complete move that could still be extended, so the player
  confirms it (clicking the last step again, Enter, or a Done button);
- ``click(id)``: what a click does (select a step, play a move, take a step back, or nothing and
  why), ``describe(id)``: the same as a short text, for hovering;
- ``back()``: takes back the last step.

Moves with ``any_order`` accept their steps in any order.  A move plays itself as soon as exactly
one legal move matches the clicks.  No pygame here: the model is unit-tested on its own.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from gettext import NullTranslations
from typing import Callable, Iterable, Mapping, Protocol, Sequence

_: Callable[[str], str] = NullTranslations().gettext


class MoveLike(Protocol):
    """What MoveInput needs of a move (:class:`nomv.Move` has it)."""

    @property
    def steps(self) -> tuple[str, ...]: ...
    @property
    def any_order(self) -> bool: ...
    @property
    def label(self) -> str | None: ...


def set_translator(gettext: Callable[[str], str]) -> None:
    """Lets the GUI translate the texts this module produces."""
    global _
    _ = gettext


# What a click did (ClickResult.kind)
SELECT = "select"      # a step was added; the move is not finished
CONFIRM = "confirm"    # a step was added; the steps form a move that could go on: confirm it
PLAY = "play"          # the move is decided: play ClickResult.move
BACK = "back"          # a step was taken back
RESTART = "restart"    # the click did not continue the move but starts another one
ILLEGAL = "illegal"    # nothing happened; ClickResult.message says why


@dataclass(frozen=True)
class ClickResult:
    kind: str
    move: int | None = None       # index into the legal moves, for PLAY
    message: str = ""

    @property
    def played(self) -> bool:
        return self.kind == PLAY


def _matches(steps: Sequence[str], any_order: bool, clicked: Sequence[str]) -> bool:
    if len(clicked) > len(steps):
        return False
    if not any_order:
        return tuple(steps[:len(clicked)]) == tuple(clicked)
    need = Counter(clicked)
    have = Counter(steps)
    return all(have[s] >= n for s, n in need.items())


def _remaining(steps: Sequence[str], any_order: bool, clicked: Sequence[str]) -> list[str]:
    if not any_order:
        return list(steps[len(clicked):len(clicked) + 1])
    left = Counter(steps)
    left.subtract(clicked)
    return [s for s, n in left.items() if n > 0]


class MoveInput:
    """The state of entering one move by clicks.

    ``moves`` are the legal moves (objects with ``steps``, ``any_order`` and ``label``, such as
    :class:`nomv.Move`); ``notations`` optionally gives each move's text for messages, and
    ``names`` how messages name a step (nomv.play.marks.step_names: a step's id may be no text
    for players, such as Nonads' ``slot:1,0``).
    """

    def __init__(self, moves: Sequence[MoveLike], notations: Sequence[str] | None = None,
                 auto_complete: bool = True, names: Mapping[str, str] | None = None):
        self.moves = list(moves)
        self.notations = list(notations) if notations is not None else [self._plain(m) for m in self.moves]
        self.names = dict(names or {})
        self.auto_complete = auto_complete
        self.clicked: list[str] = []
        self._first_steps = self._next_of(range(len(self.moves)), [])
        self._update()

    @staticmethod
    def _plain(move: MoveLike) -> str:
        return move.label or "-".join(move.steps)

    def name(self, step: str) -> str:
        """How messages name a step."""
        return self.names.get(step) or step

    def _names(self, steps: Sequence[str]) -> str:
        return " ".join(self.name(s) for s in steps)

    # -- reading ------------------------------------------------------------------------------

    def _filter(self, clicked: Sequence[str]) -> list[int]:
        return [i for i, m in enumerate(self.moves) if _matches(m.steps, m.any_order, clicked)]

    def _next_of(self, indices: Iterable[int], clicked: Sequence[str]) -> set[str]:
        out: set[str] = set()
        for i in indices:
            m = self.moves[i]
            out.update(_remaining(m.steps, m.any_order, clicked))
        return out

    def _complete_of(self, indices: Iterable[int], clicked: Sequence[str]) -> int | None:
        for i in indices:
            if len(self.moves[i].steps) == len(clicked):
                return i
        return None

    def _update(self) -> None:
        self.candidates: list[int] = self._filter(self.clicked)
        self.next_steps: set[str] = self._next_of(self.candidates, self.clicked)
        self.complete: int | None = self._complete_of(self.candidates, self.clicked) if self.clicked else None

    @property
    def needs_confirm(self) -> bool:
        """The clicks form a complete move, and another move extends them."""
        return self.complete is not None and len(self.candidates) > 1

    @property
    def any_order(self) -> bool:
        """Whether the clicks so far may continue in any order (every candidate is any_order)."""
        return bool(self.candidates) and all(self.moves[i].any_order for i in self.candidates)

    def decided(self, clicked: Sequence[str]) -> int | None:
        """The move these clicks decide on their own (no confirmation), else None."""
        if not clicked:
            return None
        cands = self._filter(clicked)
        if len(cands) == 1 and (self.auto_complete or len(self.moves[cands[0]].steps) == len(clicked)):
            return cands[0]
        return None

    def is_clickable(self, step: str) -> bool:
        """Whether a click on ``step`` does something now."""
        return self._plan(step)[0] != ILLEGAL

    # -- clicking -----------------------------------------------------------------------------

    def _plan(self, step: str) -> tuple[str, list[str], int | None]:
        """What a click on step would do: (kind, the clicks after it, the move played or None)."""
        clicked = self.clicked
        if clicked and step == clicked[-1]:
            if self.complete is not None:
                return PLAY, list(clicked), self.complete
            if step not in self.next_steps:
                return BACK, clicked[:-1], None
        if step in self.next_steps:
            after = clicked + [step]
            move = self.decided(after)
            if move is not None:
                return PLAY, after, move
            cands = self._filter(after)
            complete = self._complete_of(cands, after)
            return (CONFIRM if complete is not None else SELECT), after, None
        if step in clicked and self.any_order:
            after = list(clicked)
            after.remove(step)
            return BACK, after, None
        if clicked and step in self._first_steps:
            after = [step]
            move = self.decided(after)
            if move is not None:
                return PLAY, after, move
            return RESTART, after, None
        return ILLEGAL, list(clicked), None

    def click(self, step: str) -> ClickResult:
        """Applies a click on the item ``step``.  A PLAY result ends this input: the caller plays
        ``moves[result.move]`` and starts a new MoveInput for the next position."""
        kind, after, move = self._plan(step)
        if kind == ILLEGAL:
            return ClickResult(ILLEGAL, None, self._why_not(step))
        self.clicked = after
        self._update()
        if kind == PLAY:
            assert move is not None
            return ClickResult(PLAY, move, _("play {move}").format(move=self.notations[move]))
        if kind == CONFIRM:
            return ClickResult(CONFIRM, None, self._confirm_hint())
        return ClickResult(kind, None, self.prompt())

    def confirm(self) -> int | None:
        """The move to play when the player confirms (Enter or Done), or None if the clicks so
        far do not form a complete move."""
        return self.complete

    def back(self) -> bool:
        """Takes back the last step; False when there was none."""
        if not self.clicked:
            return False
        self.clicked.pop()
        self._update()
        return True

    def reset(self) -> None:
        self.clicked = []
        self._update()

    # -- texts --------------------------------------------------------------------------------

    def _confirm_hint(self) -> str:
        assert self.complete is not None
        return _("{move}: click {step} again, press Enter or Done to play it, or go on").format(
            move=self.notations[self.complete], step=self.name(self.clicked[-1]))

    def prompt(self) -> str:
        """A line telling the player what to do next."""
        if not self.moves:
            return ""
        if self.needs_confirm:
            return self._confirm_hint()
        if not self.clicked:
            return _("Click a highlighted place to start a move")
        return _("{steps}: {n} moves possible; click the next step").format(
            steps=self._names(self.clicked), n=len(self.candidates))

    def _why_not(self, step: str) -> str:
        if not self.moves:
            return _("no move can be played now")
        if self.clicked:
            return _("{step} is not a legal next step after {steps}").format(
                step=self.name(step), steps=self._names(self.clicked))
        return _("{step} is not a legal next step").format(step=self.name(step))

    def describe(self, step: str) -> str:
        """What a click on ``step`` would do, as a short text (for hovering)."""
        kind, after, move = self._plan(step)
        if kind == PLAY:
            assert move is not None
            return _("click to play {move}").format(move=self.notations[move])
        if kind == CONFIRM:
            cands = self._filter(after)
            complete = self._complete_of(cands, after)
            assert complete is not None, "_plan gives CONFIRM only when the clicks complete a move"
            return _("select {step}: {move} or longer moves").format(step=self.name(step), move=self.notations[complete])
        if kind == SELECT:
            n = len(self._filter(after))
            return _("select {step} ({n} moves)").format(step=self.name(step), n=n)
        if kind == BACK:
            return _("take back {step}").format(step=self.name(step))
        if kind == RESTART:
            return _("start a new move from {step}").format(step=self.name(step))
        return self._why_not(step)
