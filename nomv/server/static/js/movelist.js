// The move list of a match page: numbered by whole turns (1. a b  2. c d ...) with one column a
// seat, first / back / forward / last buttons, and ←/→, Home/End to step through it.  A click
// shows the position after that move.  turnRows is pure, for node's tests.

/**
 * The moves in rows of one turn each: a turn is a round of every seat, as the moves' seats
 * say when known (a player who moves twice in a row starts no new turn), else `players` moves.
 * @param {string[]} moves
 * @param {number} players
 * @param {number[]} [seats] the seat of each move, when known
 * @returns {{number: number, plies: number[]}[]} each row: its turn number and the plies (1-based) in it
 */
export function turnRows(moves, players, seats) {
  const rows = [];
  let row = null;
  moves.forEach((_, k) => {
    const seat = seats && seats[k];
    const newTurn = !row || (seats ? seat !== undefined && seat < seats[k - 1] : row.plies.length >= Math.max(1, players));
    if (newTurn) { row = { number: rows.length + 1, plies: [] }; rows.push(row); }
    row.plies.push(k + 1);
  });
  return rows;
}

/**
 * The list's element.
 * @param {{moves: string[], players: number, ply: number}} match
 * @param {number} shown the ply shown on the board
 * @param {(ply: number) => void} browse
 * @param {(m: string) => string} t
 */
export function moveList(match, shown, browse, t) {
  const box = document.createElement("div");
  box.className = "move-list";
  const nav = document.createElement("div");
  nav.className = "move-nav";
  const buttons = [["first", "«", 0, t("First position")], ["prev", "‹", Math.max(0, shown - 1), t("Previous move")],
                   ["next", "›", Math.min(match.ply, shown + 1), t("Next move")], ["last", "»", match.ply, t("Last move")]];
  for (const [action, icon, ply, label] of buttons) {
    const b = document.createElement("button");
    b.setAttribute("data-nav", String(action));
    b.setAttribute("aria-label", String(label));
    b.title = String(label);
    b.textContent = String(icon);
    b.disabled = ply === shown;
    b.addEventListener("click", () => browse(Number(ply)));
    nav.append(b);
  }
  box.append(nav);
  const table = document.createElement("table");
  table.className = "moves";
  table.setAttribute("aria-label", t("Moves"));
  const zero = document.createElement("button");
  zero.className = "move start" + (shown === 0 ? " current" : "");
  zero.setAttribute("data-ply", "0");
  zero.textContent = t("Beginning");
  zero.addEventListener("click", () => browse(0));
  for (const row of turnRows(match.moves, match.players)) {
    const tr = document.createElement("tr");
    const n = document.createElement("th");
    n.textContent = `${row.number}.`;
    tr.append(n);
    for (const ply of row.plies) {
      const td = document.createElement("td");
      const b = document.createElement("button");
      b.className = "move" + (shown === ply ? " current" : "");
      b.setAttribute("data-ply", String(ply));
      b.textContent = match.moves[ply - 1];
      b.addEventListener("click", () => browse(ply));
      td.append(b);
      tr.append(td);
    }
    table.append(tr);
  }
  box.append(zero, table);
  return box;
}

/**
 * The ply a key asks for (←/→ one move, Home/End the ends), or null for another key.
 * @param {string} key @param {number} shown @param {number} last
 */
export function plyForKey(key, shown, last) {
  if (key === "ArrowLeft") return Math.max(0, shown - 1);
  if (key === "ArrowRight") return Math.min(last, shown + 1);
  if (key === "Home") return 0;
  if (key === "End") return last;
  return null;
}
