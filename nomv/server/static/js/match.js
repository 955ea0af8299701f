// The match page (/matches/<id>): the board drawn from the scene of your view, moves entered by
// clicks with the same rules as the desktop (moveinput.js), the move list (a click shows an
// earlier position), the seats, the actions (resign, draw, takeback), and live changes through
// the match's WebSocket, reconnecting after a lost connection.
import { get, post } from "./api.js";
import { draw, keepTextsReadable } from "./board.js";
import { el, clear } from "./dom.js";
import { localized, t } from "./i18n.js";
import { ILLEGAL, MoveInput, PLAY } from "./moveinput.js";
import { Clocks } from "./clock.js";
import { moveList, plyForKey } from "./movelist.js";
import { actionButtons, flipButton, isFlipped, ratingChange, ratingText, turnTitle } from "./matchparts.js";

export function matchPage(root, matchId, me, onChange, onRematch) {
  let match = null;           // the server's last answer: the match as you may see it
  let input = null;           // the move being clicked, when it is your turn
  let browsing = null;        // {ply, scene, marks} while an earlier position is shown
  let message = "";           // what the last click or request did
  let sending = false;
  let socket = null, retry = 0, closed = false, live = false;
  const ratings = new Map();  // user name -> {rating, provisional} in this game
  let flipped = isFlipped(matchId);
  const clocks = new Clocks(t, (seat) => match ? seatName(match.seats[seat - 1]) : "", () => load());

  // The board's root: data-ply (the position shown) and, once the match has ended, data-outcome.
  const board = el("div", { class: "board", id: "board", role: "img" });
  const panel = el("div", { class: "panel" });
  clear(root).append(el("div", { class: "match" }, board, panel));

  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-step]");
    if (target) clickStep(target.getAttribute("data-step"));
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
    socket = new WebSocket(`${scheme}://${location.host}/api/matches/${matchId}/live`);
    socket.addEventListener("open", () => { retry = 0; live = true; render(); });
    socket.addEventListener("message", (event) => {
      if (event.data === "pong") return;
      let data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data && data.match) update(data.match);
    });
    socket.addEventListener("close", () => {
      live = false;
      if (closed) return;
      render();
      // Reconnect, a little later each time: the first message then catches up.
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 400 * retry);
    });
  }
  const ping = setInterval(() => { if (socket && socket.readyState === 1) socket.send("ping"); }, 25000);

  // -- clicks -------------------------------------------------------------------------------------

  function clickStep(step) {
    if (browsing) { message = t("back to game"); render(); return; }
    if (!input) { message = match && match.status === "active" ? t("not now") : ""; render(); return; }
    if (sending) return;
    const result = input.click(step);
    if (result.kind === ILLEGAL) message = t("illegal click");
    else if (result.kind === PLAY) return send(input.moves[result.move].steps);
    else message = "";
    render();
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
    message = t("sending", { move: notation });
    render();
    try {
      await post(`/api/matches/${matchId}/moves`, { ply: match.ply, move: steps });
      message = "";
      update(await get(`/api/matches/${matchId}`));
    } catch (e) {
      message = e.message;
      if (e.body && e.body.match) update(e.body.match, true);     // a stale ply: the position now
      else if (input) { input.reset(); render(); }
    } finally {
      sending = false;
      render();
    }
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

  function seatName(seat) {
    if (seat.kind === "computer") return `${t("computer")} (${t(seat.spec) || seat.spec})`;
    if (seat.kind === "open") return t("open");
    return seat.user || "?";
  }

  function result(outcome) {
    if (!outcome) return "";
    if (outcome.text) return outcome.text;
    if (outcome.winner) return t("won", { name: localized(match.seats[outcome.winner - 1].role) });
    return t("draw");
  }

  function render() {
    if (!match) {
      clear(panel).append(el("p", { class: "message", text: message }));
      return;
    }
    const scene = browsing ? browsing.scene : match.scene;
    const active = !browsing && input;
    const highlights = active ? [...input.nextSteps] : [];
    draw(board, scene || { items: [] }, {
      highlights, selected: active ? input.clicked : [], ready: active && input.complete !== null,
      marks: browsing ? browsing.marks : match.marks,
    });
    for (const node of board.querySelectorAll("svg [data-step]")) {
      if (highlights.includes(node.getAttribute("data-step"))) node.classList.add("clickable");
    }
    board.setAttribute("data-ply", String(browsing ? browsing.ply : match.ply));
    board.classList.toggle("flipped", flipped);
    if (match.status === "ended" && match.outcome) board.setAttribute("data-outcome", JSON.stringify(match.outcome.ranks || []));
    else board.removeAttribute("data-outcome");
    board.setAttribute("aria-label", `${localized(match.title)}, ${t("moves")}: ${match.ply}`);

    clear(panel);
    panel.append(el("h1", { class: "title", text: localized(match.title, match.game) }));
    panel.append(el("p", { class: "live " + (live ? "on" : "off"), text: live ? t("connected") : t("connection lost") }));

    // The bar of the first screen (on a phone it stays above the board): whose turn it is or
    // the result, in one line, and the clocks.
    const bar = el("div", { class: "status turnbar" + (myTurn() ? " mine" : "") });
    if (match.status === "ended") bar.append(el("p", { class: "result", "data-turn": "result", text: t("match over", { result: result(match.outcome) }) }));
    else if (match.status === "active") {
      const mover = match.seats[match.to_move - 1];
      bar.append(el("p", { class: "turn", "data-turn": "turn", text: mover && mover.you ? t("your turn") : t("to move", { name: mover ? seatName(mover) : "?" }) }));
    } else bar.append(el("p", { class: "turn", "data-turn": match.status, text: t(match.status) }));
    bar.append(clocks.node);
    panel.append(bar);

    // The seats, whose turn it is, ratings, the computer's estimate.
    const seats = el("ol", { class: "seats" });
    for (const seat of match.seats) {
      const turn = match.status === "active" && match.to_move === seat.seat;
      const note = [];
      if (seat.you) note.push(t("you"));
      const rating = seat.user && ratings.get(seat.user);
      if (rating && typeof rating.rating === "number") note.push(`${t("rating")} ${ratingText(rating)}`);
      if (match.thinking === seat.seat) note.push(t("thinking"));
      else if (seat.kind === "computer" && typeof seat.expects === "number") {
        note.push(t("expects", { percent: Math.round(seat.expects * 100) }));
      }
      if (!seat.accepted && seat.kind === "user") note.push(t("waiting"));
      seats.append(el("li", { class: "seat" + (turn ? " turn" : ""), "data-seat": seat.seat },
        el("span", { class: "marker", text: turn ? "▶" : "" }),
        el("span", { class: "role", text: localized(seat.role) }),
        el("span", { class: "who", text: seatName(seat) }),
        el("span", { class: "note", text: note.join(" · ") }, ratingChange(match, seat.seat))));
    }
    panel.append(seats);

    // What is happening: the result, whose turn, the script's status line, the prompt.
    const lines = el("div", { class: "notes" });
    if (scene && scene.status && match.status !== "ended") lines.append(el("p", { class: "script-status", text: localized(scene.status) }));
    if (match.script_error) lines.append(el("p", { class: "error", text: t("script error", { error: match.script_error }) }));
    if (browsing) lines.append(el("p", { class: "browsing", text: t("looking back", { ply: browsing.ply, total: match.ply }) }));
    else if (input) {
      let prompt = t("start a move");
      if (input.clicked.length) {
        prompt = input.needsConfirm || input.complete !== null
          ? t("confirm", { move: match.legal_moves[input.complete].notation })
          : t("go on", { steps: input.clicked.join(" "), n: input.candidates.length });
      }
      lines.append(el("p", { class: "prompt", text: prompt }));
    }
    if (message) lines.append(el("p", { class: "message", role: "status", text: message }));
    panel.append(lines);

    // Clicks that have no place on the board: Done, a step back, pass or roll.
    const controls = el("div", { class: "controls" });
    if (browsing) {
      controls.append(el("button", { "data-action": "live", text: t("back to game"), onclick: () => { browsing = null; message = ""; render(); } }));
    } else if (input) {
      controls.append(el("button", { "data-action": "done", disabled: input.complete === null || sending, text: t("done"), onclick: done }));
      controls.append(el("button", { "data-action": "back", disabled: !input.clicked.length, text: t("take back step"), onclick: back }));
      for (const b of match.buttons || []) {
        const usable = input.isClickable(b.id);
        controls.append(el("button", { "data-step": b.id, class: "step-button" + (usable ? " clickable" : ""),
          disabled: !usable || sending, text: localized(b.text), onclick: () => clickStep(b.id) }));
      }
    }
    controls.append(flipButton(flipped, (on) => { flipped = on; render(); }));
    panel.append(controls);

    // Resign, draws, takebacks, challenges.
    const actions = el("div", { class: "actions" });
    const mine = match.you || [];
    if (match.status === "active" && mine.length) {
      actions.append(el("button", { "data-action": "resign", text: t("resign"), onclick: () => act("resign", {}, t("resign sure")) }));
      const offer = match.draw_offer || [];
      if (offer.length && !mine.some((s) => offer.includes(s))) {
        const by = match.seats[offer[0] - 1];
        actions.append(el("p", { text: t("draw offered", { name: seatName(by) }) }));
        actions.append(el("button", { "data-action": "accept-draw", text: t("accept draw"), onclick: () => act("draw", { action: "accept" }) }));
        actions.append(el("button", { "data-action": "decline-draw", text: t("decline draw"), onclick: () => act("draw", { action: "decline" }) }));
      } else if (offer.length) {
        actions.append(el("p", { text: t("you offered draw") }));
      } else {
        actions.append(el("button", { "data-action": "offer-draw", text: t("offer draw"), onclick: () => act("draw", { action: "offer" }) }));
      }
      const back = match.takeback;
      if (back && !mine.some((s) => (back.agreed || []).includes(s))) {
        actions.append(el("p", { text: t("takeback asked", { name: seatName(match.seats[back.by - 1]) }) }));
        actions.append(el("button", { "data-action": "accept-takeback", text: t("accept takeback"), onclick: () => act("takeback", { action: "accept" }) }));
        actions.append(el("button", { "data-action": "refuse-takeback", text: t("refuse takeback"), onclick: () => act("takeback", { action: "decline" }) }));
      } else if (back) {
        actions.append(el("p", { text: t("you asked takeback") }));
      } else if (match.ply > 0) {
        actions.append(el("button", { "data-action": "takeback", text: t("ask takeback"), onclick: () => act("takeback", { action: "ask" }) }));
      }
    }
    actions.append(...actionButtons(match, me, act, onRematch));
    if (match.status === "ended") {
      actions.append(el("a", { href: `/api/matches/${matchId}/record`, "data-action": "record", text: t("record") }));
    }
    panel.append(actions);

    // The move list: a click shows the position after that move.
    panel.append(el("h2", { text: t("moves") }), moveList(match, browsing ? browsing.ply : match.ply, browse, t));
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
