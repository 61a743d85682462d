// The tournament socket, /ws/tournaments/<code>/ (docs/protocol.md, "Tournament socket"):
// the whole table first, then the rows that changed, each version once, reconnecting with a
// growing wait. The tournament page draws its table from the frames handed on, always whole;
// a tournament race's page, once the race is over, learns from them that its racer was
// seated in the next race.

/** The table a client holds, and what a frame does to it (protocol.md's rule, here only):
 * a `standings` frame replaces it; a `rows` frame applies to the version it was counted
 * from (`base`), is dropped when seen, and otherwise leaves a gap to `sync` over. */
export class Standings {
  constructor() {
    this.v = -1;
    this.order = [];
    this.rows = new Map();
  }

  /** "changed", "seen" or "gap". */
  take(frame) {
    if (frame.v <= this.v) return "seen";
    if (frame.type === "standings") {
      this.order = frame.rows.map((r) => r.player);
      this.rows = new Map(frame.rows.map((r) => [r.player, r]));
    } else if (frame.base === this.v) {
      for (const r of frame.rows) this.rows.set(r.player, r);
      if (frame.order) this.order = frame.order;
    } else {
      return "gap";
    }
    this.v = frame.v;
    return "changed";
  }

  whole(frame) {
    const rows = this.order.map((player, i) => ({ ...this.rows.get(player), rank: i + 1 }));
    return { type: "standings", v: this.v, phase: frame.phase, ends_at: frame.ends_at, rows };
  }
}

export function watchStandings(code, { onFrame, onLive = () => {} }) {
  const table = new Standings();
  let retry = 500;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(code)}/`);
    let ping = null;
    let syncing = false;
    ws.addEventListener("open", () => {
      retry = 500;
      onLive(true);
      ping = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), 20_000);
    });
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type !== "standings" && frame.type !== "rows") return;
      const taken = table.take(frame);
      if (taken === "changed") onFrame(table.whole(frame));
      // Until the whole table comes, every later frame is a gap too: one ask is enough.
      else if (taken === "gap" && !syncing) {
        syncing = true;
        ws.send(JSON.stringify({ type: "sync" }));
      }
      if (frame.type === "standings") syncing = false;
    });
    ws.addEventListener("close", () => {
      onLive(false);
      clearInterval(ping);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10_000);
    });
  };
  connect();
}

/** The sessionStorage key of the race of a tournament this tab has shown its racer: the
 * tournament page never sends a tab back into a race it has already been in. */
export function takenKey(code) {
  return `tournament-race-${code}`;
}
