// Polite, throttled announcements for screen readers. Races produce a frame
// per move per racer; reading each would drown the player's own game out.
// News is collected by subject (the latest word about each racer wins) and
// read out as one short summary at most once per interval.

export class Announcer {
  #region;
  #interval;
  #pending = new Map();
  #timer = 0;
  #lastAt = -Infinity;

  constructor(region, { interval = 5000 } = {}) {
    this.#region = region;
    this.#interval = interval;
  }

  /** Queue `text` about `subject`; a later word about the same subject replaces it. */
  say(subject, text) {
    if (!this.#region || !text) return;
    this.#pending.delete(subject); // re-inserted last: the summary reads in order of news
    this.#pending.set(subject, text);
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastAt + this.#interval - performance.now());
    this.#timer = setTimeout(() => this.#flush(), wait);
  }

  /** Drop what is queued (the page moved on and it no longer matters). */
  clear() {
    clearTimeout(this.#timer);
    this.#timer = 0;
    this.#pending.clear();
  }

  #flush() {
    this.#timer = 0;
    if (!this.#pending.size) return;
    const text = [...this.#pending.values()].join(" ");
    this.#pending.clear();
    this.#lastAt = performance.now();
    // Emptied first so that the same words twice are still read twice.
    this.#region.textContent = "";
    setTimeout(() => { this.#region.textContent = text; }, 40);
  }
}
