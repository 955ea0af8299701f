"""Measures what SQLite's synchronous=FULL costs the server beside NORMAL (not a test: run it by
hand, figures go to docs/deploy.md):

    python tests/measure_sqlite_sync.py [--folder DIR] [--rounds 8]

A move's transaction as the match service makes it (read the match, store the move, update the
match row), on two databases in DIR (default: a new folder in the home directory, on the disk
the server's data would be on), FULL and NORMAL in alternating rounds of 50, so that the load of
the machine falls on both alike: wall time a transaction (median of the rounds' means) and CPU.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from nomv.server.matches.repository import MatchTables, MoveRow, NewMatch, SeatRow
from nomv.server.store import Store, scripts, users


def database(path: Path, synchronous: str) -> tuple[MatchTables, int]:
    """A database with one running match, its tables, and the match's id."""
    store = Store(f"sqlite:///{path}", synchronous=synchronous)
    store.migrate()
    with store.write() as db:
        db.execute(users.insert().values(name="a", name_key="a", password_hash="x", email=None, notify=True,
                                         created_at=0))
        db.execute(scripts.insert().values(sha256="0" * 64, name="g", catalogue="g", origin="bundled", author_id=None,
                                           source="", size=0, info={}, created_at=0))
    tables = MatchTables(store)
    with tables.change() as w:
        match_id = w.insert(NewMatch("0" * 64, "g", {}, None, 2, 1, "active", 1, False, None, None, None, 1),
                            [SeatRow(1, "user", 1, accepted=True), SeatRow(2, "user", 1, accepted=True)], [], 0)
    return tables, match_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="nomv-sync-", dir=args.folder or Path.home()))
    modes = {mode: database(folder / f"{mode}.sqlite3", mode) for mode in ("NORMAL", "FULL")}
    ply = {mode: 0 for mode in modes}
    walls: dict[str, list[float]] = {mode: [] for mode in modes}
    cpu = {mode: 0.0 for mode in modes}
    for _ in range(args.rounds):
        for mode, (tables, match_id) in modes.items():
            c0, w0 = time.process_time(), time.perf_counter()
            for _ in range(50):
                m = tables.load(match_id)
                assert m is not None
                with tables.change() as w:
                    w.add_move(match_id, MoveRow(ply[mode], 1, ["a1"], "a1", time.time()))
                    w.update(m, {"ply": ply[mode] + 1})
                ply[mode] += 1
            walls[mode].append((time.perf_counter() - w0) / 50 * 1000)
            cpu[mode] += time.process_time() - c0
    for mode, figures in walls.items():
        figures.sort()
        print(f"{mode:6}: a move's transaction median {figures[len(figures) // 2]:.1f} ms "
              f"(rounds {figures[0]:.1f} to {figures[-1]:.1f} ms), CPU {cpu[mode] / (50 * args.rounds) * 1000:.2f} ms")
    print(f"(databases in {folder})")


if __name__ == "__main__":
    main()
