// node --test tests/js/moveinput.test.mjs: the browser's MoveInput against the cases that the
// Python MoveInput passes too (tests/moveinput_cases.json; see tests/moveinput_cases.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MoveInput } from "../../nomv/server/static/js/moveinput.js";

const data = JSON.parse(readFileSync(new URL("../moveinput_cases.json", import.meta.url), "utf8"));

function snapshot(mi) {
  return { clicked: [...mi.clicked], next: [...mi.nextSteps].sort(), complete: mi.complete,
           needs_confirm: mi.needsConfirm };
}

function runCase(c) {
  const mi = new MoveInput(c.moves, { autoComplete: c.auto_complete ?? true });
  const out = [];
  for (const action of c.actions) {
    let got;
    if ("click" in action) {
      const r = mi.click(action.click);
      got = { click: action.click, kind: r.kind, move: r.move };
    } else if ("back" in action) {
      got = { back: true, result: mi.back() };
    } else {
      got = { confirm: true, move: mi.confirm() };
    }
    Object.assign(got, snapshot(mi));
    out.push(got);
    if (got.kind === "play") break;
  }
  return out;
}

for (const [kind, list] of [["written", data.cases], ["recorded", data.recorded]]) {
  for (const c of list) {
    test(`${kind}: ${c.name}`, () => {
      assert.deepEqual(runCase(c), c.actions);
    });
  }
}
