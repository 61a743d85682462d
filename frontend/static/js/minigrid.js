// A thumbnail of an opponent's race: how tall each foundation is, nothing more.
// Race views never carry cards (racers share the deal), so this draws counts.

import { ensureSprite, suitSvg } from "./cards.js";
import { gettext, interpolate, pgettext } from "./i18n.js";

const SUITS = "DHDSHSCHC";
const STATUS = {
  playing: pgettext("race result", "Playing"),
  won: pgettext("race result", "Won"),
  lost: pgettext("race result", "Out of moves"),
  resigned: pgettext("race result", "Resigned"),
  timeout: pgettext("race result", "Out of time"),
};

/**
 * renderMiniGrid(element, raceView, { label }) — repaints element in place.
 * raceView: { foundations: [9 counts], cards_played, passes_used, status }
 */
export function renderMiniGrid(element, race, { label = "" } = {}) {
  ensureSprite(element.ownerDocument);
  const counts = race?.foundations ?? [];
  const status = race?.status ?? "playing";
  element.classList.add("sb-mini");
  element.dataset.status = status;
  const cells = counts.slice(0, 9).map((n, i) => {
    if (i === 4) return `<li class="sb-mini-cell is-sultan" aria-hidden="true"><svg class="sb-mini-turban" viewBox="0 0 100 100" focusable="false"><use href="#sc-orn-turban"/></svg></li>`;
    const max = i === 1 ? 12 : 13;
    const done = n >= max;
    const fill = Math.round((Math.min(n, max) / max) * 100);
    return `<li class="sb-mini-cell${done ? " is-done" : ""}" style="--fill:${fill}%" aria-hidden="true">${suitSvg(SUITS[i], "sb-mini-suit")}<b>${n}</b></li>`;
  });
  const played = race?.cards_played ?? 0;
  const pass = race?.passes_used ?? 1;
  const summary = (label ? `${label}: ` : "") + interpolate(gettext("%(played)s of 95 cards played, pass %(pass)s of 3, %(status)s."), { played, pass, status: STATUS[status] ?? status }, true);
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", `${summary} ${interpolate(gettext("Foundation heights: %(heights)s."), { heights: counts.map((n, i) => `${i + 1}: ${n}`).join(", ") }, true)}`);
  element.innerHTML = `${label ? `<div class="sb-mini-name">${escapeHtml(label)}</div>` : ""}<ol class="sb-mini-grid">${cells.join("")}</ol>`
    + `<div class="sb-mini-meta"><span><b>${played}</b>/95</span><span>${interpolate(gettext("Pass %(pass)s/3"), { pass }, true)}</span>${status === "playing" ? "" : `<span class="sb-mini-status">${STATUS[status] ?? status}</span>`}</div>`
    + `<div class="sb-mini-bar" style="--fill:${Math.round((played / 95) * 100)}%"></div>`;
  return element;
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
