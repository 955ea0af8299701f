"""The "your turn" e-mail, sent through the SMTP server of ``nomv serve --smtp URL`` by a thread
of its own (a slow mail server never holds up a move)."""
from __future__ import annotations

import logging
import queue
import smtplib
import threading
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("nomv.server")


class SmtpUrl:
    """``smtp://[user[:password]@]host[:port][?starttls=1]``, or ``smtps://`` for TLS."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"--smtp takes smtp://[user:password@]host[:port] or smtps://..., got {url!r}")
        self.tls = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.tls else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        query = parse_qs(parts.query)
        self.starttls = query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes")


class Mailer:
    def __init__(self, url: str, sender: str):
        self.url = SmtpUrl(url)
        self.sender = sender
        self.sent = 0
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="nomv-mail", daemon=True)
        self._thread.start()

    def send(self, to: str, subject: str, body: str) -> None:
        self._queue.put((to, subject, body))

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            to, subject, body = item
            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = self.sender, to, subject
            message.set_content(body)
            try:
                u = self.url
                cls = smtplib.SMTP_SSL if u.tls else smtplib.SMTP
                with cls(u.host, u.port, timeout=30) as smtp:
                    if u.starttls:
                        smtp.starttls()
                    if u.user:
                        smtp.login(u.user, u.password or "")
                    smtp.send_message(message)
                self.sent += 1
            except (OSError, smtplib.SMTPException) as exc:
                log.warning("could not send the e-mail to %s: %s", to, exc)
