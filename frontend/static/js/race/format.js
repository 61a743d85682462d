// Words and numbers as the race page shows them. One place, so the lobby, the
// panels and the results never disagree about what "timeout" is called.

export const RESULT_LABEL = {
  playing: "Playing",
  won: "Won",
  lost: "Out of moves",
  resigned: "Resigned",
  timeout: "Out of time",
};

/** Server timestamps carry microseconds; Date.parse wants at most milliseconds. */
export function parseTime(iso) {
  if (!iso) return null;
  const ms = Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(ms) ? null : ms;
}

/** A clock face for time left: "14:59", "1:02:03"; never negative. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A finishing time to the tenth: "4:05.2"; "—" when there is none. */
export function durationText(ms) {
  if (ms == null || ms < 0) return "—";
  const tenths = Math.floor(ms / 100);
  const m = Math.floor(tenths / 600);
  const s = ((tenths % 600) / 10).toFixed(1).padStart(4, "0");
  return `${m}:${s}`;
}

/** The same time read aloud: "4 minutes 5 seconds". */
export function durationWords(ms) {
  if (ms == null || ms < 0) return "no time";
  const total = Math.round(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  const parts = [];
  if (m) parts.push(`${m} minute${m === 1 ? "" : "s"}`);
  if (s || !m) parts.push(`${s} second${s === 1 ? "" : "s"}`);
  return parts.join(" ");
}

export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th");
  return `${n}${suffix}`;
}

export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export const initial = (name) => (String(name).trim()[0] ?? "?").toUpperCase();

/** A stable colour per nickname, so a racer keeps their colour from lobby to results. */
export function hue(name) {
  let n = 0;
  for (const ch of String(name)) n = (n * 31 + ch.codePointAt(0)) % 360;
  return n;
}
