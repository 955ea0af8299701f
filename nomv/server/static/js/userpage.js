// A player's page (/users/<name>): their rating in each game (provisional ones marked) and their
// latest finished matches.
import { get } from "./api.js";
import { clear, el } from "./dom.js";
import { localized, t } from "./i18n.js";
import { ratingText } from "./matchparts.js";

export async function userPage(root, name) {
  clear(root);
  const page = el("div", { class: "user-page" }, el("h1", { text: name }));
  root.append(page);
  try {
    const profile = await get(`/api/users/${encodeURIComponent(name)}`);
    page.firstChild.textContent = profile.name;
    page.append(el("h2", { text: t("Ratings") }));
    if (!profile.ratings.length) page.append(el("p", { text: t("No rated matches yet.") }));
    else {
      page.append(el("div", { class: "table-scroll" }, el("table", { class: "standings ratings" },
        el("tr", {}, [t("Game"), t("Rating"), t("Played"), t("Won"), t("Drawn"), t("Lost")].map((h) => el("th", { text: h }))),
        profile.ratings.map((r) => el("tr", { "data-game": r.game },
          el("td", { class: "name" }, el("a", { href: `/?game=${encodeURIComponent(r.game)}`, text: localized(r.title, r.game) })),
          el("td", { class: r.provisional ? "provisional" : "", title: r.provisional ? t("provisional (few games yet)") : "", text: ratingText(r) }),
          [r.games, r.wins, r.draws, r.losses].map((v) => el("td", { text: String(v) })))))));
      if (profile.ratings.some((r) => r.provisional)) page.append(el("p", { class: "note", text: `? ${t("provisional (few games yet)")}` }));
    }
    page.append(el("h2", { text: t("Finished matches") }));
    if (!profile.matches.length) page.append(el("p", { text: t("No matches yet.") }));
    page.append(el("ul", { class: "finished" }, profile.matches.map((m) => el("li", { "data-match": m.id, class: m.won ? "won" : m.drawn ? "drawn" : "lost" },
      el("a", { href: `/matches/${m.id}`, text: `${localized(m.title, m.game)} #${m.id}` }),
      el("span", { class: "who", text: m.players.join(" – ") }),
      el("span", { class: "what", text: m.result || "" })))));
  } catch (e) {
    page.append(el("p", { class: "message", text: e.message }));
  }
}
