// node --test tests/js/pages.test.mjs: the match page's logic that needs no browser: the clocks
// (which runs, the warning in the last tenth, time up) and the move list by turns and its keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockFaces, formatClock } from "../../nomv/server/static/js/clock.js";
import { plyForKey, turnRows } from "../../nomv/server/static/js/movelist.js";

const live = (left, running, status = "active") =>
  ({ status, to_move: running, clock: { base: 300, increment: 3, left, running } });

test("a live clock runs for the seat to move only, from the answer's time", () => {
  const faces = clockFaces(live([100, 200], 2), 12.5);
  assert.deepEqual(faces.map((f) => [f.seat, f.left, f.running]), [[1, 100, false], [2, 187.5, true]]);
});

test("the warning comes in the last tenth of the base time, time up at zero", () => {
  assert.equal(clockFaces(live([31, 200], 1), 0)[0].warning, false);
  assert.equal(clockFaces(live([31, 200], 1), 1)[0].warning, true);          // 30 s = a tenth of 300
  const out = clockFaces(live([5, 200], 1), 7)[0];
  assert.equal(out.left, 0);
  assert.equal(out.out, true);
});

test("no clock runs once the match has ended", () => {
  const faces = clockFaces(live([0, 120], 1, "ended"), 50);
  assert.deepEqual(faces.map((f) => [f.left, f.running]), [[0, false], [120, false]]);
});

test("correspondence: one clock, for the seat to move, warning in the last tenth of the time per move", () => {
  const m = { status: "active", to_move: 2, seconds_left: 8000, time_per_move: 86400 };
  assert.deepEqual(clockFaces(m, 0).map((f) => [f.seat, f.warning]), [[2, true]]);
  assert.deepEqual(clockFaces({ ...m, seconds_left: 80000 }, 0).map((f) => f.warning), [false]);
  assert.deepEqual(clockFaces({ ...m, seconds_left: null }, 0), []);
});

test("times read as players write them", () => {
  assert.equal(formatClock(245), "4:05");
  assert.equal(formatClock(3723), "1:02:03");
  assert.equal(formatClock(9.46), "0:09.4");
  assert.equal(formatClock(-3), "0:00.0");
  assert.equal(formatClock(2 * 86400 + 3 * 3600 + 5), "2d 3h");
});

test("the move list is numbered by whole turns", () => {
  assert.deepEqual(turnRows(["a", "b", "c", "d", "e"], 2), [
    { number: 1, plies: [1, 2] }, { number: 2, plies: [3, 4] }, { number: 3, plies: [5] }]);
  assert.deepEqual(turnRows(["a", "b", "c", "d"], 3).map((r) => r.plies), [[1, 2, 3], [4]]);
  // (with the seats known: a seat moving twice in a row starts no new turn)
  assert.deepEqual(turnRows(["a", "b", "c", "d"], 2, [1, 2, 2, 1]).map((r) => r.plies), [[1, 2, 3], [4]]);
  assert.deepEqual(turnRows([], 2), []);
});

test("arrows step one move, Home and End go to the ends, other keys do nothing", () => {
  assert.equal(plyForKey("ArrowLeft", 3, 9), 2);
  assert.equal(plyForKey("ArrowLeft", 0, 9), 0);
  assert.equal(plyForKey("ArrowRight", 9, 9), 9);
  assert.equal(plyForKey("Home", 5, 9), 0);
  assert.equal(plyForKey("End", 5, 9), 9);
  assert.equal(plyForKey("a", 5, 9), null);
});
