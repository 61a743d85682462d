// Small formatting helpers shared by the pages.

/** Milliseconds as a clock reads: 4:07, or 1:02:09 past the hour. */
export function clock(ms) {
  const total = Math.max(0, Math.floor((ms ?? 0) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** "1 move", "2 moves". */
export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export const STATUS_TEXT = {
  playing: "In play",
  won: "Won",
  lost: "No moves left",
  resigned: "Resigned",
  timeout: "Time ran out",
};
