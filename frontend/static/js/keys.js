// Keyboard play for the board (the map is documented in docs/keyboard.md).
// Keys act on the whole page unless the player is typing somewhere, so a race
// can be played without ever reaching for the mouse.

const NOT_TEXT = ["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"].map((t) => `:not([type=${t}])`).join("");
const TYPING = `input${NOT_TEXT}, textarea, select, [contenteditable=''], [contenteditable='true']`;
const PRESSABLE = "button, a[href], summary, input, [role=button], [role=checkbox], [role=switch], [role=tab], [role=menuitem]";
// Where Space stays the control's own: a dialog's, a form's or a menu's controls, the
// site's header, a switch (a checkbox has no other key) and what asks for it.
const OWN_SPACE = "dialog, form, .menu-pop, .topbar, input, [role=checkbox], [role=switch], [data-own-space]";

/**
 * actions: { stock(), redeal(), waste(), letter(l), digit(n), cancel(), undo(),
 *            enabled() → bool, readable() → bool }
 * Returns { remove() }.
 */
export function installKeys(root, actions, target = document) {
  function onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest?.(TYPING)) return;
    const inBoard = root.contains(e.target);
    // While the game is on, Space draws even from the game's buttons (Undo, Hint,
    // Finish, Resign…: Enter presses them): a mouse leaves focus on the last button
    // clicked, and Space pressing it again would undo ten moves instead of drawing
    // ten cards. Elsewhere Space presses the focused control.
    if (e.key === " " && !inBoard && e.target.closest?.(PRESSABLE)) {
      if (!actions.enabled() || e.target.closest(OWN_SPACE)) return;
    }
    // With nothing focused yet (a game page just opened), an arrow enters the table of a
    // game in play: scrolling is all it would do otherwise (a replay keeps its arrows).
    const unfocused = e.target === document.body || e.target === document.documentElement;
    if (e.key.startsWith("Arrow") && (inBoard ? actions.readable() : unfocused && actions.enabled())) {
      if (roam(root, e.key)) e.preventDefault();
      return;
    }
    if (!actions.enabled()) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let handled = true;
    if (key === "Escape") handled = actions.cancel();
    else if (key === " ") {
      // Space always draws, even with a card or the Undo button focused (Enter
      // presses those): mouse players keep focus on the last thing they clicked.
      actions.stock();
    } else if (key === "s") actions.stock(); // not "d": d names reserve slot d
    else if (key === "r") actions.redeal();
    else if (key === "w") actions.waste();
    else if (key === "u") actions.undo();
    else if (key >= "a" && key <= "h") actions.letter(key);
    else if (key >= "1" && key <= "9") actions.digit(Number(key));
    else handled = false;
    if (handled) e.preventDefault();
  }
  target.addEventListener("keydown", onKey);

  // A switch of the game (Sounds, Automatic moves) clicked with the mouse hands focus
  // back to the table, so the next Space draws; from the keyboard (a click of detail 0)
  // it keeps focus, and Space toggles it as a switch should. Handed back within the
  // click's own task, never on a timer: browsers run input before timers, so a Space
  // pressed at once went to the switch (and toggled it) before a timer gave focus back.
  // A label's click focuses its box and then clicks it: the box's click hands back.
  let labelClicked = null;
  function onSwitchClick(e) {
    if (!actions.enabled()) return;
    const box = e.target.closest?.("label, input[type=checkbox]");
    if (!box || root.contains(box) || box.closest("dialog, form, .menu-pop, .topbar")) return;
    const input = box.matches("input") ? box : box.querySelector("input[type=checkbox]");
    if (!input) return;
    if (box !== input) {
      labelClicked = e.detail === 0 ? null : input;
      return;
    }
    const byPointer = e.detail !== 0 || labelClicked === input;
    labelClicked = null;
    if (byPointer) root.querySelector("[data-nav][tabindex='0']")?.focus({ preventScroll: true });
  }
  target.addEventListener("click", onSwitchClick);

  // Roving tabindex: the board is one Tab stop; arrows move between its spots.
  function onFocusIn(e) {
    const spot = e.target.closest?.("[data-nav]");
    if (spot && root.contains(spot)) makeCurrent(root, spot);
  }
  root.addEventListener("focusin", onFocusIn);
  ensureTabStop(root);

  return {
    remove() {
      target.removeEventListener("keydown", onKey);
      target.removeEventListener("click", onSwitchClick);
      root.removeEventListener("focusin", onFocusIn);
    },
  };
}

function makeCurrent(root, spot) {
  for (const s of root.querySelectorAll("[data-nav]")) s.tabIndex = s === spot ? 0 : -1;
}

/** After a rebuild, keep exactly one spot reachable with Tab. */
export function ensureTabStop(root, preferred = null) {
  const spots = [...root.querySelectorAll("[data-nav]")];
  const current = preferred ?? spots.find((s) => s.tabIndex === 0) ?? root.querySelector("[data-action=stock]") ?? spots[0];
  if (current) makeCurrent(root, current);
}

const DIRS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// Nearest spot in the arrow's direction, favouring ones in line with the current one.
function roam(root, key) {
  const from = document.activeElement?.closest?.("[data-nav]");
  const spots = [...root.querySelectorAll("[data-nav]")];
  if (!from || !root.contains(from)) {
    ensureTabStop(root);
    root.querySelector("[data-nav][tabindex='0']")?.focus();
    return true;
  }
  const [dx, dy] = DIRS[key];
  const a = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const s of spots) {
    if (s === from) continue;
    const b = centre(s);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 4) continue;
    const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    const score = along + across * 2.5;
    if (score < bestScore) { bestScore = score; best = s; }
  }
  if (!best) return false;
  makeCurrent(root, best);
  best.focus();
  return true;
}

function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}
