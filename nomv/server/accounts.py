"""Accounts: names (unique ignoring case), argon2 password hashes, and sessions.

A session is a random token: the browser keeps it in an HttpOnly cookie, bots send it as
``Authorization: Bearer ...``.  Only its SHA-256 is stored, so sessions survive a restart but a
copy of the database logs nobody in.  A request's session is looked up in memory first
(nomv.server.sessioncache); every way a session ends is told to every process
(:attr:`Accounts.on_ended`, nomv.server.live.SessionsEnded), which forgets it at once.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
import secrets
from dataclasses import dataclass
from typing import Any, Callable

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from . import names
from .errors import Conflict, Invalid, TooMany, Unauthorized
from .live import SessionsEnded
from .sessioncache import SessionCache
from .quotas import Quotas
from .store import Store, login_failures, now, sessions, users

#: A name is what people call themselves, in any script: 2 to 40 characters, no slash (uploaded
#: games are named author/name), and nothing that makes it look like another name (invisible
#: characters, runs of spaces, mixed scripts: nomv.server.names).  Pages show it as text, and
#: SQL takes it as a bound parameter, so `<b>x</b>` or `x' OR '1'='1` are just names.
MAX_NAME = 40
#: Names a seat of a match can mean something else by, and a few that would confuse people.
RESERVED = {"open", "human", "random", "easy", "medium", "hard", "mcts", "computer", "me",
            "admin", "root", "anonymous", "spectator", "nobody", "nomv", "server"}
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,189}\.[^@\s]{1,60}$")


@dataclass(frozen=True)
class User:
    id: int
    name: str
    email: str | None = None
    notify: bool = True

    def public(self) -> dict:
        return {"name": self.name}


def name_key(name: str) -> str:
    """What makes two names the same: names are unique ignoring case (and Unicode's ways of
    writing one letter differently)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: object) -> str:
    """The name as it is stored (NFKC), or Invalid saying what is wrong with it."""
    if not isinstance(name, str):
        raise Invalid("a name is a text")
    name = names.normal(name)
    what = names.problem(name)
    if what is None and not 2 <= len(name) <= MAX_NAME or len(name_key(name)) > MAX_NAME:
        what = f"it is not 2 to {MAX_NAME} characters long"
    if what is None and ("/" in name or "\\" in name):
        what = "it holds a slash"
    if what is not None:
        raise Invalid(f"the name {names.shown(name[:60])} cannot be used: {what}")
    if name_key(name) in RESERVED:
        raise Invalid(f"{name!r} is reserved (a seat of a match can mean something else by it); "
                      "choose another name")
    return name


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long")
    return password


def check_email(email: object) -> str | None:
    if email is None or email == "":
        return None
    if not isinstance(email, str) or not EMAIL.match(email) \
            or any(unicodedata.category(c)[0] == "C" for c in email):
        raise Invalid(f"{str(email)[:60]!r} is not an e-mail address")
    return email


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


#: A session in use is marked used in the database at most this often.
TOUCH_SECONDS = 3600.0


class Accounts:
    def __init__(self, store: Store, session_days: float = 30, memory_cost: int = 65536,
                 time_cost: int = 3, cache: SessionCache | None = None, quotas: Quotas | None = None,
                 registrations_per_hour: int = 10):
        self.store = store
        self.session_seconds = session_days * 86400
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=1)
        #: Sessions remembered in memory (the services make it forget ended sessions).
        self.cache: SessionCache[User] = cache or SessionCache()
        #: Tells every process that sessions ended (set by the services: LiveHub.end_sessions,
        #: which closes their sockets and makes every cache forget them); called after the
        #: transaction that ended them.
        self.on_ended: Callable[[SessionsEnded], None] = self.cache.forget
        self.quotas = quotas
        self.registrations_per_hour = registrations_per_hour

    @staticmethod
    def _user(row) -> User:
        return User(row.id, row.name, row.email, row.notify)

    def register(self, name: object, password: object, email: object = None, address: str | None = None) -> User:
        """A new account; at most registrations_per_hour from one ``address`` (counted in the
        database, so across restarts and processes), each counted once the request is valid."""
        name, password, email = check_name(name), check_password(password), check_email(email)
        if self.by_name(name) is not None:
            raise Conflict(f"the name {name!r} is taken (names are unique ignoring case)")
        if address and self.quotas is not None:
            self.quotas.take(f"register:{address[:100]}", self.registrations_per_hour, 3600,
                             "accounts made from your address an hour")
        hashed = self.hasher.hash(password)
        try:
            with self.store.write() as db:
                inserted = db.execute(users.insert().values(
                    name=name, name_key=name_key(name), password_hash=hashed, email=email,
                    notify=True, created_at=now())).inserted_primary_key
                assert inserted is not None, "an insert gives its row's key"
                user_id = inserted[0]
        except sa.exc.IntegrityError:
            raise Conflict(f"the name {name!r} is taken (names are unique ignoring case)") from None
        return User(user_id, name, email, True)

    def by_name(self, name: str) -> User | None:
        if not isinstance(name, str) or len(name) > 64:
            return None
        with self.store.read() as db:
            row = db.execute(sa.select(users).where(users.c.name_key == name_key(name))).first()
        return self._user(row) if row else None

    def by_id(self, user_id: int) -> User | None:
        with self.store.read() as db:
            row = db.execute(sa.select(users).where(users.c.id == user_id)).first()
        return self._user(row) if row else None

    def _verify(self, name: object, password: object) -> User:
        wrong = Unauthorized("wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise wrong
        with self.store.read() as db:
            row = db.execute(sa.select(users).where(users.c.name_key == name_key(name))).first()
        if row is None:
            # The same work as for a real account: timing does not tell which names exist.
            try:
                self.hasher.verify(self._dummy(), password)
            except (VerificationError, InvalidHashError):
                pass
            raise wrong
        try:
            self.hasher.verify(row.password_hash, password)
        except (VerificationError, InvalidHashError):
            raise wrong from None
        if self.hasher.check_needs_rehash(row.password_hash):
            with self.store.write() as db:
                db.execute(users.update().where(users.c.id == row.id)
                           .values(password_hash=self.hasher.hash(password)))
        return self._user(row)

    _dummy_hash: str | None = None

    def _dummy(self) -> str:
        if self._dummy_hash is None:
            self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy_hash

    #: Failed logins allowed in LOGIN_WINDOW seconds, for one name from one address, and from
    #: one address for any names.  Not for a name from everywhere: then anyone could lock its
    #: owner out with ten wrong passwords.  The count is the database's: it holds across the
    #: server's processes and its restarts.  (Without an address, per name.)
    LOGIN_WINDOW = 900.0
    FAILURES_PER_NAME = 10
    FAILURES_PER_ADDRESS = 50

    @staticmethod
    def _failure_keys(name: object, address: str | None) -> list[str]:
        """What a failed password counts against: the (name, address) pair and the address."""
        keys = [f"addr:{address[:100]}"] if address else []
        if isinstance(name, str):
            folded = hashlib.sha256(name_key(name[:200]).encode("utf-8", "replace")).hexdigest()[:32]
            keys.insert(0, f"name:{folded}@{address[:80]}" if address else f"name:{folded}")
        return keys

    def _failed(self, keys: list[str]) -> None:
        if not keys:
            return
        with self.store.write() as db:
            t = now()
            db.execute(login_failures.insert(), [{"key": k, "at": t} for k in keys])
            # the window slides: what left it is no longer needed
            db.execute(login_failures.delete().where(login_failures.c.at < t - self.LOGIN_WINDOW))

    def _checked(self, name: object, password: object, address: str | None) -> User:
        """The user, if the password is theirs: counted as a failure if not, and refused
        (TooMany) without a look at the password after too many failures."""
        keys = self._failure_keys(name, address)
        self._refuse_when_too_many(keys)
        try:
            return self._verify(name, password)
        except Unauthorized:
            self._failed(keys)
            raise

    def login(self, name: object, password: object, address: str | None = None) -> tuple[User, str]:
        """The user and a new session token.  After too many failed logins for the name from
        the address, or from the address, TooMany (429) until the oldest failure leaves the
        window: an unknown name is counted like a known one, so the answer tells nothing about
        who exists, and the right password waits like a wrong one (the limit is no hint)."""
        user = self._checked(name, password, address)
        token = secrets.token_urlsafe(32)
        t = now()
        with self.store.write() as db:
            db.execute(sessions.insert().values(token_hash=token_hash(token), user_id=user.id,
                                                created_at=t, used_at=t))
        return user, token

    def _refuse_when_too_many(self, keys: list[str]) -> None:
        since = now() - self.LOGIN_WINDOW
        with self.store.read() as db:
            for key in keys:
                limit = self.FAILURES_PER_NAME if key.startswith("name:") else self.FAILURES_PER_ADDRESS
                rows = db.execute(sa.select(login_failures.c.at).where(login_failures.c.key == key,
                                                                        login_failures.c.at >= since)
                                  .order_by(login_failures.c.at.desc()).limit(limit)).all()
                if len(rows) >= limit:
                    wait = max(1, int((rows[-1].at + self.LOGIN_WINDOW - now()) // 60) + 1)
                    what = "for this name from your address" if key.startswith("name:") else "from your address"
                    raise TooMany(f"too many failed logins {what}; try again in {wait} minute{'s' if wait != 1 else ''}")

    def logout(self, token: str, reason: str = "logout") -> None:
        """Ends the session of ``token`` (``reason``: logout, or expired); every process forgets
        it (its WebSockets close)."""
        key = token_hash(token)
        with self.store.write() as db:
            row = db.execute(sa.select(sessions.c.user_id).where(sessions.c.token_hash == key)).first()
            db.execute(sessions.delete().where(sessions.c.token_hash == key))
        if row is not None:
            self.on_ended(SessionsEnded(int(row.user_id), (key,), reason=reason))

    def remembered(self, token: str | None) -> User | None:
        """The user of a session token when it is in memory and needs no write (no query, so
        that an event loop may ask); None means: ask :meth:`session_user`."""
        if not token or len(token) > 200:
            return None
        found = self.cache.get(token_hash(token))
        if found is None:
            return None
        user, used_at = found
        t = now()
        if t - used_at > TOUCH_SECONDS or t - used_at > self.session_seconds:
            return None
        return user

    def session_user(self, token: str | None, fresh: bool = False) -> User | None:
        """The user of a session token, or None (unknown or expired); ``fresh``: read from the
        database, not the session cache (a socket's check right after subscribing)."""
        if not token or len(token) > 200:
            return None
        key = token_hash(token)
        t = now()
        found = None if fresh else self.cache.get(key)
        if found is not None:
            user, used_at = found
        else:
            generation = self.cache.generation
            with self.store.read() as db:
                row = db.execute(sa.select(users, sessions.c.used_at).join(sessions, sessions.c.user_id == users.c.id)
                                 .where(sessions.c.token_hash == key)).first()
            if row is None:
                return None
            user, used_at = self._user(row), float(row.used_at)
            self.cache.put(key, user, used_at, generation)
        if t - used_at > self.session_seconds:
            self.logout(token, reason="expired")
            return None
        if t - used_at > TOUCH_SECONDS:   # a session in use stays alive; one write an hour is enough
            with self.store.write() as db:
                db.execute(sessions.update().where(sessions.c.token_hash == key).values(used_at=t))
            self.cache.touch(key, t)
        return user

    def change_password(self, user: User, old: object, new: object, keep_token: str | None,
                        address: str | None = None) -> None:
        """Changes the password after checking the old one; every other session ends.  A wrong
        old password counts as a failed login of the name from the address: a stolen session
        cannot try passwords faster than a login can."""
        self._checked(user.name, old, address)
        new = check_password(new)
        hashed = self.hasher.hash(new)
        with self.store.write() as db:
            db.execute(users.update().where(users.c.id == user.id).values(password_hash=hashed))
            query = sessions.delete().where(sessions.c.user_id == user.id)
            if keep_token:
                query = query.where(sessions.c.token_hash != token_hash(keep_token))
            db.execute(query)
        self.on_ended(SessionsEnded(user.id, None, keep=token_hash(keep_token) if keep_token else None,
                                    reason="password"))

    def update(self, user: User, email: object = ..., notify: object = ...) -> User:
        values: dict[str, Any] = {}
        if email is not ...:
            values["email"] = check_email(email)
        if notify is not ...:
            if not isinstance(notify, bool):
                raise Invalid("notify is true or false")
            values["notify"] = notify
        if values:
            with self.store.write() as db:
                db.execute(users.update().where(users.c.id == user.id).values(**values))
            # (the sessions remembered hold the user as it was: every process forgets them)
            self.on_ended(SessionsEnded(user.id, None, reason="user"))
        return self.by_id(user.id)  # type: ignore[return-value]
