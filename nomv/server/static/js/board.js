// A scene drawn as SVG: the browser's copy of the desktop's drawing (nomv/gui/view.py), from
// the same scene items the script gives.  Items are drawn by layer; the last move's places
// (nomv/boardmarks.py, computed by the server) are tinted just above their place; the next
// clickable steps are ringed (gold between black lines, white on a gold-like fill) and the
// steps clicked so far too (blue, or green once they make a move); the scene's texts come on
// top so no ring hides them.  Every item with an id carries data-step="<id>": a click on it is
// a click on that step.
import { localized } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const NAMED = {
  black: [0, 0, 0], white: [255, 255, 255], red: [210, 40, 40], green: [40, 150, 60],
  blue: [50, 90, 210], yellow: [235, 200, 40], orange: [240, 140, 30], purple: [130, 60, 170],
  grey: [128, 128, 128], gray: [128, 128, 128], brown: [130, 85, 40],
};
const HIGHLIGHT = [255, 200, 0];
const SELECTED = [30, 100, 235];
const READY = [30, 170, 70];
const LAST_MOVE = [70, 150, 255];
const TEXT = [40, 40, 40];
const FONT_SCALE = 0.95;
const MIN_TEXT_PX = 11;           // the smallest text drawn, in screen pixels

// A scene colour ("#rgb", "#rrggbb", "#rrggbbaa", a name) as [r, g, b, a], or null (none).
export function colour(value) {
  if (typeof value !== "string") return null;
  const v = value.trim().toLowerCase();
  if (v === "none" || v === "transparent") return null;
  if (NAMED[v]) return [...NAMED[v], 255];
  let m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(v);
  if (m) return [...m.slice(1).map((c) => parseInt(c + c, 16)), 255];
  m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/.exec(v);
  if (m) return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16), m[4] ? parseInt(m[4], 16) : 255];
  return null;
}

const css = (c) => (c ? `rgba(${c[0]},${c[1]},${c[2]},${(c[3] / 255).toFixed(3)})` : "none");

// Black or white, whichever reads better on fill.
function contrast(fill) {
  if (!fill) return [...TEXT, 255];
  return 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 140 ? [20, 20, 20, 255] : [250, 250, 250, 255];
}

// rgb, or `instead` when the fill under it is of a like colour (gold on yellow would not show).
function unlike(rgb, fill, instead) {
  if (!fill || fill[3] < 128) return rgb;
  const d = Math.hypot(rgb[0] - fill[0], rgb[1] - fill[1], rgb[2] - fill[2]);
  return d < 130 ? instead : rgb;
}

const num = (item, key, fallback = 0) => {
  const v = item[key];
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
};

function pairs(points) {
  if (!Array.isArray(points)) return [];
  if (points.length && Array.isArray(points[0])) return points.filter((p) => p.length >= 2).map((p) => [+p[0], +p[1]]);
  const out = [];
  for (let i = 0; i + 1 < points.length; i += 2) out.push([+points[i], +points[i + 1]]);
  return out.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y)) ? out : [];
}

function centroid(pts) {
  let a = 0, cx = 0, cy = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x0, y0] = pts[i], [x1, y1] = pts[(i + 1) % pts.length];
    const k = x0 * y1 - x1 * y0;
    a += k; cx += (x0 + x1) * k; cy += (y0 + y1) * k;
  }
  if (Math.abs(a) < 1e-12) {
    return [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
  }
  return [cx / (3 * a), cy / (3 * a)];
}

// Scene items as shapes in drawing order (by layer, then scene order); malformed ones skipped.
export function shapes(items) {
  const out = [];
  (Array.isArray(items) ? items : []).forEach((item, order) => {
    if (!item || typeof item !== "object") return;
    const kind = item.shape;
    const layer = typeof item.layer === "number" ? item.layer : kind === "text" ? 2 : 0;
    const s = { item, layer, order, id: typeof item.id === "string" ? item.id : null };
    if (kind === "polygon" || kind === "line") {
      const pts = pairs(item.points);
      if (pts.length < 2 || (kind === "polygon" && pts.length < 3)) return;
      const [cx, cy] = kind === "polygon" ? centroid(pts) : pts[Math.floor(pts.length / 2)];
      Object.assign(s, { kind, pts, cx, cy });
    } else if (kind === "circle") {
      Object.assign(s, { kind, cx: num(item, "x"), cy: num(item, "y"), r: Math.abs(num(item, "r", 0.5)) });
    } else if (kind === "rect" || kind === "square" || kind === "hex") {
      const w = Math.abs(num(item, "w", num(item, "size", 1)));
      const h = Math.abs(num(item, "h", w));
      Object.assign(s, { kind: "rect", cx: num(item, "x"), cy: num(item, "y"), w, h });
    } else if (kind === "text") {
      const text = localized(item.text !== undefined ? item.text : item.label, "");
      const size = num(item, "size", 0.5);
      const w = text.length * size * 0.55;
      const x = num(item, "x");
      const align = item.align || "centre";
      const cx = align === "left" ? x + w / 2 : align === "right" ? x - w / 2 : x;
      Object.assign(s, { kind: "text", text, size, cx, cy: num(item, "y"), w, h: size * 1.1, align });
    } else return;
    out.push(s);
  });
  out.sort((a, b) => a.layer - b.layer || a.order - b.order);
  return out;
}

function box(s) {
  if (s.kind === "polygon" || s.kind === "line") {
    const xs = s.pts.map((p) => p[0]), ys = s.pts.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  if (s.kind === "circle") return [s.cx - s.r, s.cy - s.r, s.cx + s.r, s.cy + s.r];
  return [s.cx - s.w / 2, s.cy - s.h / 2, s.cx + s.w / 2, s.cy + s.h / 2];
}

function bounds(scene, list) {
  const b = scene.bounds;
  let out = null;
  if (Array.isArray(b) && b.length === 4 && b.every((v) => typeof v === "number") && b[2] > b[0] && b[3] > b[1]) out = [...b];
  for (const s of list) {
    const [a, c, d, e] = box(s);
    out = out ? [Math.min(out[0], a), Math.min(out[1], c), Math.max(out[2], d), Math.max(out[3], e)] : [a, c, d, e];
  }
  return out || [0, 0, 1, 1];
}

function node(tag, attrs) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  return n;
}

const fmt = (x) => (Math.round(x * 10000) / 10000).toString();

// The shape as an SVG element; `inset` shrinks it towards its centre (rings inside outlines).
function outline(s, attrs, inset = 0) {
  if (s.kind === "polygon" || s.kind === "line") {
    const pts = s.pts.map(([x, y]) => {
      const d = Math.hypot(x - s.cx, y - s.cy);
      const k = s.kind === "polygon" && d > 0 ? Math.max(0, 1 - inset / d) : 1;
      return `${fmt(s.cx + (x - s.cx) * k)},${fmt(s.cy + (y - s.cy) * k)}`;
    });
    return node(s.kind === "polygon" ? "polygon" : "polyline", { points: pts.join(" "), ...attrs });
  }
  if (s.kind === "circle") return node("circle", { cx: fmt(s.cx), cy: fmt(s.cy), r: fmt(Math.max(0.01, s.r - inset)), ...attrs });
  return node("rect", { x: fmt(s.cx - s.w / 2 + inset), y: fmt(s.cy - s.h / 2 + inset),
                        width: fmt(Math.max(0.01, s.w - 2 * inset)), height: fmt(Math.max(0.01, s.h - 2 * inset)), ...attrs });
}

function label(s, text, fill, item) {
  const [x0, y0, x1, y1] = box(s);
  let px, room;
  if (s.kind === "circle") { px = s.r * 1.1; room = s.r * 1.5; }
  else { px = Math.min(x1 - x0, y1 - y0) * 0.5; room = (x1 - x0) * 0.8; }
  const width = text.length * 0.6;
  const size = width > 0 ? Math.min(px, room / width) : px;
  const col = colour(item.label_colour || item.label_color) || contrast(fill);
  const t = node("text", { x: fmt(s.cx), y: fmt(s.cy), "font-size": fmt(size * FONT_SCALE), fill: css(col),
                           "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "bold",
                           class: "label" });
  t.textContent = text;
  return t;
}

// Draws `scene` into `container` (a <div>): the board in an <svg class="main">, and the items
// the server marked as standing beside the board (scene.board[i] false: score tables, hands) in
// an <svg class="side"> of their own, so they keep a readable size wherever the page puts them
// (beside the board, or under it on a phone).  opts: highlights (ids to ring), selected (ids
// clicked so far), ready (they make a move), marks (the last move's places: [{kind, id, item}]).
export function draw(container, scene, opts = {}) {
  let main = container.querySelector("svg.main");
  let side = container.querySelector("svg.side");
  if (!main) {
    main = document.createElementNS(SVG, "svg");
    main.setAttribute("class", "main");
    side = document.createElementNS(SVG, "svg");
    side.setAttribute("class", "side");
    container.append(main, side);
  }
  const items = (scene && Array.isArray(scene.items)) ? scene.items : [];
  const flags = scene && Array.isArray(scene.board) && scene.board.length === items.length ? scene.board : null;
  const mainItems = flags ? items.filter((_, k) => flags[k]) : items;
  const sideItems = flags ? items.filter((_, k) => !flags[k]) : [];
  const all = shapes(items);
  const placeSizes = all.filter((s) => s.id && s.kind !== "text").map((s) => { const b = box(s); return Math.min(b[2] - b[0], b[3] - b[1]); })
    .filter((v) => v > 0).sort((a, b) => a - b);
  const cell = placeSizes.length ? placeSizes[Math.floor(placeSizes.length / 2)] : 1;
  drawPart(main, shapes(mainItems), flags ? null : scene, cell, opts);
  if (sideItems.length) {
    side.style.display = "";
    drawPart(side, shapes(sideItems), null, cell, opts);
  } else {
    side.style.display = "none";
    while (side.firstChild) side.removeChild(side.firstChild);
  }
  keepTextsReadable(main);
  if (sideItems.length) keepTextsReadable(side);
}

function drawPart(svg, list, scene, cell, opts) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const [bx0, by0, bx1, by1] = bounds(scene || {}, list);
  const pad = 0.03 * Math.max(bx1 - bx0, by1 - by0);
  svg.setAttribute("viewBox", [bx0 - pad, by0 - pad, bx1 - bx0 + 2 * pad, by1 - by0 + 2 * pad].map(fmt).join(" "));
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const places = new Map();        // id -> the shape that is its place (the lowest item with it)
  for (const s of list) if (s.id && s.kind !== "text" && !places.has(s.id)) places.set(s.id, s);

  const base = node("g", { class: "items" });
  // The last move's places: on their place's own shape just above its layer (under the
  // pieces), or, for a place gone from the scene (a taken block), from the item the server sent,
  // above everything (on the board's part only).
  const isSide = svg.classList.contains("side");
  const marks = (opts.marks || []).map((m) => {
    const own = m.id ? places.get(m.id) : null;
    if (own) return { s: own, layer: own.layer };
    if (isSide) return null;
    const s = shapes([m.item])[0];
    return s && s.kind !== "text" ? { s, layer: Infinity } : null;
  }).filter(Boolean).sort((a, b) => a.layer - b.layer);
  const drawMark = ({ s }) => {
    base.append(outline(s, { fill: css([...LAST_MOVE, 95]), stroke: "none", class: "last-move" }));
    base.append(outline(s, { fill: "none", stroke: css([...LAST_MOVE, 255]), "stroke-width": fmt(cell * 0.05),
                             class: "last-move" }, cell * 0.025));
  };
  const texts = [];
  for (const s of list) {
    while (marks.length && marks[0].layer < s.layer) drawMark(marks.shift());
    if (s.kind === "text") { texts.push(s); continue; }
    const item = s.item;
    const fill = colour(item.fill);
    const stroke = colour(item.stroke);
    const width = typeof item.width === "number" ? item.width : null;
    const attrs = {
      fill: s.kind === "line" ? "none" : css(fill),
      stroke: css(stroke || (s.kind === "line" ? fill : null)),
      "stroke-width": width !== null ? fmt(width) : fmt(cell * 0.02),
    };
    const group = node("g", { class: s.id ? "item has-step" : "item" });
    if (s.id) group.setAttribute("data-step", s.id);
    group.append(outline(s, attrs));
    const text = localized(item.label, "");
    if (text) group.append(label(s, text, fill, item));
    base.append(group);
  }
  for (const m of marks) drawMark(m);
  svg.append(base);

  // Highlights: the next steps, and the steps clicked so far.
  const rings = node("g", { class: "rings" });
  const thick = Math.max(cell * 0.07, 0.01);
  const ring = (s, core, edge, t) => {
    const outer = t + (edge ? t * 0.9 : 0);
    if (edge) rings.append(outline(s, { fill: "none", stroke: css(edge), "stroke-width": fmt(outer), "stroke-linejoin": "round" }, outer / 2));
    rings.append(outline(s, { fill: "none", stroke: css(core), "stroke-width": fmt(t), "stroke-linejoin": "round" }, outer / 2));
  };
  for (const id of opts.highlights || []) {
    const s = places.get(id);
    if (!s) continue;
    const core = unlike(HIGHLIGHT, colour(s.item.fill), [255, 255, 255]);
    ring(s, [...core, 255], [20, 20, 20, 255], thick);
  }
  for (const id of opts.selected || []) {
    const s = places.get(id);
    if (!s) continue;
    const core = unlike(opts.ready ? READY : SELECTED, colour(s.item.fill), [15, 30, 90]);
    ring(s, [...core, 255], [255, 255, 255, 255], thick * 1.2);
  }
  svg.append(rings);

  // The scene's texts, above everything.
  const top = node("g", { class: "texts" });
  for (const s of texts) {
    const col = colour(s.item.fill || s.item.colour || s.item.color) || [...TEXT, 255];
    const anchor = s.align === "left" ? "start" : s.align === "right" ? "end" : "middle";
    const t = node("text", { x: fmt(num(s.item, "x")), y: fmt(s.cy), "font-size": fmt(s.size * FONT_SCALE),
                             "data-size": fmt(s.size * FONT_SCALE), fill: css(col), "text-anchor": anchor,
                             "dominant-baseline": "central", "font-weight": s.item.bold ? "bold" : "normal" });
    t.textContent = s.text;
    top.append(t);
  }
  svg.append(top);
}

// Scene texts never smaller than MIN_TEXT_PX on screen (a small phone shrinks the board).
export function keepTextsReadable(svg) {
  if (svg.tagName.toLowerCase() !== "svg") {
    for (const part of svg.querySelectorAll("svg")) keepTextsReadable(part);
    return;
  }
  const vb = svg.viewBox && svg.viewBox.baseVal;
  const width = svg.getBoundingClientRect().width;
  if (!vb || !vb.width || !width) return;
  const scale = width / vb.width;          // pixels per board unit
  for (const t of svg.querySelectorAll("text[data-size]")) {
    const size = parseFloat(t.getAttribute("data-size"));
    t.setAttribute("font-size", fmt(Math.max(size, MIN_TEXT_PX / scale)));
  }
}
