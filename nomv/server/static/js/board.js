// A scene's drawing as SVG in the page: the elements drawing.js plans from the drawing the
// server sent (nomv/play/drawing.py: the window draws the same list), put into two <svg>s: the
// board (svg.main) and what stands beside it (svg.side: score tables, hands), so that those keep
// a readable size wherever the page puts them (beside the board, or under it on a phone).
// Every shape with an id carries data-step="<id>": a click on it is a click on that step.
import { plan, viewBoxes } from "./drawing.js";

const SVG = "http://www.w3.org/2000/svg";

function node(spec) {
  const n = document.createElementNS(SVG, spec.tag);
  for (const [k, v] of Object.entries(spec.attrs || {})) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  if (spec.text !== undefined) n.textContent = spec.text;
  return n;
}

// Draws `drawing` into `container` (a <div>).  opts: highlights (ids to ring), selected (ids
// clicked so far), ready (they make a move), coordinates (null: around the edge where the board
// has them; true; false), lang (the reader's language).
export function draw(container, drawing, opts = {}) {
  let main = container.querySelector("svg.main");
  let side = container.querySelector("svg.side");
  if (!main) {
    main = document.createElementNS(SVG, "svg");
    main.setAttribute("class", "main");
    side = document.createElementNS(SVG, "svg");
    side.setAttribute("class", "side");
    container.append(main, side);
  }
  const empty = { base: [], texts: [], edge: [], cells: [], places: {}, ring_colours: {}, bounds: [0, 0, 1, 1],
                  colours: {}, coordinate_px: [12, 18], cell_id_px: 9, edge_reach: 0 };
  drawing = drawing || empty;
  const boxes = viewBoxes(drawing, opts.coordinates ?? null);
  const parts = { main: fresh(main, boxes.main), side: fresh(side, boxes.side || "0 0 1 1") };
  for (const planned of plan(drawing, opts)) {
    const group = parts[planned.part][planned.layer];
    if (planned.layer === "base" && planned.drawn.draw === "shape") {
      const g = document.createElementNS(SVG, "g");
      g.setAttribute("class", planned.step ? "item has-step" : "item");
      if (planned.step) g.setAttribute("data-step", planned.step);
      for (const spec of planned.elements) g.append(node(spec));
      group.append(g);
    } else {
      for (const spec of planned.elements) group.append(node(spec));
    }
  }
  side.style.display = drawing.side_bounds ? "" : "none";
  keepTextsReadable(main);
  if (drawing.side_bounds) keepTextsReadable(side);
}

// Empties an <svg> and gives it its viewBox and a group for each layer, in drawing order.
function fresh(svg, viewBox) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", viewBox);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const groups = {};
  for (const layer of ["base", "rings", "texts", "coordinates"]) {
    groups[layer] = document.createElementNS(SVG, "g");
    groups[layer].setAttribute("class", layer === "base" ? "items" : layer);
    svg.append(groups[layer]);
  }
  return groups;
}

// Texts never smaller on screen than their data-min-px (a scene's text: 11 px; a coordinate:
// 12 px) nor larger than their data-max-px, whatever the board's size (a phone shrinks it).
export function keepTextsReadable(svg) {
  if (svg.tagName.toLowerCase() !== "svg") {
    for (const part of svg.querySelectorAll("svg")) keepTextsReadable(part);
    return;
  }
  const vb = svg.viewBox && svg.viewBox.baseVal;
  const width = svg.getBoundingClientRect().width;
  if (!vb || !vb.width || !width) return;
  const scale = Math.min(width / vb.width, svg.getBoundingClientRect().height / vb.height || Infinity);
  for (const t of svg.querySelectorAll("text[data-size]")) {
    const size = parseFloat(t.getAttribute("data-size"));
    const low = parseFloat(t.getAttribute("data-min-px") || "11");
    const high = parseFloat(t.getAttribute("data-max-px") || "Infinity");
    t.setAttribute("font-size", String(Math.min(Math.max(size, low / scale), high / scale)));
  }
}
