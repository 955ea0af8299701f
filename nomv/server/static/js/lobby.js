// The lobby (/): logging in or registering, your matches (those waiting for you first), the
// open challenges, and the games: each with its rules, its opening position and standings,
// and a New match form (options, variant, seats: you, a friend by name, an open seat with an
// invitation link, or the computer).
import { get, post } from "./api.js";
import { draw } from "./board.js";
import { el, clear } from "./dom.js";
import { lang, localized, t } from "./i18n.js";
import { challengeTerms, ratedByDefault, timeBody, timeChoice } from "./lobbyparts.js";
import { ratingText } from "./matchparts.js";

// The computer players a seat may have, by level (nomv/ai: LEVELS), with their names in words.
const LEVELS = ["easy", "medium", "hard", "random"];
const levelName = (level) => ({ easy: t("easy"), medium: t("medium"), hard: t("hard"), random: t("random") })[level];

export function loginForm(onDone) {
  const name = el("input", { name: "name", autocomplete: "username", required: true, maxlength: 32 });
  const password = el("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const email = el("input", { name: "email", type: "email", autocomplete: "email", maxlength: 254 });
  const message = el("p", { class: "message", role: "status" });
  async function go(register) {
    try {
      if (register) await post("/api/users", { name: name.value, password: password.value, email: email.value.trim() || null });
      await post("/api/login", { name: name.value, password: password.value });
      onDone();
    } catch (e) {
      message.textContent = e.message;
    }
  }
  const form = el("form", { class: "login", onsubmit: (e) => { e.preventDefault(); go(false); } },
    el("label", {}, t("Name"), name),
    el("label", {}, t("Password"), password),
    el("label", { class: "optional" }, t("E-mail (optional, for “your turn” mails)"), email),
    el("div", { class: "buttons" },
      el("button", { type: "submit", "data-action": "login", text: t("Log in") }),
      el("button", { type: "button", "data-action": "register", text: t("Register"), onclick: () => go(true) })),
    message);
  return el("section", { class: "account" }, el("p", { text: t("Log in or register to play.") }), form);
}

function matchLine(m, me) {
  // (the server words the seats and the line: whose turn, the result, a challenge)
  const others = (m.seats || []).filter((s) => s.user !== me.name).map((s) => s.label || s.user || "?");
  const what = m.line ? m.line.text : m.status;
  return el("li", { class: m.your_turn || m.to_answer ? "mine turn" : "mine" },
    el("a", { href: `/matches/${m.id}`, "data-match": m.id }, `${localized(m.title, m.game)} #${m.id}`),
    el("span", { class: "who", text: others.join(", ") }),
    el("span", { class: "what", text: what }));
}

async function myMatches(me) {
  const box = el("section", { class: "my-matches" }, el("h2", { text: t("My matches") }));
  try {
    const list = await get("/api/me/matches");
    if (!list.length) box.append(el("p", { text: t("No matches yet.") }));
    else box.append(el("ul", {}, list.map((m) => matchLine(m, me))));
  } catch (e) {
    box.append(el("p", { class: "message", text: e.message }));
  }
  return box;
}

async function challenges(me, onJoined) {
  const box = el("section", { class: "challenges" }, el("h2", { text: t("Open challenges") }));
  try {
    const list = await get("/api/challenges");
    if (!list.length) box.append(el("p", { text: t("No open challenges.") }));
    const ul = el("ul");
    for (const c of list) {
      const by = c.seats.filter((s) => s.user).map((s) => s.user).join(", ");
      const mineAlready = c.seats.some((s) => s.user === (me && me.name));
      ul.append(el("li", {},
        el("a", { class: "game", href: `/matches/${c.id}`, "data-match": c.id, text: `${localized(c.title, c.game)} #${c.id}` }),
        el("span", { class: "who", text: by }),
        el("span", { class: "terms", text: challengeTerms(c) }),
        me && !mineAlready ? el("button", { "data-action": "join", "data-match": c.id, text: t("Join"),
          onclick: async () => {
            try { const r = await post(`/api/invites/${encodeURIComponent(c.invite)}`, {}); onJoined(r.id || c.id); }
            catch (e) { box.append(el("p", { class: "message", text: e.message })); }
          } }) : null));
    }
    box.append(ul);
  } catch (e) {
    box.append(el("p", { class: "message", text: e.message }));
  }
  return box;
}

function optionInput(spec) {
  const id = `option-${spec.name}`;
  let input;
  if (spec.choices && spec.choices.length) {
    input = el("select", { id, name: spec.name },
      spec.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === spec.default, text: String(c) })));
  } else if (spec.type === "bool") {
    input = el("input", { id, name: spec.name, type: "checkbox", checked: !!spec.default });
  } else if (spec.type === "int" || spec.type === "number") {
    input = el("input", { id, name: spec.name, type: "number", value: spec.default,
                          min: spec.min ?? null, max: spec.max ?? null, step: spec.type === "int" ? 1 : "any" });
  } else {
    input = el("input", { id, name: spec.name, value: spec.default ?? "" });
  }
  const read = () => {
    if (input.tagName === "SELECT") return JSON.parse(input.value);
    if (input.type === "checkbox") return input.checked;
    if (input.type === "number") return Number(input.value);
    return input.value;
  };
  return { node: el("label", { title: spec.help || "" }, `${spec.label || spec.name} `, input,
                    el("small", { text: spec.help || spec.allowed || "" })), read, spec };
}

function seatInput(n, me) {
  const kind = el("select", { name: `seat-${n}`, "data-seat": n },
    el("option", { value: "me", text: t("me"), selected: n === 1 }),
    el("option", { value: "friend", text: t("a friend (their name)") }),
    el("option", { value: "open", text: t("open (anyone, by invitation link)"), selected: n === 2 }),
    LEVELS.map((l) => el("option", { value: l, text: `${t("computer")}: ${levelName(l)}` })));
  const friend = el("input", { name: `friend-${n}`, placeholder: t("Name"), hidden: true, maxlength: 32 });
  kind.addEventListener("change", () => { friend.hidden = kind.value !== "friend"; });
  const read = () => kind.value === "me" ? me.name : kind.value === "friend" ? friend.value.trim() : kind.value;
  return { node: el("div", { class: "seat-choice" }, el("span", { text: t("Seat {n}", { n }) }), kind, friend), read };
}

function newMatchForm(game, me, onCreated) {
  const p = game.players || { min: 2, max: 2, default: 2 };
  const variantSelect = el("select", { name: "variant" },
    el("option", { value: "", text: t("(default options)") }),
    Object.keys(game.variants || {}).map((v) => el("option", { value: v, text: v })));
  const options = (game.options || []).map(optionInput);
  const seatsBox = el("div", { class: "seats-choice" });
  let seats = [];
  const playersOption = options.find((o) => o.spec.name === "players");
  function makeSeats() {
    const n = playersOption ? playersOption.read() : p.default || 2;
    clear(seatsBox);
    seats = [];
    for (let k = 1; k <= n; k++) { const s = seatInput(k, me); seats.push(s); seatsBox.append(s.node); }
  }
  if (playersOption) playersOption.node.addEventListener("change", makeSeats);
  makeSeats();
  const time = timeChoice();
  const rated = el("input", { type: "checkbox", name: "rated" });
  const rateAsSeats = () => {
    const people = ratedByDefault(seats.map((s) => s.read()));
    rated.checked = people;
    rated.disabled = !people;
  };
  seatsBox.addEventListener("change", rateAsSeats);
  rateAsSeats();
  const message = el("div", { class: "message", role: "status" });
  async function submit(event) {
    event.preventDefault();
    clear(message);
    message.className = "message";
    const body = { game: game.name, seats: seats.map((s) => s.read()) };
    if (variantSelect.value) body.variant = variantSelect.value;
    else {
      body.options = {};
      for (const o of options) body.options[o.spec.name] = o.read();
    }
    Object.assign(body, timeBody(time.value));
    body.rated = rated.checked;
    try {
      const created = await post("/api/matches", body);
      if (created.invite_page) {
        const link = el("input", { class: "invite-link", readonly: true, value: created.invite_page, size: 48 });
        message.className = "invitation";
        message.append(el("p", { text: t("Invitation link (send it to your friend):") }), link,
          el("button", { type: "button", "data-action": "copy", text: t("Copy"),
            onclick: async (e) => {
              link.select();
              try { await navigator.clipboard.writeText(link.value); } catch (err) { document.execCommand && document.execCommand("copy"); }
              e.target.textContent = t("Copied");
            } }),
          el("a", { href: `/matches/${created.id}`, text: t("Go to the match") }));
      } else onCreated(created.id);
    } catch (e) {
      message.append(el("p", { text: e.message }));
    }
  }
  return el("form", { class: "new-match", onsubmit: submit },
    el("h3", { text: t("New match") }),
    el("label", {}, `${t("Variant")} `, variantSelect),
    options.length ? el("fieldset", {}, el("legend", { text: t("Options") }), options.map((o) => o.node)) : null,
    el("fieldset", {}, el("legend", { text: t("Seats") }), seatsBox),
    el("label", {}, `${t("Time control")} `, time),
    el("label", {}, rated, ` ${t("Rated")}`),
    el("button", { type: "submit", "data-action": "create", text: t("Start the match") }),
    message);
}

async function gameDetails(game, me, onCreated) {
  const box = el("div", { class: "game-details" });
  try {
    const [info, preview, standing] = await Promise.all([
      get(`/api/games/${encodeURIComponent(game.name)}`),
      get(`/api/games/${encodeURIComponent(game.name)}/preview`).catch(() => null),
      get(`/api/games/${encodeURIComponent(game.name)}/standings`).catch(() => null),
    ]);
    const rules = info.info && info.info.rules;
    if (preview && preview.scene) {
      const picture = el("div", { class: "board preview" });
      box.append(picture);
      requestAnimationFrame(() => draw(picture, preview.drawing, { lang }));
    }
    if (rules) box.append(el("h3", { text: t("Rules") }), el("p", { class: "rules", text: localized(rules) }));
    if (standing && standing.standings.length) {
      box.append(el("h3", { text: t("Standings") }), el("div", { class: "table-scroll" }, el("table", { class: "standings" },
        el("tr", {}, ["#", t("Name"), t("Rating"), t("Played"), t("Won"), t("Drawn"), t("Lost")].map((h) => el("th", { text: h }))),
        standing.standings.map((r) => el("tr", {},
          el("td", { text: String(r.rank) }),
          el("td", { class: "name", title: r.name }, el("a", { href: `/users/${encodeURIComponent(r.name)}`, text: r.name })),
          [ratingText(r), r.games, r.wins, r.draws, r.losses].map((v) => el("td", { text: String(v) })))))));
    }
    if (me) box.append(newMatchForm(game, me, onCreated));
  } catch (e) {
    box.append(el("p", { class: "message", text: e.message }));
  }
  return box;
}

// (`live(refresh)` is told how to show the lists again after a push: a challenge to you, a move,
// a seat taken)
/** @param {(refresh: () => Promise<void>) => void} [live] */
export async function lobbyPage(root, me, go, live = undefined) {
  clear(root);
  const page = el("div", { class: "lobby" });
  root.append(page);
  let mineBox = null;
  if (!me) page.append(loginForm(() => go(location.pathname)));
  else {
    page.append(mineBox = await myMatches(me));
  }
  let challengesBox = await challenges(me, (id) => go(`/matches/${id}`));
  page.append(challengesBox);
  if (live) live(async () => {
    if (mineBox) { const fresh = await myMatches(me); mineBox.replaceWith(fresh); mineBox = fresh; }
    const fresh = await challenges(me, (id) => go(`/matches/${id}`));
    challengesBox.replaceWith(fresh);
    challengesBox = fresh;
  });
  const gamesBox = el("section", { class: "games" }, el("h2", { text: t("Games") }));
  page.append(gamesBox);
  let games = [];
  try { games = await get("/api/games"); } catch (e) { gamesBox.append(el("p", { class: "message", text: e.message })); }
  // (by title as the reader reads it, the server's games before the uploaded ones)
  games.sort((x, y) => Number(x.origin === "upload") - Number(y.origin === "upload")
    || localized(x.title, x.name).localeCompare(localized(y.title, y.name), lang));
  const list = el("ul", { class: "game-list" });
  for (const game of games) {
    const item = el("li", { "data-game": game.name });
    const details = el("div");
    const p = game.players || {};
    const count = p.min === p.max ? (p.min === 1 ? t("1 player") : t("{n} players", { n: p.min }))
      : t("{n} players", { n: `${p.min}-${p.max}` });
    item.append(el("button", { class: "game-name", "data-action": "open-game", text: `${localized(game.title, game.name)} (${count})${game.author ? ` · ${game.author}` : ""}`,
      onclick: async () => {
        if (details.firstChild) { clear(details); return; }
        details.append(await gameDetails(game, me, (id) => go(`/matches/${id}`)));
      } }), details);
    list.append(item);
  }
  gamesBox.append(list);
  // (/?game=NAME opens that game, as the upload page links a new one)
  const wanted = new URLSearchParams(location.search).get("game");
  const opened = wanted && [...list.children].find((li) => li.getAttribute("data-game") === wanted);
  if (opened) { opened.querySelector("button").click(); opened.scrollIntoView(); }
}

export async function invitePage(root, me, token, go) {
  clear(root);
  const page = el("div", { class: "invite" });
  root.append(page);
  try {
    const info = await get(`/api/invites/${encodeURIComponent(token)}`);
    page.append(el("p", { text: t("You are invited to a match of {game}.", { game: localized(info.title, info.game) }) }));
    page.append(el("ul", {}, info.seats.map((s) => el("li", { text: `${s.role || t("Seat {n}", { n: s.seat })}: ${s.label || s.user || "?"}` }))));
    if (!me) page.append(loginForm(() => go(location.pathname)));
    else {
      page.append(el("button", { "data-action": "take-seat", text: t("Take the seat"), onclick: async () => {
        try { await post(`/api/invites/${encodeURIComponent(token)}`, {}); go(`/matches/${info.id}`); }
        catch (e) { page.append(el("p", { class: "message", text: e.message })); }
      } }));
    }
  } catch (e) {
    page.append(el("p", { class: "message", text: e.message }));
  }
}
