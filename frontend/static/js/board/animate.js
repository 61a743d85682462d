// FLIP animations with the Web Animations API: paint the final state first,
// then play each card from where it was. The board always ends exactly on the
// server's view, whatever happens to an animation.

const EASE = "cubic-bezier(.2,.75,.25,1)";
export const DURATION = 210;
export const STAGGER = 120;

export const reducedMotion = () => globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

const done = (anim) => anim.finished.then(() => {}, () => {});

/** Play `node` from `fromRect` (a DOMRect taken before the repaint) to where it now stands. */
export function flyFrom(node, fromRect, { delay = 0, duration = DURATION, turn = false } = {}) {
  if (!node || !fromRect || reducedMotion()) return Promise.resolve();
  const to = node.getBoundingClientRect();
  if (!to.width) return Promise.resolve();
  const dx = fromRect.left - to.left;
  const dy = fromRect.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return Promise.resolve();
  const sx = fromRect.width / to.width;
  const sy = fromRect.height / to.height;
  node.classList.add("is-flying");
  // A card leaving the face-down stock turns over on its way, so it is never seen face up on the stock.
  const frames = turn
    ? [
      { transformOrigin: "50% 50%", transform: `translate(${dx}px, ${dy}px) scaleX(0)` },
      { transformOrigin: "50% 50%", transform: `translate(${dx * 0.6}px, ${dy * 0.6}px) scaleX(1)`, offset: 0.4 },
      { transformOrigin: "50% 50%", transform: "none" },
    ]
    : [
      { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
      { transformOrigin: "0 0", transform: "none" },
    ];
  const anim = node.animate(frames, { duration: turn ? duration * 1.2 : duration, delay, easing: EASE, fill: "backwards" });
  return done(anim).finally(() => node.classList.remove("is-flying"));
}

/** Move a fixed-position ghost back onto a rectangle, then drop it. */
export function glideTo(ghost, rect, duration = DURATION) {
  const from = ghost.getBoundingClientRect();
  const finish = () => ghost.remove();
  if (reducedMotion() || !rect) return Promise.resolve(finish());
  const anim = ghost.animate([
    { transform: ghost.style.transform || "none" },
    { transform: `translate(${rect.left - from.left + currentShift(ghost).x}px, ${rect.top - from.top + currentShift(ghost).y}px)` },
  ], { duration, easing: EASE, fill: "forwards" });
  return done(anim).finally(finish);
}

function currentShift(ghost) {
  const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(ghost.style.transform);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : { x: 0, y: 0 };
}

/** A short no-no shake for a refused card. */
export function shake(node) {
  if (!node || reducedMotion()) return;
  node.animate([
    { transform: "translateX(0)" }, { transform: "translateX(-5px)" }, { transform: "translateX(5px)" },
    { transform: "translateX(-3px)" }, { transform: "translateX(0)" },
  ], { duration: 260, easing: "ease-out" });
}

/** Finish whatever is still running under root, so a new view paints from rest. */
export function settle(root) {
  for (const a of root.getAnimations?.({ subtree: true }) ?? []) {
    try { a.finish(); } catch { a.cancel(); }
  }
}
