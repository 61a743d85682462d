// A race game's replay extras: the other racers' tables at the same race time,
// a chart of cards played over time for everyone, and the final standings.

import { renderMiniGrid } from "../board.js";
import { clock, escapeHtml, STATUS_TEXT } from "../format.js";
import { gettext, interpolate } from "../i18n.js";

const COLORS = ["#7fd1b9", "#f49c8c", "#9db8ff", "#e2a6f2", "#f2c48d", "#a6e3a1", "#c9d1d9", "#ffb3d1"];
const THIS = "#f6dd8f";
const SVG = "http://www.w3.org/2000/svg";

/** The racer's race view at time t: the last frame at or before it. */
export function frameAt(racer, t) {
  let found = racer.frames[0];
  for (const frame of racer.frames) {
    if (frame.t > t) break;
    found = frame;
  }
  return found;
}

function colours(racers, focus) {
  const map = new Map();
  let k = 0;
  for (const r of racers) map.set(r.game, r.game === focus ? THIS : COLORS[k++ % COLORS.length]);
  return map;
}

/** Mini grids of the other racers; setTime(t) repaints them at race time t. */
export function createRacers(host, racers, focus) {
  const others = racers.filter((r) => r.game !== focus);
  const cards = others.map((r) => {
    const wrap = document.createElement("div");
    wrap.className = "racer-card";
    const grid = document.createElement("div");
    const link = document.createElement("a");
    link.href = `/games/${r.game}/replay/`;
    link.textContent = interpolate(gettext("Watch %(name)s’s game"), { name: r.nickname }, true);
    wrap.append(grid, link);
    return { racer: r, grid, wrap };
  });
  host.replaceChildren(...cards.map((c) => c.wrap));
  if (!others.length) host.textContent = gettext("Nobody else raced this one.");
  return {
    setTime(t) {
      for (const c of cards) renderMiniGrid(c.grid, frameAt(c.racer, t), { label: c.racer.nickname });
    },
  };
}

function niceStep(span, most = 6) {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200].map((s) => s * 1000);
  return steps.find((s) => span / s <= most) ?? span / most;
}

// The height of the chart: all 95 cards when someone came close, else room
// above the best count, so a short race is not a flat line along the floor.
function cardScale(racers) {
  const best = Math.max(...racers.map((r) => Math.max(...r.frames.map((f) => f.cards_played))));
  if (best > 60) return { top: 95, ticks: [0, 25, 50, 75, 95] };
  const step = [2, 5, 10, 20].find((s) => (best + 1) / s <= 4) ?? 20;
  const top = Math.max(step * 2, Math.ceil((best + 1) / step) * step);
  const ticks = [];
  for (let n = 0; n <= top; n += step) ticks.push(n);
  return { top, ticks };
}

/** The chart of cards played over race time; setTime(t) moves its cursor. */
export function createChart(host, legend, racers, focus) {
  const palette = colours(racers, focus);
  const total = Math.max(1000, ...racers.map((r) => r.end_t ?? r.frames.at(-1).t));
  const cards = cardScale(racers);
  const M = { l: 34, r: 14, t: 12, b: 28 };
  let svg = null;
  let scale = null;
  let now = 0;

  function draw() {
    const width = Math.max(280, host.clientWidth || 600);
    const height = width < 520 ? 190 : 230;
    const x = (t) => M.l + (Math.min(t, total) / total) * (width - M.l - M.r);
    const y = (n) => height - M.b - (n / cards.top) * (height - M.t - M.b);
    scale = { x, y };
    const step = niceStep(total, width < 520 ? 4 : 7);
    let grid = "";
    for (const n of cards.ticks) {
      grid += `<line class="chart-grid" x1="${M.l}" x2="${width - M.r}" y1="${y(n)}" y2="${y(n)}"/>`;
      grid += `<text class="chart-label" x="${M.l - 6}" y="${y(n) + 4}" text-anchor="end">${n}</text>`;
    }
    for (let t = 0; t <= total + 1; t += step) {
      grid += `<text class="chart-label" x="${x(t)}" y="${height - 8}" text-anchor="middle">${clock(t)}</text>`;
    }
    const lines = racers.map((r) => {
      let d = `M${x(0)},${y(r.frames[0].cards_played)}`;
      for (const f of r.frames.slice(1)) d += `H${x(f.t)}V${y(f.cards_played)}`;
      d += `H${x(r.end_t ?? total)}`;
      return `<path class="chart-line${r.game === focus ? " is-this" : ""}" stroke="${palette.get(r.game)}" d="${d}"/>`;
    });
    // The replayed game's line goes on top.
    lines.sort((a, b) => Number(a.includes("is-this")) - Number(b.includes("is-this")));
    const dots = racers.map((r) => `<circle class="chart-dot" r="4.5" fill="${palette.get(r.game)}" data-game="${r.game}"/>`);
    host.innerHTML = `<svg xmlns="${SVG}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(gettext("Cards played over the race, one line per racer"))}">`
      + `${grid}<line class="chart-axis" x1="${M.l}" x2="${width - M.r}" y1="${y(0)}" y2="${y(0)}"/>`
      + `${lines.join("")}<line class="chart-cursor" id="chart-cursor" y1="${M.t - 4}" y2="${y(0)}"/>${dots.join("")}</svg>`;
    svg = host.firstElementChild;
    setTime(now);
  }

  function setTime(t) {
    now = t;
    if (!svg) return;
    const cursor = svg.querySelector(".chart-cursor");
    cursor.setAttribute("x1", scale.x(t));
    cursor.setAttribute("x2", scale.x(t));
    for (const dot of svg.querySelectorAll(".chart-dot")) {
      const racer = racers.find((r) => String(r.game) === dot.dataset.game);
      const at = Math.min(t, racer.end_t ?? total);
      dot.setAttribute("cx", scale.x(at));
      dot.setAttribute("cy", scale.y(frameAt(racer, t).cards_played));
    }
  }

  legend.innerHTML = racers.map((r) => `<li><span class="swatch" data-game="${r.game}"></span>${escapeHtml(r.nickname)}${r.bot ? ` ${escapeHtml(gettext("(BOT)"))}` : ""}${r.game === focus ? ` ${escapeHtml(gettext("(this game)"))}` : ""} · ${r.cards_played}/95 · ${STATUS_TEXT[r.status] ?? r.status}</li>`).join("");
  // Through the CSSOM: the Content-Security-Policy refuses style attributes in markup.
  for (const swatch of legend.querySelectorAll(".swatch")) {
    const racer = racers.find((r) => String(r.game) === swatch.dataset.game);
    swatch.style.setProperty("--c", palette.get(racer?.game));
  }
  draw();
  new ResizeObserver(() => draw()).observe(host);
  return { setTime };
}

// The standings' column names, repeated on each cell for the phone layout.
const LABEL = {
  rank: escapeHtml(gettext("Rank")), racer: escapeHtml(gettext("Racer")), result: escapeHtml(gettext("Result")),
  cards: escapeHtml(gettext("Cards")), time: escapeHtml(gettext("Time")), moves: escapeHtml(gettext("Moves")),
  replay: escapeHtml(gettext("Replay")),
};

/** The final standings, with a link to every racer's replay. */
export function fillResults(table, results, focus) {
  const body = table.tBodies[0];
  body.innerHTML = (results ?? []).map((r) => `<tr>
    <td data-label="${LABEL.rank}">${r.rank}</td>
    <td data-label="${LABEL.racer}">${escapeHtml(r.nickname)}${r.bot ? ` <span class="tag tag-bot">${escapeHtml(gettext("BOT"))}</span>` : ""}</td>
    <td data-label="${LABEL.result}"><span class="pill pill-${r.status}">${STATUS_TEXT[r.status] ?? r.status}</span></td>
    <td data-label="${LABEL.cards}" class="num">${r.cards_played}/95</td>
    <td data-label="${LABEL.time}" class="num">${r.time_ms == null ? "—" : clock(r.time_ms)}</td>
    <td data-label="${LABEL.moves}" class="num">${r.moves}</td>
    <td data-label="${LABEL.replay}">${r.game === focus ? `<span class="game-note">${escapeHtml(gettext("Showing"))}</span>` : `<a href="/games/${r.game}/replay/">${escapeHtml(gettext("Watch"))}</a>`}</td>
  </tr>`).join("");
}
