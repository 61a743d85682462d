// The connection banner: shown while the socket is down, gone once it is back.
// It says what is happening and that nothing is lost, not how sockets work.

import { show } from "./dom.js";
import { gettext, interpolate } from "../i18n.js";

const BACK_MS = 1800;
const TEXT = {
  reconnecting: gettext("Connection lost — reconnecting… Your moves are safe."),
  offline: gettext("You’re offline — the race goes on and this page catches up once you’re back."),
  gone: gettext("This race can’t be found any more."),
};

export class ConnectionBanner {
  #node;
  #text;
  #timer = 0;
  #down = false;

  constructor(node) {
    this.#node = node;
    this.#text = node.querySelector(".race-banner-text");
  }

  update(state, { attempt = 0 } = {}) {
    clearTimeout(this.#timer);
    if (state === "open") {
      if (!this.#down) return;
      this.#down = false;
      this.#paint("back", gettext("Reconnected — you’re up to date."));
      this.#timer = setTimeout(() => show(this.#node, false), BACK_MS);
      return;
    }
    // The first connection gets a moment before we speak of trouble.
    if (state === "connecting" || (state === "reconnecting" && attempt === 0)) return;
    this.#down = true;
    const suffix = state === "reconnecting" && attempt > 2 ? interpolate(gettext(" (attempt %(n)s)"), { n: attempt }, true) : "";
    this.#paint(state, TEXT[state] + suffix);
  }

  #paint(kind, text) {
    this.#node.dataset.kind = kind;
    if (this.#text.textContent !== text) this.#text.textContent = text;
    show(this.#node, true);
  }
}
