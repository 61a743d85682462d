// The site socket (/ws/site/, docs/protocol.md "The site socket"), on every page of
// a logged-in player: invitations arrive as a toast with Accept / Decline, and
// friends' presence dots ([data-presence="<username>"]) follow them coming and going.
// The line itself — versions, gaps, sync, reconnecting, pings — is the race
// socket's client (race/socket.js): the site socket keeps the same conventions.

import { RaceSocket } from "./race/socket.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

const toasts = document.getElementById("site-toasts");
const live = document.getElementById("site-live"); // a polite live region: what arrives is read out
const shown = new Map(); // invitation id → its toast
let answers = 0;
let before = null; // where focus was when Alt+I took it to an invitation, to give it back

/** Read `text` out to screen readers (a live region only speaks what changes in it). */
function say(text) {
  if (!live) return;
  live.textContent = "";
  requestAnimationFrame(() => { live.textContent = text; });
}

function el(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function note(text) {
  const toast = el("div", { className: "site-toast is-note", role: "status" }, [el("p", { textContent: text })]);
  const close = el("button", { type: "button", className: "btn btn-small btn-quiet", textContent: gettext("Close") });
  close.addEventListener("click", () => toast.remove());
  toast.append(close);
  toasts.append(toast);
  say(text);
  setTimeout(() => toast.remove(), 8000);
}

function drop(id) {
  const toast = shown.get(id);
  if (!toast) return;
  const focused = toast.contains(document.activeElement);
  toast.remove();
  shown.delete(id);
  if (focused) {
    if (before?.isConnected) before.focus();
    else document.getElementById("main")?.focus();
  }
  if (focused || !shown.size) before = null;
}

function invitationText(inv) {
  const minutes = Math.round(inv.time_limit_s / 60);
  const settings = interpolate(ngettext("%(variant)s, %(minutes)s minute", "%(variant)s, %(minutes)s minutes", minutes),
    { variant: inv.variant_label, minutes }, true);
  const auto = inv.automatic_moves ? ` · ${gettext("automatic moves")}` : "";
  return interpolate(gettext("%(name)s invites you to a race: %(settings)s"), { name: inv.from, settings }, true) + auto;
}

function showInvitation(inv) {
  const left = inv.expires_at - Date.now();
  if (shown.has(inv.id) || left <= 0) return;
  const accept = el("button", { type: "button", className: "btn btn-small btn-primary", textContent: gettext("Accept") });
  const decline = el("button", { type: "button", className: "btn btn-small", textContent: gettext("Decline") });
  const text = invitationText(inv);
  const toast = el("div", { className: "site-toast", role: "group", ariaLabel: gettext("Invitation") }, [
    el("p", { textContent: text }),
    el("p", { className: "site-toast-keys", textContent: gettext("Alt+I: answer · Escape: decline") }),
    el("div", { className: "site-toast-actions" }, [accept, decline]),
  ]);
  toast.dataset.invitation = String(inv.id);
  let answered = false;
  const answer = (yes) => {
    if (answered) return; // once: Escape after a click (or twice) asks nothing more
    answered = true;
    accept.disabled = decline.disabled = true;
    answers += 1;
    socket.request({ type: "answer", id: `answer-${inv.id}-${answers}`, invitation: inv.id, accept: yes });
  };
  accept.addEventListener("click", () => answer(true));
  decline.addEventListener("click", () => answer(false));
  // Escape declines only from inside the invitation: focus goes there by Alt+I, never by itself.
  toast.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    answer(false);
  });
  shown.set(inv.id, toast);
  toasts.append(toast);
  say(`${text}. ${gettext("Press Alt+I to answer it.")}`);
  setTimeout(() => drop(inv.id), left);
}

/** Alt+I: to the newest invitation's Accept (again: back where you were). */
function onKey(e) {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== "KeyI") return;
  const newest = [...shown.values()].at(-1);
  if (!newest) return;
  e.preventDefault();
  if (newest.contains(document.activeElement)) {
    (before?.isConnected ? before : document.getElementById("main"))?.focus();
    before = null;
    return;
  }
  before = document.activeElement;
  newest.querySelector("button:not(:disabled)")?.focus();
}

const CLOSED = {
  accepted: () => gettext("%(name)s accepted your invitation."),
  declined: () => gettext("%(name)s declined your invitation, thank you for asking."),
  expired: () => gettext("Your invitation to %(name)s has expired without an answer."),
};

function setOnline(username, online) {
  for (const dot of document.querySelectorAll(`[data-presence="${CSS.escape(username)}"]`)) {
    dot.classList.toggle("is-online", online);
    dot.setAttribute("aria-label", online ? gettext("online") : gettext("offline"));
  }
}

function onMessage(message) {
  switch (message.type) {
    case "snapshot":
      for (const id of [...shown.keys()]) if (!message.invitations.some((i) => i.id === id)) drop(id);
      message.invitations.forEach(showInvitation);
      for (const dot of document.querySelectorAll("[data-presence]")) {
        setOnline(dot.dataset.presence, message.online.includes(dot.dataset.presence));
      }
      break;
    case "invitation":
      showInvitation(message.invitation);
      break;
    case "invitation_closed":
      drop(message.id);
      // The invitee's own answer is no news to them: the tab that answered says so, once (ack).
      if (message.side === "invitee") {
        if (message.status === "expired") note(gettext("An invitation expired without an answer."));
        break;
      }
      note(interpolate(CLOSED[message.status]?.() ?? CLOSED.declined(), { name: message.who }, true));
      break;
    case "friend":
      setOnline(message.player, message.online);
      break;
    case "ack":
      if (message.accepted) window.location.assign(message.url);
      else {
        drop(message.invitation);
        note(gettext("Invitation declined."));
      }
      break;
    case "reject":
      note(message.message);
      break;
    default:
  }
}

const scheme = window.location.protocol === "https:" ? "wss" : "ws";
// The socket's state on <html data-site-socket>: for the eye of tests and styles.
const onState = (state) => { document.documentElement.dataset.siteSocket = state; };
const socket = new RaceSocket(`${scheme}://${window.location.host}/ws/site/`, { onMessage, onState });
socket.open();
document.addEventListener("keydown", onKey);
window.addEventListener("pagehide", () => socket.stop());
