// node --test tests/js/drawing.test.mjs: the browser's plan of a drawing (drawing.js) against
// the cases the window passes too (tests/drawing_cases.json; see tests/drawing_cases.py): the
// same things drawn, in the same order, at the same places in board units.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { coordinates, plan, rings, viewBoxes } from "../../nomv/server/static/js/drawing.js";

const data = JSON.parse(readFileSync(new URL("../drawing_cases.json", import.meta.url), "utf8"));

function sameDrawn(got, want) {
  assert.equal(got.length, want.length, `${got.length} things drawn, the window drew ${want.length}`);
  got.forEach((a, k) => {
    const b = want[k];
    const { at: atA, ...restA } = a;
    const { at: atB, ...restB } = b;
    assert.deepEqual(restA, restB, `entry ${k}`);
    assert.ok(Math.hypot(atA[0] - atB[0], atA[1] - atB[1]) <= 1e-3, `entry ${k} drawn at ${atA}, the window at ${atB}`);
  });
}

for (const c of data.cases) {
  test(c.name, () => {
    const opts = { highlights: c.highlights || [], selected: c.selected || [], ready: !!c.ready,
                   coordinates: c.coordinates ?? null, lang: c.lang || "en" };
    const planned = plan(c.drawing, opts);
    sameDrawn(planned.map((p) => p.drawn), c.drawn);
    // every element is plain SVG with finite numbers
    for (const p of planned) {
      assert.ok(["main", "side"].includes(p.part) && ["base", "rings", "texts", "coordinates"].includes(p.layer));
      for (const el of p.elements) {
        assert.ok(["polygon", "polyline", "circle", "rect", "text"].includes(el.tag));
        for (const key of ["x", "y", "cx", "cy", "r", "width", "height", "font-size"]) {
          if (key in el.attrs) assert.ok(Number.isFinite(Number(el.attrs[key])), `${el.tag} ${key}=${el.attrs[key]}`);
        }
      }
    }
    const boxes = viewBoxes(c.drawing, opts.coordinates);
    assert.equal(boxes.main.split(" ").length, 4);
    assert.equal(boxes.side !== null, !!c.drawing.side_bounds);
  });
}

test("rings and coordinates follow nomv/play/drawing.py's rules", () => {
  const d = data.cases.find((c) => Object.keys(c.drawing.ring_colours).length).drawing;
  const id = Object.keys(d.ring_colours)[0];
  const [ring] = rings(d, [id], [], false);
  assert.deepEqual(ring.core, d.ring_colours[id].highlight || d.colours.highlight);
  assert.deepEqual(rings(d, ["no such id"], ["nor this"]), []);
  const edged = data.cases.find((c) => c.drawing.edge.length).drawing;
  assert.equal(coordinates(edged, null).length, edged.edge.length);
  assert.equal(coordinates(edged, false).length, 0);
  const celled = data.cases.find((c) => c.drawing.cells.length).drawing;
  assert.equal(coordinates(celled, null).length, 0);
  assert.equal(coordinates(celled, true).length, celled.cells.length);
});
