"""A script's texts in several languages.

Any text a script shows to players may be one string or a table of languages, keyed by language
code: ``{en = "Red to move", it = "Tocca al rosso"}``.  That holds for the title, the ``info``
texts (rules, author, source), the players' names, a scene's ``status``, and the ``text`` and
``label`` of scene items.  A front end shows the player's language, else English, else the first
language in alphabetical order.  Notation is never translated: it is what records hold.

>>> localized({"en": "Red to move", "it": "Tocca al rosso"}, "it")
'Tocca al rosso'
>>> localized({"en": "Red to move", "it": "Tocca al rosso"}, "de")
'Red to move'
>>> localized("Lines", "it")
'Lines'
>>> localized(None, "it", "Player 1")
'Player 1'
"""
from __future__ import annotations

from typing import Any, Mapping, Union

#: A text as a script gives it: a string, or a table of languages.
Text = Union[str, Mapping[str, str]]


def localized(value: Any, lang: str = "en", fallback: str = "") -> str:
    """The text of ``value`` in ``lang``: a string is itself; a table of languages gives its
    ``lang`` entry, else English, else its first language; anything else gives ``fallback``.
    Numbers (a score drawn as a scene text) are written as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return fallback
    if isinstance(value, (int, float)):
        return str(int(value)) if float(value).is_integer() else str(value)
    if isinstance(value, Mapping) and value:
        for key in (lang, "en"):
            if isinstance(value.get(key), str):
                return value[key]
        for key in sorted(value, key=str):
            if isinstance(value[key], str):
                return value[key]
    return fallback


def is_text(value: Any) -> bool:
    """Whether ``value`` is a text a script may give: a string, or a table of languages whose
    keys are language codes (``en``, ``it``, ``pt_BR``) and whose values are strings.

    >>> is_text({"en": "Lines", "it": "Linee"}), is_text({"en": 3}), is_text({})
    (True, False, False)
    """
    if isinstance(value, str):
        return True
    return (isinstance(value, Mapping) and bool(value)
            and all(isinstance(k, str) and 2 <= len(k) <= 8 and isinstance(v, str) for k, v in value.items()))
