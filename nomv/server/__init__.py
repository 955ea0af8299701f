"""``nomv serve``: play any scripted game online, live or by correspondence, through a JSON API.

The rooms, each with one role (docs/server.md describes the whole):

``settings``   what an operator can set (``nomv serve --help``); ``serve`` runs the server
``app``        the ASGI application: the services, the guard, the error answers, the routers
``api/``       the JSON API: a router per area, its dependencies, request and answer models
``guard``      the origin guard in front of the routes (cross-site writes, body size and type)
``pages``      the browser's pages and their static files
``services``   everything a request may need, made once per server
``matches/``   the match service, a module per role: the tables, views, the running round,
               the lobby, listings, records, notifications
``computer``   computer seats, searching in a bounded pool of their own
``live``       pushes to the WebSockets of a match (between processes by LISTEN/NOTIFY)
``engines``    the only place that loads game scripts and keeps positions; ``looks``, the
               answers of looks kept per match version; ``snapshots``, their plain data
``catalogue``  the games the server knows: bundled, the server's games folder, uploads
``uploads``    scripts uploaded by users, checked by ``nomv check``
``accounts``   users, passwords (argon2) and sessions; ``ratings``, ratings per game
``store``      the database (SQLAlchemy Core; schema by the Alembic migrations in ``migrations/``)
``leases``, ``mail``, ``errors``, ``localpg`` (a PostgreSQL of its own)
``loadbench``  ``nomv bench --serve``: its servers, side by side; ``loadplayers`` (pages and
               bots), ``loadroutes`` (every route timed), ``loadprofile`` (py-spy's samples summed)

Needs the ``serve`` extra (``pip install 'nomv[serve]'``); the rest of nomv never imports it.
"""
