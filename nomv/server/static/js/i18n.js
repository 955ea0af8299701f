// The page's words in the reader's language: nomv's one catalogue (nomv/locale/<lang>/LC_MESSAGES/
// nomv.po, read by nomv/play/words.py), which the server sends as JSON (GET /api/words/<lang>).
// A message's id is its English text: t("Your turn ({role})", {role}) is the translation, with
// {name} fields filled in, or the English itself.  The language is the one chosen in the menu
// (kept in localStorage), else the browser's; the server answers in it too (Accept-Language).
// A script's own texts may be tables of languages: localized() picks one (languages.js).
import { localizedIn } from "./languages.js";

let words = {};
export let LANGUAGES = { en: "English" };
export let lang = "en";

function wanted() {
  try {
    const kept = localStorage.getItem("nomv.lang");
    if (kept) return kept;
  } catch (e) { /* storage refused: the browser's language */ }
  return (globalThis.navigator && navigator.language) || "en";
}

// Loads the catalogue of `code` (the server answers with the nearest language it speaks).
export async function loadLanguage(code = wanted()) {
  try {
    const response = await fetch(`/api/words/${encodeURIComponent(code)}`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const answer = await response.json();
    words = answer.words || {};
    LANGUAGES = answer.languages || LANGUAGES;
    lang = answer.lang || "en";
  } catch (e) {
    words = {};
    lang = "en";          // the page stays usable, in English
  }
  if (globalThis.document) document.documentElement.lang = lang;
  return lang;
}

// The menu's choice: kept, and loaded.
export async function setLanguage(code) {
  try { localStorage.setItem("nomv.lang", code); } catch (e) { /* not kept */ }
  return loadLanguage(code);
}

// The words of `message` (its English text) in the page's language, with {name} filled in.
export function t(message, vars = {}) {
  const text = words[message] || message;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

// A text a script gave, perhaps as {en = ..., it = ...}, in the page's language.
export function localized(value, fallback = "") {
  return localizedIn(value, lang, fallback);
}
