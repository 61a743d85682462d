// Demo harness: a tiny in-page "server" that plays Sultan well enough to drive
// the board (its own shuffle, not the engine's deal numbers). Not for production.

import { createBoard, renderMiniGrid } from "../js/board.js";

const SLOTS = { sultan: 6, "sultan-8": 8, pysolfc: 6, "pysolfc-8": 8 };
const LAYOUT = ["KD", "AH", "KD", "KS", "KH", "KS", "KC", "KH", "KC"];
const RANKS = "A23456789TJQK";
const LETTERS = "abcdefgh";

function rng(seed) { // mulberry32: small and repeatable
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffle(cards, rand) {
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

function deal(variant, seed, late = false) {
  const rand = rng(seed);
  const foundations = [...LAYOUT];
  let cards = [];
  for (let d = 0; d < 2; d++) for (const s of "CDHS") for (const r of RANKS) cards.push(r + s);
  for (const c of LAYOUT) cards.splice(cards.indexOf(c), 1);
  if (late) { // most cards already home: for screenshots of a nearly won game
    const tops = ["JD", "QH", "9D", "QS", "KH", "TS", "QC", "JH", "8C"];
    tops.forEach((top, i) => {
      foundations[i] = top;
      if (i === 4) return;
      const from = i === 1 ? 1 : 0;
      for (let v = from; v <= RANKS.indexOf(top[0]); v++) cards.splice(cards.indexOf(RANKS[v] + top[1]), 1);
    });
  }
  shuffle(cards, rand);
  const n = SLOTS[variant];
  const played = 95 - cards.length;
  const state = { variant, foundations, reserve: cards.splice(0, n), waste: [], stock: cards, redeals_left: 2, status: "playing", cards_played: played, seed };
  if (variant.startsWith("pysolfc")) state.waste.push(state.stock.shift());
  return state;
}

function accepts(state, n, card) {
  const top = state.foundations[n - 1];
  if (n === 5 || !card || card[1] !== top[1] || top[0] === "Q") return false;
  return card[0] === (top[0] === "K" ? "A" : RANKS[RANKS.indexOf(top[0]) + 1]);
}

function legalMoves(s) {
  if (s.status !== "playing") return [];
  const out = [];
  if (s.stock.length) out.push("draw");
  else if (s.waste.length && s.redeals_left > 0) out.push("redeal");
  const top = s.waste.at(-1);
  for (let n = 1; n <= 9; n++) {
    if (accepts(s, n, top)) out.push(`w${n}`);
    s.reserve.forEach((c, i) => { if (accepts(s, n, c)) out.push(`${LETTERS[i]}${n}`); });
  }
  if (top && s.variant.startsWith("pysolfc")) s.reserve.forEach((c, i) => { if (!c) out.push(`w${LETTERS[i]}`); });
  return out;
}

function apply(s, token) {
  const ev = [];
  if (token === "draw") {
    const card = s.stock.shift();
    s.waste.push(card);
    ev.push({ type: "move", card, from: "stock", to: "waste" });
  } else if (token === "redeal") {
    s.stock = s.variant.startsWith("pysolfc") ? s.waste : shuffle(s.waste, rng(s.seed + s.redeals_left));
    s.waste = [];
    s.redeals_left -= 1;
    ev.push({ type: "redeal", cards: s.stock.length });
  } else {
    const [src, dst] = token;
    const i = LETTERS.indexOf(src);
    const card = src === "w" ? s.waste.pop() : s.reserve[i];
    const from = src === "w" ? "waste" : `reserve:${src}`;
    if (dst >= "1" && dst <= "9") {
      s.foundations[Number(dst) - 1] = card;
      s.cards_played += 1;
      ev.push({ type: "move", card, from, to: `foundation:${dst}` });
      if (src !== "w") {
        s.reserve[i] = null;
        if (s.variant.startsWith("sultan") && s.stock.length) {
          s.reserve[i] = s.stock.shift();
          ev.push({ type: "refill", card: s.reserve[i], slot: src });
        }
      }
    } else {
      s.reserve[LETTERS.indexOf(dst)] = card;
      ev.push({ type: "move", card, from, to: `reserve:${dst}` });
    }
  }
  if (s.cards_played === 95) s.status = "won";
  else if (!legalMoves(s).length) s.status = "lost";
  if (s.status !== "playing") ev.push({ type: "status", status: s.status });
  return ev;
}

const view = (s) => ({
  variant: s.variant, foundations: [...s.foundations], reserve: [...s.reserve], waste: [...s.waste],
  stock_count: s.stock.length, redeals_left: s.redeals_left, status: s.status, cards_played: s.cards_played, legal: legalMoves(s),
});
const raceView = (s) => ({
  foundations: s.foundations.map((top, i) => (i === 4 ? 1 : i === 1 ? RANKS.indexOf(top[0]) + 1 : top[0] === "K" ? 1 : RANKS.indexOf(top[0]) + 2)),
  cards_played: s.cards_played, passes_used: 3 - s.redeals_left, status: s.status,
});

// ——— wiring the page ———

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
let state;
let history = [];
const log = $("#last-intent");

const board = createBoard($("#board"), {
  onIntent(token) {
    log.textContent = token;
    setTimeout(() => answer(token), Number($("#latency").value));
  },
});

function answer(token) {
  if ($("#refuse").checked) {
    $("#refuse").checked = false;
    board.reject(token, "The server refused that move (demo)");
    return;
  }
  if (token === "undo") {
    if (!history.length) { board.reject(token, "Nothing to undo"); return; }
    state = history.pop();
    board.applyAck([{ type: "undo" }], view(state));
  } else if (!legalMoves(state).includes(token)) {
    board.reject(token, `Illegal move: ${token}`);
    return;
  } else {
    history.push(structuredClone(state));
    board.applyAck(apply(state, token), view(state));
  }
  paintRace();
}

const rivals = [{ name: "Scheherazade", n: 0 }, { name: "Aladdin", n: 0 }];
function paintRace() {
  renderMiniGrid($("#me"), raceView(state), { label: "You" });
  rivals.forEach((r, k) => {
    const fake = deal(state.variant, state.seed + 1 + k);
    const rand = rng(r.n * 7 + k);
    for (let i = 0; i < r.n; i++) {
      const moves = legalMoves(fake);
      if (!moves.length) break;
      const plays = moves.filter((m) => m !== "draw" && m !== "redeal");
      apply(fake, plays.length ? plays[Math.floor(rand() * plays.length)] : moves[0]);
    }
    renderMiniGrid($(`#rival-${k}`), raceView(fake), { label: r.name });
  });
}

function newGame() {
  state = deal($("#variant").value, Number($("#seed").value) || 1, $("#late").checked);
  history = [];
  board.render(view(state));
  paintRace();
}

$("#variant").value = params.get("variant") ?? "sultan";
$("#seed").value = params.get("seed") ?? "7";
$("#late").checked = params.has("late");
$("#new").addEventListener("click", newGame);
$("#variant").addEventListener("change", newGame);
$("#late").addEventListener("change", newGame);
$("#readonly").addEventListener("change", (e) => board.setInteractive(!e.target.checked));
setInterval(() => { rivals.forEach((r) => { r.n += Math.random() < 0.5 ? 1 : 0; }); if (state) paintRace(); }, 1500);
newGame();
window.demo = { board, get state() { return state; } }; // for poking from the console and tests
