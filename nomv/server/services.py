"""Everything a request may need, made once per server and closed with it: the database, the
engines, the catalogue, accounts, pushes, the match service's roles, computer players, uploads.
The routers reach them through ``nomv.server.api.deps``."""
from __future__ import annotations

from typing import Any

from .accounts import Accounts
from .catalogue import Catalogue
from .computer import Computer
from .engines import Engines
from .leases import Leases
from .live import LiveHub
from .mail import Mailer
from .matches.listings import Listings
from .matches.lobby import Lobby
from .matches.notify import Notifier
from .matches.records import Records
from .matches.repository import MatchTables
from .matches.round import Parts, Rounds
from .matches.views import Views
from .settings import Settings
from .store import Store, libpq_url
from .uploads import Uploads


class Services:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.store = Store(settings.db)
        self.store.migrate()
        self.engines = Engines(lambda sha: self.catalogue.script(sha), settings.cache_positions,
                               settings.cache_scripts, settings.limits, settings.processes)
        self.catalogue = Catalogue(self.store, self.engines.describe)
        self.accounts = Accounts(self.store, settings.session_days, settings.argon2_memory,
                                 settings.argon2_time)
        self.live = LiveHub()
        if self.store.backend == "postgresql":
            # several processes may serve this database: pushes reach every one's clients
            self.live.connect(libpq_url(settings.db))
        self.leases = Leases(self.store)
        self.mailer = Mailer(settings.smtp, settings.mail_from) if settings.smtp else None
        # The match service, role by role (nomv/server/matches/__init__.py).
        self.tables = MatchTables(self.store)
        self.views = Views(self.engines, self.catalogue)
        self.notifier = Notifier(self.live, self.mailer, settings, self.views.title)
        self.rounds = Rounds(Parts(self.tables, self.engines, self.views, self.notifier), settings.cache_positions)
        self.lobby = Lobby(self.tables, self.engines, self.catalogue, self.accounts, self.rounds,
                           self.notifier, settings)
        self.listings = Listings(self.tables, self._title)
        self.records = Records(self.tables, self.engines, self.catalogue, self.lobby)
        self.computer = Computer(self.tables, self.rounds, self.engines, settings.searches, self.leases)
        self.notifier.on_computer_turn = self.computer.wake
        self.uploads = Uploads(self.store, self.catalogue, self.engines.describe, settings)

    def _title(self, sha256: str) -> Any:
        entry = self.catalogue.by_sha(sha256)
        return (entry.info or {}).get("title") if entry is not None else None

    def close(self) -> None:
        self.computer.close()
        self.live.close()
        if self.mailer is not None:
            self.mailer.close()
        self.engines.close()
        self.store.close()
