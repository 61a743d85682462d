// Words, numbers and times as every page shows them. One module, so the practice
// page, the race page and the replay never disagree about what "timeout" is called.

import { gettext, ngettext, interpolate } from "./i18n.js";

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

/**
 * "1 move", "2 moves": the number put into ngettext's form for it, which holds %s.
 * plural(n, ngettext("%s move", "%s moves", n)) (ngettext at the call site: makemessages finds it)
 */
export const plural = (n, form) => interpolate(form, [n]);

/** A game's status in words: the same table as the server's (site_tags.STATUS_LABELS). */
export const STATUS_TEXT = {
  playing: gettext("In play"),
  won: gettext("Won"),
  lost: gettext("No moves left"),
  resigned: gettext("Resigned"),
  timeout: gettext("Time ran out"),
};

/** Text made safe to put inside HTML. */
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The first letter in capitals, for a name at the start of a sentence. */
export const capital = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);

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
  if (m) parts.push(plural(m, ngettext("%s minute", "%s minutes", m)));
  if (s || !m) parts.push(plural(s, ngettext("%s second", "%s seconds", s)));
  return parts.join(" ");
}

export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th");
  return interpolate(gettext("%(n)s%(suffix)s"), { n, suffix }, true);
}

export const initial = (name) => (String(name).trim()[0] ?? "?").toUpperCase();

/** A stable colour per nickname, so a racer keeps their colour from lobby to results. */
export function hue(name) {
  let n = 0;
  for (const ch of String(name)) n = (n * 31 + ch.codePointAt(0)) % 360;
  return n;
}
