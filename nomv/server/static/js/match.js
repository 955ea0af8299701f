// The match page (/matches/<id>): the board drawn from the drawing of your view (the server's,
// as the desktop window draws it), moves entered by clicks with the same rules as the desktop
// (moveinput.js), the move list (a click shows an earlier position), the seats, the actions
// (resign, draw, takeback), and live changes through the match's WebSocket, reconnecting after
// a lost connection; the clocks (clock.js), the move list by turns (movelist.js), the answers
// to a challenge, abort and rematch, flipping the board (matchparts.js).  A move goes over that
// WebSocket (POST .../moves when it is not open) and its answer is the match as it left it, so a
// move costs one message: the page draws that answer and fetches nothing; the pushes carry each
// new version.  Every sentence about the match (whose turn, the result, the seats, the offers) is
// the server's, worded by nomv/play/wording.py in the page's language (the socket's ?lang=, the
// requests' Accept-Language).
import { ApiError, get, post } from "./api.js";
import { draw, keepTextsReadable } from "./board.js";
import { el, clear } from "./dom.js";
import { lang, localized, t } from "./i18n.js";
import { ILLEGAL, MoveInput, PLAY } from "./moveinput.js";
import { Clocks } from "./clock.js";
import { moveList, plyForKey } from "./movelist.js";
import { actionButtons, flipButton, isFlipped, ratingChange, ratingText, turnTitle } from "./matchparts.js";

// Whether the board shows coordinates: null (as nomv starts: around the edge where the board
// has them), true or false; the reader's choice is kept.
function keptCoordinates() {
  try {
    const kept = localStorage.getItem("nomv.coordinates");
    return kept === "on" ? true : kept === "off" ? false : null;
  } catch (e) { return null; }
}

export function matchPage(root, matchId, me, onChange, onRematch) {
  let match = null;           // the server's last answer: the match as you may see it
  let input = null;           // the move being clicked, when it is your turn
  let browsing = null;        // {ply, scene, marks} while an earlier position is shown
  let message = "";           // what the last click or request did
  let sending = false;
  let socket = null, retry = 0, closed = false, live = false;
  const replies = new Map();  // moves sent over the socket: id -> {resolve, reject}
  let lastTag = 0;
  let shownCoordinates = keptCoordinates();
  const ratings = new Map();  // user name -> {rating, provisional} in this game
  let flipped = isFlipped(matchId);
  const clocks = new Clocks(t, (seat) => match ? match.seats[seat - 1].label : "", () => load());

  // The board's root: data-ply (the position shown) and, once the match has ended, data-outcome;
  // under it the buttons of the steps that have no place on the board (pass, roll).
  const board = el("div", { class: "board", id: "board", role: "img" });
  const stepBar = el("div", { class: "step-bar" });
  const panel = el("div", { class: "panel" });
  clear(root).append(el("div", { class: "match" }, el("div", { class: "board-column" }, board, stepBar), panel));

  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-step]");
    if (target) clickStep(target.getAttribute("data-step"));
  });
  stepBar.addEventListener("click", (event) => {
    const target = event.target.closest("button[data-step]");
    if (target && !target.disabled) clickStep(target.getAttribute("data-step"));
  });
  const onKey = (event) => {
    if (event.target.closest("input, textarea, select")) return;
    if (event.key === "Enter") done();
    else if (event.key === "Escape") back();
    else if (match && !event.altKey && !event.ctrlKey && !event.metaKey) {
      const ply = plyForKey(event.key, browsing ? browsing.ply : match.ply, match.ply);
      if (ply !== null) { event.preventDefault(); browse(ply); }
    }
  };
  document.addEventListener("keydown", onKey);
  const onResize = () => keepTextsReadable(board);
  window.addEventListener("resize", onResize);

  function myTurn() {
    return match && match.status === "active" && match.you.includes(match.to_move) && match.legal_moves.length > 0;
  }

  function update(fresh, force = false) {
    if (!fresh) return;
    if (match && !force && fresh.version < match.version) return;   // an older push
    const moved = !match || fresh.version !== match.version || fresh.ply !== match.ply;
    match = fresh;
    if (moved) {
      input = myTurn() ? new MoveInput(match.legal_moves) : null;
      if (browsing && browsing.ply > match.ply) browsing = null;
    }
    clocks.set(match);
    document.title = turnTitle(match, myTurn());
    loadRatings();
    render();
    onChange && onChange(match);
  }

  async function load() {
    try {
      update(await get(`/api/matches/${matchId}`), true);
    } catch (e) {
      message = e.message;
      render();
    }
  }

  // -- live -------------------------------------------------------------------------------------

  function connect() {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/matches/${matchId}/live?lang=${encodeURIComponent(lang)}`);
    socket.addEventListener("open", () => { retry = 0; live = true; render(); });
    socket.addEventListener("message", (event) => {
      if (event.data === "pong") return;
      let data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data && (data.type === "moved" || data.type === "error")) {
        const waiting = replies.get(data.id);
        replies.delete(data.id);
        if (waiting) {
          if (data.type === "moved") waiting.resolve(data);
          else waiting.reject(new ApiError(data.status, data));
        }
        return;
      }
      if (data && data.match) update(data.match);
    });
    socket.addEventListener("close", (event) => {
      live = false;
      for (const waiting of replies.values()) waiting.reject(new ApiError(0, { message: t("connection lost") }));
      replies.clear();
      if (closed) return;
      if (event.code === 1008) {         // refused (the session ended, no such match): no retry
        message = event.reason || t("connection lost");
        render();
        return;
      }
      render();
      // Reconnect, a little later each time: the first message then catches up.
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 400 * retry);
    });
  }
  const ping = setInterval(() => { if (socket && socket.readyState === 1) socket.send("ping"); }, 25000);

  // -- clicks -------------------------------------------------------------------------------------

  function clickStep(step) {
    if (browsing) { message = t("This is an earlier position: “Back to the game” to play"); render(); return; }
    if (!input) { message = match && match.status === "active" ? t("Not your turn") : ""; render(); return; }
    if (sending) return;
    const names = match.step_names || {};
    const why = input.isClickable(step) ? "" : input.whyNot(step, t, names);
    const result = input.click(step);
    if (result.kind === ILLEGAL) message = why;
    else if (result.kind === PLAY) return send(input.moves[result.move].steps);
    else message = "";
    render();
    if (result.kind !== ILLEGAL) showNextSteps();
  }

  // After a click that leaves the move unfinished: when none of the places to click next is in
  // view (on a phone, a tile's rotations drawn under the board), the first comes into view.
  function showNextSteps() {
    const clicked = new Set(input ? input.clicked : []);
    const next = [...board.querySelectorAll("svg .clickable[data-step]"), ...stepBar.querySelectorAll("button.clickable")]
      .filter((node) => !clicked.has(node.getAttribute("data-step")));
    const inView = (node) => {
      const box = node.getBoundingClientRect();
      return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
    };
    if (next.length && !next.some(inView)) next[0].scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function done() {
    if (!input || input.complete === null || sending) return;
    send(input.moves[input.complete].steps);
  }

  function back() {
    if (input && input.back()) { message = ""; render(); }
  }

  async function send(steps) {
    const index = match.legal_moves.findIndex((m) => m.steps.join("\n") === steps.join("\n"));
    const notation = index >= 0 ? match.legal_moves[index].notation : steps.join("-");
    sending = true;
    message = t("Playing {move}…", { move: notation });
    render();
    try {
      // the answer is the match after the move, as you see it (its push may have come first)
      const body = { ply: match.ply, move: steps };
      if (socket && socket.readyState === 1) {
        const answer = await overSocket(body);
        if (answer.match) update(answer.match);
      } else {
        update(await post(`/api/matches/${matchId}/moves`, body));
      }
      message = "";
    } catch (e) {
      message = e.message;
      if (e.body && e.body.match) update(e.body.match, true);     // a stale ply: the position now
      else if (input) { input.reset(); render(); }
    } finally {
      sending = false;
      render();
    }
  }

  // A move over the match's WebSocket: answered there as POST .../moves would answer it.
  function overSocket(body) {
    return new Promise((resolve, reject) => {
      const id = ++lastTag;
      replies.set(id, { resolve, reject });
      socket.send(JSON.stringify({ type: "move", id, ...body }));
    });
  }

  async function act(path, body, sure) {
    if (sure && !window.confirm(sure)) return;
    try {
      const answer = await post(`/api/matches/${matchId}/${path}`, body);
      // (every act answers the match as you see it; read it again should an answer not be one)
      update(answer && Array.isArray(answer.seats) ? answer : await get(`/api/matches/${matchId}`), true);
      message = "";
    } catch (e) {
      message = e.message;
      if (e.status === 409) { try { update(await get(`/api/matches/${matchId}`), true); } catch (err) { /* shown */ } }
    }
    render();
  }

  // -- earlier positions ------------------------------------------------------------------------

  async function browse(ply) {
    if (ply >= match.ply) { browsing = null; render(); return; }
    if (browsing && browsing.ply === ply) return;
    try {
      const shown = await get(`/api/matches/${matchId}/positions/${ply}`);
      browsing = shown;
    } catch (e) {
      message = e.message;
    }
    render();
  }

  async function loadRatings() {
    for (const seat of match.seats) {
      if (seat.user && !ratings.has(seat.user)) {
        ratings.set(seat.user, null);
        get(`/api/users/${encodeURIComponent(seat.user)}`).then((profile) => {
          const row = (profile.ratings || []).find((r) => r.game === match.game);
          ratings.set(seat.user, row || null);
          render();
        }).catch(() => {});
      }
    }
  }

  // -- drawing ------------------------------------------------------------------------------------

  function render() {
    if (!match) {
      clear(panel).append(el("p", { class: "message", text: message }));
      return;
    }
    const drawing = browsing ? browsing.drawing : match.drawing;
    const active = !browsing && input;
    draw(board, drawing, {
      highlights: active ? [...input.nextSteps] : [], selected: active ? input.clicked : [],
      ready: active && input.complete !== null, coordinates: shownCoordinates, lang,
    });
    if (active) {
      for (const node of board.querySelectorAll("svg [data-step]")) {
        if (input.nextSteps.has(node.getAttribute("data-step"))) node.classList.add("clickable");
      }
    }
    board.setAttribute("data-ply", String(browsing ? browsing.ply : match.ply));
    board.classList.toggle("flipped", flipped);
    if (match.status === "ended" && match.outcome) board.setAttribute("data-outcome", JSON.stringify(match.outcome.ranks || []));
    else board.removeAttribute("data-outcome");
    board.setAttribute("aria-label", `${localized(match.title, match.game)}, ${t("Moves")}: ${match.ply}`);

    // The steps that have no place on the board (pass, roll), as buttons under it.
    clear(stepBar);
    if (active) {
      for (const b of match.buttons || []) {
        const usable = input.isClickable(b.id);
        stepBar.append(el("button", { "data-step": b.id, class: "step-button" + (usable ? " clickable" : ""),
          disabled: !usable || sending, text: localized(b.text) }));
      }
    }
    stepBar.hidden = !stepBar.firstChild;

    clear(panel);
    panel.append(el("h1", { class: "title", text: localized(match.title, match.game) }));
    panel.append(el("p", { class: "live " + (live ? "on" : "off"), text: live ? t("Live") : t("Connection lost: reconnecting…") }));

    // The bar of the first screen (on a phone it stays above the board): the one line, whose
    // turn it is or how the match ended, and the clocks.
    const bar = el("div", { class: "status turnbar" + (myTurn() ? " mine" : "") });
    if (match.line && match.line.text) {
      const kind = match.line.kind;
      bar.append(el("p", { class: kind === "result" ? "result" : "turn", "data-turn": kind, text: match.line.text }));
    }
    bar.append(clocks.node);
    panel.append(bar);

    // The seats: the role, who plays it, and what the server says beside (you, thinking, the
    // computer's estimate, a challenge not accepted yet); the rating in this game.
    const seats = el("ol", { class: "seats" });
    for (const seat of match.seats) {
      const turn = match.status === "active" && match.to_move === seat.seat;
      const notes = [...(seat.notes || [])];
      const rating = seat.user && ratings.get(seat.user);
      if (rating && typeof rating.rating === "number") notes.push(`${t("rating")} ${ratingText(rating)}`);
      seats.append(el("li", { class: "seat" + (turn ? " turn" : ""), "data-seat": seat.seat },
        el("span", { class: "marker", text: turn ? "▶" : "" }),
        el("span", { class: "role", text: seat.role }),
        seat.user ? el("a", { class: "who", href: `/users/${encodeURIComponent(seat.user)}`, text: seat.label })
          : el("span", { class: "who", text: seat.label }),
        el("span", { class: "note", text: notes.join(" · ") }, ratingChange(match, seat.seat))));
    }
    panel.append(seats);

    // The offers pending; the script's status; what a click does.
    const lines = el("div", { class: "status notes" });
    for (const offer of match.offers || []) lines.append(el("p", { class: "offer", text: offer }));
    const status = browsing ? localized(browsing.scene && browsing.scene.status) : match.status_line;
    if (status) lines.append(el("p", { class: "script-status", text: status }));
    if (match.script_error) lines.append(el("p", { class: "error", text: t("The game's script failed: {error}", { error: match.script_error }) }));
    if (browsing) lines.append(el("p", { class: "browsing", text: t("Move {k} of {n}: an earlier position", { k: browsing.ply, n: match.ply }) }));
    else if (input) {
      const notations = match.legal_moves.map((m) => m.notation);
      lines.append(el("p", { class: "prompt", text: input.prompt(t, notations, match.step_names || {}) }));
    }
    if (message) lines.append(el("p", { class: "message", role: "status", text: message }));
    panel.append(lines);

    // Done, a step back, the coordinates.
    const controls = el("div", { class: "controls" });
    if (browsing) {
      controls.append(el("button", { "data-action": "live", text: t("Back to the game"), onclick: () => { browsing = null; message = ""; render(); } }));
    } else if (input) {
      controls.append(el("button", { "data-action": "done", disabled: input.complete === null || sending, text: t("Done"), onclick: done }));
      controls.append(el("button", { "data-action": "back", disabled: !input.clicked.length, text: t("Take back a step"), onclick: back }));
    }
    // (a board that writes its own coordinates, or whose places have no ids to show, has none)
    if (drawing && (drawing.edge.length || drawing.cells.length)) {
      const shown = board.querySelectorAll("svg .coordinates text").length > 0;
      controls.append(el("button", { "data-action": "coordinates", "aria-pressed": String(shown), text: t("Coordinates"),
        onclick: () => {
          shownCoordinates = !shown;
          try { localStorage.setItem("nomv.coordinates", shownCoordinates ? "on" : "off"); } catch (e) { /* not kept */ }
          render();
        } }));
    }
    controls.append(flipButton(flipped, (on) => { flipped = on; render(); }));
    panel.append(controls);

    // Resign, draws, takebacks, challenges.
    const actions = el("div", { class: "actions" });
    const mine = match.you || [];
    if (match.status === "active" && mine.length) {
      actions.append(el("button", { "data-action": "resign", text: t("Resign"), onclick: () => act("resign", {}, t("Resign this match?")) }));
      const offer = match.draw_offer || [];
      if (offer.length && !mine.some((s) => offer.includes(s))) {
        actions.append(el("button", { "data-action": "accept-draw", text: t("Accept the draw"), onclick: () => act("draw", { action: "accept" }) }));
        actions.append(el("button", { "data-action": "decline-draw", text: t("Decline"), onclick: () => act("draw", { action: "decline" }) }));
      } else if (!offer.length) {
        actions.append(el("button", { "data-action": "offer-draw", text: t("Offer a draw"), onclick: () => act("draw", { action: "offer" }) }));
      }
      const back = match.takeback;
      if (back && !mine.some((s) => (back.agreed || []).includes(s))) {
        actions.append(el("button", { "data-action": "accept-takeback", text: t("Allow the takeback"), onclick: () => act("takeback", { action: "accept" }) }));
        actions.append(el("button", { "data-action": "refuse-takeback", text: t("Refuse"), onclick: () => act("takeback", { action: "decline" }) }));
      } else if (!back && match.ply > 0) {
        actions.append(el("button", { "data-action": "takeback", text: t("Ask to take back"), onclick: () => act("takeback", { action: "ask" }) }));
      }
    }
    actions.append(...actionButtons(match, me, act, onRematch));
    if (match.status === "ended") {
      actions.append(el("a", { href: `/api/matches/${matchId}/record`, "data-action": "record", text: t("Download the record") }));
    }
    panel.append(actions);

    // The move list: a click shows the position after that move.
    panel.append(el("h2", { text: t("Moves") }), moveList(match, browsing ? browsing.ply : match.ply, browse, t));
  }

  load().then(connect);

  return {
    close() {
      closed = true;
      clearInterval(ping);
      clocks.close();
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", onResize);
      if (socket) socket.close();
    },
    rerender: render,
  };
}
