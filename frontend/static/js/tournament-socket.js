// The tournament socket, /ws/tournaments/<code>/ (docs/protocol.md, "Tournament socket"):
// its standings frames, each version once, reconnecting with a growing wait. The tournament
// page draws its table from them; a tournament race's page, once the race is over, learns
// from them that its racer was seated in the next race.

export function watchStandings(code, { onFrame, onLive = () => {} }) {
  let seen = -1; // a version already handed on is dropped
  let retry = 500;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(code)}/`);
    let ping = null;
    ws.addEventListener("open", () => {
      retry = 500;
      onLive(true);
      ping = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), 20_000);
    });
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type !== "standings" || frame.v <= seen) return;
      seen = frame.v;
      onFrame(frame);
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
