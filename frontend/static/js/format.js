// Words, numbers and times as every page shows them. One module, so the practice
// page, the race page and the replay never disagree about what "timeout" is called.
// The words come from the page's catalogue (i18n.js); put values into them with
// interpolate, e.g. interpolate(ngettext("%s move", "%s moves", n), [n]).

import { gettext, interpolate, lang, ngettext, pgettext } from "./i18n.js";

/** Milliseconds as a clock reads: 4:07, or 1:02:09 past the hour. */
export function clock(ms) {
  const total = Math.max(0, Math.floor((ms ?? 0) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A clock face for time left: "14:59", "1:02:03"; never negative (rounds up). */
export const clockText = (ms) => clock(Math.ceil(Math.max(0, ms) / 1000) * 1000);

/** A game's status as pages name it: the same words (and context) as the server's
 * labels (games/i18n/labels.py STATUS_LABELS). */
export const STATUS_TEXT = {
  playing: pgettext("game status", "In play"),
  won: pgettext("game status", "Won"),
  lost: pgettext("game status", "No moves left"),
  resigned: pgettext("game status", "Resigned"),
  timeout: pgettext("game status", "Time ran out"),
};

/** A racer's result, in the same English words; other languages say it of the racer
 * (Russian «Сдался», where the game is «Сдана»), hence its own context. */
export const RESULT_TEXT = {
  playing: pgettext("race result", "In play"),
  won: pgettext("race result", "Won"),
  lost: pgettext("race result", "No moves left"),
  resigned: pgettext("race result", "Resigned"),
  timeout: pgettext("race result", "Time ran out"),
};

/** Text made safe to put inside HTML. */
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Server timestamps carry microseconds; Date.parse wants at most milliseconds. */
export function parseTime(iso) {
  if (!iso) return null;
  const ms = Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(ms) ? null : ms;
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
  if (ms == null || ms < 0) return gettext("no time");
  const total = Math.round(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  const parts = [];
  if (m) parts.push(interpolate(ngettext("%s minute", "%s minutes", m), [m]));
  if (s || !m) parts.push(interpolate(ngettext("%s second", "%s seconds", s), [s]));
  return parts.join(" ");
}

// A rank as the language writes it: 1st, 2nd, 3rd, 4th; «1-й», «2-й».
const ORDINAL = {
  one: pgettext("ordinal ending in 1", "%(n)sst"),
  two: pgettext("ordinal ending in 2", "%(n)snd"),
  few: pgettext("ordinal ending in 3", "%(n)srd"),
  other: pgettext("ordinal", "%(n)sth"),
};
const ordinalRules = new Intl.PluralRules(lang, { type: "ordinal" });

export function ordinal(n) {
  return interpolate(ORDINAL[ordinalRules.select(n)] ?? ORDINAL.other, { n }, true);
}

export const initial = (name) => (String(name).trim()[0] ?? "?").toUpperCase();

/** A stable colour per nickname, so a racer keeps their colour from lobby to results. */
export function hue(name) {
  let n = 0;
  for (const ch of String(name)) n = (n * 31 + ch.codePointAt(0)) % 360;
  return n;
}
