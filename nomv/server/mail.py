"""The "your turn" e-mail, sent through the SMTP server of ``nomv serve --smtp URL`` by a thread
of its own (a slow mail server never holds up a move).

Each message is made and sent in a try of its own: whatever goes wrong with one (a refused
address, a mail server away, text no header can hold) is logged and the next is sent.  What
people typed or a game's script wrote (a title, a name) reaches a header only as one line of
printable text: a line break there would be a header of the sender's choosing (``Bcc:``).
"""
from __future__ import annotations

import logging
import queue
import smtplib
import threading
import unicodedata
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


#: The longest text a header takes from a title or a name (a subject stays readable).
MAX_HEADER = 200


def header_text(text: str) -> str:
    """``text`` as one line for a header: every control or format character, line and paragraph
    separator (``\\n``, ``\\r``, U+2028, U+0085...) a space, runs of spaces one, cut to
    MAX_HEADER characters."""
    flat = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in str(text))
    line = " ".join(flat.split())
    return line if len(line) <= MAX_HEADER else line[:MAX_HEADER - 1] + "…"


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
            try:
                self._send(to, subject, body)
                self.sent += 1
            except Exception as exc:   # noqa: BLE001 - one message's failure never stops the next
                log.warning("could not send the e-mail to %r: %s: %s", header_text(to), type(exc).__name__, exc)

    def _send(self, to: str, subject: str, body: str) -> None:
        message = EmailMessage()
        message["From"] = header_text(self.sender)
        message["To"] = header_text(to)
        message["Subject"] = header_text(subject)
        message.set_content(body)
        u = self.url
        cls = smtplib.SMTP_SSL if u.tls else smtplib.SMTP
        with cls(u.host, u.port, timeout=30) as smtp:
            if u.starttls:
                smtp.starttls()
            if u.user:
                smtp.login(u.user, u.password or "")
            smtp.send_message(message)
