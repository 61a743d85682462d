// Django's JavaScript catalogue (gettext, ngettext, interpolate) when the page loads
// it, else English as written. Every user-facing string in the modules goes through here.

export const gettext = globalThis.gettext ?? ((s) => s);
export const ngettext = globalThis.ngettext ?? ((one, many, n) => (n === 1 ? one : many));
export const interpolate = globalThis.interpolate ?? ((fmt, obj, named) => (named
  ? fmt.replace(/%\((\w+)\)s/g, (_, key) => String(obj[key]))
  : (() => { let i = 0; return fmt.replace(/%s/g, () => String(obj[i++])); })()));

/**
 * A translated text with its named values: t(gettext("%(n)s cards"), {n: 3}).
 * The gettext call stays at the call site, where makemessages finds the text.
 */
export const t = (translated, values = null) => (values ? interpolate(translated, values, true) : translated);
