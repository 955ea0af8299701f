// A script's texts in several languages: the browser's copy of nomv/languages.py's localized().
// Any text a script shows players may be one string or a table of languages, {en = ..., it = ...}:
// the reader's language is shown, else English, else the first language in alphabetical order.
// Numbers (a score drawn as a scene text) are written as text.

export function localizedIn(value, lang, fallback = "") {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return fallback;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const key of [lang, "en"]) if (typeof value[key] === "string") return value[key];
    for (const key of Object.keys(value).sort()) if (typeof value[key] === "string") return value[key];
  }
  return fallback;
}
