"""Running the server: ``nomv serve`` builds the settings from its options and calls :func:`run`."""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import sys

from .settings import Settings


def shown_url(url: str) -> str:
    """A database URL without its password, for messages."""
    return re.sub(r"//([^:/@]+):[^@/]*@", r"//\1:***@", url)


#: How `nomv serve --workers N` hands its settings to each worker process of uvicorn.
SETTINGS_VARIABLE = "NOMV_SERVE_SETTINGS"


def app_from_environment():
    """The application of one worker process of ``--workers N`` (uvicorn imports it by name)."""
    from .app import create_app
    from .protocol import set_header_timeout
    settings = Settings(**json.loads(os.environ[SETTINGS_VARIABLE]))
    _logging(settings)
    set_header_timeout(settings.header_timeout)
    return create_app(settings)


#: What a log line must not hold: a session token (a WebSocket's ``?token=``) or an invitation
#: (``/invite/<token>``, ``/api/invites/<token>``), which let anyone reading the log act as
#: someone.  (A proxy in front logs addresses too: docs/deploy.md.)
SECRET_IN_URL = re.compile(r"((?:[?&](?:token|access_token)=)|(?:/invites?/))[^&\s\"'/?#]+", re.IGNORECASE)


def hide_secrets(text: str) -> str:
    """``text`` with the secrets of its URLs written ``***``.

    >>> hide_secrets('GET /api/matches/7/live?token=abc.DEF-1&x=1 /invite/Zq9 /api/invites/Zq9/x')
    'GET /api/matches/7/live?token=***&x=1 /invite/*** /api/invites/***/x'
    """
    return SECRET_IN_URL.sub(r"\1***", text)


class HideSecrets(logging.Filter):
    """Rewrites each log record's message and arguments with :func:`hide_secrets`."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = hide_secrets(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(hide_secrets(a) if isinstance(a, str) else a for a in record.args)
        return True


def run(settings: Settings) -> int:
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from .app import create_app
    _logging(settings)
    if settings.workers > 1:
        return _run_workers(settings)
    try:
        app = create_app(settings)
    except SQLAlchemyError as exc:   # a database that cannot be reached or migrated
        return _cannot_use_database(settings, exc)
    print(f"nomv serve: http://{settings.host}:{settings.port}/ (API documentation at /docs; "
          f"database {shown_url(settings.db)})", file=sys.stderr, flush=True)
    from .protocol import set_header_timeout
    set_header_timeout(settings.header_timeout)
    server = uvicorn.Server(uvicorn.Config(app, **_uvicorn_options(settings)))
    server.run()
    return 0 if server.started else 1


#: How long uvicorn's supervisor waits for a worker process's answer before it kills it.
WORKER_HEALTHCHECK_SECONDS = 60


def _run_workers(settings: Settings) -> int:
    """uvicorn's worker processes, each an application of its own on the shared database."""
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from .store import Store
    try:
        store = Store(settings.db)
        store.migrate()    # once, here: the workers then find the schema up to date
        store.close()
    except SQLAlchemyError as exc:
        return _cannot_use_database(settings, exc)
    os.environ[SETTINGS_VARIABLE] = json.dumps(dataclasses.asdict(settings))
    print(f"nomv serve: http://{settings.host}:{settings.port}/ ({settings.workers} processes; "
          f"database {shown_url(settings.db)})", file=sys.stderr, flush=True)
    # uvicorn kills a worker that does not answer its supervisor's ping within the health check's
    # timeout (5 s by default), its start included: on a busy machine a worker still importing,
    # or busy in a long step holding the interpreter, was killed and started again, over and over
    uvicorn.run("nomv.server.serve:app_from_environment", factory=True, workers=settings.workers,
                timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS, **_uvicorn_options(settings))
    return 0


def _logging(settings: Settings) -> None:
    logging.basicConfig(level=getattr(logging, settings.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(HideSecrets())


def _log_config() -> dict:
    """uvicorn's own logging, its access lines and WebSocket lines without secrets."""
    import copy

    from uvicorn.config import LOGGING_CONFIG
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["hide_secrets"] = {"()": HideSecrets}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("hide_secrets")
    return config


def _cannot_use_database(settings: Settings, exc: Exception) -> int:
    from .store import database_reason
    print(f"nomv: error: cannot use the database {shown_url(settings.db)}: {database_reason(exc)}",
          file=sys.stderr)
    return 1


#: The largest message a WebSocket takes from a client (they send only "ping").
WS_MAX_BYTES = 64 * 1024


def _uvicorn_options(settings: Settings) -> dict:
    """How uvicorn serves nomv, in one process or several: what it can bound, bounded
    (docs/deploy.md says what the proxy in front must bound besides)."""
    from uvicorn.config import WS_PROTOCOLS

    from .protocol import IMPORT_NAME
    ws = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
    return {"host": settings.host, "port": settings.port, "log_level": settings.log_level, "ws": ws,
            "lifespan": "on", "proxy_headers": True, "server_header": False,
            "forwarded_allow_ips": settings.forwarded_allow_ips, "log_config": _log_config(),
            # a request's headers within header_timeout (nomv.server.protocol); an idle
            # connection after an answer closed after 5 s; a WebSocket that stops answering pings
            # closed after 20 + 20 s, and one that sends more than WS_MAX_BYTES at once closed
            "http": IMPORT_NAME, "timeout_keep_alive": 5, "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0,
            "ws_max_size": WS_MAX_BYTES, "h11_max_incomplete_event_size": 16 * 1024}
