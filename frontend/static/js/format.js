// Small formatting helpers shared by the pages.

import { pgettext } from "./i18n.js";

/** Milliseconds as a clock reads: 4:07, or 1:02:09 past the hour. */
export function clock(ms) {
  const total = Math.max(0, Math.floor((ms ?? 0) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A game's status as pages name it (the same words as the server's labels). */
export const STATUS_TEXT = {
  playing: pgettext("game status", "In play"),
  won: pgettext("game status", "Won"),
  lost: pgettext("game status", "No moves left"),
  resigned: pgettext("game status", "Resigned"),
  timeout: pgettext("game status", "Time ran out"),
};
