// Drag and drop with pointer events, so mouse, pen and touch share one path.
// The board owns the decisions; this module only moves a ghost card around and
// reports where it was let go.

const THRESHOLD = 6; // px of travel before a press becomes a drag, so taps stay clicks

/**
 * hooks.start(source) → true to allow the drag (and light up targets)
 * hooks.over(dropSpot | null) while moving
 * hooks.drop(source, dropSpot | null, ghost, originCard) when let go; owns the ghost afterwards
 */
export function installDrag(root, hooks) {
  let press = null; // {id, source, spot, x, y, card, ghost, ox, oy}
  let eatClick = false;

  // On touch the ghost rides above the finger so it stays visible; its centre is what lands.
  const landing = (e, p) => {
    if (!p.lift) return [e.clientX, e.clientY];
    const r = p.ghost.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };

  const spotUnder = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    const spot = hit?.closest?.("[data-drop]");
    return spot && root.contains(spot) ? spot : null;
  };

  function begin(e) {
    const card = [...press.spot.children].find((c) => c.classList.contains("sc-card"));
    if (!card || !hooks.start(press.source)) { press = null; return; }
    const r = card.getBoundingClientRect();
    const ghost = card.cloneNode(true);
    ghost.classList.add("sb-ghost");
    ghost.removeAttribute("role");
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
    root.append(ghost);
    card.classList.add("is-drag-origin");
    press.card = card;
    press.ghost = ghost;
    press.lift = e.pointerType === "touch" ? -r.height * 0.45 : 0;
    press.spot.setPointerCapture?.(e.pointerId);
  }

  function onDown(e) {
    if (e.button !== 0 || press) return;
    const spot = e.target.closest?.("[data-source]");
    if (!spot || !root.contains(spot)) return;
    press = { id: e.pointerId, source: spot.dataset.source, spot, x: e.clientX, y: e.clientY, card: null, ghost: null };
  }

  function onMove(e) {
    if (!press || e.pointerId !== press.id) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.ghost) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      begin(e);
      if (!press) return;
    }
    e.preventDefault();
    press.ghost.style.transform = `translate(${dx}px, ${dy + press.lift}px)`;
    hooks.over(spotUnder(...landing(e, press)));
  }

  function onUp(e) {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (!p.ghost) return; // a plain click: the click handler takes it
    eatClick = true;
    setTimeout(() => { eatClick = false; }, 0);
    hooks.over(null);
    hooks.drop(p.source, e.type === "pointercancel" ? null : spotUnder(...landing(e, p)), p.ghost, p.card);
  }

  // The click that follows a drag must not also select or send.
  const onClick = (e) => {
    if (!eatClick) return;
    eatClick = false;
    e.stopPropagation();
    e.preventDefault();
  };

  root.addEventListener("pointerdown", onDown);
  root.addEventListener("pointermove", onMove);
  root.addEventListener("pointerup", onUp);
  root.addEventListener("pointercancel", onUp);
  root.addEventListener("click", onClick, true);
  return {
    get active() { return Boolean(press?.ghost); },
    /** Abandon a drag in progress (Escape, or the view changed under it). */
    abort() {
      if (!press) return;
      const p = press;
      press = null;
      if (p.ghost) { hooks.over(null); hooks.drop(p.source, null, p.ghost, p.card); }
    },
    remove() {
      root.removeEventListener("pointerdown", onDown);
      root.removeEventListener("pointermove", onMove);
      root.removeEventListener("pointerup", onUp);
      root.removeEventListener("pointercancel", onUp);
      root.removeEventListener("click", onClick, true);
    },
  };
}
