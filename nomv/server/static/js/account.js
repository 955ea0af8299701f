// The account page (/account): the e-mail address and the "your turn" e-mails (kept by the
// server), and this browser's sound and notifications when it is your turn (kept here).
import { api } from "./api.js";
import { clear, el } from "./dom.js";
import { t } from "./i18n.js";
import { alertsWanted, setAlertsWanted } from "./turns.js";

export async function accountPage(root, me) {
  clear(root);
  const page = el("div", { class: "account-page" }, el("h1", { text: t("Your account") }));
  root.append(page);
  if (!me) { page.append(el("p", { text: t("Log in to see your account.") })); return; }
  const email = el("input", { type: "email", name: "email", value: me.email || "", autocomplete: "email", maxlength: 254 });
  const notify = el("input", { type: "checkbox", name: "notify", checked: !!me.notify });
  const message = el("p", { role: "status" });
  const form = el("form", { class: "account-form", onsubmit: async (event) => {
    event.preventDefault();
    message.className = "";
    try {
      const saved = await api("PATCH", "/api/me", { email: email.value.trim() || null, notify: notify.checked });
      email.value = saved.email || "";
      notify.checked = saved.notify;
      message.textContent = t("Saved.");
    } catch (e) {
      message.className = "message";
      message.textContent = e.message;
    }
  } },
  el("label", {}, `${t("E-mail address")} `, email),
  el("label", {}, notify, ` ${t("Send me an e-mail when it is my turn")}`),
  el("button", { type: "submit", "data-action": "save", text: t("Save") }), message);

  const wanted = alertsWanted();
  const sound = el("input", { type: "checkbox", name: "sound", checked: wanted.sound });
  const notes = el("input", { type: "checkbox", name: "notifications", checked: wanted.notifications });
  const here = el("p", { role: "status" });
  const keep = async () => {
    if (notes.checked && globalThis.Notification && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") { notes.checked = false; here.textContent = t("This browser refused notifications."); }
    }
    setAlertsWanted({ sound: sound.checked, notifications: notes.checked });
  };
  sound.addEventListener("change", keep);
  notes.addEventListener("change", keep);
  page.append(form, el("h2", { text: t("In this browser") }),
    el("div", { class: "alerts" }, el("label", {}, sound, ` ${t("A sound when it is my turn")}`),
      el("label", {}, notes, ` ${t("A notification when it is my turn (this page not in front)")}`), here),
    el("p", {}, el("a", { href: `/users/${encodeURIComponent(me.name)}`, text: t("Your ratings and matches") })));
}
