// Parts of the lobby: the time a new match gets (live clocks, or days per move by correspondence,
// 3 days unless chosen), whether it is rated as its seats are, and what an open challenge says
// of its terms.  Pure but for timeChoice, for node's tests.
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** Live time controls (minutes+increment) and correspondence times, as the form offers them. */
export const LIVE = ["1+0", "3+2", "5+3", "10+5", "15+10", "30+20"];
export const CORRESPONDENCE = ["1d", "2d", "3d", "7d", "14d"];
export const DEFAULT_TIME = "3d";
/** What the server reads as no time limit (a match between people that names no time gets days). */
export const NO_LIMIT = "none";

/**
 * The time terms of a new match's request from the form's choice: a live clock ("5+3"), or a
 * time per move ("3d", or "none").
 * @param {string} choice
 * @returns {{clock: string} | {time_per_move: string}}
 */
export function timeBody(choice) {
  return choice.includes("+") ? { clock: choice } : { time_per_move: choice || DEFAULT_TIME };
}

/** Days per move in words ("1 day per move", "3 days per move"). */
export function daysPerMove(n) {
  return n === 1 ? t("1 day per move") : t("{n} days per move", { n });
}

export function timeChoice() {
  return el("select", { name: "time" },
    el("optgroup", { label: t("Live (clock)") }, LIVE.map((v) => el("option", { value: v, text: `${v.replace("+", " + ")} ${t("min + s")}` }))),
    el("optgroup", { label: t("Correspondence") }, CORRESPONDENCE.map((v) =>
      el("option", { value: v, selected: v === DEFAULT_TIME, text: daysPerMove(parseInt(v, 10)) }))),
    el("option", { value: NO_LIMIT, text: t("no limit") }));
}

const COMPUTERS = new Set(["easy", "medium", "hard", "random"]);

/** Whether a match with these seats is rated (the server's rule: every seat a person). */
export function ratedByDefault(seats) {
  return seats.length > 0 && seats.every((s) => s && !COMPUTERS.has(s) && !/^mcts:/.test(s));
}

/**
 * A time control in words: "5 + 3", "3 days per move", "no limit".
 * @param {{clock?: {base: number, increment: number}|null, time_per_move?: number|null}} m
 */
export function timeTerms(m) {
  if (m.clock) return `${+(m.clock.base / 60).toFixed(2)} + ${m.clock.increment}`;
  if (m.time_per_move) {
    const s = m.time_per_move;
    if (s >= 86400) return daysPerMove(+(s / 86400).toFixed(1));
    if (s >= 3600) return t("{n} h per move", { n: +(s / 3600).toFixed(1) });
    return t("{n} min per move", { n: +(s / 60).toFixed(1) });
  }
  return t("no limit");
}

/** What an open challenge says of itself: variant or options, time, rated or casual. */
export function challengeTerms(c) {
  const parts = [];
  if (c.variant) parts.push(c.variant);
  else {
    const options = Object.entries(c.options || {}).map(([k, v]) => `${k} ${v}`);
    if (options.length) parts.push(options.join(", "));
  }
  parts.push(timeTerms(c));
  parts.push(c.rated ? t("Rated") : t("casual"));
  return parts.join(" · ");
}
