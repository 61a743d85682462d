// The Sultan game board. It shows the server's view, turns clicks, drags and
// keys into move intentions, and waits: the server's acknowledgement (or
// refusal) is the only thing that changes what it shows.
//
//   const board = createBoard(el, { onIntent: (token) => send(token) });
//   board.render(view);                 // first view, or a resync
//   await board.applyAck(events, view); // after the server accepted a move
//   board.reject(token, "reason");      // after it refused one
// Every intention (undo too) waits for its answer; clicks and keys that come
// meanwhile are queued in order and applied, once each, when it is in.
// Intentions also arrive as a bubbling "board:intent" CustomEvent ({detail: {token}});
// listen to one or the other. Needs css/board.css on the page.

import { ensureSprite, cardName } from "./cards.js";
import { capitalize, gettext, interpolate, orList } from "./i18n.js";
import { playSound } from "./sounds.js";
import { installKeys, ensureTabStop } from "./keys.js";
import { buildBoard, paintView, placeToast, measure, moveSpots, sourceSpot, targetSpot } from "./board/layout.js";
import { destinations, tokensTo, sourceCard, refusal, parseLocation, SLOT_LETTERS } from "./board/moves.js";
import { glideTo, shake, settle } from "./board/animate.js";
import { playEvents } from "./board/events.js";
import { installDrag } from "./board/drag.js";

export { renderMiniGrid } from "./minigrid.js";

const PENDING_TIMEOUT = 10_000; // ms before a silent server stops blocking input
const TOAST_MS = 2400;
// A second click (or tap) on the same card within this is a double-click: send it home.
export const DOUBLE_MS = 450;

/**
 * createBoard(element, options) → Board
 * options: { onIntent(token), interactive = true, keys = document | element | false, undoButton = true, view }
 *   keys: where key presses are heard: the whole page (document, the default), or only
 *   while focus is inside the board (false or the board element).
 */
export function createBoard(element, options = {}) {
  return new Board(element, options);
}

export class Board {
  #dom = null;
  #view = null;
  #interactive = true;
  #selection = null; // "w" | "a".."h"
  #pending = null; // {token, source, ghost, origin, timer}
  #keys = null;
  #drag = null;
  #toastTimer = 0;
  #pointed = null; // a hinted move token, shown until the board changes
  #listeners = [];
  #queue = []; // input that came while a move was on its way, in order
  #lastClick = { source: null, at: 0, sent: false };

  constructor(element, { onIntent = null, interactive = true, keys = document, undoButton = true, view = null } = {}) {
    this.root = element;
    this.onIntent = onIntent;
    this.undoButton = undoButton;
    ensureSprite(element.ownerDocument);
    element.setAttribute("role", "group");
    element.setAttribute("aria-roledescription", gettext("Sultan board"));
    if (!element.hasAttribute("aria-label")) element.setAttribute("aria-label", gettext("Sultan game board"));
    this.#drag = installDrag(element, {
      start: (s) => this.#dragStart(s),
      over: (spot) => this.#dragOver(spot),
      drop: (s, spot, ghost, origin) => this.#dragDrop(s, spot, ghost, origin),
    });
    this.#on(element, "click", (e) => this.#onClick(e));
    // A long animation (Finish, a run of automatic moves) is skipped by a click on
    // the table or Escape, even once the game is over and the board takes no moves.
    this.#on(element, "pointerdown", () => settle(this.root));
    this.#on(element.ownerDocument, "keydown", (e) => { if (e.key === "Escape") settle(this.root); });
    this.#on(element.ownerDocument, "pointerdown", (e) => this.#onOutsidePointer(e), true);
    {
      // keys: false still lets a focused board be played; it just stops listening page-wide.
      this.#keys = installKeys(element, {
        enabled: () => this.#interactive,
        readable: () => true,
        stock: () => this.#input(() => this.#stock()),
        redeal: () => this.#input(() => this.#redeal()),
        waste: () => this.#input(() => this.#letter("w")),
        letter: (l) => this.#input(() => this.#letter(l)),
        digit: (n) => this.#input(() => this.#digit(n)),
        cancel: () => this.#cancel(),
        undo: () => this.#input(() => this.#undo()),
      }, keys || element);
    }
    this.setInteractive(interactive);
    if (view) this.render(view);
  }

  /** The view the board currently shows (the server's, never a guess). */
  get view() { return this.#view; }
  get interactive() { return this.#interactive; }
  /** The token sent and not yet acknowledged or refused, or null. */
  get pending() { return this.#pending?.token ?? null; }

  /** Show a view at once, without animation (first load, resync, undo). */
  render(view) {
    settle(this.root);
    this.#drag.abort();
    this.#clearPending(true);
    this.#paint(view);
    this.#drain();
    return this;
  }

  /** Ask for the game to be played out (the view says when it can be: `finishable`). */
  finish() {
    this.#input(() => {
      if (this.#view?.finishable) this.#send("finish", null);
    });
  }

  /** Jump every running animation to its end (a Finish being played out, say). */
  skip() { settle(this.root); }

  /** Animate the server's events, then rest on its view. Resolves when still. */
  async applyAck(events = [], view) {
    settle(this.root);
    const pending = this.#pending;
    const before = measure(this.#dom);
    if (pending?.ghost) {
      const from = pending.source === "w" ? "waste" : `reserve:${pending.source}`;
      before[from] = pending.ghost.getBoundingClientRect();
    }
    this.#clearPending(false);
    this.#paint(view);
    if (events.some((e) => e.type === "undo")) {
      this.announce(gettext("Move taken back."));
      this.#drain();
      return;
    }
    const { flights, words, won } = playEvents(this.#dom, events, before, view);
    this.root.classList.toggle("is-celebrating", won);
    this.announce(words);
    playSound(won ? "win" : events.some((e) => e.type === "redeal") ? "redeal" : "move");
    this.#drain();
    await Promise.all(flights);
  }

  /** The server refused `token`: put everything back and say why, briefly. */
  reject(token, message = gettext("That move was refused")) {
    const p = this.#pending;
    if (p && token && p.token !== token) return;
    this.#clearPending(true);
    if (p?.source) shake(sourceSpot(this.#dom, p.source)?.querySelector(".sc-card"));
    playSound("refused");
    this.showMessage(message);
    this.#drain();
  }

  /** Point at a move (a hint): its card, or the stock, and where it goes, until the next change. */
  point(token) {
    this.#pointed = token;
    this.#decorate();
    placeToast(this.#dom, this.root);
  }

  /** Read-only boards (replays, countdowns) show everything and take no moves. */
  setInteractive(on) {
    this.#interactive = Boolean(on);
    this.root.classList.toggle("is-readonly", !this.#interactive);
    if (!this.#interactive) { this.#drag.abort(); this.#select(null); this.#queue.length = 0; }
    this.#decorate();
    return this;
  }

  /** A short message over the table, also read out. */
  showMessage(text, ms = TOAST_MS) {
    if (!this.#dom || !text) return;
    const t = this.#dom.toast;
    t.textContent = text;
    t.classList.add("is-shown");
    placeToast(this.#dom, this.root);
    clearTimeout(this.#toastTimer);
    this.#toastTimer = setTimeout(() => t.classList.remove("is-shown"), ms);
    this.announce(text);
  }

  /** Say something in the board's polite live region. */
  announce(text) {
    if (!this.#dom || !text) return;
    const live = this.#dom.live;
    live.textContent = "";
    // A fresh text node after a tick makes repeated messages heard again.
    setTimeout(() => { live.textContent = text; }, 30);
  }

  /** Select a source ("w" or a slot letter) as its key would; null clears. */
  select(source) {
    if (source) this.#pick(source, { viaKey: true });
    else this.#select(null);
  }

  destroy() {
    settle(this.root);
    this.#drag.remove();
    this.#keys?.remove();
    for (const [t, type, fn, cap] of this.#listeners) t.removeEventListener(type, fn, cap);
    clearTimeout(this.#toastTimer);
    this.#clearPending(true);
    this.root.replaceChildren();
  }

  // ——— painting ———

  #paint(view) {
    const slots = view.reserve?.length || 6;
    if (!this.#dom || this.#dom.slotCount !== slots) {
      const focused = this.root.contains(document.activeElement);
      this.#dom = buildBoard(this.root, slots, { undoButton: this.undoButton });
      ensureTabStop(this.root);
      if (focused) this.root.querySelector("[data-nav][tabindex='0']")?.focus();
    }
    this.#view = view;
    this.#pointed = null;
    paintView(this.#dom, view);
    if (view.status === "playing") this.root.classList.remove("is-celebrating");
    if (this.#selection && !destinations(this.#selection, view.legal).length) this.#selection = null;
    this.#decorate();
  }

  #decorate(extraTargets = null) {
    if (!this.#dom) return;
    const legal = this.#interactive && !this.#pending ? this.#view?.legal ?? [] : [];
    const sel = this.#selection;
    const targets = extraTargets ?? (sel ? destinations(sel, legal) : []);
    const lit = new Set(targets.map((t) => targetSpot(this.#dom, t)));
    for (const c of [...this.#dom.foundations, ...this.#dom.slots]) {
      c.spot.classList.toggle("is-target", lit.has(c.spot));
    }
    for (const source of ["w", ...SLOT_LETTERS.slice(0, this.#dom.slotCount)]) {
      const spot = sourceSpot(this.#dom, source);
      spot.classList.toggle("is-playable", destinations(source, legal).length > 0);
      spot.classList.toggle("is-selected", sel === source);
      if (sourceCard(source, this.#view)) spot.setAttribute("aria-pressed", String(sel === source));
      else spot.removeAttribute("aria-pressed");
    }
    this.#dom.stock.spot.classList.toggle("is-playable", legal.includes("draw") || legal.includes("redeal"));
    const pointed = new Set(this.#pointed ? moveSpots(this.#dom, this.#pointed) : []);
    for (const spot of this.root.querySelectorAll(".sb-spot")) spot.classList.toggle("is-hinted", pointed.has(spot));
    this.root.classList.toggle("has-selection", Boolean(sel));
    for (const spot of this.root.querySelectorAll(".sb-spot, .sb-button")) {
      spot.setAttribute("aria-disabled", String(!this.#interactive));
    }
  }

  // ——— choosing moves ———

  #select(source) {
    this.#selection = source;
    this.#decorate();
  }

  #cancel() {
    if (this.#drag.active) { this.#drag.abort(); return true; }
    if (!this.#selection) return false;
    this.#select(null);
    return true;
  }

  /**
   * Run an input now, or, while a move is on its way, once it is answered: the queue
   * keeps every press and click, in order, and each is applied to the view it finds.
   */
  #input(fn) {
    if (!this.#interactive) return;
    settle(this.root); // a new intention cuts the last one's animation short
    if (this.#pending || this.#queue.length) { this.#queue.push(fn); return; }
    fn();
  }

  /** Apply queued input until one of it sends a move (which then waits its turn). */
  #drain() {
    while (this.#queue.length && !this.#pending && this.#interactive && this.#view) this.#queue.shift()();
  }

  /** Click or key on a card: one destination plays it, several ask which. True when sent. */
  #pick(source, { viaKey = false } = {}) {
    if (!this.#ready()) return false;
    const card = sourceCard(source, this.#view);
    if (!card) {
      this.#select(null);
      if (viaKey) this.showMessage(source === "w" ? gettext("The waste is empty") : interpolate(gettext("Slot %(slot)s is empty"), { slot: source }, true));
      return false;
    }
    if (this.#selection === source && !viaKey) { this.#select(null); return false; }
    const dests = destinations(source, this.#view.legal);
    if (!dests.length) {
      this.#select(null);
      shake(sourceSpot(this.#dom, source)?.querySelector(".sc-card"));
      this.showMessage(capitalize(interpolate(gettext("The %(card)s has no move now"), { card: cardName(card) }, true)));
      return false;
    }
    if (dests.length === 1 && !viaKey) { this.#send(dests[0].token, source); return true; }
    this.#select(source);
    const where = dests.map((d) => interpolate(d.kind === "foundation" ? gettext("foundation %(n)s") : gettext("slot %(n)s"), { n: d.id }, true));
    this.announce(interpolate(gettext("The %(card)s selected: %(places)s."), { card: cardName(card), places: orList(where) }, true));
    return false;
  }

  /**
   * Send a card home: to a foundation, the lowest-numbered one when two take it
   * (the rule of games/engine/safe.py `home_foundation`; drag it to choose the other).
   */
  #sendHome(source) {
    if (!this.#ready()) return false;
    const card = sourceCard(source, this.#view);
    if (!card) return false;
    const homes = destinations(source, this.#view.legal)
      .filter((d) => d.kind === "foundation")
      .sort((a, b) => Number(a.id) - Number(b.id));
    if (!homes.length) {
      this.#select(null);
      shake(sourceSpot(this.#dom, source)?.querySelector(".sc-card"));
      this.showMessage(capitalize(interpolate(gettext("The %(card)s can't go to a foundation now"), { card: cardName(card) }, true)));
      return false;
    }
    this.#send(homes[0].token, source);
    return true;
  }

  #letter(l) {
    if (l >= "a" && l <= "h" && this.#selection === "w" && this.#view?.legal?.includes(`w${l}`)) {
      this.#send(`w${l}`, "w");
      return;
    }
    if (l !== "w" && SLOT_LETTERS.indexOf(l) >= this.#dom.slotCount) return;
    // The same card's key twice sends it home, as a double-click does.
    if (this.#selection === l) { this.#sendHome(l); return; }
    this.#pick(l, { viaKey: true });
  }

  #undo() {
    if (!this.#ready()) return;
    this.#send("undo", null);
  }

  #digit(n) {
    if (!this.#ready()) return;
    const legal = this.#view.legal ?? [];
    if (this.#selection) {
      const token = `${this.#selection}${n}`;
      if (legal.includes(token)) this.#send(token, this.#selection);
      else this.showMessage(refusal(this.#selection, { kind: "foundation", id: String(n) }, this.#view));
      return;
    }
    // No selection: play the one card that can go there, if there is exactly one.
    const options = tokensTo(n, legal);
    if (options.length === 1) this.#send(options[0], options[0][0]);
    else this.showMessage(interpolate(options.length ? gettext("Several cards can go to foundation %(n)s: pick one first") : gettext("Nothing can go to foundation %(n)s now"), { n }, true));
  }

  #stock() {
    if (!this.#ready()) return;
    const legal = this.#view.legal ?? [];
    if (legal.includes("draw")) this.#send("draw", null);
    else if (legal.includes("redeal")) this.#send("redeal", null);
    else if (this.#view.status === "playing") this.showMessage((this.#view.redeals_left ?? 0) > 0 ? gettext("Nothing to redeal") : gettext("No redeals left"));
  }

  #redeal() {
    if (!this.#ready()) return;
    if (this.#view.legal?.includes("redeal")) this.#send("redeal", null);
    else this.showMessage(this.#view.stock_count ? gettext("Redeal once the stock is empty") : gettext("No redeal possible"));
  }

  #ready() { return this.#interactive && this.#view && !this.#pending; }

  #send(token, source, ghost = null, origin = null) {
    this.#selection = null;
    const timer = setTimeout(() => { this.#clearPending(true); this.#drain(); }, PENDING_TIMEOUT);
    this.#pending = { token, source, ghost, origin, timer };
    if (source) sourceSpot(this.#dom, source)?.classList.add("is-pending");
    this.#decorate();
    this.#emit(token);
  }

  #emit(token) {
    if (!this.#interactive) return;
    this.onIntent?.(token);
    this.root.dispatchEvent(new CustomEvent("board:intent", { detail: { token }, bubbles: true }));
  }

  #clearPending(rollBack) {
    const p = this.#pending;
    this.#pending = null;
    if (!p) return;
    clearTimeout(p.timer);
    this.root.querySelectorAll(".is-pending").forEach((n) => n.classList.remove("is-pending"));
    if (p.ghost) {
      if (rollBack) glideTo(p.ghost, p.origin?.getBoundingClientRect()).then(() => p.origin?.classList.remove("is-drag-origin"));
      else p.ghost.remove();
    }
    this.#decorate();
  }

  // ——— pointer input ———

  #onClick(e) {
    const spot = e.target.closest(".sb-spot, .sb-button");
    if (!spot || !this.#interactive) return;
    const source = spot.dataset.source ?? null;
    const now = e.timeStamp || performance.now();
    const first = this.#lastClick;
    if (source && first.source === source && now - first.at < DOUBLE_MS) {
      // The second click of a double-click (or double-tap): send the card home,
      // unless the first click already played it.
      this.#lastClick = { source: null, at: 0, sent: false };
      this.#input(() => { if (!first.sent) this.#sendHome(source); });
      return;
    }
    const click = { source, at: now, sent: false };
    this.#lastClick = click;
    this.#input(() => { click.sent = this.#click(spot); });
  }

  /** One click, applied to the view of its turn; true when it sent a move. */
  #click(spot) {
    if (spot.dataset.action === "undo") { this.#undo(); return true; }
    if (spot.dataset.action === "stock") { this.#select(null); this.#stock(); return true; }
    if (spot.classList.contains("is-target") && this.#selection) {
      const loc = parseLocation(spot.dataset.drop);
      this.#send(`${this.#selection}${loc.id}`, this.#selection);
      return true;
    }
    if (spot.dataset.source) return this.#pick(spot.dataset.source);
    this.#select(null);
    return false;
  }

  // Clicking anywhere that is not a card or a lit target drops the selection.
  #onOutsidePointer(e) {
    if (!this.#selection) return;
    const spot = e.target.closest?.(".sb-spot");
    if (spot && this.root.contains(spot) && (spot.dataset.source || spot.classList.contains("is-target"))) return;
    this.#select(null);
  }

  #dragStart(source) {
    if (!this.#ready() || !sourceCard(source, this.#view)) return false;
    this.#selection = source;
    this.#decorate();
    return true;
  }

  #dragOver(spot) {
    for (const s of this.root.querySelectorAll(".is-hover")) if (s !== spot) s.classList.remove("is-hover");
    spot?.classList.add("is-hover");
  }

  #dragDrop(source, spot, ghost, origin) {
    const legal = this.#view?.legal ?? [];
    this.#selection = null;
    const back = () => glideTo(ghost, origin?.getBoundingClientRect()).then(() => origin?.classList.remove("is-drag-origin"));
    const target = spot ? parseLocation(spot.dataset.drop) : null;
    const isHome = target && ((target.kind === "reserve" && target.id === source) || (target.kind === "waste" && source === "w"));
    if (!target || isHome || !this.#interactive) { back(); this.#decorate(); return; }
    const token = `${source}${target.id}`;
    if (legal.includes(token) && !this.#pending) { this.#send(token, source, ghost, origin); return; }
    back();
    this.#decorate();
    const kind = target.kind === "reserve" ? "slot" : target.kind;
    this.showMessage(refusal(source, { kind, id: target.id }, this.#view));
  }

  #on(target, type, fn, capture = false) {
    target.addEventListener(type, fn, capture);
    this.#listeners.push([target, type, fn, capture]);
  }
}

