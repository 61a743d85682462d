// Turning the server's move events into card flights and a few spoken words.
// The view is already painted when this runs: each event names where a card
// came from (measured before the repaint) and where it now stands.

import { cardName } from "../cards.js";
import { capital } from "../format.js";
import { gettext, interpolate, ngettext, t } from "../i18n.js";
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
  return kind === "foundation" ? t(gettext("foundation %(n)s"), { n: id }) : kind === "reserve" ? t(gettext("slot %(s)s"), { s: id })
    : kind === "waste" ? gettext("the waste") : kind === "stock" ? gettext("the stock") : kind;
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
      const card = cardName(e.card);
      words.push(e.from === "stock" ? t(gettext("Drew the %(card)s."), { card })
        : capital(t(gettext("%(card)s to %(place)s."), { card, place: place(e.to) })) + (e.automatic ? ` ${gettext("(automatic)")}` : ""));
    } else if (e.type === "refill") {
      flights.push(flyFrom(cardAt(dom, `reserve:${e.slot}`), before.stock, { delay, turn: true }));
      words.push(t(gettext("Slot %(s)s refilled: the %(card)s."), { s: e.slot, card: cardName(e.card) }));
    } else if (e.type === "redeal") {
      flights.push(flyFrom(cardAt(dom, "stock"), before.waste, { delay }));
      const left = view.redeals_left;
      words.push(interpolate(ngettext("Redealt %(cards)s cards; %(left)s redeal left.", "Redealt %(cards)s cards; %(left)s redeals left.", left), { cards: e.cards, left }, true));
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
