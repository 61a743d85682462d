// The site's menu on a phone: folded behind one button, so that a page (a game's
// board above all) starts on the first screen. Without this script the menu
// stays unfolded (css/site.css folds it only under .has-menu).

const toggle = document.getElementById("menu-toggle");
const bar = toggle?.closest(".topbar");

function setOpen(open) {
  toggle.setAttribute("aria-expanded", String(open));
  bar.classList.toggle("is-open", open);
}

if (toggle && bar) {
  document.documentElement.classList.add("has-menu");
  toggle.hidden = false;
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && bar.classList.contains("is-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
  document.addEventListener("click", (e) => { if (!bar.contains(e.target)) setOpen(false); });
}
