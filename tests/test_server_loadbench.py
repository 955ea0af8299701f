"""``nomv bench --serve`` in small: a real server and a few simulated players, as fast as they
are answered and paced (``--rate``); every move that got a 200 is stored once."""
from __future__ import annotations

from nomv.server import loadbench


def test_the_load_bench_plays_as_fast_as_answered_and_paced():
    fast, paced = (loadbench.measure("sqlite", 4, 3.0, rate=rate) for rate in (None, 4.0))
    for row in (fast, paced):
        assert row["moves_with_200"] > 0 and row["lost"] == 0 and row["duplicated"] == 0, row
        assert not row["errors"], row
    assert fast["offered"] is None and paced["offered"] == 4.0
    # paced: about 4 moves a second over the 3 s (each match every second), not as many as answered
    assert paced["moves_with_200"] <= 4 * 3 + 4 < fast["moves_with_200"], (paced, fast)
    assert "sqlite @4/s" in loadbench.format_table([paced])
