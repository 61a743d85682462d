// The page's language for the modules. base.html loads Django's JavaScript
// catalogue (/jsi18n/<lang>/) before any module; it defines gettext & co. on
// globalThis. Import them from here, never from the global directly, so that
// a page without the catalogue (the board demo, a test page) still reads in
// English instead of throwing.
//
// Write every user-facing string as a literal inside gettext(...) or
// ngettext(...) (makemessages finds them only that way), and put values in
// with interpolate:
//   interpolate(gettext("Deal %(deal)s"), { deal }, true)
//   interpolate(ngettext("%s card", "%s cards", n), [n])

const g = globalThis;

function fallbackInterpolate(fmt, obj, named) {
  if (named) return fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)]));
  let i = 0;
  return fmt.replace(/%s/g, () => String(obj[i++]));
}

export const gettext = g.gettext ?? ((msgid) => msgid);
export const ngettext = g.ngettext ?? ((singular, plural, count) => (count === 1 ? singular : plural));
export const pgettext = g.pgettext ?? ((context, msgid) => msgid);
export const npgettext =
  g.npgettext ?? ((context, singular, plural, count) => (count === 1 ? singular : plural));
export const interpolate = g.interpolate ?? fallbackInterpolate;

/** "seven of hearts" → "Seven of hearts": for a name that starts a sentence. */
export const capitalize = (text) => (text ? text[0].toLocaleUpperCase(lang) + text.slice(1) : text);

/** The page's language (`<html lang>`), for Intl formatting. */
export const lang = document.documentElement.lang || "en";

/** A date and time as the page's language writes them: "1 дек. 2026 г., 14:05". */
export function formatDateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(lang, options).format(date);
}

/** ["Leila", "Omar", "Aziz"] → "Leila, Omar and Aziz" («Лейла, Омар и Азиз»). */
export function andList(items) {
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(items);
}

/** ["foundation 3", "slot b"] → "foundation 3 or slot b" («стопка 3 или место b»). */
export function orList(items) {
  return new Intl.ListFormat(lang, { type: "disjunction" }).format(items);
}

/** A number with the language's grouping: 12 345 in Russian, 12,345 in English. */
export function formatNumber(value) {
  return new Intl.NumberFormat(lang).format(value);
}
