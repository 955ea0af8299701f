"""The errors of the server's services, each with its HTTP status.  The app turns them into
JSON: ``{"error": code, "message": "...", ...extra}``."""
from __future__ import annotations

from typing import Any


class ApiError(Exception):
    status = 400
    code = "bad_request"
    #: Headers of the answer besides its JSON.
    headers: dict[str, str] | None = None

    def __init__(self, message: str, **extra: Any):
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


class Invalid(ApiError):
    """A request that cannot be understood: a bad name, option, seat..."""
    status, code = 422, "invalid"


class Unauthorized(ApiError):
    status, code = 401, "unauthorized"


class Forbidden(ApiError):
    status, code = 403, "forbidden"


class NotFound(ApiError):
    status, code = 404, "not_found"


class Conflict(ApiError):
    status, code = 409, "conflict"


class Stale(Conflict):
    """The client saw another ply: the answer carries the current position."""
    code = "stale"


class Illegal(ApiError):
    """An illegal move, with the script's reason."""
    status, code = 422, "illegal_move"


class Refused(ApiError):
    """An uploaded script with errors: the checker's messages go with it."""
    status, code = 422, "script_refused"


class TooLarge(ApiError):
    status, code = 413, "too_large"


class TooMany(ApiError):
    """A quota or a rate: ``retry_after`` (seconds) becomes the answer's Retry-After header."""
    status, code = 429, "too_many"

    def __init__(self, message: str, retry_after: float | None = None, **extra: Any):
        super().__init__(message, **extra)
        if retry_after is not None:
            self.headers = {"Retry-After": str(max(1, int(retry_after)))}


class Busy(ApiError):
    """The server cannot take this now (its game has too many requests waiting, a worker process
    it needed was restarted by another game): nothing was changed, try again in a moment."""
    status, code = 503, "unavailable"
    headers = {"Retry-After": "1"}


class ScriptFailed(ApiError):
    """The game's script failed (an error, or a time or memory limit) where the request needed
    it: not the client's fault, and the server goes on.  ``process_ended``: as the script's
    error said (nomv.errors.ScriptError: its worker process died, or was stopped)."""
    status, code = 502, "script_failed"
    process_ended: str | None = None


class UpgradeRequired(ApiError):
    """A WebSocket's address asked over plain HTTP."""
    status, code = 426, "upgrade_required"
    headers = {"Upgrade": "websocket"}
