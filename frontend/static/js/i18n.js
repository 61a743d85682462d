// Django's JavaScript catalogue (gettext, ngettext, interpolate) when the page loads
// it, else English as written. Every user-facing string in the modules goes through here.

export const gettext = globalThis.gettext ?? ((s) => s);
export const ngettext = globalThis.ngettext ?? ((one, many, n) => (n === 1 ? one : many));
export const interpolate = globalThis.interpolate ?? ((fmt, obj, named) => (named
  ? fmt.replace(/%\((\w+)\)s/g, (_, key) => String(obj[key]))
  : (() => { let i = 0; return fmt.replace(/%s/g, () => String(obj[i++])); })()));

/** gettext with named values: t("%(n)s cards", {n: 3}). */
export const t = (text, values = null) => (values ? interpolate(gettext(text), values, true) : gettext(text));
