// What to draw for a scene, as SVG: the browser's side of nomv/play/drawing.py.
//
// The server sends the finished drawing of a scene with every answer (every entry in order, in
// board units: the shapes with the last move's marks among them, the scene's texts, the
// coordinates, the places of the clickable ids; every colour decided), the very list the
// desktop window draws.  plan() turns it into SVG elements in that order, adding only what the
// page itself knows: the rings of what may be clicked now and of what was clicked, and whether
// the coordinates are shown.  It decides no place, order or colour of its own, and touches no
// DOM (board.js does), so node's test runner checks it against the cases the window passes too
// (tests/drawing_cases.json).
import { localizedIn } from "./languages.js";

const fmt = (x) => String(Math.round(x * 10000) / 10000);
const css = (c) => (c ? `rgba(${c[0]},${c[1]},${c[2]},${(c[3] / 255).toFixed(3)})` : "none");

// The coordinates to draw (nomv.play.drawing.coordinates): shown null (as a page starts) draws
// the letters and numbers around the edge where the board has them; true draws them, or on a
// board without them each place's id in its cell; false draws none.
export function coordinates(drawing, shown = null) {
  if (shown === false) return [];
  if (drawing.edge.length) return drawing.edge;
  return shown ? drawing.cells : [];
}

// The rings on the places of the next steps (highlights, in sorted order) and of the steps
// clicked so far (selected; ready: they make a move) (nomv.play.drawing.rings).
export function rings(drawing, highlights = [], selected = [], ready = false) {
  const out = [];
  const colours = drawing.colours;
  const add = (ids, kind, edge) => {
    for (const id of ids) {
      if (!(id in drawing.places)) continue;
      const own = drawing.ring_colours[id] || {};
      out.push({ draw: "ring", kind, entry: drawing.places[id], core: own[kind] || colours[kind], edge: colours[edge] });
    }
  };
  add([...new Set(highlights)].sort(), "highlight", "highlight_edge");
  add([...new Set(selected)], ready ? "ready" : "selected", "selected_edge");
  return out;
}

// Where an entry is drawn: a polygon's centroid, a line's middle point, else its (x, y).
export function centre(entry) {
  return "cx" in entry ? [entry.cx, entry.cy] : [entry.x, entry.y];
}

function box(entry) {
  if (entry.shape === "polygon" || entry.shape === "line") {
    const xs = entry.points.map((p) => p[0]), ys = entry.points.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  if (entry.shape === "circle") return [entry.x - entry.r, entry.y - entry.r, entry.x + entry.r, entry.y + entry.r];
  return [entry.x - entry.w / 2, entry.y - entry.h / 2, entry.x + entry.w / 2, entry.y + entry.h / 2];
}

// An entry's outline as an SVG element; `inset` shrinks it towards its centre (rings go inside).
function outline(entry, attrs, inset = 0) {
  const [cx, cy] = centre(entry);
  if (entry.shape === "polygon" || entry.shape === "line") {
    const pts = entry.points.map(([x, y]) => {
      const d = Math.hypot(x - cx, y - cy);
      const k = entry.shape === "polygon" && d > 0 ? Math.max(0, 1 - inset / d) : 1;
      return `${fmt(cx + (x - cx) * k)},${fmt(cy + (y - cy) * k)}`;
    });
    return { tag: entry.shape === "polygon" ? "polygon" : "polyline", attrs: { points: pts.join(" "), ...attrs } };
  }
  if (entry.shape === "circle") {
    return { tag: "circle", attrs: { cx: fmt(entry.x), cy: fmt(entry.y), r: fmt(Math.max(0.01, entry.r - inset)), ...attrs } };
  }
  return { tag: "rect", attrs: { x: fmt(entry.x - entry.w / 2 + inset), y: fmt(entry.y - entry.h / 2 + inset),
                                 width: fmt(Math.max(0.01, entry.w - 2 * inset)), height: fmt(Math.max(0.01, entry.h - 2 * inset)),
                                 ...attrs } };
}

// A text element; `readable`: its size keeps to the pixels its data-min-px (and data-max-px)
// say on any screen (board.js), as a scene's texts and the coordinates do; a shape's label
// keeps to its shape instead.
function text(words, x, y, size, attrs, readable = true) {
  const sized = readable ? { "data-size": fmt(size) } : {};
  return { tag: "text", text: words, attrs: { x: fmt(x), y: fmt(y), "font-size": fmt(size), ...sized,
                                              "dominant-baseline": "central", ...attrs } };
}

// A label on a shape: large for one character, never wider than its shape (in board units).
function labelSize(entry, words) {
  const [x0, y0, x1, y1] = box(entry);
  let px, room;
  if (entry.shape === "circle") { px = entry.r * 1.1; room = entry.r * 1.5; }
  else { px = Math.min(x1 - x0, y1 - y0) * 0.5; room = (x1 - x0) * 0.8; }
  const width = words.length * 0.6;
  return (width > 0 ? Math.min(px, room / width) : px) * FONT_SCALE;
}

// Font size (em) per unit of text size a scene asks for (the window's view.py uses the same).
export const FONT_SCALE = 0.95;

// The SVG elements of a drawing, in drawing order, each with `part` ("main", or "side" for an
// entry standing beside the board: a score table, the hands), `layer` (base, rings, texts,
// coordinates: the group it goes in) and `drawn` (what was drawn where, in board units: what
// the tests hold against the window).  opts: highlights, selected, ready, coordinates (null,
// true or false) and lang (the reader's language, for the script's texts).
export function plan(drawing, opts = {}) {
  const lang = opts.lang || "en";
  /** @type {{part: string, layer: string, step?: string|null, drawn: any, elements: {tag: string, attrs: any}[]}[]} */
  const out = [];
  const cell = typicalCell(drawing);
  const part = (entry) => (entry.side ? "side" : "main");
  drawing.base.forEach((entry) => {
    if (entry.draw === "mark") {
      const width = cell * 0.05;
      out.push({ part: part(entry), layer: "base", drawn: { draw: "mark", kind: entry.kind, id: entry.id ?? null, at: centre(entry) },
                 elements: [outline(entry, { fill: css(drawing.colours.last_move_tint), stroke: "none", class: "last-move" }),
                            outline(entry, { fill: "none", stroke: css(drawing.colours.last_move_rim), "stroke-width": fmt(width),
                                             class: "last-move" }, width / 2)] });
      return;
    }
    const attrs = {
      fill: entry.shape === "line" ? "none" : css(entry.fill),
      stroke: css(entry.stroke || (entry.shape === "line" ? entry.fill : null)),
      "stroke-width": entry.width !== undefined ? fmt(entry.width) : fmt(cell * 0.02),
    };
    const elements = [outline(entry, attrs)];
    const words = localizedIn(entry.label, lang, "");
    if (words) {
      const [cx, cy] = centre(entry);
      elements.push(text(words, cx, cy, labelSize(entry, words), { fill: css(entry.label_ink), "text-anchor": "middle",
                                                                   "font-weight": "bold", class: "label" }, false));
    }
    out.push({ part: part(entry), layer: "base", step: entry.id ?? null,
               drawn: { draw: "shape", index: entry.index, at: centre(entry) }, elements });
  });
  const thick = Math.max(cell * 0.07, 0.01);
  for (const ring of rings(drawing, opts.highlights || [], opts.selected || [], !!opts.ready)) {
    const entry = drawing.base[ring.entry];
    const t = ring.kind === "highlight" ? thick : thick * 1.2;
    const outer = t * 1.9;
    out.push({ part: part(entry), layer: "rings", drawn: { draw: "ring", kind: ring.kind, id: entry.id, at: centre(entry) },
               elements: [outline(entry, { fill: "none", stroke: css(ring.edge), "stroke-width": fmt(outer), "stroke-linejoin": "round" }, outer / 2),
                          outline(entry, { fill: "none", stroke: css(ring.core), "stroke-width": fmt(t), "stroke-linejoin": "round" }, outer / 2)] });
  }
  for (const entry of drawing.texts) {
    const words = localizedIn(entry.text, lang, "");
    const anchor = entry.align === "left" ? "start" : entry.align === "right" ? "end" : "middle";
    out.push({ part: part(entry), layer: "texts", drawn: { draw: "text", index: entry.index, text: words, at: [entry.x, entry.y] },
               elements: [text(words, entry.x, entry.y, entry.size * FONT_SCALE,
                               { fill: css(entry.ink), "text-anchor": anchor, "font-weight": entry.bold ? "bold" : "normal" })] });
  }
  const [low, high] = drawing.coordinate_px;
  for (const entry of coordinates(drawing, opts.coordinates ?? null)) {
    const edge = entry.draw === "coordinate";
    const attrs = { fill: css(entry.ink), "text-anchor": "middle", "font-weight": edge ? "bold" : "normal",
                    class: edge ? "coordinate" : "cell-id", "data-min-px": fmt(edge ? low : drawing.cell_id_px) };
    if (edge) attrs["data-max-px"] = fmt(high);
    if (!edge) {
      attrs.stroke = css(entry.halo);
      attrs["stroke-width"] = fmt(entry.size * 0.12);
      attrs["paint-order"] = "stroke";
    }
    out.push({ part: part(entry), layer: "coordinates", drawn: { draw: entry.draw, text: entry.text, at: [entry.x, entry.y] },
               elements: [text(entry.text, entry.x, entry.y, entry.size, attrs)] });
  }
  return out;
}

// The typical size of a place (the median of the clickable shapes' smaller sides): line widths
// and ring thicknesses in board units follow it.
function typicalCell(drawing) {
  const sizes = Object.values(drawing.places).map((n) => {
    const [x0, y0, x1, y1] = box(drawing.base[n]);
    return Math.min(x1 - x0, y1 - y0);
  }).filter((v) => v > 0).sort((a, b) => a - b);
  return sizes.length ? sizes[Math.floor(sizes.length / 2)] : 1;
}

// The viewBox of each part: the board's box (with the drawing's room for the coordinates
// around it when they are shown), and the box of what stands beside it; padded by 3%.
export function viewBoxes(drawing, shown = null) {
  const pad = (b) => {
    const p = 0.03 * Math.max(b[2] - b[0], b[3] - b[1]);
    return [b[0] - p, b[1] - p, b[2] - b[0] + 2 * p, b[3] - b[1] + 2 * p].map(fmt).join(" ");
  };
  const edge = coordinates(drawing, shown).some((e) => e.draw === "coordinate");
  const main = edge && drawing.edge_bounds ? drawing.edge_bounds : drawing.board_bounds || drawing.bounds;
  return { main: pad(main), side: drawing.side_bounds ? pad(drawing.side_bounds) : null };
}
