// "Your turn" wherever you are on the site: the lobby's WebSocket (/api/me/live) says when one of
// your matches or the open challenges change; the number of matches waiting for your move goes
// in the tab's title, and (if you asked for them on the account page) a short sound and a
// browser notification tell of a new one.
import { get } from "./api.js";
import { localized, t } from "./i18n.js";

const KEY = "nomv.alerts";

/** What this browser was asked to do on your turn. */
export function alertsWanted() {
  try { return { sound: false, notifications: false, ...JSON.parse(localStorage.getItem(KEY) || "{}") }; }
  catch (e) { return { sound: false, notifications: false }; }
}

export function setAlertsWanted(wanted) {
  try { localStorage.setItem(KEY, JSON.stringify(wanted)); } catch (e) { /* not kept */ }
}

/** The title with the count of matches waiting for you: "(2) nomv". */
export function markedTitle(title, count) {
  const bare = title.replace(/^\(\d+\) /, "");
  return count > 0 ? `(${count}) ${bare}` : bare;
}

/**
 * The matches that became yours to play or answer since the list `known` (keys "id:ply"; null
 * before the first list, when nothing is new), and the keys of the list now.
 * @param {Set<string>|null} known
 * @param {Array<{id: number, ply: number, your_turn?: boolean, to_answer?: boolean}>} list
 */
export function freshTurns(known, list) {
  const mine = list.filter((m) => m.your_turn || m.to_answer);
  const keys = new Set(mine.map((m) => `${m.id}:${m.ply}`));
  return { mine, keys, fresh: known === null ? [] : mine.filter((m) => !known.has(`${m.id}:${m.ply}`)) };
}

/**
 * What to do when `fresh` matches became yours: a sound if wanted (also for the match on screen:
 * it says the other moved), a notification if wanted and permitted while this page has not the
 * focus (a hidden tab, another window): the page in front of you says it already.
 * @param {Array<object>} fresh
 * @param {{sound: boolean, notifications: boolean}} wanted
 * @param {{focused: boolean, permitted: boolean}} here
 */
export function alertsFor(fresh, wanted, here) {
  return { sound: fresh.length > 0 && wanted.sound,
           notification: fresh.length > 0 && wanted.notifications && here.permitted && !here.focused ? fresh[0] : null };
}

// One audio context for the page, made and resumed at a click or a key (a browser lets a page
// play sound once the person has used it); a tone then needs no further permission.
let audio = null;
function audioContext() {
  if (!audio && globalThis.AudioContext) { try { audio = new AudioContext(); } catch (e) { audio = null; } }
  return audio;
}
function unlockAudio() {
  const context = audioContext();
  if (context && context.state === "suspended") context.resume().catch(() => {});
}
if (globalThis.document) {
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlockAudio, { capture: true });
}

function beep() {
  const context = audioContext();
  if (!context) return;
  try {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.3);
    tone.connect(gain).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.3);
  } catch (e) { /* no sound here */ }
}

/**
 * Follows your matches while you are logged in; `onChange()` is called on every push (the lobby
 * reads its lists again).  Returns {close, setListener}.
 */
export function followTurns() {
  let socket = null, closed = false, retry = 0, known = null, listener = null, timer = null;
  const state = { count: 0 };

  async function refresh() {
    let list;
    try { list = await get("/api/me/matches"); } catch (e) { return; }
    const now = freshTurns(known, list);
    state.count = now.mine.length;
    document.title = markedTitle(document.title, state.count);
    known = now.keys;
    const permitted = !!globalThis.Notification && Notification.permission === "granted";
    const todo = alertsFor(now.fresh, alertsWanted(), { focused: document.hasFocus(), permitted });
    if (todo.sound) beep();
    if (todo.notification) notify(todo.notification);
  }

  function notify(m) {
    try {
      const note = new Notification(m.to_answer ? t("A challenge to you") : t("Your turn"),
        { body: `${localized(m.title, m.game)} #${m.id}`, tag: `nomv-${m.id}` });
      note.onclick = () => { window.focus(); location.assign(`/matches/${m.id}`); };
    } catch (e) { /* this browser shows none from a page (Chrome on Android: only from a service worker) */ }
  }

  function connect() {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/me/live`);
    socket.addEventListener("open", () => { retry = 0; });
    socket.addEventListener("message", (event) => {
      if (event.data === "pong") return;
      clearTimeout(timer);          // a burst of pushes: read the lists once
      timer = setTimeout(() => { refresh(); listener && listener(); }, 150);
    });
    socket.addEventListener("close", (event) => {
      if (closed || event.code === 1008) return;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 500 * retry);
    });
  }
  const ping = setInterval(() => { if (socket && socket.readyState === 1) socket.send("ping"); }, 25000);
  refresh();
  connect();
  return {
    state,
    setListener(fn) { listener = fn; },
    retitle() { document.title = markedTitle(document.title, state.count); },
    close() { closed = true; clearInterval(ping); if (socket) socket.close(); },
  };
}
