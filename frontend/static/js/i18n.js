// Django's JavaScriptCatalog defines gettext, ngettext and interpolate on the
// page once it is loaded; until then (or without it) strings stay in English.

export const gettext = globalThis.gettext ?? ((s) => s);
export const ngettext = globalThis.ngettext ?? ((one, many, n) => (n === 1 ? one : many));
export const interpolate = globalThis.interpolate ?? ((format, args) => {
  let i = 0;
  return format.replace(/%s/g, () => String(args[i++]));
});
