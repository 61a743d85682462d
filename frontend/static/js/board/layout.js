// The board's DOM: a fixed skeleton built once per reserve size, then repainted
// from each view. Keeping the spots stable lets animations measure "before"
// and "after" positions of the same place.

import { createCardEl, createBackEl, createOrnamentEl, cardName, suitSvg } from "../cards.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { SLOT_LETTERS, SULTAN, foundationHeight, cardBelow } from "./moves.js";

const FOUNDATION_SUITS = "DHDSHSCHC"; // the layout's kings (and the ace of hearts), in reading order
const WASTE_FAN = 3; // how many waste cards show; only the top one plays
// The board's own banner: the win says more than the status word (format.js STATUS_TEXT).
const STATUS_TEXT = {
  playing: "",
  won: gettext("Won — the Sultan is surrounded"),
  lost: pgettext("game status", "No moves left"),
  resigned: pgettext("game status", "Resigned"),
  timeout: pgettext("game status", "Time ran out"),
};

const el = (tag, className, attrs = {}) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};

function place(node, row, col, span = 1) {
  node.style.gridRow = String(row);
  node.style.gridColumn = span > 1 ? `${col} / span ${span}` : String(col);
}

function cell(kind, caption = true) {
  const wrap = el("div", `sb-cell sb-${kind}`);
  const spot = el("button", "sb-spot", { type: "button", tabindex: "-1" });
  wrap.append(spot);
  if (caption) wrap.append(el("div", "sb-caption", { "aria-hidden": "true" }));
  return { wrap, spot, caption: wrap.querySelector(".sb-caption") };
}

/** Build the skeleton inside root; returns handles to every live part. */
export function buildBoard(root, slotCount, { undoButton = true } = {}) {
  root.replaceChildren();
  root.classList.add("sultan-board");
  root.dataset.slots = String(slotCount);
  const table = el("div", "sb-table");
  const perSide = slotCount / 2;
  const dom = { root, table, slotCount, foundations: [], slots: [], stock: null, waste: null };

  for (let n = 1; n <= 9; n++) {
    const c = cell("foundation");
    c.spot.dataset.drop = `foundation:${n}`;
    c.spot.setAttribute("aria-keyshortcuts", String(n));
    c.spot.dataset.nav = "";
    c.wrap.dataset.foundation = String(n);
    if (n === SULTAN) {
      c.wrap.classList.add("is-sultan");
      c.caption.append(createOrnamentEl("orn-turban", "sb-turban"), gettext("Sultan"));
    }
    place(c.wrap, Math.ceil(n / 3), ((n - 1) % 3) + 2);
    table.append(c.wrap);
    dom.foundations.push(c);
  }
  for (let i = 0; i < slotCount; i++) {
    const letter = SLOT_LETTERS[i];
    const c = cell("slot");
    Object.assign(c.spot.dataset, { source: letter, drop: `reserve:${letter}`, nav: "" });
    c.spot.setAttribute("aria-keyshortcuts", letter);
    c.wrap.dataset.slot = letter;
    c.caption.innerHTML = `<kbd>${letter}</kbd>`;
    const left = i < perSide;
    c.wrap.classList.add(left ? "is-left" : "is-right");
    place(c.wrap, (i % perSide) + 1, left ? 1 : 5);
    table.append(c.wrap);
    dom.slots.push(c);
  }
  const stock = cell("stock");
  Object.assign(stock.spot.dataset, { action: "stock", nav: "" });
  stock.spot.setAttribute("aria-keyshortcuts", "Space s");
  place(stock.wrap, 4, 2);
  const waste = cell("waste");
  Object.assign(waste.spot.dataset, { source: "w", nav: "" });
  waste.spot.setAttribute("aria-keyshortcuts", "w");
  waste.fan = el("div", "sb-fan");
  waste.wrap.prepend(waste.fan);
  waste.fan.append(waste.spot);
  place(waste.wrap, 4, 3, 2);
  table.append(stock.wrap, waste.wrap);
  Object.assign(dom, { stock, waste });

  const footer = el("div", "sb-footer");
  dom.footer = footer;
  dom.played = el("span", "sb-stat");
  dom.pass = el("span", "sb-stat");
  dom.status = el("span", "sb-status", { hidden: "" });
  footer.append(dom.played, dom.pass, dom.status);
  if (undoButton) {
    dom.undo = el("button", "sb-button", { type: "button", "data-action": "undo", "aria-keyshortcuts": "u" });
    dom.undo.innerHTML = `<span aria-hidden="true">↶</span> ${gettext("Undo")}`;
    footer.append(dom.undo);
  }
  dom.toast = el("div", "sb-toast", { "aria-hidden": "true" });
  dom.live = el("div", "sb-live", { "aria-live": "polite", "aria-atomic": "true" });
  root.append(table, footer, dom.toast, dom.live);
  return dom;
}

function setCard(spot, code, options = {}) {
  spot.querySelectorAll(":scope > .sc-card").forEach((c) => c.remove());
  if (!code) return null;
  const card = createCardEl(code, options);
  spot.append(card);
  return card;
}

/** Repaint every spot from a player's view. */
export function paintView(dom, view) {
  const { foundations = [], reserve = [], waste = [] } = view;

  dom.foundations.forEach((c, i) => {
    const top = foundations[i];
    c.spot.replaceChildren();
    const below = cardBelow(i, top);
    if (below) {
      const under = createCardEl(below);
      under.classList.add("is-under");
      under.setAttribute("aria-hidden", "true");
      c.spot.append(under);
    }
    setCard(c.spot, top, { sultan: i === SULTAN - 1 });
    const h = foundationHeight(i, top);
    const n = i + 1;
    const done = h.count >= h.max && n !== SULTAN;
    c.wrap.classList.toggle("is-complete", done);
    c.wrap.dataset.depth = String(h.count < 2 ? 1 : h.count < 5 ? 2 : h.count < 10 ? 3 : 4);
    if (n === SULTAN) {
      c.spot.setAttribute("aria-label", interpolate(gettext("Foundation 5, the Sultan: the %(card)s. Takes no cards."), { card: cardName(top) }, true));
      return;
    }
    c.caption.innerHTML = `<kbd>${n}</kbd>${suitSvg(FOUNDATION_SUITS[i])}<span class="sb-height${done ? " is-done" : ""}">${done ? "✓" : `${h.count}/${h.max}`}</span>`;
    const height = done ? gettext("complete") : interpolate(ngettext("%(count)s of %(max)s card", "%(count)s of %(max)s cards", h.max), { count: h.count, max: h.max }, true);
    c.spot.setAttribute("aria-label", interpolate(gettext("Foundation %(n)s: the %(card)s, %(height)s"), { n, card: cardName(top), height }, true));
  });

  dom.slots.forEach((c, i) => {
    const code = reserve[i] ?? null;
    const letter = SLOT_LETTERS[i];
    c.spot.replaceChildren();
    if (code) setCard(c.spot, code);
    else c.spot.append(el("span", "sb-empty", { "aria-hidden": "true" }));
    c.spot.querySelector(".sb-empty")?.append(letter);
    c.wrap.classList.toggle("is-empty", !code);
    c.spot.setAttribute("aria-label", code ? interpolate(gettext("Slot %(slot)s: the %(card)s"), { slot: letter, card: cardName(code) }, true) : interpolate(gettext("Slot %(slot)s: empty"), { slot: letter }, true));
  });

  const s = dom.stock;
  const count = view.stock_count ?? 0;
  s.spot.replaceChildren();
  if (count > 0) {
    s.spot.append(createBackEl());
    s.spot.append(el("span", "sb-count", { "aria-hidden": "true" }));
    s.spot.lastChild.textContent = String(count);
    s.spot.dataset.depth = String(count > 30 ? 3 : count > 8 ? 2 : 1);
  } else {
    const canRedeal = view.legal ? view.legal.includes("redeal") : (view.redeals_left ?? 0) > 0 && waste.length > 0;
    s.spot.append(el("span", `sb-empty sb-redeal${canRedeal ? " can" : ""}`, { "aria-hidden": "true" }));
    s.spot.lastChild.textContent = canRedeal ? "↻" : "×";
    s.spot.dataset.depth = "0";
  }
  const r = view.redeals_left ?? 0;
  s.caption.textContent = interpolate(ngettext("%s redeal left", "%s redeals left", r), [r]);
  s.spot.setAttribute("aria-label", count > 0
    ? interpolate(ngettext("Stock: %(count)s card. Draw. %(left)s.", "Stock: %(count)s cards. Draw. %(left)s.", count), { count, left: s.caption.textContent }, true)
    : r > 0 ? interpolate(gettext("Stock empty. Redeal, %(left)s."), { left: s.caption.textContent }, true) : gettext("Stock empty, no redeals left."));

  paintWaste(dom, waste);

  const played = view.cards_played ?? 0;
  dom.played.innerHTML = interpolate(gettext("%(played)s/95 played"), { played: `<b>${played}</b>` }, true);
  dom.pass.textContent = interpolate(gettext("Pass %(pass)s of 3"), { pass: Math.min(3, 3 - r) }, true);
  const status = view.status ?? "playing";
  dom.root.dataset.status = status;
  dom.status.hidden = status === "playing";
  dom.status.textContent = STATUS_TEXT[status] ?? status;
}

function paintWaste(dom, waste) {
  const w = dom.waste;
  w.fan.querySelectorAll(":scope > .sc-card").forEach((c) => c.remove());
  const shown = waste.slice(-WASTE_FAN);
  const first = waste.length - shown.length;
  shown.slice(0, -1).forEach((code, k) => {
    const card = createCardEl(code);
    card.style.setProperty("--i", String(k));
    card.dataset.wasteIndex = String(first + k);
    w.fan.insertBefore(card, w.spot);
  });
  w.spot.replaceChildren();
  w.spot.style.setProperty("--i", String(Math.max(0, shown.length - 1)));
  const top = waste.at(-1);
  if (top) setCard(w.spot, top).dataset.wasteIndex = String(waste.length - 1);
  else w.spot.append(el("span", "sb-empty", { "aria-hidden": "true" }));
  w.wrap.classList.toggle("is-empty", !top);
  w.caption.innerHTML = `<kbd>w</kbd><span>${waste.length ? interpolate(gettext("%(count)s in waste"), { count: waste.length }, true) : gettext("Waste")}</span>`;
  w.spot.setAttribute("aria-label", top
    ? interpolate(ngettext("Waste: the %(card)s on top, %(count)s card", "Waste: the %(card)s on top, %(count)s cards", waste.length), { card: cardName(top), count: waste.length }, true)
    : gettext("Waste: empty"));
}

/** Screen-space rectangles of the places an event can name, taken before a repaint. */
export function measure(dom) {
  const rect = (node) => node?.getBoundingClientRect();
  const top = (spot) => rect(lastCard(spot) ?? spot);
  const rects = { stock: rect(dom.stock.spot), waste: top(dom.waste.spot), wasteCards: new Map() };
  dom.foundations.forEach((c, i) => { rects[`foundation:${i + 1}`] = top(c.spot); });
  dom.slots.forEach((c, i) => { rects[`reserve:${SLOT_LETTERS[i]}`] = top(c.spot); });
  dom.waste.wrap.querySelectorAll("[data-waste-index]").forEach((c) => rects.wasteCards.set(c.dataset.wasteIndex, rect(c)));
  return rects;
}

/** The card element now standing at a location, after a repaint. */
export function cardAt(dom, loc) {
  const [kind, id] = loc.split(":");
  const spot = kind === "foundation" ? dom.foundations[Number(id) - 1]?.spot
    : kind === "reserve" ? dom.slots[SLOT_LETTERS.indexOf(id)]?.spot
    : kind === "waste" ? dom.waste.spot
    : kind === "stock" ? dom.stock.spot : null;
  return spot ? lastCard(spot) : null;
}

const lastCard = (spot) => [...spot.children].filter((c) => c.classList.contains("sc-card")).at(-1) ?? null;

/** The spot (button) for a source letter or "w". */
export const sourceSpot = (dom, source) => source === "w" ? dom.waste.spot : dom.slots[SLOT_LETTERS.indexOf(source)]?.spot;

/** The spot (button) for a destination {kind, id}. */
export const targetSpot = (dom, t) => t.kind === "foundation" ? dom.foundations[Number(t.id) - 1]?.spot : dom.slots[SLOT_LETTERS.indexOf(t.id)]?.spot;

/** The spots a move token starts from and goes to: the stock alone for draw and redeal. */
export function moveSpots(dom, token) {
  if (token === "draw" || token === "redeal") return [dom.stock.spot];
  const to = /\d/.test(token[1]) ? { kind: "foundation", id: token[1] } : { kind: "reserve", id: token[1] };
  return [sourceSpot(dom, token[0]), targetSpot(dom, to)].filter(Boolean);
}

/** The board's message, just above the footer (its Undo button stays visible and
 * pressable), unless it would cover a card a hint points at: then the first place clear
 * of them — the table's top, just below those cards, just above them. */
export function placeToast(dom, root) {
  const t = dom.toast;
  const box = root.getBoundingClientRect();
  const hinted = [...root.querySelectorAll(".sb-spot.is-hinted")].map((s) => s.getBoundingClientRect());
  const footer = `${dom.footer.offsetHeight + 8}px`;
  const places = [["", footer], ["8px", "auto"]];
  if (hinted.length) {
    places.push([`${Math.max(...hinted.map((r) => r.bottom)) - box.top + 8}px`, "auto"]);
    places.push(["auto", `${box.bottom - Math.min(...hinted.map((r) => r.top)) + 8}px`]);
  }
  for (const [top, bottom] of places) {
    t.style.top = top;
    t.style.bottom = bottom;
    if (!hinted.some((r) => meets(t.getBoundingClientRect(), r))) return;
  }
  [t.style.top, t.style.bottom] = places[0];
}

// Two boxes meet, or come within 8 px (the message settles 6 px up as it fades in).
function meets(a, b) {
  return a.left < b.right + 8 && b.left < a.right + 8 && a.top < b.bottom + 8 && b.top < a.bottom + 8;
}
