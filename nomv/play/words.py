"""nomv's own words in the reader's language: one catalogue per language, for every face.

The catalogues are gettext ``.po`` files, ``nomv/locale/<lang>/LC_MESSAGES/nomv.po``, which a
translator edits with any ``.po`` editor (Poedit, Weblate, a text editor).  A message's id is
its English text, with ``{name}`` fields filled in by ``str.format``; English needs no
catalogue.  The same catalogue serves

- the window and the terminal (one reader a process: :func:`setup` chooses the language and
  :func:`_` translates);
- the server, which words each answer in its reader's language (:func:`translator`);
- the browser, which gets a catalogue as JSON (:func:`catalogue`) and translates the page's
  own words with it.

A compiled ``nomv.mo`` beside a ``.po`` is used when it is newer; otherwise the ``.po`` is read
at start-up (plain ``msgid``/``msgstr`` entries, ``msgctxt`` and fuzzy entries understood),
so a changed translation needs no build step.  A script's own texts are not here: a script
gives them as tables of languages (nomv/languages.py).
"""
from __future__ import annotations

import ast
import gettext as _gettext
import io
import os
import re
import struct
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

from ..languages import localized as _localized

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "nomv"
#: gettext joins a context and an id with this character (what msgfmt writes into .mo files).
CONTEXT_SEPARATOR = "\x04"

Translate = Callable[[str], str]


# -- reading catalogues --------------------------------------------------------------------------

def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po file.  An entry with a ``msgctxt`` is keyed by context, the
    separator and the id, as gettext keys it; fuzzy and untranslated entries are left out;
    the header (the empty msgid) is kept."""
    out: dict[str, str] = {}
    entry: dict[str, str] = {}
    target: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal entry, target, fuzzy
        if "msgid" in entry and entry.get("msgstr") and not fuzzy:
            key = entry["msgid"]
            if "msgctxt" in entry:
                key = entry["msgctxt"] + CONTEXT_SEPARATOR + key
            out[key] = entry["msgstr"]
        entry, target, fuzzy = {}, None, False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    flush()
                fuzzy = True
            continue
        word, _sep, rest = line.partition(" ")
        if word in ("msgctxt", "msgid", "msgstr"):
            if word in ("msgctxt", "msgid") and "msgstr" in entry:
                keep = fuzzy if word == "msgctxt" or "msgctxt" not in entry else False
                flush()
                fuzzy = keep
            entry[word] = ast.literal_eval(rest)
            target = word
        elif line.startswith('"') and target is not None:
            entry[target] += ast.literal_eval(line)
        else:
            raise ValueError(f"a .po line that is no msgctxt, msgid, msgstr or string: {line[:60]!r}")
    flush()
    return out


def compile_mo(messages: Mapping[str, str]) -> bytes:
    """The GNU .mo bytes of a catalogue (what msgfmt writes)."""
    keys = sorted(messages)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        kid, kstr = k.encode("utf-8"), messages[k].encode("utf-8")
        offsets.append((len(ids), len(kid), len(strs), len(kstr)))
        ids += kid + b"\0"
        strs += kstr + b"\0"
    n = len(keys)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + struct.pack(f"{len(koffsets)}i", *koffsets) + \
        struct.pack(f"{len(voffsets)}i", *voffsets) + ids + strs


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


# How long a look at the catalogues' files is trusted: a server words every move's answer, and
# listing the folder and stat-ing its files each time cost more than the wording itself.  A
# catalogue added or edited is seen within this time.
RECHECK_SECONDS = 1.0
_available: tuple[float, list[str]] | None = None


def available() -> list[str]:
    """The languages nomv speaks: English and every language with a catalogue."""
    global _available
    kept = _available
    now = time.monotonic()
    if kept is not None and now - kept[0] < RECHECK_SECONDS:
        return list(kept[1])
    langs = ["en"]
    if LOCALE_DIR.is_dir():
        langs += sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file())
    _available = (now, langs)
    return list(langs)


def normalize(lang: str | None) -> str:
    """A language code as the catalogues name it: ``it_IT.UTF-8``, ``it-IT`` and ``IT`` are
    ``it``; a language nomv does not speak is English."""
    code = (lang or "en").strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    return code if code in available() else "en"


_loaded: dict[str, dict[str, str]] = {}
_checked: dict[str, float] = {}       # language -> when its files' stamps were last looked at
_load_lock = threading.Lock()


def messages(lang: str) -> dict[str, str]:
    """The catalogue of a language: msgid -> its translation (empty for English).  Read once
    a process (a catalogue edited meanwhile is read again)."""
    lang = normalize(lang)
    if lang == "en":
        return {}
    with _load_lock:
        kept = _loaded.get(lang)
        if kept is not None and time.monotonic() - _checked.get(lang, -RECHECK_SECONDS) < RECHECK_SECONDS:
            return kept
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    stamp = f"{po.stat().st_mtime_ns if po.is_file() else 0}:{mo.stat().st_mtime_ns if mo.is_file() else 0}"
    with _load_lock:
        _checked[lang] = time.monotonic()
        if kept is not None and kept.get("\0stamp") == stamp:
            return kept
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime > po.stat().st_mtime):
        with open(mo, "rb") as f:
            read = dict(_gettext.GNUTranslations(f)._catalog)   # type: ignore[attr-defined]
        table = {str(k): str(v) for k, v in read.items()}
    else:
        table = parse_po(po.read_text(encoding="utf-8")) if po.is_file() else {}
    table["\0stamp"] = stamp
    with _load_lock:
        _loaded[lang] = table
    return table


def translations(lang: str) -> _gettext.NullTranslations:
    """A gettext translations object of a language (for code that wants gettext's own)."""
    table = {k: v for k, v in messages(lang).items() if not k.startswith("\0")}
    if not table:
        return _gettext.NullTranslations()
    table.setdefault("", "Content-Type: text/plain; charset=UTF-8\n")
    return _gettext.GNUTranslations(io.BytesIO(compile_mo(table)))


def translator(lang: str | None) -> Translate:
    """The function that translates nomv's words into ``lang`` (English as is)."""
    table = messages(normalize(lang))

    def translate(message: str) -> str:
        return table.get(message) or message
    return translate


def catalogue(lang: str) -> dict[str, str]:
    """A language's catalogue for the browser: every translated message (the header left out)."""
    return {k: v for k, v in messages(lang).items() if k and not k.startswith("\0")}


_HEADER_FIELD = re.compile(r"^([\w-]+):\s*(.*)$")


def header(lang: str) -> dict[str, str]:
    """The fields of a catalogue's header (``Language``, ``X-Language-Name``, ...)."""
    raw = messages(lang).get("", "")
    out = {}
    for line in raw.splitlines():
        m = _HEADER_FIELD.match(line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def language_names() -> dict[str, str]:
    """Each language nomv speaks, named in itself: {"en": "English", "it": "Italiano"}."""
    return {lang: "English" if lang == "en" else header(lang).get("X-Language-Name", lang)
            for lang in available()}


def accepted(header_value: str | None) -> str:
    """The language to answer in from an HTTP Accept-Language header: the first nomv speaks,
    by the reader's order of preference (q values); English when none."""
    ranked: list[tuple[float, int, str]] = []
    for k, part in enumerate((header_value or "").split(",")):
        code, _sep, params = part.strip().partition(";")
        q = 1.0
        m = re.search(r"q=([0-9.]+)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        if code and code != "*" and q > 0:
            ranked.append((-q, k, code))
    for _q, _k, code in sorted(ranked):
        lang = normalize(code)
        if lang != "en" or code.lower().startswith("en"):
            return lang
    return "en"


# -- the reader of this process (the window, the terminal) ---------------------------------------

_current: Translate = translator("en")
_language = "en"
configured = False   # set by setup(); the window calls setup(None) only when nobody did


def system_language() -> str:
    """The language of the system's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            first = value.split(":")[0]
            code = first.split(".")[0].split("_")[0].lower()
            if code and code not in ("c", "posix"):
                return code
    return "en"


def setup(lang: str | None = None) -> str:
    """Chooses the language of this process's reader (None: the system's); returns its code."""
    global _current, _language, configured
    configured = True
    _language = normalize(lang or system_language())
    _current = translator(_language)
    from .. import moveinput
    moveinput.set_translator(_)
    return _language


def language() -> str:
    """The language of this process's reader (see :func:`setup`)."""
    return _language


def _(message: str) -> str:
    """``message`` in the language of this process's reader."""
    return _current(message)


def localized(value: Any, fallback: str = "") -> str:
    """A script's text, which may be a table of languages, in the language of this process's
    reader (nomv/languages.py)."""
    return _localized(value, _language, fallback)
