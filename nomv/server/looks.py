"""The answers of looks at matches, kept per match version: a look that repeats costs nothing.

Most requests look at a match that has not moved since the last look (the page of each
player, the pushes to each watcher, a bot's polling), and until the next move every one of
them is shown the same position.  A :class:`Looks` keeps, for each match, the snapshot of its
latest version looked at, with each view asked for by what that viewer may see: the view of a
seat (a game with hidden information), of a spectator, or the whole state (which every viewer
of a game without hidden information is shown).  A view is never handed to a viewer who would
see something else of the position.

The version is read from the database by the caller, so a move made by another process (or a
takeback: the version only grows) makes the kept answer a miss, never a wrong answer.  Only
answers about a version the database holds go in: a position whose move is not stored yet is
not one anybody else may be shown.
"""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from typing import Any, Sequence

from .snapshots import MatchKey, Snapshot


def seen_as(viewer: Any, hidden: bool) -> Any:
    """What ``viewer`` (a seat, SPECTATOR: 0, or None: the whole state) is shown: their own
    view in a game with hidden information, else the whole state like everyone."""
    return viewer if hidden else None


@dataclasses.dataclass
class _Kept:
    stamp: tuple
    snapshot: Snapshot           # its views (and their sizes) keyed by what is seen (seen_as)

    @property
    def bytes(self) -> int:
        return sum(self.snapshot.sizes.values())


class Looks:
    """Snapshots of the ``size`` matches looked at most recently, holding at most ``max_bytes``
    of views (their JSON's length: a game whose views are large keeps fewer).  Thread-safe."""

    def __init__(self, size: int = 2000, max_bytes: int = 128 * 2**20):
        self.size = max(1, size)
        self.max_bytes = max(1, max_bytes)
        self._kept: OrderedDict[int, _Kept] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def _stamp(key: MatchKey) -> tuple:
        # (a match's moves are known by its version; its script and seed, for a match id that
        # a database gave again after a deletion)
        return key.version, key.sha256, key.seed

    def get(self, key: MatchKey, viewers: Sequence[Any]) -> Snapshot | None:
        """The snapshot of the match at ``key``'s version with the views of ``viewers``, or
        None unless all of them are kept."""
        with self._lock:
            kept = self._kept.get(key.id)
            if kept is None or kept.stamp != self._stamp(key):
                return None
            snap = kept.snapshot
            views = {}
            for viewer in viewers:
                shown = snap.views.get(seen_as(viewer, snap.hidden))
                if shown is None:
                    return None
                views[viewer] = shown
            self._kept.move_to_end(key.id)
        return dataclasses.replace(snap, views=views, sizes={
            viewer: snap.sizes.get(seen_as(viewer, snap.hidden), 0) for viewer in viewers})

    def put(self, key: MatchKey, snapshot: Snapshot) -> None:
        """Keeps the snapshot of the match at ``key``'s version (its views keyed by viewer);
        a kept one of an older version is replaced, a newer one is left."""
        stamp = self._stamp(key)
        seen = {seen_as(viewer, snapshot.hidden): shown for viewer, shown in snapshot.views.items()}
        sizes = {seen_as(viewer, snapshot.hidden): snapshot.sizes.get(viewer, 0) for viewer in snapshot.views}
        with self._lock:
            kept = self._kept.get(key.id)
            if kept is not None:
                self._bytes -= kept.bytes
            if kept is not None and kept.stamp == stamp:
                kept.snapshot.views.update(seen)
                kept.snapshot.sizes.update(sizes)
            elif kept is None or kept.stamp[1:] != stamp[1:] or kept.stamp[0] <= key.version:
                kept = self._kept[key.id] = _Kept(stamp, dataclasses.replace(snapshot, views=seen, sizes=sizes))
            self._bytes += kept.bytes
            self._kept.move_to_end(key.id)
            while self._kept and (len(self._kept) > self.size or self._bytes > self.max_bytes):
                _, old = self._kept.popitem(last=False)
                self._bytes -= old.bytes

    def forget(self, match_id: int) -> None:
        with self._lock:
            old = self._kept.pop(match_id, None)
            if old is not None:
                self._bytes -= old.bytes

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._bytes = 0

    def held(self) -> int:
        """The bytes of views kept."""
        with self._lock:
            return self._bytes
