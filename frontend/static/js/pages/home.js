// The home page's hero: the Sultan surrounded by his queens, dealt in a fan.
// Decoration only (the container is aria-hidden); the page works without it.

import { createCardEl, ensureSprite } from "../cards.js";

const art = document.getElementById("hero-art");
if (art) {
  ensureSprite(document);
  const cards = [["QD", -22], ["QS", -11], ["QC", 11], ["QH", 22], ["KH", 0]];
  cards.forEach(([code, angle], i) => {
    const card = createCardEl(code, { sultan: code === "KH" });
    card.style.transform = `translateX(-50%) rotate(${angle}deg)`;
    card.style.zIndex = String(code === "KH" ? 10 : i);
    card.style.animationDelay = `${i * 70}ms`;
    art.append(card);
  });
}
