// node --test tests/js/lobby.test.mjs: the lobby's logic that needs no browser: the time terms of
// a new match (days per move unless chosen), rated as its seats are, what an open challenge says,
// the rematch's request, and "your turn": which matches are new, and when a sound or a
// notification tells of them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { challengeTerms, DEFAULT_TIME, NO_LIMIT, ratedByDefault, timeBody, timeTerms } from "../../nomv/server/static/js/lobbyparts.js";
import { alertsFor, freshTurns, markedTitle } from "../../nomv/server/static/js/turns.js";
import { rematchBody } from "../../nomv/server/static/js/matchparts.js";

test("a new match's time: a live clock, days per move, or no limit said in words", () => {
  assert.equal(DEFAULT_TIME, "3d");
  assert.deepEqual(timeBody("5+3"), { clock: "5+3" });
  assert.deepEqual(timeBody("7d"), { time_per_move: "7d" });
  assert.deepEqual(timeBody(NO_LIMIT), { time_per_move: "none" });
  assert.deepEqual(timeBody(""), { time_per_move: "3d" });        // never nothing: the server would choose
});

test("rated as its seats are: every seat a person", () => {
  assert.equal(ratedByDefault(["alice", "open"]), true);
  assert.equal(ratedByDefault(["alice", "easy"]), false);
  assert.equal(ratedByDefault(["alice", "mcts:1s"]), false);
  assert.equal(ratedByDefault([]), false);
});

test("an open challenge says its options or variant, its time and whether rated", () => {
  assert.equal(timeTerms({ clock: { base: 300, increment: 3 } }), "5 + 3");
  assert.equal(timeTerms({ time_per_move: 3 * 86400 }), "3 days per move");
  assert.equal(timeTerms({ time_per_move: 7200 }), "2 h per move");
  assert.equal(timeTerms({ time_per_move: null }), "no limit");
  assert.equal(challengeTerms({ options: { size: 6 }, time_per_move: 86400, rated: true }), "size 6 · 1 day per move · Rated");
  assert.equal(challengeTerms({ variant: "knownads", options: { size: 6 }, clock: { base: 60, increment: 0 }, rated: false }),
    "knownads · 1 + 0 · casual");
});

test("a rematch swaps the two seats and keeps the game, the variant and the time, no limit in words", () => {
  const seats = [{ kind: "user", user: "alice" }, { kind: "computer", spec: "easy" }];
  const base = { game: "trinim", options: { size: 5 }, seats, rated: false, clock: null };
  assert.deepEqual(rematchBody({ ...base, time_per_move: null }),
    { game: "trinim", seats: ["easy", "alice"], options: { size: 5 }, time_per_move: "none" });
  assert.deepEqual(rematchBody({ ...base, variant: "big", time_per_move: 86400 }),
    { game: "trinim", seats: ["easy", "alice"], variant: "big", time_per_move: 86400 });
  const clocked = rematchBody({ ...base, rated: true, clock: { base: 180, increment: 2, left: [1, 2], running: null } });
  assert.deepEqual([clocked.clock, clocked.rated, "time_per_move" in clocked], [{ base: 180, increment: 2 }, true, false]);
});

test("the tab's title counts the matches waiting for you", () => {
  assert.equal(markedTitle("nomv", 2), "(2) nomv");
  assert.equal(markedTitle("(2) nomv", 0), "nomv");
  assert.equal(markedTitle("(2) nomv", 1), "(1) nomv");
});

test("your turn: new is a match of yours at a ply not seen yet, nothing at the first list", () => {
  const list = [{ id: 1, ply: 4, your_turn: true }, { id: 2, ply: 0, to_answer: true }, { id: 3, ply: 7 }];
  const first = freshTurns(null, list);
  assert.deepEqual([first.mine.map((m) => m.id), first.fresh], [[1, 2], []]);
  assert.deepEqual([...first.keys], ["1:4", "2:0"]);
  const later = freshTurns(first.keys, [{ id: 1, ply: 6, your_turn: true }, { id: 2, ply: 0, to_answer: true }, { id: 3, ply: 8 }]);
  assert.deepEqual(later.fresh.map((m) => m.id), [1]);
  assert.deepEqual(freshTurns(later.keys, [{ id: 1, ply: 6, your_turn: true }]).fresh, []);
});

test("a sound when wanted; a notification when wanted, permitted and the page has not the focus", () => {
  const fresh = [{ id: 5 }];
  const on = { sound: true, notifications: true };
  assert.deepEqual(alertsFor(fresh, on, { focused: false, permitted: true }), { sound: true, notification: fresh[0] });
  assert.deepEqual(alertsFor(fresh, on, { focused: true, permitted: true }), { sound: true, notification: null });
  assert.deepEqual(alertsFor(fresh, on, { focused: false, permitted: false }), { sound: true, notification: null });
  assert.deepEqual(alertsFor(fresh, { sound: false, notifications: false }, { focused: false, permitted: true }),
    { sound: false, notification: null });
  assert.deepEqual(alertsFor([], on, { focused: false, permitted: true }), { sound: false, notification: null });
});
