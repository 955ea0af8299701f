"""Alembic's environment for nomv's server: run by ``Store.migrate`` with a connection in hand
(``nomv serve`` migrates its database when it starts)."""
from alembic import context

from nomv.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("nomv's migrations run from nomv serve (Store.migrate), which passes the connection")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
