"""Earlier positions of the game on the table, without touching it: for the move list (a click
shows an earlier position), the last move's marks (the scene before the move) and undo (who was
to move back then).  A second Position of the same game is replayed to the ply asked; what it
gave is remembered.  No pygame here."""
from __future__ import annotations

from typing import Any

from ..game import Position


class Timeline:
    def __init__(self) -> None:
        self._key: Any = None
        self._pos: Position | None = None
        self._scenes: dict[tuple, dict] = {}
        self._movers: dict[tuple, int | None] = {}

    @staticmethod
    def _game_key(pos: Position) -> tuple:
        return (id(pos.game), pos.seed, repr(sorted(pos.chosen.items())))

    def at(self, pos: Position, ply: int) -> Position:
        """A position of the same game after its first ``ply`` moves (ply <= pos.ply).  It is
        this timeline's own: the caller must not play on it.  Script errors are raised."""
        key = self._game_key(pos)
        if self._pos is None or self._key != key:
            self._pos = pos.game.start(dict(pos.chosen), seed=pos.seed)
            self._key = key
            self._scenes, self._movers = {}, {}
        mine = self._pos
        wanted = pos.history[:ply]
        done = mine.history
        common = 0
        while common < min(len(done), len(wanted)) and done[common].steps == wanted[common].steps:
            common += 1
        for _i in range(len(done) - common):
            mine.undo()
        for move in wanted[common:]:
            mine.play(list(move.steps))
        return mine

    def _ply_key(self, pos: Position, ply: int) -> tuple:
        return (self._game_key(pos),) + tuple(m.steps for m in pos.history[:ply])

    def scene(self, pos: Position, ply: int, player: int | None) -> dict:
        """The scene after the first ``ply`` moves, as ``player`` sees it (None: all of it)."""
        if ply == pos.ply:
            return pos.scene(player=player)
        key = (self._ply_key(pos, ply), player)
        if key not in self._scenes:
            # A few: the last move's marks need the one before, browsing the move list one at
            # a time (a scene may hold 20,000 items: kept for every ply, memory would grow).
            if len(self._scenes) >= 8:
                self._scenes.pop(next(iter(self._scenes)))
            self._scenes[key] = self.at(pos, ply).scene(player=player)
        return self._scenes[key]

    def mover(self, pos: Position, ply: int) -> int | None:
        """Who was to move after the first ``ply`` moves (None once the game was over)."""
        if ply == pos.ply:
            return pos.to_move
        key = self._ply_key(pos, ply)
        if key not in self._movers:
            if len(self._movers) > 4096:
                self._movers.clear()
            self._movers[key] = self.at(pos, ply).to_move
        return self._movers[key]
