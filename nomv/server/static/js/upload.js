// The upload page (/upload): a game script from a file or pasted, checked by the server; its
// errors shown at their lines with the lines around them; a good script joins the catalogue at
// once (a link starts a match of it); the designer's own games listed.  The check may run as a
// job (202 and /api/jobs/ID): the page then waits for it.
import { ApiError, get } from "./api.js";
import { clear, el } from "./dom.js";
import { localized, t } from "./i18n.js";

/**
 * The lines of `source` around each diagnostic's line (2 before, 2 after), for showing.
 * @param {string} source
 * @param {{line?: number|null, message: string, severity?: string}[]} diagnostics
 * @returns {{diagnostic: object, lines: {number: number, text: string, at: boolean}[]}[]}
 */
export function excerpts(source, diagnostics) {
  const all = source.split(/\r?\n/);
  return diagnostics.map((d) => {
    const line = typeof d.line === "number" && d.line > 0 ? d.line : null;
    if (line === null) return { diagnostic: d, lines: [] };
    const lines = [];
    for (let n = Math.max(1, line - 2); n <= Math.min(all.length, line + 2); n++) {
      lines.push({ number: n, text: all[n - 1], at: n === line });
    }
    return { diagnostic: d, lines };
  });
}

async function waitForJob(location) {
  for (;;) {
    const job = await get(`${location}?wait=10`);
    if (job.state === "done") return job.result;
    if (job.state === "failed") throw new ApiError(job.status || 422, job.error || { message: "the check failed" });
  }
}

async function send(source) {
  const response = await fetch("/api/scripts?wait=0", {
    method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ source }),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { message: text }; }
  if (response.status === 202) return waitForJob(response.headers.get("Location") || `/api/jobs/${data.id}`);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

function showDiagnostics(box, source, diagnostics) {
  for (const { diagnostic, lines } of excerpts(source, diagnostics)) {
    const item = el("li", { class: `diagnostic ${diagnostic.severity || "error"}`, "data-line": diagnostic.line ?? "" },
      el("p", { text: diagnostic.line ? t("Line {n}: {message}", { n: diagnostic.line, message: diagnostic.message }) : diagnostic.message }));
    if (lines.length) {
      item.append(el("pre", { class: "excerpt" }, lines.map((l) =>
        el("span", { class: l.at ? "at" : "" }, `${String(l.number).padStart(4)}  ${l.text}\n`))));
    }
    box.append(item);
  }
}

async function myGames(me, box) {
  clear(box).append(el("h2", { text: t("Your games") }));
  try {
    const games = (await get("/api/games")).filter((g) => g.origin === "upload" && g.author === me.name);
    if (!games.length) box.append(el("p", { text: t("No games uploaded yet.") }));
    box.append(el("ul", {}, games.map((g) => el("li", { "data-game": g.name },
      el("a", { href: `/?game=${encodeURIComponent(g.name)}`, text: `${localized(g.title, g.name)} (${g.name})` })))));
  } catch (e) {
    box.append(el("p", { class: "message", text: e.message }));
  }
}

export async function uploadPage(root, me) {
  clear(root);
  const page = el("div", { class: "upload" }, el("h1", { text: t("Upload a game") }));
  root.append(page);
  if (!me) { page.append(el("p", { text: t("Log in to upload a game.") })); return; }
  const file = el("input", { type: "file", accept: ".lua,text/plain", name: "file" });
  const source = el("textarea", { name: "source", rows: 16, spellcheck: "false", placeholder: t("Choose a .lua file or paste the script here.") });
  const result = el("div", { class: "upload-result", role: "status" });
  const mine = el("section", { class: "my-games" });
  file.addEventListener("change", async () => {
    if (file.files && file.files[0]) source.value = await file.files[0].text();
  });
  const button = el("button", { type: "submit", "data-action": "upload", text: t("Upload") });
  const form = el("form", { class: "upload-form", onsubmit: async (event) => {
    event.preventDefault();
    clear(result);
    const text = source.value;
    if (!text.trim()) { result.append(el("p", { class: "message", text: t("Choose a .lua file or paste the script here.") })); return; }
    button.disabled = true;
    result.append(el("p", { text: t("Checking the script…") }));
    try {
      const done = await send(text);
      // (the game by its title, as every list names it; its catalogue name beside, as a link names it)
      const title = await get(`/api/games/${encodeURIComponent(done.game)}`)
        .then((g) => localized(g.title, done.game), () => done.game);
      clear(result).append(el("p", { class: "ok", "data-uploaded": done.game },
        t("{game} is in the catalogue.", { game: `${title} (${done.game})` }), " ", el("a", { href: `/?game=${encodeURIComponent(done.game)}`, text: t("Start a match of it") })));
      if (done.warnings && done.warnings.length) {
        const list = el("ul", { class: "diagnostics" });
        showDiagnostics(list, text, done.warnings);
        result.append(el("p", { text: t("Warnings:") }), list);
      }
      myGames(me, mine);
    } catch (e) {
      clear(result).append(el("p", { class: "message", text: e.message }));
      const diagnostics = (e.body && (e.body.diagnostics || (e.body.error && e.body.error.diagnostics))) || [];
      if (diagnostics.length) {
        const list = el("ul", { class: "diagnostics" });
        showDiagnostics(list, text, diagnostics);
        result.append(list);
      }
    } finally {
      button.disabled = false;
    }
  } },
  el("label", {}, `${t("Script file")} `, file), source, button);
  page.append(form, result, mine);
  await myGames(me, mine);
}
