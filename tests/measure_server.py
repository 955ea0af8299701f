"""Measures a real `nomv serve` (not a test: run it by hand, figures go to docs/server.md):

    python tests/measure_server.py [--matches 1000] [--moves 4] [--db URL]

* the memory (resident, in MB) of the server and its worker processes with N active Trinim
  matches in memory, each a few moves in;
* the time a move takes through the API (POST .../moves, from the client), median and 95th
  percentile;
* the time from sending a move to the other player's WebSocket message about it.

Traffic stays on 127.0.0.1; the server is stopped at the end.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serverlib import Api, Server, legal  # noqa: E402


def tree_rss_mb(pid: int) -> tuple[float, list[float]]:
    """Resident memory of a process and all its descendants (Linux /proc), in all and each."""
    total, each, todo = 0, [], [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            kb = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))
            total += kb
            each.append(round(kb / 1024))
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                todo.extend(int(c) for c in children)
        except (OSError, StopIteration):
            continue
    return total / 1024, each


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="nomv-measure-"))
    server = Server(args.db or f"sqlite:///{home}/server.sqlite3", home)
    try:
        base, _ = tree_rss_mb(server.process.pid)
        alice, bob = Api(server, "alice"), Api(server, "bob")
        rng = random.Random(1)
        started = time.perf_counter()
        ids = []
        for _ in range(args.matches):
            created = alice.ok("POST", "/api/matches", {"game": "trinim", "seats": ["alice", "bob"]}, 201)
            bob.ok("POST", f"/api/matches/{created['id']}/accept")
            ids.append(created["id"])
        print(f"{args.matches} matches created in {time.perf_counter() - started:.1f} s", flush=True)
        latencies = []
        for ply in range(args.moves):
            mover = alice if ply % 2 == 0 else bob
            for match_id in ids:
                state = mover.match(match_id)
                if not legal(state):
                    continue
                t = time.perf_counter()
                r = mover.move(match_id, state["ply"], rng.choice(legal(state)))
                latencies.append(time.perf_counter() - t)
                assert r.status_code == 200, r.text
        rss, each = tree_rss_mb(server.process.pid)
        health = alice.ok("GET", "/api/health")
        print(f"memory: {rss:.0f} MB in {len(each)} processes ({', '.join(map(str, each))} MB: the server "
              f"first) with {health['cached_positions']} matches in memory ({base:.0f} MB before any match)")
        print(f"move through the API: median {1000 * statistics.median(latencies):.1f} ms, "
              f"95th percentile {1000 * percentile(latencies, 0.95):.1f} ms ({len(latencies)} moves)")

        # The push: bob moves, alice's WebSocket tells her.
        match_id = alice.ok("POST", "/api/matches", {"game": "nonads", "variant": "knownads",
                                                      "seats": ["alice", "bob"]}, 201)["id"]
        bob.ok("POST", f"/api/matches/{match_id}/accept")
        pushes = []
        with alice.ws(match_id) as ws:
            json.loads(ws.recv())  # hello
            while True:
                state = alice.match(match_id)
                if state["status"] != "active":
                    break
                mover = alice if state["to_move"] == 1 else bob
                moves = legal(mover.match(match_id))
                sent = time.perf_counter()
                done = threading.Event()

                def post(mover=mover, ply=state["ply"], move=moves[0], done=done):
                    mover.move(match_id, ply, move)
                    done.set()
                threading.Thread(target=post).start()
                while True:
                    message = json.loads(ws.recv(timeout=30))
                    if message["match"]["ply"] == state["ply"] + 1:
                        break
                pushes.append(time.perf_counter() - sent)
                done.wait(30)
        print(f"move to the other player's WebSocket message (Knownads, own view): median "
              f"{1000 * statistics.median(pushes):.1f} ms, 95th percentile "
              f"{1000 * percentile(pushes, 0.95):.1f} ms, max {1000 * max(pushes):.1f} ms ({len(pushes)} moves)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
