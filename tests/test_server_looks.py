"""The server's looks at matches answered from what it kept (nomv/server/looks.py) and its
lanes (nomv/server/engines.py): a kept view is never shown to a viewer who sees something
else, a move made by another process (or a takeback) is never hidden behind a kept answer, a
move whose write did not land is never shown, and matches of one script are served side by side
on the pool's processes.  Real games on a real pool of worker processes, no web server."""
from __future__ import annotations

import hashlib
import threading
import time

import pytest

import nomv
from nomv import catalog
from nomv.server.engines import SPECTATOR, Engines
from nomv.server.snapshots import WHOLE, MatchKey, Script, Snapshot
from nomv.server.looks import Looks

def script_of(name: str) -> Script:
    source = catalog.find(name).path.read_text(encoding="utf-8")
    return Script(hashlib.sha256(source.encode()).hexdigest(), source, f"{name}.lua")


@pytest.fixture(scope="module")
def engines():
    scripts = {s.sha256: s for s in (script_of("nonads"), script_of("tictactoe"), script_of("trinim"))}
    one = Engines(scripts.__getitem__, processes=2)
    one.by_name = {s.path[:-4]: s for s in scripts.values()}    # type: ignore[attr-defined]
    yield one
    one.close()


class Match:
    """A match as the database would hold it: its moves and version (every change adds one)."""

    def __init__(self, engines: Engines, name: str, match_id: int, options: dict | None = None, seed: int = 7):
        self.script = engines.by_name[name]     # type: ignore[attr-defined]
        self.id, self.options, self.seed = match_id, options or {}, seed
        self.moves: list[list[str]] = []
        self.version = 0

    def key(self) -> MatchKey:
        return MatchKey(self.id, self.script.sha256, dict(self.options), self.seed, self.version, len(self.moves))

    def loader(self):
        moves = [list(m) for m in self.moves]
        return lambda: moves

    def store(self, steps: list[str]) -> None:
        self.moves.append(list(steps))
        self.version += 1


def local(name: str, options: dict, seed: int, moves: list[list[str]]) -> nomv.Position:
    pos = nomv.Game.load(name).start(options=options, seed=seed)
    for m in moves:
        pos.play(list(m))
    return pos


def test_a_kept_view_of_one_seat_is_never_shown_to_another_seat_or_a_spectator(engines):
    sha = engines.by_name["nonads"].sha256     # type: ignore[attr-defined]
    options = engines.start(sha, None, "knownads", 11)["options"]     # each seat's own target
    match = Match(engines, "nonads", 101, options, seed=11)
    key = match.key()
    first = engines.snapshot(key, match.loader(), [1])
    assert first.hidden
    # the second look is answered from what was kept, without the game's thread...
    again = engines.looks.get(key, [1])
    assert again is not None and again.views[1] == first.views[1]
    # ...but only for seat 1: another seat and a spectator are not kept yet
    assert engines.looks.get(key, [2]) is None and engines.looks.get(key, [SPECTATOR]) is None
    both = engines.snapshot(key, match.loader(), [2, SPECTATOR, 1])
    pos = local("nonads", options, 11, [])
    for viewer in (1, 2, SPECTATOR):
        assert both.views[viewer]["view"] == pos.view(viewer), viewer
    targets = pos.state()["targets"]
    assert both.views[1]["view"]["targets"] == [targets[0], 0]
    assert both.views[2]["view"]["targets"] == [0, targets[1]]


def test_without_hidden_information_every_viewer_shares_one_kept_view(engines):
    match = Match(engines, "tictactoe", 102)
    key = match.key()
    snap = engines.snapshot(key, match.loader(), [1])
    assert not snap.hidden
    kept = engines.looks.get(key, [2, SPECTATOR, WHOLE])
    assert kept is not None and all(v is snap.views[1] for v in kept.views.values())


def test_a_move_by_another_process_and_a_takeback_are_seen_at_once(engines):
    match = Match(engines, "tictactoe", 103)
    before = engines.snapshot(match.key(), match.loader(), [1])
    assert before.ply == 0
    match.store(["b2"])              # another process moved: the database's version went on
    after = engines.snapshot(match.key(), match.loader(), [2])
    assert after.ply == 1 and after.to_move == 2
    assert after.views[2]["view"] == local("tictactoe", {}, 7, [["b2"]]).state()
    # a takeback: fewer moves, and still a new version
    match.moves.pop()
    match.version += 1
    back = engines.snapshot(match.key(), match.loader(), [1])
    assert back.ply == 0 and back.views[1]["view"] == before.views[1]["view"]


def test_a_move_whose_write_did_not_land_is_never_shown(engines):
    match = Match(engines, "tictactoe", 104)
    played = engines.play(match.key(), match.loader(), ["a1"], [1, 2])
    assert played.snapshot.ply == 1
    # The write lost a race: another process stored b2 at this ply.  Before this process
    # even forgets its position, a look at the database's version shows b2.
    match.store(["b2"])
    shown = engines.snapshot(match.key(), match.loader(), [1])
    assert shown.views[1]["view"] == local("tictactoe", {}, 7, [["b2"]]).state()
    # and the move that did land is kept for the looks at the next version
    played = engines.play(match.key(), match.loader(), ["a1"], [1, 2])
    engines.landed(match.key(), played)
    match.store(["a1"])
    kept = engines.looks.get(match.key(), [2])
    assert kept is not None and kept.views[2]["view"] == local("tictactoe", {}, 7, [["b2"], ["a1"]]).state()


def test_the_marks_of_the_last_move_are_the_same_as_made_from_scratch(engines):
    layout = {"layout": "b/bb/bgr/grgg/rbgrr"}
    match = Match(engines, "trinim", 105, layout, seed=3)
    for _ in range(4):
        snap = engines.snapshot(match.key(), match.loader(), [1])
        played = engines.play(match.key(), match.loader(), snap.legal[0]["steps"], [1, 2])
        engines.landed(match.key(), played)
        match.store(played.steps)
    fresh = Engines(engines.scripts, processes=1)     # nothing kept: made from the moves
    try:
        want = fresh.snapshot(match.key(), match.loader(), [2])
    finally:
        fresh.close()
    got = engines.snapshot(match.key(), match.loader(), [2])
    assert got.views[2]["marks"] == want.views[2]["marks"] and got.views[2]["marks"]
    assert got.views[2]["scene"] == want.views[2]["scene"]


def test_matches_of_one_script_are_served_side_by_side_on_the_pools_processes(engines):
    # Two matches on the two lanes: a look at one is answered while the other's lane is busy.
    a, b = Match(engines, "tictactoe", 200), Match(engines, "tictactoe", 201)
    engines.snapshot(a.key(), a.loader(), [1])
    engines.snapshot(b.key(), b.loader(), [1])
    loaded = engines._get(a.script.sha256)
    assert loaded.lane_of(a.id) != loaded.lane_of(b.id)
    held, release = threading.Event(), threading.Event()

    def hold_a() -> None:
        with loaded.lanes[loaded.lane_of(a.id)]:      # a's lane is held
            held.set()
            release.wait(10)
    threading.Thread(target=hold_a, daemon=True).start()
    assert held.wait(10)
    try:
        b.store(["c3"])
        started = time.monotonic()
        snap = engines.snapshot(b.key(), b.loader(), [1])
        assert snap.ply == 1 and time.monotonic() - started < 5
    finally:
        release.set()


def test_looks_keep_the_newest_version_and_forget():
    looks = Looks(size=2)
    key = MatchKey(1, "s", {}, 1, 5)
    snap = Snapshot(0, 1, None, [], {1: {"view": "five"}})
    looks.put(key, snap)
    looks.put(MatchKey(1, "s", {}, 1, 4), Snapshot(0, 1, None, [], {1: {"view": "four"}}))
    kept = looks.get(key, [1, 2, None])          # no hidden information: one view for all
    assert kept is not None and kept.views[2] == {"view": "five"}
    assert looks.get(MatchKey(1, "s", {}, 1, 6), [1]) is None
    assert looks.get(MatchKey(1, "other", {}, 1, 5), [1]) is None
    looks.forget(1)
    assert looks.get(key, [1]) is None
    for i in range(2, 5):
        looks.put(MatchKey(i, "s", {}, 1, 0), snap)
    assert looks.get(MatchKey(2, "s", {}, 1, 0), [1]) is None       # beyond its size


def test_each_match_has_a_round_of_its_own_whose_lock_its_holder_takes_again_and_idle_ones_are_bounded():
    from nomv.server.matches.round import Rounds
    rounds = Rounds(parts=None, keep=2)     # (no act is made here: only the rounds and their locks)
    held, other_ran = threading.Event(), threading.Event()
    release = threading.Event()

    def hold(match_id: int) -> None:
        with rounds.held(match_id):
            with rounds.held(match_id):       # (a move that finds the clock run out takes it again)
                held.set()
                release.wait(10)

    def other(match_id: int) -> None:
        with rounds.held(match_id):
            other_ran.set()
    holder = threading.Thread(target=hold, args=(1,))
    holder.start()
    held.wait(10)
    threading.Thread(target=other, args=(65,)).start()     # another match: never waits for match 1
    assert other_ran.wait(5)
    waiter = threading.Thread(target=other, args=(1,))
    other_ran.clear()
    waiter.start()
    assert not other_ran.wait(0.3)        # match 1's own round is held
    with rounds.pinned(2), rounds.pinned(3), rounds.pinned(4):
        pass                              # more rounds than kept: the idle ones beyond 2 go...
    assert rounds.count() == 2 and 1 in rounds._rounds     # ...never one in use
    release.set()
    assert other_ran.wait(5)
    holder.join(5)
    waiter.join(5)
    with rounds.pinned(1) as again:       # the round kept is the same object (its lock, its state)
        assert again is rounds._rounds[1]
    assert rounds.count() <= 2
