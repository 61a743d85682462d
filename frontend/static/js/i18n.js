// Django's JavaScriptCatalog defines gettext, ngettext and interpolate globally
// once it is loaded; until then every string reads as written (English).
export const gettext = globalThis.gettext ?? ((s) => s);
export const ngettext = globalThis.ngettext ?? ((one, many, n) => (n === 1 ? one : many));
export const interpolate =
  globalThis.interpolate ??
  ((fmt, obj, named) =>
    named ? fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)])) : fmt.replace(/%s/g, () => String(obj.shift())));
