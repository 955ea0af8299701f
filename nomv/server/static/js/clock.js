// The clocks of a match page: each player's time left, ticking every second from the last answer
// of the server (which alone decides when time runs out), in a warning colour in the last tenth of
// the time, and "time is up" at zero (the page then asks the server, which ends the match).
// A live time control (Fischer) shows every seat's clock; a correspondence match the time left
// for the move.  The logic (clockFaces, formatClock) is pure, for node's tests.

/**
 * @typedef {{base: number, increment: number, left: number[], running: number|null}} Clock
 * @typedef {{seat: number, left: number, running: boolean, warning: boolean, out: boolean}} Face
 */

/**
 * Each clock to show, `elapsed` seconds after the answer `match` came.
 * @param {{status: string, to_move: number|null, clock?: Clock|null, seconds_left?: number|null,
 *          time_per_move?: number|null}} match
 * @param {number} elapsed
 * @returns {Face[]}
 */
export function clockFaces(match, elapsed) {
  const running = match.status === "active";
  if (match.clock) {
    const c = match.clock;
    return c.left.map((left, k) => {
      const ticking = running && c.running === k + 1;
      const now = Math.max(0, ticking ? left - elapsed : left);
      return { seat: k + 1, left: now, running: ticking, warning: now <= c.base / 10, out: now <= 0 };
    });
  }
  if (running && typeof match.seconds_left === "number" && match.to_move) {
    const now = Math.max(0, match.seconds_left - elapsed);
    const whole = match.time_per_move || match.seconds_left;
    return [{ seat: match.to_move, left: now, running: true, warning: now <= whole / 10, out: now <= 0 }];
  }
  return [];
}

/**
 * A time left as players read it: 4:05, 1:02:03, 0:09.4 under ten seconds, 2d 3h for days.
 * @param {number} seconds
 * @param {(message: string, vars?: object) => string} [t]
 */
export function formatClock(seconds, t = (m, v) => m.replace(/\{(\w+)\}/g, (_, k) => String(v[k]))) {
  const s = Math.max(0, seconds);
  if (s >= 86400) return t("{d}d {h}h", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  const two = (n) => String(n).padStart(2, "0");
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(Math.floor(s % 60))}`;
  if (s < 10) return `0:0${(Math.floor(s * 10) / 10).toFixed(1)}`;
  return `${Math.floor(s / 60)}:${two(Math.floor(s % 60))}`;
}

/**
 * The clocks' elements for a match (one per face, `data-clock` = its seat), kept ticking by
 * `tick()`; `onOut` is called once when a running clock reaches zero.
 */
export class Clocks {
  /** @param {(m: string, v?: object) => string} t @param {(seat: number) => string} name @param {() => void} onOut */
  constructor(t, name, onOut) {
    this.t = t; this.name = name; this.onOut = onOut;
    this.match = null; this.at = 0; this.node = document.createElement("div"); this.node.className = "clocks";
    this.told = false;
    this.timer = setInterval(() => this.tick(), 250);
  }

  /** A new answer of the server: its times are as of now. */
  set(match) {
    this.match = match;
    this.at = performance.now();
    this.told = false;
    this.draw();
  }

  draw() {
    const node = this.node;
    while (node.firstChild) node.removeChild(node.firstChild);
    if (!this.match) return;
    for (const face of clockFaces(this.match, 0)) {
      const box = document.createElement("div");
      box.className = "clock";
      box.setAttribute("data-seat", String(face.seat));
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = this.name(face.seat);
      const time = document.createElement("span");
      time.className = "time";
      time.setAttribute("data-clock", String(face.seat));
      time.setAttribute("role", "timer");
      box.append(who, time);
      node.append(box);
    }
    node.hidden = !node.firstChild;
    this.tick();
  }

  tick() {
    if (!this.match) return;
    const faces = clockFaces(this.match, (performance.now() - this.at) / 1000);
    const t = this.t;
    for (const face of faces) {
      const time = this.node.querySelector(`[data-clock="${face.seat}"]`);
      if (!time) continue;
      const box = /** @type {HTMLElement} */ (time.parentNode);
      const text = face.out && face.running ? t("Time is up") : formatClock(face.left, t);
      if (time.textContent !== text) time.textContent = text;
      box.classList.toggle("running", face.running);
      box.classList.toggle("warning", face.warning && this.match.status === "active");
      box.classList.toggle("out", face.out);
      if (face.out && face.running && !this.told) {
        this.told = true;
        this.onOut();
      }
    }
  }

  close() { clearInterval(this.timer); }
}
