// Your own game in the race: the board, wrapped. The board turns clicks and
// keys into move tokens; this sends them as protocol moves (one at a time,
// each with a fresh id and the seq we last heard) and hands the server's
// answer back to the board. The board only ever shows the server's views.

import { createBoard } from "/static/js/board.js";
import { byId, show } from "./dom.js";
import { gettext } from "../i18n.js";

const NOTE = {
  won: gettext("You won! The others are still racing for places."),
  lost: gettext("No moves left. Your cards played count — watch the others finish."),
  resigned: gettext("You resigned. Your cards played still count."),
  timeout: gettext("Time is up."),
};

// The server's refusals in the player's words; anything else is shown as sent.
const REFUSAL = {
  not_started: gettext("Not yet — wait for the start!"),
  too_late: gettext("Time is up."),
  finished: gettext("Your game is over."),
  conflict: gettext("Catching up with the server…"),
  forbidden: gettext("This is not your game."),
  banned: gettext("You can’t play in this race."),
};

export class PlayView {
  #socket;
  #wrap = byId("arena-board");
  #root = byId("race-board");
  #note = byId("arena-note");
  #resignButton = byId("race-resign");
  #dialog = byId("resign-dialog");
  #board = null;
  #gameId = null;
  #seq = 0; // our game's seq as the server last told us
  #inflight = null; // the move or resign frame awaiting its answer
  #deferred = null; // a newer view that arrived while a move was in flight
  #resignQueued = false;
  #racing = false;
  #connected = true;

  constructor({ socket }) {
    this.#socket = socket;
    this.#resignButton.addEventListener("click", () => this.#askResign());
    this.#dialog.addEventListener("close", () => this.#closedDialog());
  }

  get status() { return this.#board?.view?.status ?? null; }

  /** Show `you.game` from a snapshot; null hides the board (spectators, the lobby). */
  show(game) {
    if (!game) { this.hide(); return; }
    if (!this.#board || this.#gameId !== game.id) {
      this.hide();
      this.#gameId = game.id;
      // A fresh element per board: destroy() empties its element but leaves the
      // board's class and roles on it, which would still say "board" to tools.
      const mount = document.createElement("div");
      this.#root.replaceChildren(mount);
      this.#board = createBoard(mount, {
        onIntent: (token) => this.#intent(token),
        undoButton: false,
        interactive: false,
        keys: document,
      });
      this.#render(game.view);
    } else if (this.#inflight) {
      // The in-flight move's answer will animate it; a snapshot must not pre-empt it.
      this.#keepNewest(game.view);
    } else if (game.view.seq > this.#seq) {
      // Views only move forward: a race has no undo, so a lower seq is an old copy.
      this.#render(game.view);
    }
    show(this.#wrap, true);
    this.#afterChange();
  }

  hide() {
    this.#board?.destroy();
    this.#board = null;
    this.#root.replaceChildren();
    this.#gameId = null;
    this.#inflight = null;
    this.#deferred = null;
    this.#resignQueued = false;
    show(this.#wrap, false);
    show(this.#resignButton, false);
  }

  /** Moves are taken only while the race runs, the line is up and no dialog is open. */
  setLive({ racing, connected }) {
    // At the start, a keyboard or screen reader user lands on the board, unless
    // they are somewhere else on purpose (focus lost with the lobby's buttons).
    const starting = racing && !this.#racing;
    this.#racing = racing;
    this.#connected = connected;
    this.#afterChange();
    if (starting && this.#board && document.activeElement === document.body) {
      this.#root.querySelector("[data-nav][tabindex='0']")?.focus({ preventScroll: true });
    }
  }

  onAck(message) {
    if (!this.#board) return;
    if (message.id !== this.#inflight?.id) {
      // An answer we stopped waiting for: trust its view if it is news.
      if (message.seq > this.#seq) this.#render(message.view);
      return;
    }
    this.#inflight = null;
    this.#seq = message.seq;
    const settled = this.#board.applyAck(message.events ?? [], message.view);
    this.#catchUp(message.seq);
    this.#afterChange();
    settled.then(() => this.#sendQueuedResign());
  }

  onReject(message) {
    if (!this.#board || message.id !== this.#inflight?.id) return;
    const { token } = this.#inflight;
    this.#inflight = null;
    const text = REFUSAL[message.code] ?? message.message ?? gettext("That move was refused.");
    if (token === "resign") this.#board.showMessage(text);
    else this.#board.reject(token, text);
    if (message.code === "conflict") this.#socket.resync();
    this.#catchUp(this.#seq);
    this.#afterChange();
    this.#sendQueuedResign();
  }

  /** A progress broadcast about our own game: a seq beyond ours means another tab moved. */
  onOwnProgress(seq) {
    if (this.#board && !this.#inflight && seq > this.#seq) this.#socket.resync();
  }

  // ——— moves ———

  #intent(token) {
    if (token === "undo") { this.#board.showMessage(gettext("No take-backs in a race.")); return; }
    if (this.#inflight) {
      this.#board.reject(token, gettext("Hold on — your last move is still on its way."));
      return;
    }
    this.#sendFrame({ type: "move", token });
  }

  #sendFrame({ type, token }) {
    this.#inflight = { type, token, id: newId(), seq: this.#seq, game: this.#gameId };
    this.#socket.request(this.#inflight);
  }

  #askResign() {
    if (!this.#board || this.status !== "playing") return;
    this.#board.setInteractive(false); // keys must not play behind the dialog
    this.#dialog.returnValue = "";
    this.#dialog.showModal();
  }

  #closedDialog() {
    const resigning = this.#dialog.returnValue === "resign" && this.status === "playing";
    if (resigning) {
      this.#resignQueued = true;
      if (!this.#inflight) this.#sendQueuedResign();
    }
    this.#afterChange();
    // Back where the player was: the button, or the board once the button is going away.
    if (resigning) this.#root.querySelector("[data-nav][tabindex='0']")?.focus({ preventScroll: true });
    else this.#resignButton.focus();
  }

  #sendQueuedResign() {
    if (!this.#resignQueued || this.#inflight || this.status !== "playing") return;
    this.#resignQueued = false;
    this.#sendFrame({ type: "resign", token: "resign" });
  }

  // ——— views ———

  #render(view) {
    this.#seq = view.seq;
    this.#deferred = null;
    this.#board.render(view);
  }

  #keepNewest(view) {
    if (view.seq >= (this.#deferred?.seq ?? -1)) this.#deferred = view;
  }

  /** After an answer, a view the server sent meanwhile that is newer still wins. */
  #catchUp(seq) {
    const later = this.#deferred;
    this.#deferred = null;
    if (later && later.seq > seq) this.#render(later);
  }

  #afterChange() {
    if (!this.#board) return;
    const playing = this.status === "playing";
    const dialogOpen = this.#dialog.open;
    this.#board.setInteractive(this.#racing && this.#connected && playing && !dialogOpen);
    show(this.#resignButton, playing && this.#racing);
    this.#resignButton.disabled = !this.#connected || this.#resignQueued || this.#inflight?.type === "resign";
    const note = playing ? "" : NOTE[this.status] ?? "";
    this.#note.textContent = note;
    show(this.#note, Boolean(note));
  }
}

/** A move id: unique within the game, unguessable enough, and no secure context needed. */
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("");
}
