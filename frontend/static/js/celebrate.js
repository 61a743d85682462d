// A win's celebration: the foundations' cards cascade down the table and bounce away,
// as the old solitaires did. Decoration only (aria-hidden, no focus, no clicks), and
// nothing at all for a player who asked for less motion.

const CARDS_PER_PILE = 4;
const LIFETIME_MS = 4200;

export function celebrate(host) {
  if (!host || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const piles = [...host.querySelectorAll(".sb-foundation .sc-card:last-child")];
  if (!piles.length) return;
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  const fall = window.innerHeight;
  piles.forEach((card, pile) => {
    const box = card.getBoundingClientRect();
    for (let copy = 0; copy < CARDS_PER_PILE; copy += 1) {
      const flying = card.cloneNode(true);
      flying.removeAttribute("id");
      flying.classList.add("celebration-card");
      // Custom properties through the CSSOM: the page's CSP allows no inline style attribute.
      const side = (pile % 2 ? 1 : -1) * (40 + Math.random() * 220);
      flying.style.setProperty("--x", `${box.left}px`);
      flying.style.setProperty("--y", `${box.top}px`);
      flying.style.setProperty("--w", `${box.width}px`);
      flying.style.setProperty("--h", `${box.height}px`);
      flying.style.setProperty("--dx", `${side}px`);
      flying.style.setProperty("--dy", `${fall - box.top + box.height}px`);
      flying.style.setProperty("--turn", `${(Math.random() - 0.5) * 540}deg`);
      flying.style.setProperty("--delay", `${pile * 120 + copy * 260}ms`);
      layer.append(flying);
    }
  });
  document.body.append(layer);
  setTimeout(() => layer.remove(), LIFETIME_MS + piles.length * 120);
}
