// A tournament race's end, for its racer: the next race counted down, Pause (and Come
// back), and the racer carried into the next race without a click once the tournament
// seats them (docs/tournaments.md, "Carried into the next race"). The tournament socket
// opens only when the race is over: between races, as the tournament page's would be.

import { byId, show } from "./dom.js";
import { api } from "../api.js";
import { takenKey, watchStandings } from "../tournament-socket.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

const TICK_MS = 250;

export class TournamentNext {
  #root = byId("tournament-next");
  #me = Number(byId("race").dataset.player || 0);
  #paused = false;
  #over = false;
  #seated = null; // the next race's code, once the tournament has seated them
  #deadline = 0; // performance.now() at which the rest is over
  #started = false;
  #busy = false;
  #said = ""; // the last state told to screen readers: they hear changes, not every second

  constructor() {
    if (!this.#root) return; // not a racer of a tournament's latest race
    // This tab has shown them this race: the tournament page will not send them back.
    sessionStorage.setItem(takenKey(this.#root.dataset.tournament), this.#root.dataset.race);
    this.#paused = this.#root.dataset.paused === "true";
    this.#over = this.#root.dataset.over === "true";
    byId("tournament-pause").addEventListener("click", () => this.#ask("pause"));
    byId("tournament-resume").addEventListener("click", () => this.#ask("join"));
  }

  /** The race is over: the banner shows, and the carry is armed. */
  start() {
    if (!this.#root || this.#started) return;
    this.#started = true;
    this.#deadline = performance.now() + Number(this.#root.dataset.freeInMs || 0);
    show(this.#root, true);
    this.#render();
    setInterval(() => this.#render(), TICK_MS);
    watchStandings(this.#root.dataset.tournament, { onFrame: (frame) => this.#frame(frame) });
  }

  #frame(frame) {
    if (frame.phase === "ending" || frame.phase === "finished") this.#over = true;
    const mine = frame.rows.find((r) => r.player === this.#me);
    if (mine) this.#paused = mine.paused; // withdrawn by the server, or paused in another tab
    if (mine?.race && mine.race !== this.#root.dataset.race && !this.#seated) {
      this.#seated = mine.race;
      byId("tournament-go").href = `/r/${encodeURIComponent(mine.race)}/`;
      // Seated before a Pause took: the race counts, so it is offered, not forced.
      if (!this.#paused) location.assign(byId("tournament-go").href);
    }
    this.#render();
  }

  #state() {
    if (this.#seated) return this.#paused ? "offered" : "going";
    if (this.#over) return "over";
    if (this.#paused) return "paused";
    return performance.now() < this.#deadline ? "resting" : "waiting";
  }

  #render() {
    const state = this.#state();
    const left = Math.max(1, Math.ceil((this.#deadline - performance.now()) / 1000));
    const text = {
      going: gettext("Your next race is ready: taking you there…"),
      offered: gettext("You were seated in a race before your pause: it counts. Go to it."),
      over: gettext("The tournament is over: no more races. The final table is on its page."),
      paused: gettext("Paused: no new race seats you. Your points stay."),
      resting: interpolate(ngettext("Next race in %s second.", "Next race in %s seconds.", left), [left]),
      waiting: gettext("Next race as soon as enough racers are free…"),
    }[state];
    byId("tournament-next-text").textContent = text;
    this.#root.dataset.state = state;
    show(byId("tournament-pause"), state === "resting" || state === "waiting");
    show(byId("tournament-resume"), state === "paused");
    show(byId("tournament-go"), state === "offered" || state === "going");
    if (state !== this.#said) {
      this.#said = state;
      const live = state === "resting"
        ? interpolate(ngettext("The tournament seats you in its next race in %s second. Pause to stay out.", "The tournament seats you in its next race in %s seconds. Pause to stay out.", left), [left])
        : text;
      byId("tournament-next-live").textContent = live;
    }
  }

  /** Pause or Come back, over fetch: the page stays where it is. */
  async #ask(action) {
    if (this.#busy) return;
    this.#busy = true;
    const alert = byId("tournament-next-alert");
    const answer = await api(`/t/${encodeURIComponent(this.#root.dataset.tournament)}/${action}`, { method: "POST" });
    this.#busy = false;
    show(alert, !answer.ok);
    if (!answer.ok) {
      const message = answer.data?.message ?? "";
      alert.textContent = message ? `${message[0].toUpperCase()}${message.slice(1)}.` : "";
      return;
    }
    this.#paused = answer.data.paused;
    if (!this.#paused) this.#deadline = 0; // back in the queue now: no rest left
    this.#render();
  }
}
