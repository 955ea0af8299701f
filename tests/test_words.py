"""nomv's one catalogue of its own words (nomv/play/words.py): every message the window, text
play, the server and the web pages use is translated in every language, with the same {fields};
no stale entry lingers; the .po files read the same through Babel, the standard tool a
translator's workflow uses, as through nomv's own reader."""
from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import nomv
from nomv.play import words

ROOT = Path(nomv.__file__).parent
JS = ROOT / "server" / "static" / "js"
#: t("...") in the pages' JavaScript (not get("..."), nor a method named t)
_JS_CALL = re.compile(r'(?<![\w.$])t\(\s*"((?:[^"\\]|\\.)*)"')


def python_messages() -> dict[str, str]:
    """Every _("...") of nomv's Python, and where it stands."""
    found: dict[str, str] = {}
    for source in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_" \
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.setdefault(node.args[0].value, f"{source.relative_to(ROOT)}:{node.lineno}")
    return found


def javascript_messages() -> dict[str, str]:
    """Every t("...") of the pages' JavaScript, and where it stands."""
    found: dict[str, str] = {}
    for source in sorted(JS.glob("*.js")):
        for line_no, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
            if line.lstrip().startswith("//"):
                continue
            for m in _JS_CALL.finditer(line):
                found.setdefault(ast.literal_eval(f'"{m.group(1)}"'), f"{source.relative_to(ROOT)}:{line_no}")
    return found


USED = {**python_messages(), **javascript_messages()}
LANGUAGES = [lang for lang in words.available() if lang != "en"]


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_the_code_uses_many_messages_and_nomv_speaks_italian():
    assert len(python_messages()) > 120 and len(javascript_messages()) > 60
    assert "it" in LANGUAGES and words.language_names()["it"] == "Italiano"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_has_a_translation_with_the_same_fields(lang):
    catalogue = words.messages(lang)
    missing = sorted(f"{where}: {text!r}" for text, where in USED.items() if not catalogue.get(text))
    assert missing == [], f"{len(missing)} messages lack {lang}: add them to {words.po_path(lang)}"
    wrong = sorted(text for text in USED if fields(catalogue[text]) != fields(text))
    assert wrong == [], f"translations whose {{fields}} differ from the message's: {wrong}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_stale_message_lingers(lang):
    stale = sorted(k for k in words.catalogue(lang) if k not in USED)
    assert stale == [], f"{words.po_path(lang)} translates messages no code uses any more: {stale}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_babel_reads_each_catalogue_as_nomv_does(lang):
    pofile = pytest.importorskip("babel.messages.pofile")
    with open(words.po_path(lang), "rb") as f:
        catalog = pofile.read_po(f, abort_invalid=True)
    read = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    assert read == words.catalogue(lang)
    assert catalog.locale is not None and str(catalog.locale) == lang


def test_the_reader_follows_po_rules_a_translator_uses():
    text = '''msgid ""
msgstr "Language: xx\\n"

#, fuzzy
msgid "Open"
msgstr "Ouvrir?"

msgctxt "a seat"
msgid "Open"
msgstr "Libre"

msgid "Two "
"lines"
msgstr "Deux "
"lignes"

msgid "Untranslated"
msgstr ""
'''
    read = words.parse_po(text)
    assert read == {"": "Language: xx\n", "a seat" + words.CONTEXT_SEPARATOR + "Open": "Libre", "Two lines": "Deux lignes"}


def test_a_reader_gets_the_language_they_ask_for_or_english():
    assert words.normalize("it_IT.UTF-8") == "it" and words.normalize("IT") == "it" and words.normalize("de") == "en"
    assert words.accepted("de-DE,de;q=0.9,it;q=0.8,en;q=0.5") == "it"
    assert words.accepted("en-GB,it;q=0.9") == "en" and words.accepted(None) == "en" and words.accepted("*") == "en"
    assert words.translator("it")("Undo") == "Annulla" and words.translator("en")("Undo") == "Undo"
    assert words.translator("it")("a message nobody wrote") == "a message nobody wrote"
    assert words.catalogue("it")["Your turn ({role})"] == "Tocca a te ({role})" and words.catalogue("en") == {}
