// Reading the server's `legal` list. The board never judges a move itself: it
// only asks which tokens the server offered, and explains refusals in words.

import { parseCard, cardName } from "../cards.js";
import { capitalize, gettext, interpolate } from "../i18n.js";

export const SLOT_LETTERS = "abcdefgh";
export const SULTAN = 5; // foundation number that never takes a card

/** Where a source ("w" or a slot letter) may go right now, per `legal`. */
export function destinations(source, legal = []) {
  const out = [];
  for (const token of legal) {
    if (token.length !== 2 || token[0] !== source) continue;
    const to = token[1];
    if (to >= "1" && to <= "9") out.push({ token, kind: "foundation", id: to });
    else if (source === "w" && SLOT_LETTERS.includes(to)) out.push({ token, kind: "slot", id: to });
  }
  return out;
}

/** Tokens whose destination is foundation n, from any source. */
export const tokensTo = (n, legal = []) => legal.filter((t) => t.length === 2 && t[1] === String(n));

/** A foundation's top card → how many cards it holds and holds at most. */
export function foundationHeight(index, top) {
  const c = parseCard(top);
  if (!c || index === SULTAN - 1) return { count: 1, max: 1 };
  if (index === 1) return { count: c.value, max: 12 }; // the ace of hearts builds 2H…QH
  return { count: c.rank === "K" ? 1 : c.value + 1, max: 13 };
}

/** The card just under a foundation's top, to show the pile's thickness and to sit beneath a card in flight. */
export function cardBelow(index, top) {
  const c = parseCard(top);
  if (!c || foundationHeight(index, top).count < 2) return null;
  if (c.rank === "A") return `K${c.suit}`;
  return `${"A23456789TJQK"[c.value - 2]}${c.suit}`;
}

/** The card a source would move, from a view. */
export function sourceCard(source, view) {
  if (!view) return null;
  if (source === "w") return view.waste?.at(-1) ?? null;
  return view.reserve?.[SLOT_LETTERS.indexOf(source)] ?? null;
}

/** Why a dropped card cannot land on a target the server did not offer. */
export function refusal(source, target, view) {
  const card = sourceCard(source, view);
  if (!card) return gettext("Nothing to move");
  if (target.kind === "foundation") {
    const n = Number(target.id);
    if (n === SULTAN) return gettext("The Sultan never takes a card");
    const top = view.foundations?.[n - 1];
    const h = foundationHeight(n - 1, top);
    if (h.count >= h.max) return interpolate(gettext("Foundation %(n)s is complete"), { n }, true);
    return capitalize(interpolate(gettext("Foundation %(n)s doesn’t take the %(card)s"), { n, card: cardName(card) }, true));
  }
  if (target.kind === "slot") {
    const i = SLOT_LETTERS.indexOf(target.id);
    // PySolFC lets a reserve card change slots; here it does not, as it changes nothing (docs/rules.md).
    if (source !== "w" && !view.reserve?.[i] && String(view.variant).startsWith("pysolfc")) {
      return gettext("Reserve cards go to foundations only: the slots are all alike, so another slot would change nothing");
    }
    if (source !== "w") return gettext("Reserve cards go to foundations only");
    if (view.reserve?.[i]) return interpolate(gettext("Slot %(slot)s is taken"), { slot: target.id }, true);
    if (!String(view.variant).startsWith("pysolfc")) return gettext("Only the stock refills the divan");
    return capitalize(interpolate(gettext("The %(card)s can't go to slot %(slot)s"), { card: cardName(card), slot: target.id }, true));
  }
  return gettext("Not a place for a card");
}

/** "foundation:3" → {kind, id}; also "reserve:c", "waste", "stock". */
export function parseLocation(loc) {
  const [kind, id = null] = String(loc).split(":");
  return { kind, id };
}
