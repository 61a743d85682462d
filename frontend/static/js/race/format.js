// Words and numbers as the race page shows them. One place, so the lobby, the
// panels and the results never disagree about what "timeout" is called.

import { gettext, interpolate, lang, ngettext, pgettext } from "../i18n.js";

export const RESULT_LABEL = {
  playing: pgettext("race result", "Playing"),
  won: pgettext("race result", "Won"),
  lost: pgettext("race result", "Out of moves"),
  resigned: pgettext("race result", "Resigned"),
  timeout: pgettext("race result", "Out of time"),
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
