// Finding a page's parts once, by id.

/** { name: id, … } → { name: element, … } (null where the page has no such element). */
export const byIds = (ids) => Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, document.getElementById(id)]));
