// The pages' entry: the header (home, who is logged in, the language menu) and the page for
// the address: the lobby at /, a match at /matches/<id>, an invitation at /invite/<token>, the
// upload page at /upload, your account at /account, a player's page at /users/<name>.
import { get, post } from "./api.js";
import { el, clear } from "./dom.js";
import { LANGUAGES, lang, loadLanguage, setLanguage, t } from "./i18n.js";
import { invitePage, lobbyPage } from "./lobby.js";
import { matchPage } from "./match.js";
import { accountPage } from "./account.js";
import { followTurns } from "./turns.js";
import { uploadPage } from "./upload.js";
import { userPage } from "./userpage.js";

const header = document.getElementById("top");
const main = document.getElementById("main");
let current = null;          // the page shown (a match page to close when leaving)
let turns = null;            // "your turn" across the site, while logged in
let following = null;        // whose turns those are

async function whoAmI() {
  try { return await get("/api/me"); } catch (e) { return null; }
}

function drawHeader(me) {
  clear(header);
  const menu = el("select", { "aria-label": t("Language"), "data-action": "language" },
    Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, selected: code === lang, text: name })));
  menu.addEventListener("change", async () => { await setLanguage(menu.value); go(location.pathname, false); });
  // (append() would write a null as the text "null": the parts a visitor has not are left out)
  header.append(...[
    el("a", { href: "/", class: "home", text: "nomv" }),
    el("span", { class: "spacer" }),
    // (a visitor who came by a link to a match: the way to log in; the lobby and an invitation
    // have the form on the page)
    !me && !/^\/(invite\/.*)?$/.test(location.pathname) ? el("a", { href: "/", class: "nav", "data-action": "to-login", text: t("Log in") }) : null,
    me ? el("a", { href: "/upload", class: "nav", text: t("Upload") }) : null,
    me ? el("a", { href: "/account", class: "me nav", text: t("Logged in as {name}", { name: me.name }) }) : null,
    me ? el("button", { "data-action": "logout", text: t("Log out"), onclick: async () => {
      try { await post("/api/logout", {}); } catch (e) { /* logged out anyway */ }
      go("/");
    } }) : null,
    menu].filter(Boolean));
}

async function go(path, push = true) {
  if (push && path !== location.pathname + location.search) history.pushState({}, "", path);
  if (current && current.close) current.close();
  current = null;
  const me = await whoAmI();
  drawHeader(me);
  if ((me && me.name) !== following) {
    if (turns) turns.close();
    turns = me ? followTurns() : null;
    following = me ? me.name : null;
  }
  document.title = "nomv";
  if (turns) { turns.setListener(null); turns.retitle(); }
  document.documentElement.lang = lang;
  let m = /^\/matches\/(\d+)\/?$/.exec(location.pathname);
  if (m) { current = matchPage(main, Number(m[1]), me, () => turns && turns.retitle(), go); return; }
  if (/^\/upload\/?$/.test(location.pathname)) { await uploadPage(main, me); return; }
  if (/^\/account\/?$/.test(location.pathname)) { await accountPage(main, me); return; }
  m = /^\/users\/([^/]+)\/?$/.exec(location.pathname);
  if (m) { await userPage(main, decodeURIComponent(m[1])); return; }
  m = /^\/invite\/([^/]+)\/?$/.exec(location.pathname);
  if (m) { await invitePage(main, me, decodeURIComponent(m[1]), go); return; }
  await lobbyPage(main, me, go, (refresh) => turns && turns.setListener(refresh));
}

// Links inside the pages change the page without reloading.
document.addEventListener("click", (event) => {
  const a = /** @type {Element} */ (event.target).closest("a[href^='/']");
  if (!a || a.getAttribute("data-action") === "record" || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", () => go(location.pathname, false));
loadLanguage().then(() => go(location.pathname, false));
