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

// The public races list: fetched afresh every few seconds while the page is shown
// (the server renders it; the first version came with the page).
const PUBLIC_RACES_EVERY_MS = 5000;
const list = document.getElementById("public-races");
if (list) {
  let shown = null;
  const refresh = async () => {
    if (document.hidden) return;
    try {
      const response = await fetch(list.dataset.src, { headers: { Accept: "text/html" } });
      const html = response.ok ? await response.text() : null;
      // Unchanged: left alone, so that focus and selection inside it survive.
      if (html !== null && html !== shown) list.innerHTML = shown = html;
    } catch {
      // Offline for a moment: the list stays as it was, and the next round tries again.
    }
  };
  setInterval(refresh, PUBLIC_RACES_EVERY_MS);
}
