// A player's settings, remembered in this browser: automatic moves (practice) and
// sounds. Both are off until the player turns them on.

const KEYS = { automatic: "sultan.automatic-moves", sounds: "sultan.sounds" };

export function pref(name) {
  try { return localStorage.getItem(KEYS[name]) === "on"; } catch { return false; }
}

export function setPref(name, on) {
  try { localStorage.setItem(KEYS[name], on ? "on" : "off"); } catch { /* private mode: for this page only */ }
}

/** Keep a checkbox and a setting in step; `changed(on)` hears the player's changes. */
export function bindToggle(input, name, changed = () => {}) {
  if (!input) return;
  input.checked = pref(name);
  input.addEventListener("change", () => {
    setPref(name, input.checked);
    changed(input.checked);
  });
}
