// The other racers' panels: each a mini 3×3 grid of foundation heights with
// cards played, passes and status, repainted from `progress` broadcasts.
// Screen readers hear a short summary now and then, never a frame per move.

import { renderMiniGrid } from "../board.js";
import { byId, h, show } from "./dom.js";
import { hue } from "../format.js";
import { gettext, interpolate } from "../i18n.js";

const SAY_STATUS = {
  won: (name) => interpolate(gettext("%(name)s won!"), { name }, true),
  lost: (name) => interpolate(gettext("%(name)s is out of moves."), { name }, true),
  resigned: (name) => interpolate(gettext("%(name)s resigned."), { name }, true),
  timeout: (name) => interpolate(gettext("%(name)s ran out of time."), { name }, true),
};

export class OpponentsView {
  #list = byId("opp-list");
  #title = byId("others-title");
  #watching = byId("arena-watching");
  #announcer;
  #panels = new Map(); // player → li

  constructor({ announcer }) {
    this.#announcer = announcer;
  }

  /** Who to show: a racer sees the others; a spectator, and everyone once it is over, sees all. */
  render(state, { finished = false } = {}) {
    const others = state.isRacer && !finished;
    const shown = others ? state.others : state.racers;
    this.#title.textContent = finished ? gettext("Where everyone stopped") : others ? (shown.length === 1 ? gettext("Your opponent") : gettext("Opponents")) : gettext("Racers");
    show(this.#watching, !state.isRacer && !finished);
    const keep = new Set();
    const panels = shown.map((racer) => {
      keep.add(racer.player);
      const li = this.#panels.get(racer.player) ?? this.#create(racer);
      this.#paint(li, racer);
      return li;
    });
    for (const player of this.#panels.keys()) if (!keep.has(player)) this.#panels.delete(player);
    this.#list.replaceChildren(...panels);
    this.#list.dataset.count = String(panels.length);
  }

  /** One racer's progress changed: repaint their panel and queue a word about it. */
  progress(state, racer, previous) {
    const li = this.#panels.get(racer.player);
    if (li) this.#paint(li, racer);
    if (racer.player === state.me || !racer.progress) return;
    const now = racer.progress;
    const say = SAY_STATUS[now.status];
    if (say && now.status !== previous?.status) this.#announcer.say(racer.player, say(racer.nickname));
    else if (now.cards_played !== previous?.cards_played && now.status === "playing") {
      this.#announcer.say(racer.player, interpolate(gettext("%(name)s: %(played)s of 95."), { name: racer.nickname, played: now.cards_played }, true));
    }
  }

  #create(racer) {
    const li = h("li", { class: "opp", dataset: { player: racer.player }, style: `--hue:${hue(racer.nickname)}` },
      h("div", { class: "opp-grid" }),
      h("span", { class: "opp-away", hidden: true }, gettext("away")),
      // A challenge's recorded game: a live opponent replayed, named as such.
      racer.ghost ? h("span", { class: "opp-recorded" }, gettext("recorded")) : null,
      racer.bot ? h("span", { class: "opp-recorded is-bot", title: gettext("A program plays this seat") }, gettext("BOT")) : null);
    this.#panels.set(racer.player, li);
    return li;
  }

  #paint(li, racer) {
    const progress = racer.progress ?? { foundations: [1, 1, 1, 1, 1, 1, 1, 1, 1], cards_played: 0, passes_used: 1, status: "playing" };
    li.dataset.here = String(racer.here);
    li.dataset.status = progress.status;
    renderMiniGrid(li.querySelector(".opp-grid"), progress, { label: racer.nickname });
    show(li.querySelector(".opp-away"), !racer.here);
  }
}
