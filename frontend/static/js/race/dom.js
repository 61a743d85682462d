// A small element builder: the race page writes text through the DOM, never
// through innerHTML, so a nickname can never become markup.

/**
 * h("button", {class: "r-btn", onclick, dataset: {player: 3}, "aria-label": "…"}, "text", node)
 * Attributes set to null, undefined or false are left out; true sets them empty.
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    else if (key === "style") setStyle(node, String(value));
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((c) => c != null && c !== false).map((c) => (c instanceof Node ? c : String(c))));
  return node;
}

/** "--hue: 40; color: red" onto node.style, one declaration at a time. */
function setStyle(node, text) {
  for (const declaration of text.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon > 0) node.style.setProperty(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
  }
}

export const byId = (id) => document.getElementById(id);

/** Show or hide with the hidden attribute (the CSS honours it everywhere). */
export function show(node, visible = true) {
  if (node) node.hidden = !visible;
  return node;
}
