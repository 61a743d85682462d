// The table's colour and the cards' back, chosen on the practice page and remembered
// in this browser (localStorage): every board page applies them as it loads.

const CHOICES = {
  felt: { key: "sultan.felt", values: ["green", "blue", "burgundy", "slate"] },
  back: { key: "sultan.card-back", values: ["crimson", "blue", "green"] },
};

function read(name) {
  const { key, values } = CHOICES[name];
  try {
    const value = localStorage.getItem(key);
    return values.includes(value) ? value : values[0];
  } catch {
    return values[0];
  }
}

function apply(name, value) {
  document.documentElement.dataset[name] = value;
}

/** Apply the remembered choices to this page (board.css reads html[data-felt], html[data-back]). */
export function applyTablePrefs() {
  for (const name of Object.keys(CHOICES)) apply(name, read(name));
}

/** Keep a <select> and a choice in step: `select.dataset.pref` names it (felt or back). */
export function bindTableChoice(select) {
  const name = select?.dataset.pref;
  if (!CHOICES[name]) return;
  select.value = read(name);
  select.addEventListener("change", () => {
    if (!CHOICES[name].values.includes(select.value)) return;
    try { localStorage.setItem(CHOICES[name].key, select.value); } catch { /* private mode: this page only */ }
    apply(name, select.value);
  });
}

applyTablePrefs();
