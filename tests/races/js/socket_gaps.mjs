// Drives frontend/static/js/race/socket.js on a clock of its own (no browser, no waiting):
// prints the `sync` frames it sends for the scenario named on the command line, as JSON.
let now = 0;
let nextId = 1;
const timers = new Map();
globalThis.performance = { now: () => now };
globalThis.setTimeout = (fn, ms) => { const id = nextId++; timers.set(id, { at: now + ms, fn }); return id; };
globalThis.clearTimeout = (id) => { timers.delete(id); };
globalThis.setInterval = () => 0;
globalThis.clearInterval = () => {};
const quiet = { addEventListener() {}, removeEventListener() {} };
globalThis.window = quiet;
globalThis.document = { ...quiet, visibilityState: "visible" };
globalThis.navigator = { onLine: true };

class FakeSocket {
  static OPEN = 1;
  constructor() { this.readyState = 1; this.sent = []; this.on = {}; sockets.push(this); }
  addEventListener(type, fn) { (this.on[type] ??= []).push(fn); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
  emit(type, event) { for (const fn of this.on[type] ?? []) fn(event); }
}
const sockets = [];
globalThis.WebSocket = FakeSocket;

const { RaceSocket } = await import(process.argv[2]);
const socket = new RaceSocket("ws://test/", { onMessage() {} }).open();
const ws = sockets[0];
ws.emit("open", {});

/** Run the clock on by `ms`, firing the timers due on the way, in order. */
function advance(ms) {
  const end = now + ms;
  for (;;) {
    let due = null;
    for (const [id, t] of timers) if (t.at <= end && (!due || t.at < due[1].at)) due = [id, t];
    if (!due) break;
    timers.delete(due[0]);
    now = due[1].at;
    due[1].fn();
  }
  now = end;
}
const frame = (message) => ws.emit("message", { data: JSON.stringify(message) });
const progress = (...vs) => frame({ type: "progress", vs, racers: [] });

frame({ type: "snapshot", v: 10, race: {}, you: {} });
const scenarios = {
  // Frames late by more than the first patience, once gaps are seen to fill late.
  late() {
    progress(12); advance(400); progress(11); // a gap that filled by itself in 400 ms
    progress(14); advance(700); progress(13); // late past 500 ms, within twice the last fill
  },
  // A gap filled while a later one stayed open: the later one's patience starts then.
  successive() {
    progress(12); advance(300); progress(14); advance(150); progress(11);
    advance(100); progress(13);
  },
  // A version that never comes: asked for.
  lost() {
    progress(12); advance(5000);
  },
  // A pong names a version whose frame is on its way.
  pong() {
    frame({ type: "pong", v: 12 }); advance(300); progress(11, 12); advance(5000);
  },
};
scenarios[process.argv[3]]();
console.log(JSON.stringify(ws.sent.filter((m) => m.type === "sync")));
socket.stop();
