// Card faces drawn as inline SVG, so they scale crisply from a 360px phone to a
// desktop and never depend on a font having suit glyphs (emoji fallbacks vary).
// Suit and ornament shapes live once in a hidden sprite; each card <use>s them.

import { capitalize, gettext, interpolate, pgettext } from "./i18n.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";

// Cards named as players say them: "queen of spades", «дама пик».
const RANK_WORD = {
  A: pgettext("card rank", "ace"), 2: pgettext("card rank", "two"), 3: pgettext("card rank", "three"),
  4: pgettext("card rank", "four"), 5: pgettext("card rank", "five"), 6: pgettext("card rank", "six"),
  7: pgettext("card rank", "seven"), 8: pgettext("card rank", "eight"), 9: pgettext("card rank", "nine"),
  T: pgettext("card rank", "ten"), J: pgettext("card rank", "jack"), Q: pgettext("card rank", "queen"),
  K: pgettext("card rank", "king"),
};
// The suit as it follows a rank ("of clubs"; in Russian the genitive, «треф»).
const SUIT_WORD = {
  C: pgettext("card of suit", "clubs"), D: pgettext("card of suit", "diamonds"),
  H: pgettext("card of suit", "hearts"), S: pgettext("card of suit", "spades"),
};
const RANK_INDEX = { T: "10" };
const SPRITE_ID = "sultan-card-sprite";

// 100×100 boxes; the shapes are hand-drawn to read well when tiny.
const SYMBOLS = {
  "suit-H": `<path d="M50 90C22 68 4 50 4 30 4 15 15 5 28.5 5 38 5 45.5 10.5 50 19 54.5 10.5 62 5 71.5 5 85 5 96 15 96 30 96 50 78 68 50 90Z"/>`,
  "suit-D": `<path d="M50 3C61 20 74 36 90 50 74 64 61 80 50 97 39 80 26 64 10 50 26 36 39 20 50 3Z"/>`,
  "suit-S": `<path d="M50 4C60 24 95 38 95 62 95 76 85 84 73 84 64 84 57.5 79.5 54 73 55 83 59 91 67 96H33C41 91 45 83 46 73 42.5 79.5 36 84 27 84 15 84 5 76 5 62 5 38 40 24 50 4Z"/>`,
  "suit-C": `<circle cx="50" cy="27" r="20"/><circle cx="26" cy="58" r="20"/><circle cx="74" cy="58" r="20"/><circle cx="50" cy="52" r="12"/><path d="M46 52C46 74 42 87 33 96H67C58 87 54 74 54 52Z"/>`,
  // Ornaments for the court cards: crown (king), tiara (queen), plumed cap (jack).
  "orn-K": `<path d="M12 78 8 30 30 52 50 14 70 52 92 30 88 78Z" fill="#e3b341" stroke="currentColor" stroke-width="4" stroke-linejoin="round"/><rect x="10" y="78" width="80" height="12" rx="3" fill="#e3b341" stroke="currentColor" stroke-width="4"/><circle cx="8" cy="28" r="6"/><circle cx="50" cy="12" r="7"/><circle cx="92" cy="28" r="6"/><circle cx="50" cy="62" r="7" fill="#fff" stroke="currentColor" stroke-width="3"/>`,
  "orn-Q": `<path d="M14 84Q12 54 22 40 36 62 50 28 64 62 78 40 88 54 86 84Z" fill="#e3b341" stroke="currentColor" stroke-width="4" stroke-linejoin="round"/><circle cx="22" cy="36" r="6"/><circle cx="50" cy="22" r="7"/><circle cx="78" cy="36" r="6"/><path d="M20 74Q50 62 80 74" fill="none" stroke="currentColor" stroke-width="3"/>`,
  "orn-J": `<path d="M16 84Q14 56 48 50 82 50 84 84Z" fill="#e3b341" stroke="currentColor" stroke-width="4" stroke-linejoin="round"/><path d="M54 52C58 28 74 12 96 6 82 20 74 34 66 54Z" fill="currentColor"/><circle cx="50" cy="68" r="6" fill="#fff" stroke="currentColor" stroke-width="3"/>`,
  // The Sultan's turban: wrapped dome, jewel and plume.
  "orn-turban": `<path d="M50 4C58 10 64 4 66 12 62 16 56 18 52 22Z" fill="#f6e7b0"/><path d="M50 20C66 26 92 38 92 62 92 76 74 84 50 84 26 84 8 76 8 62 8 38 34 26 50 20Z" fill="#f8f1df" stroke="#b8891f" stroke-width="4"/><path d="M12 58C30 48 70 48 88 58M14 70C32 60 68 60 86 70M24 42C40 36 60 36 76 42" fill="none" stroke="#d4aa3c" stroke-width="4" stroke-linecap="round"/><circle cx="50" cy="52" r="9" fill="#b3122e" stroke="#e3b341" stroke-width="4"/>`,
};

/** Parse "7H" → {rank: "7", suit: "H", value: 7}. Returns null for junk. */
export function parseCard(code) {
  if (typeof code !== "string" || code.length !== 2) return null;
  const value = RANKS.indexOf(code[0]) + 1;
  if (value === 0 || !SUITS.includes(code[1])) return null;
  return { rank: code[0], suit: code[1], value };
}

export const isRed = (code) => code?.[1] === "H" || code?.[1] === "D";

/** "7H" → "seven of hearts" («семёрка червей»): lower case, to sit inside a sentence. */
export function cardName(code) {
  const c = parseCard(code);
  if (!c) return gettext("no card");
  return interpolate(pgettext("card name", "%(rank)s of %(suit)s"), { rank: RANK_WORD[c.rank], suit: SUIT_WORD[c.suit] }, true);
}

/** The same, to start a sentence or a label: "Seven of hearts". */
export const CardName = (code) => capitalize(cardName(code));

/** The rank as printed in a card's corner ("T" prints as "10"). */
export const rankLabel = (rank) => RANK_INDEX[rank] ?? rank;

/** Insert the shared SVG sprite once per document. */
export function ensureSprite(doc = document) {
  if (doc.getElementById(SPRITE_ID)) return;
  const holder = doc.createElement("div");
  holder.innerHTML = `<svg id="${SPRITE_ID}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" style="position:absolute;width:0;height:0;overflow:hidden">${
    Object.entries(SYMBOLS).map(([id, body]) => `<symbol id="sc-${id}" viewBox="0 0 100 100">${body}</symbol>`).join("")
  }</svg>`;
  doc.body.prepend(holder.firstElementChild);
}

const use = (id, x, y, w, h = w) => `<use href="#sc-${id}" x="${x}" y="${y}" width="${w}" height="${h}"/>`;

// Corner index: big rank over a small suit, sized for reading at ~60px card width.
function corner(c) {
  const label = rankLabel(c.rank);
  const squeeze = label.length > 1 ? ` textLength="60" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text class="sc-idx" x="38" y="74" text-anchor="middle"${squeeze}>${label}</text>${use(`suit-${c.suit}`, 18, 86, 40)}`;
}

function centre(c, sultan) {
  if (sultan) {
    return `<rect class="sc-frame" x="72" y="54" width="106" height="242" rx="12"/>`
      + use("orn-turban", 80, 92, 90)
      + `<text class="sc-court" x="125" y="250" text-anchor="middle">K</text>`;
  }
  if (c.value >= 11) {
    return `<rect class="sc-frame" x="72" y="58" width="106" height="234" rx="12"/>`
      + use(`orn-${c.rank}`, 93, 78, 64)
      + `<text class="sc-court" x="125" y="232" text-anchor="middle">${c.rank}</text>`
      + use(`suit-${c.suit}`, 104, 244, 42);
  }
  if (c.value === 1) {
    return `<circle class="sc-ring" cx="125" cy="175" r="82"/>` + use(`suit-${c.suit}`, 60, 110, 130);
  }
  return use(`suit-${c.suit}`, 72, 122, 106);
}

/**
 * A face-up card element. Decorative inside buttons, but still carries its name.
 * { sultan: true } draws the Sultan's own face: the king of hearts in a turban.
 */
export function createCardEl(code, { sultan = false } = {}, doc = document) {
  const c = parseCard(code);
  const el = doc.createElement("div");
  el.className = `sc-card sc-face ${isRed(code) ? "is-red" : "is-black"}${c && c.value >= 11 ? " is-court" : ""}`;
  el.dataset.card = code;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", CardName(code));
  if (!c) return el;
  el.innerHTML = `<svg viewBox="0 0 250 350" aria-hidden="true" focusable="false">${corner(c)}<g transform="rotate(180 125 175)">${corner(c)}</g>${centre(c, sultan)}</svg>`;
  if (sultan) el.classList.add("is-sultan-card");
  return el;
}

/** A face-down card: the back is an SVG file styled from board.css. */
export function createBackEl(doc = document) {
  const el = doc.createElement("div");
  el.className = "sc-card sc-back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", gettext("Face-down card"));
  return el;
}

/** The turban ornament for the Sultan's seat. */
export function createOrnamentEl(id, className, doc = document) {
  const span = doc.createElement("span");
  span.className = className;
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 100 100" focusable="false"><use href="#sc-${id}"/></svg>`;
  return span;
}

/** Inline suit glyph for captions and the mini grid. */
export function suitSvg(suit, className = "suit-glyph") {
  return `<svg class="${className} ${suit === "H" || suit === "D" ? "is-red" : "is-black"}" viewBox="0 0 100 100" aria-hidden="true" focusable="false"><use href="#sc-suit-${suit}"/></svg>`;
}
