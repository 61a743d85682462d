// The replay's move list: every event of the log in words, one button each.

import { suitSvg } from "../cards.js";

const card = (code) => `${code[0] === "T" ? "10" : code[0]}${suitSvg(code[1])}`;
// Short enough for a narrow column: the token beside it already names the move.
const place = (loc) => {
  const [kind, id] = loc.split(":");
  return kind === "foundation" ? `pile ${id}` : kind === "reserve" ? `slot ${id}` : kind;
};
const END = { won: "won!", lost: "no moves left", resigned: "resigned", timeout: "time ran out" };

/** A short description of a step, as HTML (suit glyphs are inline SVG). */
export function describe(step) {
  const parts = [];
  for (const e of step.events) {
    if (e.type === "move" && e.from === "stock") parts.push(`drew ${card(e.card)}`);
    else if (e.type === "move") parts.push(`${card(e.card)} → ${place(e.to)}`);
    else if (e.type === "refill") parts.push(`${card(e.card)} to slot ${e.slot}`);
    else if (e.type === "redeal") parts.push(`redeal, ${e.cards} cards`);
    else if (e.type === "undo") parts.push("took back a move");
    else if (e.type === "status") parts.push(END[e.status] ?? e.status);
  }
  return parts.join(", ") || step.token || "";
}

/** Fill `list` with steps 1…n; `pick(i)` is called with the chosen step. */
export function createMoveList(list, steps, pick) {
  const items = [];
  const start = document.createElement("li");
  start.innerHTML = `<button type="button" class="mv" tabindex="-1" data-i="0"><span class="mv-n">0</span><span class="mv-t">—</span><span class="mv-d">the deal</span></button>`;
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
