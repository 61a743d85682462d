// A challenge's recorded game as a live opponent: the server sends its race
// views over time (heights and counts, never a card, `race_ghost` in
// games/races/selectors.py); this plays them on the race's clock, through the
// same state and opponents' panel as a live racer's progress broadcasts.

import { frameAt } from "../replay/race.js";

export class Ghost {
  #ghost; // the snapshot's `ghost`: player (a key no real player has), nickname, frames
  #shown = null; // the frame last shown

  constructor(ghost) {
    this.#ghost = ghost;
  }

  get player() { return this.#ghost.player; }

  /** The racer row the opponents' panel draws, as a live racer's. */
  row() {
    return {
      player: this.#ghost.player,
      nickname: this.#ghost.nickname,
      host: false, ready: true, here: true, game: null, ghost: true, seq: -1,
      progress: this.#view(this.#shown ?? this.#ghost.frames[0]),
    };
  }

  /**
   * The view at race time `t` ms (the end of the log once the race is over)
   * with the frame's index as its seq, or null when unchanged.
   */
  at(t) {
    const frame = frameAt(this.#ghost, t);
    if (frame === this.#shown) return null;
    this.#shown = frame;
    return { seq: this.#ghost.frames.indexOf(frame), progress: this.#view(frame) };
  }

  #view(frame) {
    const { t, ...view } = frame;
    return view;
  }
}
