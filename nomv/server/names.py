"""What a user's name may be.  People see each other's names beside a board, in challenges and in
standings, and act on them (challenge `alice`, accept a match from `alice`): a name must not be
written so that it looks like another one.

A name is stored as Unicode's NFKC form (a fullwidth ``ａｌｉｃｅ`` is ``alice``, a combining
accent joins its letter), and refused when, in that form, it

- holds a control, format or invisible character (a zero-width space, a Hangul filler, a
  variation selector, a braille blank...): a name that looks empty, or like another;
- begins or ends with a space, or holds two spaces in a row (``ann  a`` looks like ``ann a``);
- holds a combining mark that does not follow a letter, the same mark twice on a letter, an
  overlay (``o`` struck through looks like ``ø``), more than one on a Latin, Greek or Cyrillic
  letter (their accented letters are one character once normalised: what is left over is
  likely a lookalike, ``i`` with a combining dot), or more than three on a letter elsewhere;
- mixes scripts: Cyrillic ``а`` in a Latin name looks exactly like ``a``.  One script, with the
  digits, punctuation and symbols everyone uses, or Latin with the scripts written beside it
  in East Asia (Han with Hiragana and Katakana, with Bopomofo, or with Hangul), as Unicode's
  "highly restrictive" profile (UTS #39) allows.

A character's script is read from its Unicode name, whose first word names it for the letters
of every script (``LATIN SMALL LETTER A``, ``CYRILLIC SMALL LETTER A``, ``CJK UNIFIED
IDEOGRAPH-5C71``).  Names written wholly in another script that happen to look Latin (Cyrillic
``асе``) are not caught: that needs Unicode's confusables table.

>>> normal("ｆｕｌｌ")
'full'
>>> problem("аlice")     # a Cyrillic а, then Latin
"it mixes scripts ('а' is Cyrillic, 'l' is Latin): write a name in one script"
>>> problem("山田たろう"), problem("Алиса"), problem("Zoë 2")
(None, None, None)
"""
from __future__ import annotations

import unicodedata

#: Letters and marks that show nothing (Unicode's default-ignorable ones that are not control
#: or format characters, and the blank braille pattern).
INVISIBLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800,
             0x3164, 0xFFA0, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
#: Scripts whose accented letters NFKC writes as one character.
COMPOSED = {"Latin", "Greek", "Cyrillic"}
#: Scripts that may be mixed in one name, beside Latin (UTS #39's highly restrictive level).
EAST_ASIAN = ({"Han", "Hiragana", "Katakana"}, {"Han", "Bopomofo"}, {"Han", "Hangul"})
#: Scripts whose Unicode names take two words.
TWO_WORDS = {"OLD", "NEW", "TAI", "LINEAR", "OL", "SORA", "PAU", "MASARAM", "GUNJALA", "HANIFI",
             "ZANABAZAR", "CAUCASIAN", "MEETEI", "INSCRIPTIONAL", "IMPERIAL", "PSALTER", "CYPRO",
             "KHITAN", "EGYPTIAN", "ANATOLIAN", "MEROITIC", "NYIAKENG", "TANGSA", "KIRAT"}


def normal(name: str) -> str:
    """The form a name is stored and shown in: NFKC."""
    return unicodedata.normalize("NFKC", name)


def shown(text: str) -> str:
    """``text`` quoted for a message, its invisible characters written as U+XXXX."""
    return "'" + "".join(f"<U+{ord(c):04X}>" if invisible(c) else c for c in text) + "'"


def invisible(c: str) -> bool:
    category = unicodedata.category(c)
    return (category[0] == "C" or (category[0] == "Z" and c != " ")) or ord(c) in INVISIBLE


def described(c: str) -> str:
    return f"U+{ord(c):04X} {unicodedata.name(c, 'UNNAMED').title()}"


def script(c: str) -> str | None:
    """The script of a letter, mark or digit (None for what every script uses: ASCII digits,
    punctuation, symbols, spaces, modifier letters such as the apostrophe ʼ)."""
    category = unicodedata.category(c)
    if category[0] not in "LMN" or c.isascii() and not c.isalpha():
        return None
    words = unicodedata.name(c, "").split()
    if not words or words[0] == "MODIFIER" or category == "No":
        return None
    first = words[0]
    if first in ("CJK", "IDEOGRAPHIC"):
        return "Han"
    if first == "KATAKANA-HIRAGANA":      # the prolonged sound mark ー
        return "Katakana"
    if first in TWO_WORDS and len(words) > 1:
        first = f"{first} {words[1]}"
    return first.split("-")[0].title()    # ARABIC-INDIC DIGIT ONE: Arabic


def problem(name: str) -> str | None:
    """What is wrong with a name already in NFKC form, or None."""
    if name != name.strip(" "):
        return "it begins or ends with a space"
    if "  " in name:
        return "it holds two spaces in a row"
    for c in name:
        if invisible(c):
            return f"it holds an invisible or control character ({described(c)})"
    marks, base, cluster = 0, None, ""
    for c in name:
        if unicodedata.category(c)[0] == "M":
            marks += 1
            cluster += c
            decomposed = [m for m in unicodedata.normalize("NFD", cluster) if unicodedata.category(m)[0] == "M"]
            if len(set(decomposed)) < len(decomposed):
                return f"{shown(cluster)} has the same combining mark twice"
            base_script = script(base) if base else None
            if base is None or not unicodedata.category(base).startswith("L"):
                return f"a combining mark ({described(c)}) does not follow a letter"
            if base_script in COMPOSED and marks > 1 or marks > 3:
                return "too many combining marks on one letter"
            if unicodedata.combining(c) == 1:       # an overlay: o with a stroke looks like ø
                return f"{shown(base + c)} looks like another letter ({described(c)}): write accented letters as one character"
            if base_script in COMPOSED and unicodedata.combining(c) and base in "ijIJ":
                return f"{shown(base + c)} looks like another letter: write accented letters as one character"
        else:
            marks, base, cluster = 0, c, c
    found: dict[str, str] = {}
    for c in name:
        s = script(c)
        if s is not None and unicodedata.category(c)[0] != "M":
            found.setdefault(s, c)
    scripts = set(found)
    if len(scripts) > 1 and not any(scripts <= allowed | {"Latin"} for allowed in EAST_ASIAN):
        shown_scripts = ", ".join(f"{shown(c)} is {s}" for s, c in sorted(found.items(), key=lambda i: name.index(i[1])))
        return f"it mixes scripts ({shown_scripts}): write a name in one script"
    return None
