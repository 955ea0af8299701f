"""The request and answer bodies of the JSON API: they make the OpenAPI page, and they are the
answers (every JSON route declares its ``response_model``; ``tests/test_server_scale.py`` holds
every route's real answers against its schema).

Requests forbid unknown fields and are validated here, once: the services trust their types.
Answers forbid unknown fields too, so that an answer with a key the page does not document
fails at once in the tests instead of drifting from it.  What a game's script decides (a view,
a scene, an option's value) is left open: the server passes it on as the script made it.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator


def lone_surrogate(value: Any, where: str = "") -> str | None:
    """Where the first text in ``value`` (a JSON value, walked through) holds a lone UTF-16
    surrogate, else None.  JSON may escape one (``"\\ud800"``); it is not a character, and no
    text holding it can be stored, hashed or answered as UTF-8."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")      # (at C speed: a script's source may be megabytes)
            return None
        except UnicodeEncodeError:
            return where or "the body"
    items: Any = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and lone_surrogate(key) is not None:
            return f"a key of {where or 'the body'}"
        found = lone_surrogate(item, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None


class Body(BaseModel):
    """A request body.  Text holding a lone UTF-16 surrogate is refused here, before any
    service sees it (422, naming the field)."""
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_lone_surrogates(cls, data: Any) -> Any:
        where = lone_surrogate(data)
        if where is not None:
            raise ValueError(f"{where} holds a lone UTF-16 surrogate (an escape such as \\ud800 that "
                             "is half of a pair): not a character; send UTF-8 text")
        return data


class Answer(BaseModel):
    """An answer body."""
    model_config = ConfigDict(extra="forbid")


# -- requests ------------------------------------------------------------------------------------

class NewUser(Body):
    name: str = Field(description="2 to 40 printable characters, no space at either end, no slash; "
                                  "unique ignoring case", examples=["alice"])
    password: str = Field(description="8 to 1024 characters", examples=["correct horse battery"])
    email: str | None = Field(None, description="for \"your turn\" e-mails (optional)")


class Login(Body):
    name: str = Field(examples=["alice"])
    password: str = Field(examples=["correct horse battery"])


class PasswordChange(Body):
    old: str
    new: str = Field(description="8 to 1024 characters")


class MeChange(Body):
    email: str | None = Field(None, description="an e-mail address, or null to remove it")
    notify: StrictBool | None = Field(None, description="send \"your turn\" e-mails")


#: A time per move: seconds, or a text such as "12h" or "3d".
TimePerMove = Annotated[float | str | None, Field(
    description="seconds (or \"12h\", \"3d\"); who runs out loses. Left out between people (with no "
                "`clock`): the server's default (`--default-time-per-move`, 3 days); \"none\": no limit")]


ClockIn = Annotated[str | dict[str, float] | None, Field(
    description="a live time control instead of a time per move: minutes+seconds (\"5+3\") or "
                "{\"base\": seconds, \"increment\": seconds}; each player's clock runs on their turn, "
                "the increment is added after each of their moves, and who runs out loses",
    examples=["5+3"])]


class NewMatch(Body):
    game: str = Field(description="a catalogue name (GET /api/games) or a script's SHA-256",
                      examples=["trinim"])
    options: dict[str, Any] | None = Field(None, examples=[{"size": 6}])
    variant: str | None = None
    seats: list[str] = Field(description="one per player: a user's name, \"open\" (anyone may take "
                                         "it through the invitation), or a computer player: easy, "
                                         "medium, hard, random, mcts:1s, mcts:5000it",
                             examples=[["alice", "bob"]])
    time_per_move: TimePerMove = None
    clock: ClockIn = None
    rated: StrictBool | None = Field(None, description="default: rated when every seat is a person")


Step = Annotated[str, Field(min_length=1, max_length=1000)]


class MoveIn(Body):
    ply: StrictInt = Field(description="the ply of the position you saw (the number of moves played)")
    move: Annotated[list[Step], Field(min_length=1, max_length=1000)] | Annotated[
        str, Field(min_length=1, max_length=10_000, pattern=r"\S")] = Field(
        description="the steps of a legal move (as in `legal_moves`), or its notation",
        examples=[["D4", "D2"], "D4-D2"])


class DrawIn(Body):
    action: Literal["offer", "accept", "decline"]


class TakebackIn(Body):
    action: Literal["ask", "accept", "decline"]


class JoinIn(Body):
    seat: StrictInt | None = Field(default=None, description="which open seat (default: the first)")


class RecordIn(Body):
    record: dict[str, Any] | str = Field(description="a nomv game record, as the desktop saves it")
    seats: list[str]
    game: str | None = Field(None, description="the catalogue game to continue it with (default: "
                                               "the script of the record's SHA-256, else its game's name)")
    time_per_move: TimePerMove = None


class ScriptIn(Body):
    source: str = Field(description="the text of a .lua game script")


# -- answers: accounts -----------------------------------------------------------------------------

class Ok(Answer):
    ok: Literal[True] = True


class Token(Answer):
    token: str = Field(description="the session, for `Authorization: Bearer TOKEN`")
    name: str


class UserOut(Answer):
    name: str
    email: str | None = None
    notify: bool | None = None


class UserRating(Answer):
    game: str
    title: str = Field(description="the game's title in your language")
    rating: float = Field(description="a cautious estimate: 1000 + 40 × (μ − 3σ), never below 0")
    provisional: bool = Field(description="too few games yet to say much")
    games: int
    wins: int
    draws: int
    losses: int


class FinishedMatch(Answer):
    id: int
    game: str
    title: Any
    rated: bool
    result: str | None
    won: bool
    drawn: bool
    players: list[str]
    ended_at: str | None


class Profile(Answer):
    name: str
    ratings: list[UserRating] = Field(description="in each game of the player's rated matches")
    matches: list[FinishedMatch] = Field(description="the latest finished matches, the latest first")


# -- answers: games ------------------------------------------------------------------------------------

#: A text of the script as it gives it: a text, or a table of languages ({"en": ..., "it": ...}).
ScriptText = Annotated[Any, Field(description="as the script gives it: a text, or a table of languages")]


class PlayersOut(Answer):
    min: int
    max: int
    default: int
    names: list[str] = Field(description="the game's name for each seat, in your language")
    name_texts: list[ScriptText] = Field([], description="the same as the script gives them (null: unnamed)")
    colours: list[Any]


class OptionOut(Answer):
    name: str
    type: str
    default: Any
    min: Any = None
    max: Any = None
    choices: list[Any]
    label: str = Field(description="the option's name for people, in your language")
    help: str | None = Field(description="what the option does, in your language")
    allowed: str | None = Field(description="the values allowed, in words, in your language")
    order: int | None = Field(None, description="where the option stands among the others")
    label_text: ScriptText = None
    help_text: ScriptText = None


class GameOut(Answer):
    name: str = Field(description="the catalogue name: `trinim`, or `author/name` for an upload")
    title: str = Field(description="in your language (`lang`, else Accept-Language)")
    title_text: ScriptText = None
    origin: Literal["bundled", "server", "upload"]
    author: str | None
    sha256: str
    players: PlayersOut | None
    options: list[OptionOut]
    variants: dict[str, dict[str, Any]]
    hidden_information: bool


class GameInfo(GameOut):
    info: dict[str, Any] = Field(description="what the script says of itself: rules, author, source, ..., "
                                             "each in your language")
    info_texts: dict[str, Any] = Field(description="the same as the script gives it (a text, or a table of "
                                                   "languages, each)")


class StandingRow(Answer):
    rank: int
    name: str
    rating: float = Field(description="a cautious estimate: 1000 + 40 × (μ − 3σ), never below 0")
    mu: float
    sigma: float
    provisional: bool = Field(description="too few games yet to say much")
    games: int
    wins: int
    draws: int
    losses: int


class Standings(Answer):
    game: str
    standings: list[StandingRow]


class Diagnostic(Answer):
    """One message of `nomv check` (docs/checker.md)."""
    path: str
    line: int | None
    severity: Literal["error", "warning"]
    code: str
    name: str
    message: str
    text: str = Field(description="the whole message as the checker prints it: `upload.lua:12: error[E052]: ...`")


class Uploaded(Answer):
    game: str = Field(description="the name to use in POST /api/matches")
    sha256: str
    new: bool
    warnings: list[Diagnostic]


# -- answers: matches ----------------------------------------------------------------------------------

Status = Literal["waiting", "active", "ended", "cancelled", "declined", "aborted"]


class RatingChange(Answer):
    seat: int
    before: float
    after: float
    provisional: bool


class Outcome(Answer):
    winner: int | None
    ranks: list[int] = Field(description="each seat's rank, 1 first; equal ranks share")
    scores: list[int | float] | None
    reason: ScriptText = Field(description="the script's reason (a text, or a table of languages), or the "
                                           "result in words when the players ended the match")
    text: str = Field(description="the result in words, in English, as the match's record keeps it "
                                  "(the answer's `line` says it in your language)")
    how: Literal["game", "resign", "timeout", "draw"]
    ratings: list[RatingChange] | None = Field(None, description="a rated match: each player's rating "
                                                                 "before and after it")
    unrated: str | None = Field(None, description="why a match that was to be rated changed no rating "
                                                  "(it ended too soon); the key only then")
    by: int | None = Field(None, description="the seat that resigned or ran out of time")


class SeatWords(Answer):
    """What a seat is called in words, in your language (nomv.play.wording, as on the desktop)."""
    role: str = Field(description="the game's name for the seat (\"Player 2\" where the game names none)")
    label: str = Field(description="who plays it: a user's name, \"open seat\", a computer player and its level")
    who: str = Field(description="both together, as a result names the seat: \"White (alice)\"")
    notes: list[str] = Field(description="you, thinking, the computer's estimate, not accepted yet")


class SeatOut(SeatWords):
    seat: int
    kind: Literal["user", "open", "computer"]
    user: str | None
    spec: str | None = Field(description="a computer seat's player, e.g. medium or mcts:1s")
    accepted: bool
    you: bool
    expects: float | None = Field(description="a computer seat's estimate of its share of the points, with its last move")


class LastMove(Answer):
    ply: int
    seat: int
    steps: list[str]
    notation: str


class LegalMove(Answer):
    steps: list[str] = Field(description="the step ids, to send as the move")
    notation: str
    any_order: bool = Field(False, description="true when the steps may be clicked in any order "
                                               "(only then present)")
    label: str | None = Field(None, description="the move's own label, when it has one (only then present)")


class Mark(Answer):
    """A mark of the last move on a place, as the drawing has it among its shapes (the place's
    shape in board units: a rect's x, y, w, h; a circle's x, y, r; a polygon's points, cx, cy)."""
    draw: Literal["mark"]
    kind: Literal["step", "vacated"]
    id: str | None = Field(None, description="the id of the place, if it has one")
    index: int | None = Field(None, description="the place's scene item, when it is in the scene")
    side: bool | None = Field(None, description="true: the place stands beside the board")
    shape: str
    points: list[list[float]] | None = None
    x: float | None = None
    y: float | None = None
    r: float | None = None
    w: float | None = None
    h: float | None = None
    cx: float | None = None
    cy: float | None = None


class Drawing(Answer):
    """What to draw for a scene, in order, in board units, every colour decided: what the
    desktop window draws of the same scene (nomv.play.drawing; docs/gui.md)."""
    base: list[dict[str, Any]] = Field(description="the shapes by layer, the last move's marks among them")
    texts: list[dict[str, Any]] = Field(description="the scene's texts, drawn above the highlights")
    edge: list[dict[str, Any]] = Field(description="the coordinates around the board")
    cells: list[dict[str, Any]] = Field(description="else each place's id, small, in its place")
    places: dict[str, int] = Field(description="each clickable id: its place's index in `base`")
    ring_colours: dict[str, dict[str, list[int]]] = Field(description="rings of another colour on a place")
    buttons: list[dict[str, str]] = Field(description="steps that name no scene item, when legal moves were given")
    bounds: list[float]
    board_bounds: list[float] | None
    side_bounds: list[float] | None
    edge_reach: float
    edge_bounds: list[float] | None
    colours: dict[str, Any] = Field(description="nomv's own colours (rings, marks, ink): nomv/play/colours.json")
    coordinate_px: list[float] = Field(description="the smallest and largest coordinate, in pixels")
    cell_id_px: float


class Preview(Answer):
    game: str
    variant: str | None
    scene: dict[str, Any] | None = Field(description="the scene of the opening position, as a spectator sees it")
    drawing: Drawing | None = Field(None, description="what to draw of that scene (nomv.play.drawing)")
    to_move: int | None
    players: int


class Button(Answer):
    id: str
    text: str


class Takeback(Answer):
    by: int = Field(description="the seat whose move is taken back")
    ply: int = Field(description="the ply it goes back to")
    agreed: list[int]


class ClockOut(Answer):
    base: float = Field(description="each player's time at the start (seconds)")
    increment: float = Field(description="seconds added after each move")
    left: list[float] = Field(description="each seat's time left now (seconds)")
    running: int | None = Field(description="the seat whose clock runs")


class TimeControl(Answer):
    base: float
    increment: float


class Line(Answer):
    text: str = Field(description="whose turn it is (by person and role), the result, a challenge...")
    kind: str = Field(description="yours, turn, result, waiting or not played")


class MatchOut(Answer):
    id: int
    game: str
    title: str
    sha256: str
    options: dict[str, Any]
    variant: str | None
    players: int
    status: Status
    ply: int
    version: int = Field(description="grows with every change of the match")
    to_move: int | None
    seats: list[SeatOut]
    line: Line = Field(description="the one line about the match in your language (nomv.play.wording)")
    offers: list[str] = Field(description="the offers pending, in words (a draw, a takeback)")
    status_line: str = Field(description="the script's status line in your language while the match runs "
                                         "(none once it has ended: `line` says how)")
    message: str | None = Field(None, description="a draw offer's answer: why a computer player declined it")
    you: list[int] = Field(description="your seats")
    creator: str | None = Field(None, description="who started the match (may cancel it while it waits)")
    viewer: int | Literal["spectator", "whole"] = Field(
        description="whose view this is: your seat, \"spectator\" or \"whole\" (ended)")
    outcome: Outcome | None = Field(description="null while the match runs")
    view: Any = Field(description="the state as you may know it (the game's view hook)")
    scene: dict[str, Any] | None = Field(description="what to draw, from your view")
    drawing: Drawing | None = Field(description="what to draw of `scene` (nomv.play.drawing), as the desktop does")
    marks: list[Mark] = Field(description="the places of the last move, as `drawing` has them (nomv.play.marks)")
    buttons: list[Button] = Field(description="when it is your turn: the steps of your legal moves "
                                               "that name no scene item (pass, roll), to show as buttons")
    step_names: dict[str, str] = Field(description="when it is your turn: how messages name each step of "
                                                   "your legal moves (its notation, or its place's label)")
    moves: list[str]
    last_move: LastMove | None
    legal_moves: list[LegalMove] = Field(description="your legal moves when it is your turn, else []: "
                                                     "each its steps (step ids) and notation")
    draw_offer: list[int] | None = Field(description="the seats that offered a draw")
    takeback: Takeback | None
    rated: bool
    time_per_move: float | None
    deadline: str | None
    seconds_left: float | None
    clock: ClockOut | None = Field(None, description="a live time control's clocks (null: none)")
    created_at: str
    updated_at: str
    script_error: str | None = Field(description="why the game's script cannot go on here, if it failed")
    thinking: int | None = Field(description="the seat whose computer player is searching")
    seed: int | None = Field(None, description="only once the match has ended (before, the key is not there)")


#: How a route answers a match as you see it: a key left out (the seed, before the end) is left
#: out of the answer, not sent as null.  (The match service hands the answer over serialised,
#: made once per version and viewer class: nomv.server.matches.answers; tests/test_server_scale.py
#: holds it against this model's schema.)
AS_SEEN: dict[str, Any] = {"response_model": MatchOut, "response_model_exclude_unset": True}


class Earlier(Answer):
    id: int
    ply: int
    view: Any
    scene: dict[str, Any] | None
    drawing: Drawing | None = Field(None, description="what to draw of `scene` (nomv.play.drawing)")
    marks: list[Mark]
    error: str | None = Field(None, description="why the view cannot be shown, when the script failed")
    moves: list[str] = Field(description="the moves up to this position")
    last_move: LastMove | None


class Created(Answer):
    id: int
    status: Status
    invite: str | None = Field(None, description="the invitation link for the API (POST to take the seat), when a seat is open")
    invite_page: str | None = Field(None, description="the same invitation as a page for a person's browser")


class MatchSummary(Answer):
    id: int
    game: str
    status: Status
    ply: int
    updated_at: str


class ListedSeat(SeatWords):
    seat: int
    kind: Literal["user", "open", "computer"]
    user: str | None
    spec: str | None


class MySeat(ListedSeat):
    accepted: bool


class MyMatch(Answer):
    id: int
    game: str
    title: str = Field(description="the game's title in your language")
    line: Line = Field(description="as on the match's page: your turn, whose turn, the result, a challenge")
    rated: bool
    time_per_move: float | None
    clock: TimeControl | None
    status: Status
    ply: int
    to_move: int | None
    you: list[int]
    your_turn: bool
    to_answer: bool = Field(description="a challenge to you, to accept or decline")
    seats: list[MySeat]
    outcome: Outcome | None
    deadline: str | None
    updated_at: str


class Challenge(Answer):
    id: int
    game: str
    title: str = Field(description="the game's title in your language")
    line: Line
    options: dict[str, Any]
    variant: str | None
    time_per_move: float | None
    clock: TimeControl | None
    rated: bool
    open_seats: list[int]
    invite: str = Field(description="the invitation's token: POST /api/invites/{token} takes the seat")
    seats: list[ListedSeat]
    created_at: str


class Invitation(Answer):
    id: int
    game: str
    title: str = Field(description="the game's title in your language")
    line: Line
    status: Status
    open_seats: list[int]
    seats: list[ListedSeat]


class Joined(Answer):
    id: int
    seat: int


# -- the server ------------------------------------------------------------------------------------

class Words(Answer):
    lang: str = Field(description="the language chosen: the nearest the server speaks, else en")
    languages: dict[str, str] = Field(description="every language the server speaks: code -> its name")
    words: dict[str, str] = Field(description="nomv's own words: the English text -> its translation")


class Health(Answer):
    ok: Literal[True]
    version: str
    database: Literal["sqlite", "postgresql"]
    cached_positions: int
    cached_bytes: int = Field(description="about the memory of what is kept of matches (views of positions, looks, answers)")
    live_connections: int
    answers_made: int = Field(description="answers about matches made since the start (once per match "
                                           "version and viewer class)")
    pushes_sent: int = Field(description="messages sent to WebSockets since the start")


class Error(Answer):
    """Every error: a code and a message, and what else the error has to say."""
    error: str = Field(description="a code: invalid, unauthorized, forbidden, not_found, "
                                   "conflict, stale, illegal_move, script_refused, too_large, "
                                   "too_many, script_failed, unsupported_media_type, unavailable, ...")
    message: str = Field(description="what is wrong, for people")
    problems: list[str] | None = Field(None, description="an invalid request: each field's problem")
    diagnostics: list[Diagnostic] | None = Field(None, description="a refused script: the checker's messages")
    ply: int | None = Field(None, description="a stale move: the match's ply now")
    match: MatchOut | None = Field(None, description="a stale move: the match now, as you may see it")
    hook: str | None = Field(None, description="a script that failed: in which of its hooks")
    line: int | None = Field(None, description="a script that failed: at which line")
    kind: str | None = Field(None, description="a script that failed: how (error, time, memory)")
    job: int | None = Field(None, description="too many: your job under way (GET /api/jobs/{id})")


# -- jobs --------------------------------------------------------------------------------------------

class JobLinks(Answer):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    self_: str = Field(alias="self", description="this job: GET it (with ?wait=S to wait for its end)")
    game: str | None = Field(None, description="an upload accepted: the new game")
    match: str | None = Field(None, description="a record continued: the new match")


class JobOut(Answer):
    """Long work of a request (an upload's check, a record's replay), done in the background:
    follow it at `links.self` until `state` is `done` or `failed`."""
    id: int
    kind: Literal["upload", "import"]
    state: Literal["queued", "running", "done", "failed"]
    ahead: int | None = Field(description="while queued: the jobs queued before it (every user's)")
    created_at: str
    started_at: str | None
    finished_at: str | None
    status: int | None = Field(description="once ended: the HTTP status of its answer (201, 422, ...)")
    result: Uploaded | Created | None = Field(description="done: the answer (an upload: Uploaded; a record: Created)")
    error: Error | None = Field(description="failed: the error answer (a refused script: its `diagnostics`)")
    links: JobLinks


class RecordFile(BaseModel):
    """A game record as the desktop saves it (docs/records.md)."""
    model_config = ConfigDict(extra="forbid")
    format: Literal["nomv-record"]
    version: int
    game: str
    script: str
    script_sha256: str | None
    options: dict[str, Any]
    seed: int
    players: list[str] | None = None
    result: str | None = None
    moves: list[str]
    steps: list[list[str]] | None = None
