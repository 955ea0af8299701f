"""Translations of the GUI through gettext.

The catalogues live in ``nomv/locale/<lang>/LC_MESSAGES/nomv.po``.  A compiled ``nomv.mo`` next
to it is used when present; otherwise the ``.po`` is compiled in memory at start-up (a tiny
parser, enough for the plain ``msgid``/``msgstr`` entries we write), so editing a translation
needs no build step.  The language comes from ``--lang`` or the system locale
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
"""
from __future__ import annotations

import ast
import gettext as _gettext
import io
import os
import struct
from pathlib import Path
from typing import Any

from ..languages import localized as _localized

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "nomv"

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
language = "en"
configured = False  # set by setup(); the window calls setup(None) only when nobody did


def available() -> list[str]:
    langs = ["en"]
    if LOCALE_DIR.is_dir():
        langs += sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())
    return langs


def system_language() -> str:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            first = value.split(":")[0]
            code = first.split(".")[0].split("_")[0].lower()
            if code and code not in ("c", "posix"):
                return code
    return "en"


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po file (no plurals or contexts; fuzzy entries skipped)."""
    out: dict[str, str] = {}
    msgid = msgstr = None
    target = None
    fuzzy = False

    def flush():
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr and not fuzzy:
            out[msgid] = msgstr
        msgid = msgstr = None
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            flush()
            fuzzy = True
            continue
        if not line or line.startswith("#"):
            if not line:
                flush()
            continue
        if line.startswith("msgid "):
            if msgid is not None and msgstr is not None:
                keep = fuzzy
                flush()
                fuzzy = keep
            msgid, target = ast.literal_eval(line[6:]), "id"
        elif line.startswith("msgstr "):
            msgstr, target = ast.literal_eval(line[7:]), "str"
        elif line.startswith('"'):
            piece = ast.literal_eval(line)
            if target == "id":
                msgid += piece
            elif target == "str":
                msgstr += piece
    flush()
    return out


def compile_mo(messages: dict[str, str]) -> bytes:
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


def load(lang: str) -> _gettext.NullTranslations:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if po.is_file() and (not mo.is_file() or po.stat().st_mtime > mo.stat().st_mtime):
        messages = parse_po(po.read_text(encoding="utf-8"))
        messages.setdefault("", "Content-Type: text/plain; charset=UTF-8\n")
        return _gettext.GNUTranslations(io.BytesIO(compile_mo(messages)))
    if mo.is_file():
        with open(mo, "rb") as f:
            return _gettext.GNUTranslations(f)
    return _gettext.NullTranslations()


def setup(lang: str | None = None) -> str:
    """Chooses the language (None: the system's) and returns its code."""
    global _translation, language, configured
    configured = True
    lang = (lang or system_language()).lower().replace("-", "_").split("_")[0]
    _translation = load(lang) if lang != "en" else _gettext.NullTranslations()
    language = lang if isinstance(_translation, _gettext.GNUTranslations) else "en"
    from .. import moveinput
    moveinput.set_translator(_)
    return language


def _(message: str) -> str:
    return _translation.gettext(message)


def localized(value: Any, fallback: str = "") -> str:
    """A script's text that may be a table of languages (``{en = "...", it = "..."}``), in the
    window's language (see nomv/languages.py)."""
    return _localized(value, language, fallback)
