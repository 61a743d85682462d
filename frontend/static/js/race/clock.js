// Time as the server counts it. Every deadline (the start, the end) is the
// server's; the page estimates the server's clock from each snapshot's
// `server_time`, so a phone whose clock is a minute off still counts down
// to the same moment as everyone else.

import { byId, show } from "./dom.js";
import { clockText, parseTime } from "../format.js";
import { gettext, interpolate } from "../i18n.js";

export class ServerClock {
  #offset = 0; // server time minus local time, in ms

  /** Called with a snapshot's server_time as it arrives. */
  sync(serverTimeIso) {
    const server = parseTime(serverTimeIso);
    if (server !== null) this.#offset = server - Date.now();
  }

  now() { return Date.now() + this.#offset; }
}

const URGENT_MS = 60_000;
const CRITICAL_MS = 10_000;
const GO_MS = 900;

/** The header's clock and the countdown over the table. */
export class ClockView {
  #label = byId("race-clock-label");
  #time = byId("race-clock-time");
  #box = byId("race-clock");
  #overlay = byId("race-countdown");
  #number = byId("countdown-number");
  #goUntil = 0;
  #lastSecond = null;

  /** Repaint for `phase` at server time `now`; cheap enough to run several times a second. */
  paint(phase, state, now) {
    let label = "";
    let time = "";
    let urgency = "";
    if (phase === "lobby") label = gettext("Lobby open");
    else if (phase === "countdown") {
      label = gettext("Starts in");
      time = String(Math.max(1, Math.ceil((state.startsAt - now) / 1000)));
    } else if (phase === "racing") {
      const left = (state.endsAt ?? now) - now;
      label = gettext("Time left");
      time = clockText(left);
      urgency = left <= CRITICAL_MS ? "critical" : left <= URGENT_MS ? "urgent" : "";
    } else if (phase === "finished") label = gettext("Race over");
    else if (phase === "closed") label = gettext("Lobby closed");
    this.#title(phase, time, state);
    this.#box.dataset.state = phase;
    this.#box.dataset.urgency = urgency;
    if (this.#label.textContent !== label) this.#label.textContent = label;
    if (this.#time.textContent !== time) this.#time.textContent = time;
    this.#paintCountdown(phase, state, now);
  }

  /** The tab's title carries the clock, for racers who glance at another tab. */
  #title(phase, time, state) {
    const code = state.race?.code ?? "";
    const head = phase === "racing" ? interpolate(gettext("%(time)s left · "), { time }, true)
      : phase === "countdown" ? gettext("Starting · ") : phase === "finished" ? gettext("Results · ") : "";
    const title = head + interpolate(gettext("Race %(code)s · Sultan"), { code }, true);
    if (document.title !== title) document.title = title;
  }

  #paintCountdown(phase, state, now) {
    if (phase === "countdown") {
      const second = Math.max(1, Math.ceil((state.startsAt - now) / 1000));
      if (second !== this.#lastSecond) {
        this.#lastSecond = second;
        this.#number.textContent = String(second);
        this.#number.dataset.tick = String(second % 2); // restarts the pop animation
      }
      this.#goUntil = state.startsAt + GO_MS;
      show(this.#overlay, true);
      this.#overlay.dataset.go = "false";
      return;
    }
    if (phase === "racing" && now < this.#goUntil) {
      if (this.#lastSecond !== 0) {
        this.#lastSecond = 0;
        this.#number.textContent = gettext("Go!");
        this.#number.dataset.tick = "go";
      }
      this.#overlay.dataset.go = "true";
      show(this.#overlay, true);
      return;
    }
    this.#lastSecond = null;
    show(this.#overlay, false);
  }
}
