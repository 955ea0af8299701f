// Parts of the match page beside the board and the moves: the buttons that answer or end a
// match (accept, decline, cancel, abort, rematch), turning the board around, ratings and their
// changes, and the tab's title.
import { post } from "./api.js";
import { el } from "./dom.js";
import { localized, t } from "./i18n.js";

/** The tab's title: a marker while it is your turn (seen from another tab). */
export function turnTitle(match, mine) {
  const title = `${localized(match.title, match.game)} #${match.id} · nomv`;
  return mine ? `● ${t("Your turn")} · ${title}` : title;
}

/** A rating as players read it: whole points, with "?" while provisional. */
export function ratingText(row) {
  return `${Math.round(row.rating)}${row.provisional ? "?" : ""}`;
}

/** The rating change of a seat in a finished rated match (`data-rating-change`), or null. */
export function ratingChange(match, seat) {
  const change = match.status === "ended" && match.outcome && (match.outcome.ratings || []).find((c) => c.seat === seat);
  if (!change) return null;
  const delta = Math.round(change.after) - Math.round(change.before);
  return el("span", { class: "rating-change " + (delta >= 0 ? "up" : "down"), "data-rating-change": delta,
    title: `${Math.round(change.before)} → ${Math.round(change.after)}${change.provisional ? "?" : ""}`,
    text: `${delta >= 0 ? "+" : "−"}${Math.abs(delta)}` });
}

const FLIP_KEY = "nomv.flipped";

/** Whether the board of this match is shown turned around (kept per match in this browser). */
export function isFlipped(matchId) {
  try { return (JSON.parse(localStorage.getItem(FLIP_KEY) || "[]")).includes(matchId); } catch (e) { return false; }
}

function keepFlipped(matchId, on) {
  try {
    const kept = new Set(JSON.parse(localStorage.getItem(FLIP_KEY) || "[]"));
    if (on) kept.add(matchId); else kept.delete(matchId);
    localStorage.setItem(FLIP_KEY, JSON.stringify([...kept].slice(-200)));
  } catch (e) { /* not kept */ }
}

/** The button that turns the board around (for the second player of a two-player game). */
export function flipButton(flipped, onChange) {
  const matchId = Number((/^\/matches\/(\d+)/.exec(location.pathname) || [])[1]);
  return el("button", { "data-action": "flip", "aria-pressed": String(flipped), title: t("Flip the board"),
    text: `⇅ ${t("Flip the board")}`, onclick: () => { keepFlipped(matchId, !flipped); onChange(!flipped); } });
}

/** The body of a new match like this one, each person in the other's seat (two players). */
export function rematchBody(match) {
  const seats = match.seats.map((s) => s.kind === "computer" ? s.spec : s.user || "open");
  if (seats.length === 2) seats.reverse();
  const body = { game: match.game, seats, options: match.options };
  if (match.variant) { body.variant = match.variant; delete body.options; }
  if (match.clock) body.clock = { base: match.clock.base, increment: match.clock.increment };
  // (no limit asked again in words: a request naming no time gets the server's days per move)
  else body.time_per_move = match.time_per_move || "none";
  if (match.rated) body.rated = true;
  return body;
}

/**
 * The buttons that answer or end this match for `me`: a challenge to you (Accept, Decline),
 * your own waiting match (Cancel), a running one no one has moved in for every seat (Abort),
 * a finished one (Rematch).
 */
export function actionButtons(match, me, act, go) {
  const out = [];
  const mine = match.seats.filter((s) => s.you);
  if (!mine.length) return out;
  if (match.status === "waiting") {
    if (mine.some((s) => !s.accepted)) {
      out.push(el("button", { "data-action": "accept", text: t("Accept"), onclick: () => act("accept", {}) }));
      out.push(el("button", { "data-action": "decline", text: t("Decline"), onclick: () => act("decline", {}) }));
    } else if (me && match.creator === me.name) {
      out.push(el("button", { "data-action": "cancel", text: t("Cancel the match"), onclick: () => act("cancel", {}) }));
    }
  }
  if (match.status === "active" && match.ply < match.players) {
    out.push(el("button", { "data-action": "abort", text: t("Abort"), onclick: () => act("abort", {}, t("Abort this match? It ends with no result.")) }));
  }
  if (["ended", "aborted", "declined", "cancelled"].includes(match.status) && match.seats.every((s) => s.kind !== "open")) {
    const message = el("span", { class: "message", role: "status" });
    out.push(el("button", { "data-action": "rematch", text: t("Rematch"), onclick: async (event) => {
      event.target.disabled = true;
      try {
        const created = await post("/api/matches", rematchBody(match));
        go && go(`/matches/${created.id}`);
      } catch (e) {
        message.textContent = e.message;
        event.target.disabled = false;
      }
    } }), message);
  }
  return out;
}
