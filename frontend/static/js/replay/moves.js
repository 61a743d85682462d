// The replay's move list: every event of the log in words, one button each.

import { suitSvg } from "../cards.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";

const card = (code) => `${code[0] === "T" ? "10" : code[0]}${suitSvg(code[1])}`;
// Short enough for a narrow column: the token beside it already names the move.
const place = (loc) => {
  const [kind, id] = loc.split(":");
  if (kind === "foundation") return interpolate(gettext("pile %(n)s"), { n: id }, true);
  return kind === "reserve" ? interpolate(gettext("slot %(n)s"), { n: id }, true) : kind;
};
const END = {
  won: pgettext("replay step", "won!"),
  lost: pgettext("replay step", "no moves left"),
  resigned: pgettext("replay step", "resigned"),
  timeout: pgettext("replay step", "time ran out"),
};

/** A short description of a step, as HTML (suit glyphs are inline SVG). */
export function describe(step) {
  const parts = [];
  for (const e of step.events) {
    if (e.type === "move" && e.from === "stock") parts.push(interpolate(gettext("drew %(card)s"), { card: card(e.card) }, true));
    else if (e.type === "move") parts.push(`${card(e.card)} → ${place(e.to)}`);
    else if (e.type === "refill") parts.push(interpolate(gettext("%(card)s to slot %(slot)s"), { card: card(e.card), slot: e.slot }, true));
    else if (e.type === "redeal") parts.push(interpolate(ngettext("redeal, %s card", "redeal, %s cards", e.cards), [e.cards]));
    else if (e.type === "undo") parts.push(gettext("took back a move"));
    else if (e.type === "status") parts.push(END[e.status] ?? e.status);
  }
  return parts.join(", ") || step.token || "";
}

/** Fill `list` with steps 1…n; `pick(i)` is called with the chosen step. */
export function createMoveList(list, steps, pick) {
  const items = [];
  const start = document.createElement("li");
  start.innerHTML = `<button type="button" class="mv" tabindex="-1" data-i="0"><span class="mv-n">0</span><span class="mv-t">—</span><span class="mv-d">${gettext("the deal")}</span></button>`;
  items.push(start.firstElementChild);
  const rows = [start];
  for (const step of steps.slice(1)) {
    const li = document.createElement("li");
    li.innerHTML = `<button type="button" class="mv" tabindex="-1" data-i="${step.seq}"><span class="mv-n">${step.seq}</span><span class="mv-t">${step.token}</span><span class="mv-d">${describe(step)}</span></button>`;
    items.push(li.firstElementChild);
    rows.push(li);
  }
  list.replaceChildren(...rows);
  list.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-i]");
    if (button) pick(Number(button.dataset.i));
  });
  let current = null;
  return {
    setCurrent(i) {
      current?.removeAttribute("aria-current");
      current = items[i] ?? null;
      if (!current) return;
      current.setAttribute("aria-current", "step");
      // Scroll the list only, never the page: the board must stay where it is.
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    },
  };
}
