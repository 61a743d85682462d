// What the page knows of the race, built only from the server's messages.
// Every view draws from here; nothing in it is guessed on the client.

import { parseTime } from "../format.js";

export class RaceState {
  race = null; // the snapshot's `race`: code, status, host, times, seed, rematch…
  you = { player: null, role: "spectator", game: null };
  racers = []; // rows as in the protocol: player, nickname, host, ready, here, game, seq, progress
  results = null;

  get loaded() { return this.race !== null; }
  get me() { return this.you.player; }
  get isRacer() { return this.you.role === "racer"; }
  get isHost() { return this.race !== null && this.me !== null && this.race.host === this.me; }
  get startsAt() { return parseTime(this.race?.starts_at); }
  get endsAt() { return parseTime(this.race?.ends_at); }
  get others() { return this.racers.filter((r) => r.player !== this.me); }
  racer(player) { return this.racers.find((r) => r.player === player) ?? null; }

  /**
   * Where the page is: lobby, countdown (started, before starts_at), racing, finished.
   * `now` is the server's clock as the page estimates it.
   */
  phase(now) {
    const status = this.race?.status;
    if (status === "finished") return this.race.closed ? "closed" : "finished";
    if (status === "running") return this.startsAt !== null && now < this.startsAt ? "countdown" : "racing";
    return "lobby";
  }

  applySnapshot(message) {
    this.race = message.race;
    this.you = message.you;
    this.racers = this.#withGhosts(message.racers ?? []);
    this.results = message.results ?? null;
  }

  // A challenge's recorded game is a row the server never lists among the seats: keep it.
  #withGhosts(racers) {
    return [...racers, ...this.racers.filter((r) => r.ghost)];
  }

  /** A challenge's recorded game joins the racers (once). */
  addGhost(row) {
    if (!this.racer(row.player)) this.racers = [...this.racers, row];
  }

  /**
   * One racer's race view from a progress frame; ignored when older than what
   * we have (frames covering several versions may cross on the way).
   * Returns the row and its progress before, or null when nothing changed.
   */
  applyProgress({ player, seq, progress }) {
    const row = this.racer(player);
    if (!row || (row.seq ?? -1) >= seq) return null;
    const previous = row.progress;
    row.seq = seq;
    row.progress = progress;
    return { row, previous };
  }

  /** Who has a socket open (a presence message); returns the rows as they were. */
  applyPresence({ here }) {
    const before = new Map(this.racers.map((r) => [r.player, r]));
    const present = new Set(here);
    this.racers = this.racers.map((r) => ({ ...r, here: r.ghost || present.has(r.player) }));
    return before;
  }

  applyLobby({ racers }) {
    const before = new Map(this.racers.map((r) => [r.player, r]));
    this.racers = this.#withGhosts(racers);
    return before;
  }

  applyEnd({ race, results }) {
    this.race = { ...this.race, ...race };
    this.results = results;
  }

  /** The lobby closed before its start: nobody is seated any more. */
  applyClosed() {
    this.race = { ...this.race, status: "finished", closed: true };
    this.racers = [];
    this.you = { ...this.you, role: "spectator", game: null };
  }

  applyRematch({ code }) {
    if (this.race) this.race = { ...this.race, rematch: code };
  }
}
