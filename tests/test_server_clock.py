"""Live time controls (Fischer: a base time plus an increment per move) as the server enforces
them, on the server's own match service with a clock the test moves by hand (no waiting):
each seat's clock runs only on its turn, the increment comes after each move, a takeback keeps
the time used, who runs out loses (the sweep ends the match, a late move is refused), a match
may be aborted until every player has moved, and a rated match's result says each player's
rating before and after."""
from __future__ import annotations

import itertools
import json

import pytest

from nomv.server import store
from nomv.server.errors import ApiError


class Clock:
    def __init__(self, t: float):
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    from nomv.server.services import Services
    from nomv.server.settings import Settings
    home = tmp_path_factory.mktemp("clock")
    s = Services(Settings(db=f"sqlite:///{home}/db.sqlite3", processes=1, argon2_memory=64, argon2_time=1))
    yield s
    s.close()


@pytest.fixture
def clock(monkeypatch):
    c = Clock(1_000_000.0)
    monkeypatch.setattr(store, "clock", c)
    return c


_made = itertools.count(1)


def users(s, *names):
    return [s.accounts.register(f"{n}{next(_made)}", "a good password") for n in names]


def seen(shown):
    """An answer as its reader gets it: the times left as of now (the test's clock)."""
    return json.loads(shown.body())


def test_fischer_clocks_run_on_each_turn_and_who_runs_out_loses(services, clock):
    s = services
    alice, bob = users(s, "alice", "bob")
    created = s.lobby.create(alice, "tictactoe", None, None, [alice.name, bob.name], None, None,
                             {"base": 60, "increment": 5})
    mid = created["id"]
    assert created["status"] == "waiting"
    shown = seen(s.rounds.show(mid, alice))
    assert shown["clock"] == {"base": 60.0, "increment": 5.0, "left": [60.0, 60.0], "running": None}
    clock.t += 500                                   # no clock runs before the start
    s.lobby.accept(bob, mid)
    clock.t += 10
    assert seen(s.rounds.show(mid, bob))["clock"]["left"] == [50.0, 60.0]
    assert seen(s.rounds.show(mid, bob))["clock"]["running"] == 1
    clock.t += 10
    s.rounds.play(alice, mid, 0, "b2")              # 20 s used, +5
    clock.t += 30
    shown = seen(s.rounds.show(mid, alice))
    assert shown["clock"]["left"] == [45.0, 30.0] and shown["clock"]["running"] == 2
    clock.t += 20
    s.rounds.play(bob, mid, 1, "a1")                # 50 s used, +5: 15 left
    clock.t += 10
    s.rounds.play(alice, mid, 2, "c3")              # 45 - 10 + 5 = 40
    # A takeback asked by bob: his clock had run 4 s (used: 11 left); he moves again.
    clock.t += 4
    s.rounds.takeback(bob, mid, "ask")
    s.rounds.takeback(alice, mid, "accept")
    shown = seen(s.rounds.show(mid, bob))
    assert shown["ply"] == 1 and shown["clock"]["left"] == [40.0, 11.0] and shown["clock"]["running"] == 2
    clock.t += 3
    s.rounds.play(bob, mid, 1, "a1")                # 11 - 3 + 5 = 13
    clock.t += 1
    s.rounds.play(alice, mid, 2, "c3")              # 40 - 1 + 5 = 44
    clock.t += 2
    s.rounds.play(bob, mid, 3, "a3")                # 13 - 2 + 5 = 16
    clock.t += 44.5                                 # alice's 44 s are over
    with pytest.raises(ApiError) as late:
        s.rounds.play(alice, mid, 4, "a2")
    assert late.value.status == 409 and "ended" in late.value.message
    shown = seen(s.rounds.show(mid, bob))
    assert shown["status"] == "ended" and shown["outcome"]["how"] == "timeout"
    assert shown["outcome"]["ranks"] == [2, 1] and "ran out of time" in shown["outcome"]["text"]
    assert shown["clock"]["left"] == [0.0, 16.0] and shown["clock"]["running"] is None
    assert shown["deadline"] is None and shown["seconds_left"] is None
    # Rated (both people): each player's rating before and after, on the familiar scale.
    changes = {c["seat"]: c for c in shown["outcome"]["ratings"]}
    assert changes[2]["after"] > changes[2]["before"] == 1000.0
    assert changes[1]["after"] < changes[1]["before"] == 1000.0
    assert all(c["provisional"] for c in changes.values())
    profile_rows = s.listings.mine(bob)
    assert profile_rows[0]["clock"] == {"base": 60.0, "increment": 5.0} and profile_rows[0]["title"]
    # A player's page lists it, its result worded in the reader's language.
    finished = s.listings.finished(bob.id, lang="it")
    assert [f["id"] for f in finished] == [mid] and finished[0]["won"] and finished[0]["rated"]
    assert finished[0]["result"] != shown["outcome"]["text"] and "tempo" in finished[0]["result"].lower()


def test_the_sweep_ends_a_match_whose_player_to_move_ran_out(services, clock):
    s = services
    alice, bob = users(s, "carol", "dave")
    mid = s.lobby.create(alice, "tictactoe", None, None, [alice.name, bob.name], None, None, "1+0")["id"]
    s.lobby.accept(bob, mid)
    clock.t += 59
    assert s.rounds.end_overdue() == 0
    clock.t += 2
    assert s.rounds.end_overdue() == 1
    m = s.tables.load(mid)
    assert m.row.status == "ended" and m.row.outcome["how"] == "timeout" and m.row.outcome["ranks"] == [2, 1]


def test_a_match_may_be_aborted_until_every_player_has_moved(services, clock):
    s = services
    alice, bob = users(s, "erin", "fred")
    mid = s.lobby.create(alice, "tictactoe", None, None, [alice.name, bob.name], None, None, "3+2")["id"]
    s.lobby.accept(bob, mid)
    s.rounds.play(alice, mid, 0, "b2")
    shown = seen(s.rounds.abort(bob, mid))           # bob never moved
    assert shown["status"] == "aborted" and shown["outcome"] is None and shown["clock"]["running"] is None
    mid = s.lobby.create(alice, "tictactoe", None, None, [alice.name, bob.name], None, None, None)["id"]
    s.lobby.accept(bob, mid)
    s.rounds.play(alice, mid, 0, "b2")
    s.rounds.play(bob, mid, 1, "a1")
    with pytest.raises(ApiError) as refused:
        s.rounds.abort(alice, mid)
    assert refused.value.status == 409 and "resign" in refused.value.message


@pytest.mark.parametrize("bad, words", [
    ("5", "minutes+seconds"), ({"base": 0}, "from 1 second"), ({"base": 60, "increment": 999}, "increment"),
    ({"base": "60"}, "numbers of seconds"), ({"base": 60, "inc": 1}, "minutes+seconds")])
def test_a_bad_time_control_is_refused_with_what_is_wrong(services, bad, words):
    alice, bob = users(services, "gina", "hal")
    with pytest.raises(ApiError) as refused:
        services.lobby.create(alice, "tictactoe", None, None, [alice.name, bob.name], None, None, bad)
    assert refused.value.status == 422 and words in refused.value.message


def test_a_clock_and_a_time_per_move_together_are_refused(services):
    alice, bob = users(services, "ian", "jo")
    with pytest.raises(ApiError) as refused:
        services.lobby.create(alice, "tictactoe", None, None, [alice.name, bob.name], "1d", None, "5+3")
    assert "not both" in refused.value.message


def test_the_default_time_per_move_is_a_time_or_none_within_the_servers_bounds():
    from nomv.cli import UsageError, _default_time_per_move
    from nomv.server.settings import Settings
    settings = Settings(min_time_per_move=60)
    assert Settings().default_time_per_move == 3 * 86400
    assert _default_time_per_move("7d", settings) == 7 * 86400
    assert _default_time_per_move("None", settings) is None
    for bad in ("30", "400d", "soon"):
        with pytest.raises(UsageError) as refused:
            _default_time_per_move(bad, settings)
        assert "--default-time-per-move" in str(refused.value) and repr(bad) in str(refused.value)
