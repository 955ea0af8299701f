"""``nomv serve``: play any scripted game online, live or by correspondence, through a JSON API.

The modules, each with one role (docs/server.md describes the whole):

``settings``   what an operator can set (``nomv serve --help``)
``store``      the database (SQLAlchemy Core; schema by the Alembic migrations in ``migrations/``)
``accounts``   users, passwords (argon2) and sessions
``engines``    the only place that loads game scripts and keeps positions (an LRU cache)
``catalogue``  the games the server knows: bundled, the server's games folder, uploads
``uploads``    scripts uploaded by users, checked by ``nomv check``
``matches``    the match service: who may act, ply checks, draws, takebacks, clocks, ratings
``computer``   computer seats, searching in a bounded pool of their own
``live``       pushes to the WebSockets of a match
``mail``       "your turn" e-mails
``app``        the ASGI application: routes, authentication, errors

Needs the ``serve`` extra (``pip install 'nomv[serve]'``); the rest of nomv never imports it.
"""
