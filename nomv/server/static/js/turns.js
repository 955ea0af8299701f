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

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
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
    const mine = list.filter((m) => m.your_turn || m.to_answer);
    state.count = mine.length;
    document.title = markedTitle(document.title, state.count);
    const ids = new Set(mine.map((m) => `${m.id}:${m.ply}`));
    if (known !== null) {
      const fresh = mine.filter((m) => !known.has(`${m.id}:${m.ply}`));
      const here = fresh.filter((m) => location.pathname !== `/matches/${m.id}` || document.hidden);
      if (here.length) alert(here[0]);
    }
    known = ids;
  }

  function alert(m) {
    const wanted = alertsWanted();
    if (wanted.sound) beep();
    if (wanted.notifications && globalThis.Notification && Notification.permission === "granted" && document.hidden) {
      const note = new Notification(m.to_answer ? t("A challenge to you") : t("Your turn"),
        { body: `${localized(m.title, m.game)} #${m.id}`, tag: `nomv-${m.id}` });
      note.onclick = () => { window.focus(); location.assign(`/matches/${m.id}`); };
    }
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
