"""``nomv bench --serve`` in small: a real server, a few simulated pages (WebSockets, moving when
a push says so) and bots (polling), as fast as they may and paced (``--rate``); every move that
got a 200 is stored once, and the server's CPU per move is counted."""
from __future__ import annotations

from nomv.server import loadbench


def test_the_load_bench_plays_as_pages_and_as_bots_fast_and_paced():
    fast, paced = (loadbench.measure("sqlite", 4, 3.0, rate=rate) for rate in (None, 4.0))
    bots = loadbench.measure("sqlite", 2, 3.0, model="bot", poll=0.2)
    for row in (fast, paced, bots):
        assert row["moves_with_200"] > 0 and row["lost"] == 0 and row["duplicated"] == 0, row
        assert not row["errors"] and not row["stalls"], row
        assert row["server_cpu_ms_per_move"] > 0 and row["client_cpu_ms_per_move"] > 0, row
    assert fast["offered"] is None and paced["offered"] == 4.0
    # pages: one request a move (no look between moves), and every move pushed to the opponent
    assert fast["requests_per_move"] == 1.0 and fast["pushes_timed"] >= fast["moves"] - 4, fast
    # paced: about 4 moves a second over the 3 s (each match every second), not as many as they may
    assert paced["moves"] <= 4 * 3 + 4 < fast["moves"], (paced, fast)
    # bots look before they move
    assert bots["requests_per_move"] > 1 and bots["look_bytes"] > 0 and bots["push_bytes"] is None, bots
    table = loadbench.format_table([paced, bots])
    assert "sqlite @4/s" in table and "sqlite bots" in table
