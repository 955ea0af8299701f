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
    settings = Settings(**json.loads(os.environ[SETTINGS_VARIABLE]))
    _logging(settings)
    return create_app(settings)


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
    server = uvicorn.Server(uvicorn.Config(app, **_uvicorn_options(settings)))
    server.run()
    return 0 if server.started else 1


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
    uvicorn.run("nomv.server.serve:app_from_environment", factory=True, workers=settings.workers,
                **_uvicorn_options(settings))
    return 0


def _logging(settings: Settings) -> None:
    logging.basicConfig(level=getattr(logging, settings.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _cannot_use_database(settings: Settings, exc: Exception) -> int:
    from .store import database_reason
    print(f"nomv: error: cannot use the database {shown_url(settings.db)}: {database_reason(exc)}",
          file=sys.stderr)
    return 1


def _uvicorn_options(settings: Settings) -> dict:
    """How uvicorn serves nomv, in one process or several."""
    from uvicorn.config import WS_PROTOCOLS
    ws = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
    return {"host": settings.host, "port": settings.port, "log_level": settings.log_level, "ws": ws,
            "lifespan": "on", "proxy_headers": True, "server_header": False}
