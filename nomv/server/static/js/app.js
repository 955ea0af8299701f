// The pages' entry: the header (home, who is logged in, the language menu) and the page for
// the address: the lobby at /, a match at /matches/<id>, an invitation at /invite/<token>.
import { get, post } from "./api.js";
import { el, clear } from "./dom.js";
import { LANGUAGES, lang, loadLanguage, setLanguage, t } from "./i18n.js";
import { invitePage, lobbyPage } from "./lobby.js";
import { matchPage } from "./match.js";

const header = document.getElementById("top");
const main = document.getElementById("main");
let current = null;          // the page shown (a match page to close when leaving)

async function whoAmI() {
  try { return await get("/api/me"); } catch (e) { return null; }
}

function drawHeader(me) {
  clear(header);
  const menu = el("select", { "aria-label": t("Language"), "data-action": "language" },
    Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, selected: code === lang, text: name })));
  menu.addEventListener("change", async () => { await setLanguage(menu.value); go(location.pathname, false); });
  header.append(
    el("a", { href: "/", class: "home", text: "nomv" }),
    el("span", { class: "spacer" }),
    me ? el("span", { class: "me", text: t("Logged in as {name}", { name: me.name }) }) : null,
    me ? el("button", { "data-action": "logout", text: t("Log out"), onclick: async () => {
      try { await post("/api/logout", {}); } catch (e) { /* logged out anyway */ }
      go("/");
    } }) : null,
    menu);
}

async function go(path, push = true) {
  if (push && path !== location.pathname) history.pushState({}, "", path);
  if (current && current.close) current.close();
  current = null;
  const me = await whoAmI();
  drawHeader(me);
  document.documentElement.lang = lang;
  let m = /^\/matches\/(\d+)\/?$/.exec(location.pathname);
  if (m) { current = matchPage(main, Number(m[1]), me); return; }
  m = /^\/invite\/([^/]+)\/?$/.exec(location.pathname);
  if (m) { await invitePage(main, me, decodeURIComponent(m[1]), go); return; }
  await lobbyPage(main, me, go);
}

// Links inside the pages change the page without reloading.
document.addEventListener("click", (event) => {
  const a = event.target.closest("a[href^='/']");
  if (!a || a.getAttribute("data-action") === "record" || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", () => go(location.pathname, false));
loadLanguage().then(() => go(location.pathname, false));
