// The end of a race: the server's ranking (computed from the games' logs),
// the deal revealed, a replay for every racer and the way to a rematch; for a
// signed-in racer, their head-to-head record beside each other racer, asked
// once the race is over (/api/races/<code>/head-to-head: the end message stays small).

import { byId, h, show } from "./dom.js";
import { RESULT_TEXT, durationText, durationWords, hue, initial, ordinal } from "../format.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

export class ResultsView {
  #send;
  #section = byId("race-results");
  #body = byId("results-table").tBodies[0];
  #deal = byId("results-deal");
  #dealLabel = byId("race-deal-label");
  #rematch = byId("results-rematch");
  #link = byId("results-rematch-link");
  #alert = byId("results-alert");
  #challenge = byId("results-challenge");
  // A daily attempt or a challenge is a race of one: no rematch, but a challenge to offer.
  // A tournament's race has none either: the tournament seats its racers in the next.
  #solo = byId("race").dataset.solo === "true" || byId("race-tournament") !== null;
  #asked = false; // this page asked for the rematch: it goes there once it exists
  #isRacer = false;
  #headToHead = byId("race").dataset.headToHead === "true";
  #records = null; // player id → record, once asked (null: not yet, or refused)
  #recordsAsked = false;

  constructor({ send }) {
    this.#send = send;
    this.#rematch.addEventListener("click", () => this.#askRematch());
    this.#link.addEventListener("click", (event) => this.#joinRematch(event));
  }

  render(state, variantLabel) {
    const { race, results } = state;
    this.#body.replaceChildren(...(results ?? []).map((row) => this.#row(row, state)));
    if (race.seed != null) {
      const code = race.deal_code ?? `#${race.seed}`; // a secret deal's short code, else its number
      this.#deal.replaceChildren(
        race.open_deal ? h("span", { class: "r-tag is-open" }, gettext("open deal")) : "",
        interpolate(gettext("%(variant)s · deal "), { variant: variantLabel }, true),
        // The short code on show; the seed itself (for a record or a practice game) on hover.
        h("strong", { class: "results-seed", title: interpolate(gettext("seed %(seed)s"), { seed: race.seed }, true) }, code),
      );
      this.#dealLabel.textContent = interpolate(race.open_deal ? gettext("Open deal #%(deal)s") : race.winnable_deal ? gettext("Winnable deal #%(deal)s") : gettext("Deal #%(deal)s"), { deal: race.deal_code ?? race.seed }, true);
    }
    const rematch = race.rematch ?? null;
    this.#isRacer = state.isRacer;
    show(this.#link, Boolean(rematch));
    if (rematch) {
      this.#link.href = `/r/${encodeURIComponent(rematch)}/`;
      this.#link.textContent = this.#asked ? gettext("Going to the rematch…") : gettext("Rematch ready — join");
      // The server has seated this racer (`race_rematch` joins an asker): one click is enough.
      if (this.#asked) window.location.assign(this.#link.href);
    }
    show(this.#rematch, state.isRacer && !rematch && !this.#solo);
    const mine = state.isRacer ? state.you.game?.id : null;
    if (mine) this.#challenge.action = `/games/${mine}/challenge`;
    show(this.#challenge, Boolean(mine));
    this.#rematch.removeAttribute("aria-busy");
    this.#rematch.textContent = gettext("Rematch");
    show(this.#section, true);
    if (this.#headToHead && race.status === "finished" && !this.#recordsAsked) this.#askRecords();
  }

  async #askRecords() {
    this.#recordsAsked = true;
    const code = encodeURIComponent(byId("race").dataset.code);
    try {
      const answer = await fetch(`/api/races/${code}/head-to-head`, { headers: { Accept: "application/json" } });
      if (!answer.ok) return; // refused (signed out meanwhile): the results stand without
      const { records } = await answer.json();
      this.#records = new Map(records.map((record) => [record.player, record]));
    } catch {
      return; // offline: the records are extras, the results are whole without them
    }
    for (const tr of this.#body.rows) {
      const record = tr.dataset.ghost ? null : this.#records.get(Number(tr.dataset.player));
      if (record) tr.querySelector(".results-name").append(recordLink(record));
    }
  }

  showError(message) {
    this.#alert.textContent = message ? message[0].toUpperCase() + message.slice(1) + "." : "";
    show(this.#alert, Boolean(message));
    this.#rematch.removeAttribute("aria-busy");
    this.#rematch.textContent = gettext("Rematch");
    this.#asked = false;
    this.#link.removeAttribute("aria-busy");
    this.#link.textContent = gettext("Rematch ready — join");
  }

  /** A racer joins the rematch from here; anyone else (or offline) follows the link to its lobby. */
  #joinRematch(event) {
    if (!this.#isRacer || this.#asked) return;
    if (!this.#send({ type: "rematch" })) return;
    event.preventDefault();
    this.#asked = true;
    this.#link.setAttribute("aria-busy", "true");
    this.#link.textContent = gettext("Joining the rematch…");
  }

  #askRematch() {
    if (this.#rematch.getAttribute("aria-busy") === "true") return;
    if (!this.#send({ type: "rematch" })) {
      this.showError(gettext("not connected right now; try again in a moment"));
      return;
    }
    this.#asked = true;
    this.#rematch.setAttribute("aria-busy", "true");
    this.#rematch.textContent = gettext("Opening the rematch…");
  }

  #row(row, state) {
    const you = row.player === state.me && !row.ghost;
    const podium = row.rank <= 3 ? ` is-podium is-rank-${row.rank}` : "";
    const label = RESULT_TEXT[row.status] ?? row.status;
    const record = row.ghost ? null : this.#records?.get(row.player);
    return h("tr", { class: you ? "is-you" : null, dataset: { player: row.player, status: row.status, ...(row.ghost ? { ghost: "true" } : {}) } },
      h("td", { class: "results-rank" },
        h("span", { class: `rank-badge${podium}`, "aria-label": ordinal(row.rank) }, String(row.rank))),
      h("th", { scope: "row", class: "results-name" },
        h("span", { class: "lobby-avatar is-small", "aria-hidden": "true", style: `--hue:${hue(row.nickname)}` }, initial(row.nickname)),
        h("span", {}, row.nickname),
        you ? h("span", { class: "r-tag is-you" }, gettext("you")) : null,
        row.ghost ? h("span", { class: "r-tag" }, gettext("recorded")) : null,
        row.bot ? h("span", { class: "r-tag is-bot", title: gettext("A program plays this seat") }, gettext("BOT")) : null,
        // Phones have no room for the result column: the result rides under the name.
        h("span", { class: `status-pill is-${row.status} results-inline` }, label),
        record ? recordLink(record) : null),
      h("td", { class: "results-result" }, h("span", { class: `status-pill is-${row.status}` }, label)),
      h("td", { class: "is-num" }, h("b", {}, String(row.cards_played)), h("span", { class: "of" }, "/95")),
      h("td", { class: "is-num" }, h("time", { datetime: isoDuration(row.time_ms), "aria-label": durationWords(row.time_ms) }, durationText(row.time_ms))),
      h("td", { class: "is-num results-moves" }, String(row.moves)),
      h("td", { class: "results-replay" },
        h("a", { class: "r-link", href: `/games/${row.game}/replay/`, "aria-label": interpolate(gettext("Replay of %(name)s’s game"), { name: row.nickname }, true) }, gettext("Replay"))),
    );
  }
}

/** "You 3 – 2 ann · 5 races", to the profile's head-to-head. */
function recordLink({ you, them, races, nickname, url }) {
  const text = interpolate(
    ngettext("You %(you)s – %(them)s %(name)s · %(races)s race", "You %(you)s – %(them)s %(name)s · %(races)s races", races),
    { you, them, name: nickname, races },
    true,
  );
  return h("a", { class: "results-h2h", href: url, title: gettext("Head to head") }, text);
}

/** The <time> element's machine form of a duration: "PT245.2S". */
function isoDuration(ms) {
  return ms == null ? null : `PT${(ms / 1000).toFixed(1)}S`;
}
