// Turning the server's move events into card flights and a few spoken words.
// The view is already painted when this runs: each event names where a card
// came from (measured before the repaint) and where it now stands.

import { cardName } from "../cards.js";
import { cardAt } from "./layout.js";
import { parseLocation } from "./moves.js";
import { flyFrom, STAGGER } from "./animate.js";

const STATUS_SAY = { won: "You won! All cards are home.", lost: "No moves left. Game over.", resigned: "You resigned." };

const place = (loc) => {
  const { kind, id } = parseLocation(loc);
  return kind === "foundation" ? `foundation ${id}` : kind === "reserve" ? `slot ${id}` : kind;
};
const lower = (code) => cardName(code).toLowerCase();

/** → { flights: Promise[], words: string, won: boolean } */
export function playEvents(dom, events, before, view) {
  const flights = [];
  const words = [];
  const moved = new Set();
  let delay = 0;
  let won = false;
  for (const e of events) {
    if (e.type === "move") {
      const node = cardAt(dom, e.to);
      moved.add(node);
      flights.push(flyFrom(node, before[e.from], { delay, turn: e.from === "stock" }));
      words.push(e.from === "stock" ? `Drew ${lower(e.card)}.` : `${cardName(e.card)} to ${place(e.to)}.`);
    } else if (e.type === "refill") {
      flights.push(flyFrom(cardAt(dom, `reserve:${e.slot}`), before.stock, { delay, turn: true }));
      words.push(`Slot ${e.slot} refilled: ${lower(e.card)}.`);
    } else if (e.type === "redeal") {
      flights.push(flyFrom(cardAt(dom, "stock"), before.waste, { delay }));
      const left = view.redeals_left;
      words.push(`Redealt ${e.cards} cards; ${left === 1 ? "1 redeal" : `${left} redeals`} left.`);
    } else if (e.type === "status") {
      words.push(STATUS_SAY[e.status] ?? "");
      won = e.status === "won";
      continue;
    } else continue;
    delay += STAGGER;
  }
  // Waste cards that stayed slide along the fan instead of jumping.
  for (const c of dom.waste.wrap.querySelectorAll("[data-waste-index]")) {
    const was = before.wasteCards.get(c.dataset.wasteIndex);
    if (was && !moved.has(c)) flights.push(flyFrom(c, was));
  }
  return { flights, words: words.filter(Boolean).join(" "), won };
}
