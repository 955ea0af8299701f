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
    status, code = 429, "too_many"


class ScriptFailed(ApiError):
    """The game's script failed (an error, or a time or memory limit) where the request needed
    it: not the client's fault, and the server goes on."""
    status, code = 502, "script_failed"


class UpgradeRequired(ApiError):
    """A WebSocket's address asked over plain HTTP."""
    status, code = 426, "upgrade_required"
    headers = {"Upgrade": "websocket"}
