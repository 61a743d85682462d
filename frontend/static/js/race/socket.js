// The race socket, as docs/protocol.md describes it. It keeps the last race
// version applied (`seen`) so that nothing is applied twice or out of order,
// notices what it missed and asks for it (the server answers from the race's
// history), keeps the connection honest with pings and the server's
// heartbeats, and reconnects by itself. A move sent and not yet answered is
// sent again, with the same id and seq, after a reconnect: the server answers
// a retry with its first answer, so a move is never played twice or lost.
//
// Progress frames may cover several versions (`vs`) and are applied as they
// come: each racer's state in them is absolute and carries its seq, so the
// page keeps the newest whatever the order. Other versioned messages wait for
// the versions before them.

const PING_EVERY_MS = 20_000;
// No frame at all for this long (a ping is answered within it): the line is dead.
const SILENCE_MS = 45_000;
const BACKOFF_MS = [400, 1000, 2000, 4000, 8000, 15000];
// A sync that got no answer (lost with a dropped socket) may be asked again.
const SYNC_PATIENCE_MS = 4000;
// A gap is often only an overtaking (broadcasts of two processes cross on the
// way): the frames past it wait for the missing one before a sync, at least
// this long, and longer while gaps are seen to fill late by themselves (a
// server under load): twice the slowest recent fill, at most the second. A
// sync asked for a frame merely late is load on a server already behind.
const GAP_PATIENCE_MS = 500;
const GAP_PATIENCE_MAX_MS = 5000;
const CLOSE_NOT_FOUND = 4404;

/**
 * new RaceSocket(url, { onMessage(msg), onState(state, detail) })
 * state: "connecting" | "open" | "reconnecting" | "offline" | "gone"
 * onMessage gets every frame that should be applied: snapshots, lobby, end
 * and rematch in version order; progress frames with at least one new
 * version (apply a racer's state only if its seq is newer); the latest
 * presence; the answers (ack, reject, error). Stale frames never reach it.
 */
export class RaceSocket {
  #url;
  #onMessage;
  #onState;
  #ws = null;
  #seen = -1;
  #heard = -1; // the highest version any frame has named, applied or not
  #syncAskedAt = 0;
  #attempt = 0;
  #retryTimer = 0;
  #pingTimer = 0;
  #lastFrameAt = 0;
  #stopped = false;
  #unanswered = new Map(); // move id → frame, in the order they were sent
  #ahead = new Map(); // version → broadcast heard past a gap (null: a progress, already applied)
  #presenceAt = -1; // the server time of the latest presence applied
  #gapTimer = 0;
  #gap = 0; // the missing version the gap timer waits for (0: none)
  #gapSince = 0;
  #fillMs = 0; // how long the recent gaps took to fill by themselves (decaying)
  #expectTimer = 0;
  #cleanup = [];

  constructor(url, { onMessage, onState = () => {} }) {
    this.#url = url;
    this.#onMessage = onMessage;
    this.#onState = onState;
    this.#listen(window, "online", () => this.#reconnectNow());
    this.#listen(window, "offline", () => this.#lost("offline"));
    // A laptop waking up or a tab coming back: check at once rather than in 20 s.
    this.#listen(document, "visibilitychange", () => {
      if (document.visibilityState === "visible") this.#ping();
    });
  }

  get seen() { return this.#seen; }
  get isOpen() { return this.#ws?.readyState === WebSocket.OPEN; }

  open() {
    this.#stopped = false;
    this.#connect();
    return this;
  }

  /** Close for good (the page is going away). */
  stop() {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#pingTimer);
    clearTimeout(this.#gapTimer);
    clearTimeout(this.#expectTimer);
    for (const off of this.#cleanup) off();
    this.#ws?.close(1000, "bye");
  }

  /** Send a frame now if the line is up; false if it could not be sent. */
  send(message) {
    if (!this.isOpen) return false;
    this.#ws.send(JSON.stringify(message));
    return true;
  }

  /** A move or resign: sent now (or once connected) and again after every reconnect until answered. */
  request(message) {
    this.#unanswered.set(message.id, message);
    this.send(message);
  }

  /** True while a move or resign awaits its answer. */
  get waiting() { return this.#unanswered.size > 0; }

  /**
   * Ask for a fresh snapshot even when our version is current: a `conflict`
   * means our game's seq is stale although no race version was missed (the
   * same player moved in another tab), and only a snapshot carries our own
   * game's view; the race's history carries the others' progress.
   */
  resync() {
    this.#syncAskedAt = performance.now();
    this.send({ type: "sync", v: Math.max(0, this.#seen), force: true });
  }

  // ——— the line ———

  #connect() {
    clearTimeout(this.#retryTimer);
    if (this.#stopped || this.#ws) return;
    if (navigator.onLine === false) { this.#onState("offline", {}); return; }
    this.#onState(this.#attempt ? "reconnecting" : "connecting", { attempt: this.#attempt });
    const ws = new WebSocket(this.#url);
    this.#ws = ws;
    ws.addEventListener("open", () => this.#opened(ws));
    ws.addEventListener("message", (e) => this.#frame(ws, e.data));
    ws.addEventListener("close", (e) => this.#closed(ws, e));
  }

  #opened(ws) {
    if (ws !== this.#ws) return;
    this.#attempt = 0;
    this.#lastFrameAt = performance.now();
    this.#syncAskedAt = 0;
    this.#onState("open", {});
    for (const message of this.#unanswered.values()) ws.send(JSON.stringify(message));
    clearInterval(this.#pingTimer);
    this.#pingTimer = setInterval(() => this.#ping(), PING_EVERY_MS);
  }

  #closed(ws, event) {
    if (ws !== this.#ws) return;
    this.#ws = null;
    clearInterval(this.#pingTimer);
    this.#retry(event.code);
  }

  /** The connection is gone (or about to be): drop it and come back when possible. */
  #lost(reason) {
    const ws = this.#ws;
    this.#ws = null;
    clearInterval(this.#pingTimer);
    clearTimeout(this.#retryTimer);
    ws?.close(4000, reason);
    this.#retry(1006);
  }

  #retry(code) {
    if (this.#stopped) return;
    if (code === CLOSE_NOT_FOUND) {
      this.#stopped = true;
      this.#onState("gone", { code });
      return;
    }
    // Offline, attempts would only fail: the browser's "online" event brings us back.
    if (navigator.onLine === false) { this.#onState("offline", {}); return; }
    const wait = BACKOFF_MS[Math.min(this.#attempt, BACKOFF_MS.length - 1)];
    this.#attempt += 1;
    // Jitter, so a server restart is not met by every client in the same millisecond.
    const delay = Math.round(wait * (0.8 + Math.random() * 0.4));
    this.#onState("reconnecting", { attempt: this.#attempt, delay });
    this.#retryTimer = setTimeout(() => this.#connect(), delay);
  }

  #reconnectNow() {
    if (this.#stopped || this.#ws) return;
    this.#attempt = Math.max(1, this.#attempt);
    this.#connect();
  }

  #ping() {
    if (!this.isOpen) return;
    if (performance.now() - this.#lastFrameAt > SILENCE_MS) { this.#lost("silent"); return; }
    this.send({ type: "ping" });
  }

  // ——— versions ———

  #frame(ws, text) {
    if (ws !== this.#ws) return;
    this.#lastFrameAt = performance.now();
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (!message || typeof message.type !== "string") return;
    if (typeof message.v === "number" && message.v > this.#heard) this.#heard = message.v;
    switch (message.type) {
      case "snapshot":
        // A snapshot older than what we applied would take us back in time.
        if (message.v < this.#seen) { this.#askSync(true); return; }
        this.#seen = message.v;
        this.#syncAskedAt = 0;
        this.#gap = 0; // filled by the snapshot, not by itself: no measure of lateness
        this.#onMessage(message);
        // Broadcasts heard past the gap may go on from here; a newer one we
        // never got is asked for after the usual moment.
        this.#drain();
        if (this.#ahead.size) this.#armGap();
        else if (this.#heard > this.#seen) this.#expect(this.#heard);
        return;
      case "synced":
        this.#syncAskedAt = 0;
        return;
      case "heartbeat":
        return; // the server's half of the heartbeat: only proof the line is alive
      case "presence":
        // Not versioned: the latest wins.
        if (message.at < this.#presenceAt) return;
        this.#presenceAt = message.at;
        this.#onMessage(message);
        return;
      case "progress": {
        const fresh = (message.vs ?? []).filter((v) => v > this.#seen && !this.#ahead.has(v));
        if (!fresh.length) return;
        for (const v of fresh) {
          this.#ahead.set(v, null);
          if (v > this.#heard) this.#heard = v;
        }
        this.#onMessage(message);
        this.#drain();
        if (this.#ahead.size) this.#armGap();
        return;
      }
      case "pong":
        // Its version may be on its way in a frame still: asked for only if it stays missing.
        if (message.v > this.#seen) this.#expect(message.v);
        return;
      case "ack":
      case "reject":
        this.#unanswered.delete(message.id);
        this.#onMessage(message);
        return;
      default:
        if (typeof message.v !== "number") { this.#onMessage(message); return; }
        if (message.v <= this.#seen) return;
        if (message.v > this.#seen + 1) { this.#hold(message); return; }
        this.#seen = message.v;
        this.#onMessage(message);
        this.#drain();
    }
  }

  /** A broadcast past a gap: kept until the gap fills, or a sync after a moment. */
  #hold(message) {
    this.#ahead.set(message.v, message);
    this.#armGap();
  }

  #patience() {
    return Math.min(GAP_PATIENCE_MAX_MS, Math.max(GAP_PATIENCE_MS, 2 * this.#fillMs));
  }

  /** Wait for the version after `seen`: each gap gets its own patience, from when it opened. */
  #armGap() {
    const missing = this.#seen + 1;
    if (this.#gapTimer && this.#gap === missing) return;
    clearTimeout(this.#gapTimer);
    this.#gap = missing;
    this.#gapSince = performance.now();
    this.#gapTimer = setTimeout(() => {
      this.#gapTimer = 0;
      if (!this.#ahead.size) return;
      if (this.#seen + 1 === missing) this.#askSync();
      else this.#armGap();
    }, this.#patience());
  }

  /** A version named (a pong, a frame past a snapshot) but not heard: a sync if it stays so. */
  #expect(version) {
    clearTimeout(this.#expectTimer);
    this.#expectTimer = setTimeout(() => {
      this.#expectTimer = 0;
      if (this.#seen < version && !this.#ahead.size) this.#askSync();
    }, this.#patience());
  }

  /** Apply what was held, in order, as far as the versions run on without a gap. */
  #drain() {
    const before = this.#seen;
    while (this.#ahead.has(this.#seen + 1)) {
      const next = this.#ahead.get(this.#seen + 1);
      this.#ahead.delete(this.#seen + 1);
      this.#seen += 1;
      if (next) this.#onMessage(next);
    }
    for (const v of this.#ahead.keys()) if (v <= this.#seen) this.#ahead.delete(v);
    if (this.#gap && before < this.#gap && this.#seen >= this.#gap) {
      // The gap filled by itself: how late its frame was tells how patient to be.
      const took = performance.now() - this.#gapSince;
      this.#fillMs = Math.max(took, this.#fillMs * 0.8);
      this.#gap = 0;
    }
    if (!this.#ahead.size) { clearTimeout(this.#gapTimer); this.#gapTimer = 0; this.#gap = 0; }
  }

  /** We missed something: say what we have and wait for what followed (once, not per frame). */
  #askSync(force = false) {
    const now = performance.now();
    if (!force && this.#syncAskedAt && now - this.#syncAskedAt < SYNC_PATIENCE_MS) return;
    this.#syncAskedAt = now;
    this.send({ type: "sync", v: Math.max(0, this.#seen) });
  }

  #listen(target, type, fn) {
    target.addEventListener(type, fn);
    this.#cleanup.push(() => target.removeEventListener(type, fn));
  }
}
