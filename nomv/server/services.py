"""Everything a request may need, made once per server and closed with it: the database, the
engines, the catalogue, accounts, quotas, pushes, the match service's roles, computer players,
jobs (an upload's check, a record's replay) and uploads.  The routers reach them through
``nomv.server.api.deps``."""
from __future__ import annotations


from .accounts import Accounts
from .bounded import Bounded
from .catalogue import Catalogue
from .computer import Computer
from .engines import Engines
from .jobs import Jobs
from .leases import Leases
from .live import LiveHub
from .mail import Mailer
from .matches.answers import Budget
from .matches.listings import Listings
from .matches.lobby import Lobby
from .matches.notify import Notifier
from .matches.records import Records
from .matches.repository import MatchTables
from .matches.round import Parts, Rounds
from .matches.views import Views
from .quotas import Quotas
from .sessioncache import SessionCache
from .settings import Settings
from .sockets import SocketLimits
from .store import Store, libpq_url
from .uploads import Uploads


class Services:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.store = Store(settings.db)
        self.store.migrate()
        # --cache-mb: three quarters for the positions' views and the looks, a quarter for the
        # answers the rounds keep (their JSON)
        self.engines = Engines(lambda sha: self.catalogue.script(sha), settings.cache_positions,
                               settings.cache_scripts, settings.limits, settings.processes,
                               settings.cache_bytes * 3 // 4, settings.max_look_bytes, settings.worker_memory)
        self.catalogue = Catalogue(self.store, self.engines.describe)
        self.quotas = Quotas(self.store)
        self.jobs = Jobs(self.store, settings.jobs)
        # Password hashing (argon2: argon2_memory KiB a hash) on threads of its own, a few at once.
        self.hashing = Bounded(settings.hashes, settings.hash_queue, "checking passwords", "nomv-hash")
        self.live = LiveHub()
        # WebSockets: watchers of a match, anonymous ones of an address, a user's (this process)
        self.sockets = SocketLimits(settings.watchers_per_match, settings.anonymous_sockets_per_address,
                                    settings.sockets_per_user)
        if self.store.backend == "postgresql":
            # several processes may serve this database: pushes reach every one's clients
            self.live.connect(libpq_url(settings.db))
        # Sessions are remembered while this process hears every other end one (LISTEN).
        self.accounts = Accounts(self.store, settings.session_days, settings.argon2_memory,
                                 settings.argon2_time, SessionCache(usable=self.live.hears_all), self.quotas,
                                 settings.registrations_per_hour)
        self.live.on_sessions_ended(self.accounts.cache.forget)
        self.live.on_resync(self.accounts.cache.clear)
        # a session that ends closes its sockets, in every process
        self.accounts.on_ended = self.live.end_sessions
        self.leases = Leases(self.store)
        self.mailer = Mailer(settings.smtp, settings.mail_from) if settings.smtp else None
        # The match service, role by role (nomv/server/matches/__init__.py).
        self.tables = MatchTables(self.store)
        self.views = Views(self.engines, self.catalogue)
        self.notifier = Notifier(self.live, self.mailer, settings, self.views.title)
        # (with SQLite this process is the database's only writer: the rounds' memory is the truth)
        self.rounds = Rounds(Parts(self.tables, self.engines, self.views, self.notifier,
                                   sole_writer=self.store.backend == "sqlite",
                                   kept=Budget(settings.cache_bytes // 4)), settings.cache_positions)
        # A user's name or settings changed (on any process): the matches remembered show them
        # as they were.
        self.live.on_sessions_ended(lambda ended: self.rounds.forget_all() if ended.reason == "user" else None)
        self.lobby = Lobby(self.tables, self.engines, self.catalogue, self.accounts, self.rounds,
                           self.notifier, settings)
        self.listings = Listings(self.tables, self.views)
        self.records = Records(self.tables, self.engines, self.catalogue, self.lobby, self.jobs, settings)
        self.computer = Computer(self.tables, self.rounds, self.engines, settings.searches, self.leases,
                                 settings.computer_seconds)
        self.notifier.on_computer_turn = self.computer.wake
        self.uploads = Uploads(self.store, self.catalogue, self.engines.describe, settings, self.jobs)

    def start(self) -> None:
        """The threads that work in the background: computer players, job runners."""
        self.computer.start()
        self.jobs.start()

    def close(self) -> None:
        self.jobs.close()
        self.uploads.close()
        self.computer.close()
        self.live.close()
        self.hashing.close()
        if self.mailer is not None:
            self.mailer.close()
        self.engines.close()
        self.store.close()
