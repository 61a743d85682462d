// The lobby: who is seated and who is here, ready marks, the host's start,
// the share link. Every mark comes from the server's `lobby` broadcasts; a
// button press only asks, and the list changes when the server says so.

import { byId, h, show } from "./dom.js";
import { hue, initial } from "../format.js";
import { andList, gettext, interpolate, ngettext, pgettext } from "../i18n.js";

const MIN_RACERS = 2; // as the server's race_start requires
const COPIED_MS = 2500;

export class LobbyView {
  #send;
  #announcer;
  #list = byId("lobby-list");
  #count = byId("lobby-count");
  #waiting = byId("lobby-waiting");
  #join = byId("lobby-join");
  #controls = byId("lobby-controls");
  #start = byId("lobby-start");
  #ready = byId("lobby-ready");
  #leave = byId("lobby-leave");
  #close = byId("lobby-close");
  #hint = byId("lobby-hint");
  #alert = byId("lobby-alert");
  #title = byId("lobby-actions-title");
  #shareNote = byId("share-note");
  #state = null;
  #known = null; // player ids drawn last time, to tell arrivals apart

  constructor({ send, announcer }) {
    this.#send = send;
    this.#announcer = announcer;
    this.#ready.addEventListener("click", () => this.#toggleReady());
    this.#start.addEventListener("click", () => this.#askStart());
    this.#leave.addEventListener("click", () => this.#ask({ type: "leave" }, this.#leave));
    // The button is a form's (POST /r/<code>/close); with the socket open it goes that way.
    this.#close.addEventListener("click", (e) => {
      e.preventDefault();
      this.#ask({ type: "close" }, this.#close);
    });
    byId("share-copy").addEventListener("click", () => this.#copy());
    byId("share-link").addEventListener("focus", (e) => e.target.select());
  }

  render(state, { connected = true } = {}) {
    this.#state = state;
    const racers = state.racers;
    this.#paintList(state);
    this.#count.textContent = `${racers.length} / ${state.race.seat_limit}`;
    this.#count.setAttribute("aria-label", interpolate(ngettext("%(racers)s of %(seats)s seat taken", "%(racers)s of %(seats)s seats taken", state.race.seat_limit), { racers: racers.length, seats: state.race.seat_limit }, true));
    show(this.#waiting, false);

    show(this.#join, !state.isRacer);
    show(this.#controls, state.isRacer);
    this.#title.textContent = state.isRacer ? (state.isHost ? gettext("You’re the host") : gettext("Ready to race?")) : gettext("Join this race");
    if (state.race.public) this.#paintPublic(state);
    else if (state.isRacer) this.#paintControls(state, connected);
  }

  /** Tell screen readers (and the list's animation) who came, went, got ready. */
  noteChanges(before, state) {
    for (const racer of state.racers) {
      const was = before.get(racer.player);
      const name = racer.player === state.me ? null : racer.nickname;
      if (!name) continue;
      if (!was) this.#announcer.say(racer.player, interpolate(gettext("%(name)s joined the race."), { name }, true));
      else if (was.ready !== racer.ready) this.#announcer.say(racer.player, interpolate(racer.ready ? gettext("%(name)s is ready.") : gettext("%(name)s is not ready any more."), { name }, true));
      else if (was.here !== racer.here) this.#announcer.say(racer.player, interpolate(racer.here ? gettext("%(name)s is back.") : gettext("%(name)s went away."), { name }, true));
    }
    for (const [player, was] of before) {
      if (player !== state.me && !state.racer(player)) this.#announcer.say(player, interpolate(gettext("%(name)s left the race."), { name: was.nickname }, true));
    }
  }

  /** A refusal from the server (full, too_few, not_host…), in its own words. */
  showError(message) {
    this.#alert.textContent = message ? message[0].toUpperCase() + message.slice(1) + "." : "";
    show(this.#alert, Boolean(message));
    for (const b of [this.#ready, this.#start, this.#leave, this.#close]) b.removeAttribute("aria-busy");
  }

  #paintList(state) {
    const fresh = this.#known !== null;
    const rows = state.racers.map((racer) => {
      const you = racer.player === state.me;
      const hosting = racer.host && !state.race.public; // a public race has no host
      const tags = [
        you && h("span", { class: "r-tag is-you" }, gettext("you")),
        hosting && h("span", { class: "r-tag is-host" }, gettext("host")),
        // A program's account (docs/api.md, "Bots"): named as such wherever its name shows.
        racer.bot && h("span", { class: "r-tag is-bot", title: gettext("A program plays this seat") }, gettext("BOT")),
      ];
      const mark = hosting
        ? h("span", { class: "lobby-mark is-host" }, gettext("Hosting"))
        : state.race.public
          ? h("span", { class: "lobby-mark is-ready" }, gettext("Seated"))
          : racer.ready
            ? h("span", { class: "lobby-mark is-ready" }, h("span", { class: "r-tick", "aria-hidden": "true" }), pgettext("racer", "Ready"))
            : h("span", { class: "lobby-mark" }, gettext("Not ready"));
      return h(
        "li",
        {
          class: `lobby-racer${fresh && !this.#known.has(racer.player) ? " is-new" : ""}`,
          dataset: { player: racer.player, here: String(racer.here), ready: String(racer.ready) },
        },
        h("span", { class: "lobby-avatar", "aria-hidden": "true", style: `--hue:${hue(racer.nickname)}` }, initial(racer.nickname)),
        h("span", { class: "lobby-who" },
          h("span", { class: "lobby-name" }, racer.nickname), ...tags,
          h("span", { class: "lobby-presence" }, h("span", { class: "r-dot", "aria-hidden": "true" }), racer.here ? gettext("here") : gettext("away"))),
        mark,
      );
    });
    const open = state.race.seat_limit - state.racers.length;
    if (open > 0) {
      rows.push(h("li", { class: "lobby-open" },
        h("span", { class: "lobby-avatar is-open", "aria-hidden": "true" }, "+"),
        interpolate(ngettext("%s open seat — anyone with the link can join", "%s open seats — anyone with the link can join", open), [open])));
    }
    this.#list.replaceChildren(...rows);
    this.#known = new Set(state.racers.map((r) => r.player));
  }

  #paintControls(state, connected) {
    const me = state.racer(state.me);
    const seated = state.racers.length;
    const waitingFor = state.racers.filter((r) => !r.host && !r.ready).map((r) => r.nickname);
    show(this.#start, state.isHost);
    show(this.#ready, !state.isHost);
    show(this.#leave, !state.isHost);
    show(this.#close, state.isHost); // the host's way out: the lobby closes with them
    let hint;
    if (state.isHost) {
      const canStart = seated >= MIN_RACERS && connected;
      this.#start.setAttribute("aria-disabled", String(!canStart));
      if (!connected) hint = gettext("Reconnecting…");
      else if (seated < MIN_RACERS) hint = gettext("You need at least one more racer: send them the link below.");
      else if (waitingFor.length) hint = interpolate(ngettext("%(names)s isn’t ready yet — you can start anyway.", "%(names)s aren’t ready yet — you can start anyway.", waitingFor.length), { names: andList(waitingFor) }, true);
      else hint = gettext("Everyone’s ready. Start when you are!");
    } else {
      const ready = Boolean(me?.ready);
      this.#ready.setAttribute("aria-pressed", String(ready));
      this.#ready.removeAttribute("aria-busy");
      this.#ready.querySelector("span:last-child").textContent = ready ? gettext("Ready!") : gettext("I’m ready");
      hint = ready ? gettext("The host starts the race. Keep this page open.") : gettext("Mark yourself ready so the host knows.");
    }
    this.#start.removeAttribute("aria-busy");
    this.#hint.textContent = hint;
  }

  /** A public race has no host to start it: it counts down once a second racer is in. */
  #paintPublic(state) {
    this.#title.textContent = state.isRacer ? gettext("Waiting for racers") : gettext("Join this race");
    show(this.#start, false);
    show(this.#ready, false);
    show(this.#leave, state.isRacer);
    show(this.#close, false);
    this.#hint.textContent = gettext(
      "A public race: the countdown starts as soon as a second racer is in, and more may join until it ends. Keep this page open.",
    );
  }

  #toggleReady() {
    const me = this.#state?.racer(this.#state.me);
    if (!me) return;
    this.#ask({ type: "ready", ready: !me.ready }, this.#ready);
  }

  #askStart() {
    if (this.#start.getAttribute("aria-disabled") === "true") {
      this.#hint.classList.remove("is-nudged");
      void this.#hint.offsetWidth; // restart the nudge animation
      this.#hint.classList.add("is-nudged");
      return;
    }
    this.#ask({ type: "start" }, this.#start);
  }

  #ask(message, button) {
    if (button.getAttribute("aria-busy") === "true") return;
    this.showError("");
    if (!this.#send(message)) {
      this.showError(gettext("not connected to the race right now; try again in a moment"));
      return;
    }
    button.setAttribute("aria-busy", "true");
  }

  async #copy() {
    const input = byId("share-link");
    const url = input.value;
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(url);
        copied = true;
      }
    } catch { /* refused (no permission, no focus): fall through to the old way */ }
    if (!copied) {
      input.focus();
      input.select();
      try { copied = document.execCommand("copy"); } catch { copied = false; }
    }
    this.#shareNote.textContent = copied ? gettext("Link copied — paste it to your friends.") : gettext("Press Ctrl+C (⌘C) to copy the selected link.");
    clearTimeout(this.#shareNote.timer);
    this.#shareNote.timer = setTimeout(() => { this.#shareNote.textContent = ""; }, copied ? COPIED_MS : COPIED_MS * 3);
  }
}
