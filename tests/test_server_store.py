"""The server's database schema comes from its Alembic migrations alone (and they give exactly
the tables the code uses, on SQLite and PostgreSQL); nomv works without the server's packages;
`nomv serve` says what is wrong with its options and its database."""
from __future__ import annotations

import subprocess
import sys

import pytest

from serverlib import free_port


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_migrations_make_exactly_the_tables_of_the_code(backend, tmp_path, request):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from nomv.server.store import Store, metadata
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/fresh.sqlite3"
    else:
        url = request.getfixturevalue("postgres").database()
    store = Store(url)
    try:
        store.migrate()
        store.migrate()   # again: nothing to do
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar_one()
        assert version == "0006"
    finally:
        store.close()


BLOCKED = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "argon2", "openskill",
           "psycopg", "httpx", "websockets")


def test_nomv_works_without_the_servers_packages():
    code = (f"import sys\nfor m in {BLOCKED!r}: sys.modules[m] = None\n"
            "import nomv, nomv.cli, nomv.ai, nomv.checker\n"
            "pos = nomv.Game.load('tictactoe').start(seed=1); pos.play('b2')\n"
            "assert not any(m.startswith('nomv.server') for m in sys.modules), sorted(sys.modules)\n"
            "sys.exit(nomv.cli.main(['serve']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "nomv serve needs the server's packages" in done.stderr
    assert "pip install 'nomv[serve]'" in done.stderr and "Traceback" not in done.stderr


def test_nomv_serve_refuses_bad_options_and_a_database_it_cannot_reach(tmp_path):
    def serve(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "nomv", "serve", "--port", str(free_port()), *args],
                              capture_output=True, text=True, timeout=120,
                              env={"XDG_DATA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    done = serve("--db", "mysql://somewhere/db")
    assert done.returncode == 2 and "--db takes sqlite:///PATH or postgresql://" in done.stderr
    done = serve("--smtp", "mail.example.org")
    assert done.returncode == 2 and "--smtp takes smtp://" in done.stderr
    done = serve("--searches", "0")
    assert done.returncode == 2 and "--searches must be at least 1" in done.stderr
    done = serve("--db", f"postgresql://nomv:secret@127.0.0.1:{free_port()}/nomv")
    assert done.returncode == 1 and "cannot use the database postgresql://nomv:***@" in done.stderr
    assert "secret" not in done.stderr and "Traceback" not in done.stderr


def test_nomv_serve_help_lists_its_options(capsys):
    from nomv.cli import main
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for option in ("--db URL", "--host", "--port", "--smtp URL", "--searches", "--time-limit",
                   "--max-scripts", "--min-time-per-move",
                   "--default-time-per-move TIME", "--forwarded-allow-ips IPS", "--header-timeout S",
                   "--body-timeout S", "--max-waiting N"):
        assert option in out, option


def test_sqlite_commits_reach_the_disk_before_the_answer(tmp_path):
    # (a power cut cannot be made in a test: the setting that keeps a commit through one is
    # checked on a real SQLite file; what it costs: docs/deploy.md)
    from nomv.server.store import Store
    store = Store(f"sqlite:///{tmp_path}/s.sqlite3")
    try:
        with store.read() as db:
            assert db.exec_driver_sql("PRAGMA synchronous").scalar() == 2      # FULL
            assert db.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        store.close()
