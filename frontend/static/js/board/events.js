// Turning the server's move events into card flights and a few spoken words.
// The view is already painted when this runs: each event names where a card
// came from (measured before the repaint) and where it now stands.

import { cardName, CardName } from "../cards.js";
import { gettext, interpolate, ngettext } from "../i18n.js";
import { cardAt } from "./layout.js";
import { parseLocation } from "./moves.js";
import { flyFrom, STAGGER } from "./animate.js";

const STATUS_SAY = {
  won: gettext("You won! All cards are home."),
  lost: gettext("No moves left. Game over."),
  resigned: gettext("You resigned."),
};

const place = (loc) => {
  const { kind, id } = parseLocation(loc);
  if (kind === "foundation") return interpolate(gettext("foundation %(n)s"), { n: id }, true);
  return kind === "reserve" ? interpolate(gettext("slot %(n)s"), { n: id }, true) : kind;
};

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
      words.push(e.from === "stock"
        ? interpolate(gettext("Drew %(card)s."), { card: cardName(e.card) }, true)
        : interpolate(gettext("%(card)s to %(place)s."), { card: CardName(e.card), place: place(e.to) }, true));
    } else if (e.type === "refill") {
      flights.push(flyFrom(cardAt(dom, `reserve:${e.slot}`), before.stock, { delay, turn: true }));
      words.push(interpolate(gettext("Slot %(slot)s refilled: %(card)s."), { slot: e.slot, card: cardName(e.card) }, true));
    } else if (e.type === "redeal") {
      flights.push(flyFrom(cardAt(dom, "stock"), before.waste, { delay }));
      const left = view.redeals_left;
      words.push(`${interpolate(ngettext("Redealt %s card;", "Redealt %s cards;", e.cards), [e.cards])} ${interpolate(ngettext("%s redeal left.", "%s redeals left.", left), [left])}`);
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
