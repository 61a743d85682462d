// The replay viewer. The server sends every step already replayed (the view
// after each event and its time); this page only walks through them: step,
// scrub, jump, autoplay, and keeps `#move=N` in the address in step.

import "../table-prefs.js"; // the table colour and card back this browser chose
import { createBoard } from "../board.js";
import { api } from "../api.js";
import { clock } from "../format.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { createMoveList } from "../replay/moves.js";
import { createLineWatch } from "../linewatch.js";
import { byIds } from "../dom.js";
import { createChart, createRacers, fillResults } from "../replay/race.js";

const root = document.getElementById("replay");
const $ = (id) => document.getElementById(id);
const els = byIds({
  host: "replay-board", loading: "board-loading", error: "replay-error",
  scrubber: "scrubber", position: "position", move: "pos-move", total: "pos-total",
  token: "pos-token", time: "pos-time", play: "play", speed: "speed",
});
const MIN_GAP = 120; // ms: even at real pace, two moves never blur into one

let steps = [];
let index = -1;
let board = null;
let playing = false;
let timer = 0;
let extras = [];
let moveList = null;
let watching = null; // the solver's line on the board, while it is watched

function moveFromHash() {
  const match = location.hash.match(/move=(\d+)/);
  return match ? Number(match[1]) : null;
}

function go(target, { animate = false } = {}) {
  const i = Math.max(0, Math.min(steps.length - 1, target));
  const forward = i === index + 1;
  if (i !== index) {
    index = i;
    if (animate && forward) board.applyAck(steps[i].events, steps[i].view);
    else board.render(steps[i].view);
  }
  const step = steps[i];
  els.scrubber.value = String(i);
  els.scrubber.setAttribute("aria-valuetext", interpolate(gettext("Move %(n)s of %(total)s"), { n: i, total: steps.length - 1 }, true) + (step.token ? `, ${step.token}` : ""));
  els.move.textContent = String(i);
  els.token.textContent = step.token ?? "";
  els.time.textContent = clock(step.t);
  for (const extra of extras) extra.setTime?.(step.t);
  moveList?.setCurrent(i);
  if (moveFromHash() !== i) history.replaceState(null, "", `#move=${i}`);
  if (i === steps.length - 1 && playing) pause();
}

function delay() {
  const speed = els.speed.value;
  if (speed.startsWith("real")) {
    const gap = steps[index + 1].t - steps[index].t;
    return Math.max(MIN_GAP, speed === "real4" ? gap / 4 : gap);
  }
  return 1000 / Number(speed);
}

function schedule() {
  clearTimeout(timer);
  if (!playing) return;
  if (index >= steps.length - 1) { pause(); return; }
  timer = setTimeout(() => {
    go(index + 1, { animate: true });
    schedule();
  }, delay());
}

function play() {
  if (index >= steps.length - 1) go(0);
  playing = true;
  // Autoplay would read out every step: the position speaks only when paused.
  els.position.setAttribute("aria-live", "off");
  els.play.querySelector("span").textContent = gettext("Pause");
  els.play.querySelector("svg").innerHTML = `<path d="M7 5h4v14H7zM13 5h4v14h-4z"/>`;
  els.play.setAttribute("aria-pressed", "true");
  schedule();
}

function pause() {
  playing = false;
  clearTimeout(timer);
  els.position.setAttribute("aria-live", "polite");
  els.play.querySelector("span").textContent = pgettext("replay", "Play");
  els.play.querySelector("svg").innerHTML = `<path d="M7 5v14l12-7z"/>`;
  els.play.setAttribute("aria-pressed", "false");
}

const toggle = () => (playing ? pause() : play());

function step(to, options) {
  if (watching) return; // the line's own controls move the board meanwhile
  go(to, options);
  if (playing) schedule();
}

function wire() {
  $("to-start").addEventListener("click", () => step(0));
  $("to-end").addEventListener("click", () => step(steps.length - 1));
  $("step-back").addEventListener("click", () => step(index - 1));
  $("step-forward").addEventListener("click", () => step(index + 1, { animate: true }));
  els.play.addEventListener("click", toggle);
  els.scrubber.addEventListener("input", () => step(Number(els.scrubber.value)));
  els.speed.addEventListener("change", () => { if (playing) schedule(); });
  addEventListener("hashchange", () => {
    const wanted = moveFromHash();
    if (wanted !== null && wanted !== index) step(wanted);
  });
  document.addEventListener("keydown", (e) => {
    // Keys the board used (arrows roaming its cards) are not ours.
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || watching) return;
    const target = e.target;
    const inField = target.closest?.("input, select, textarea");
    if (e.key === " ") {
      if (inField && target !== els.scrubber) return;
      e.preventDefault();
      toggle();
      return;
    }
    // The scrubber moves itself with arrows, Home and End, and reports it.
    if (inField) return;
    const keys = {
      ArrowLeft: () => step(index - 1),
      ArrowRight: () => step(index + 1, { animate: true }),
      Home: () => step(0),
      End: () => step(steps.length - 1),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
}

async function load() {
  const answer = await api(`/api/games/${root.dataset.game}/replay`);
  if (!answer.ok) {
    els.loading.textContent = "";
    els.error.textContent = answer.data?.message ?? gettext("The replay could not be loaded.");
    els.error.hidden = false;
    return;
  }
  const data = answer.data;
  steps = data.steps;
  els.loading.remove();
  board = createBoard(els.host, { interactive: false, keys: false, undoButton: false });
  els.scrubber.max = String(steps.length - 1);
  els.total.textContent = String(steps.length - 1);
  moveList = createMoveList($("move-list"), steps, (i) => step(i));
  if (data.racers.length) {
    const focus = data.game.id;
    extras.push(createRacers($("racers"), data.racers, focus));
    extras.push(createChart($("chart"), $("chart-legend"), data.racers, focus));
    fillResults($("results"), data.results, focus);
  }
  wire();
  go(moveFromHash() ?? 0);
  analyse(data.game);
}

// The solver's verdict on where the game was lost; it can take a few seconds, so it comes after.
async function analyse(game) {
  if (game.status === "won") return;
  const panel = $("analysis");
  const text = $("analysis-text");
  panel.hidden = false;
  text.textContent = gettext("The solver is looking for where a win slipped away…");
  const answer = await api(`/api/games/${root.dataset.game}/analysis`);
  if (!answer.ok) {
    // A deal still being raced keeps its analysis until that race ends: say so.
    if (answer.data?.code === "deal_raced") text.textContent = gettext("This deal is being raced right now: the solver’s analysis opens when that race ends.");
    // The solver is taken, or this visitor's quota is spent: the server's words say when to come back.
    else if (["busy", "quota"].includes(answer.data?.code)) text.textContent = answer.data.message;
    else panel.hidden = true;
    return;
  }
  const { verdict, seq, line, lost_seq: lostSeq, exact } = answer.data;
  const jump = $("analysis-jump");
  const shown = $("analysis-line");
  if (verdict === "never") text.textContent = gettext("This deal could not be won from the start: no play would have surrounded the Sultan.");
  else if (verdict === "unknown") {
    text.textContent = lostSeq === null
      ? gettext("The solver could not decide this game in its time.")
      : interpolate(gettext("After move %(lost)s no win was left; the solver could not tell in its time where it slipped away before that."), { lost: lostSeq }, true);
  } else {
    text.textContent = lostSeq === null
      ? interpolate(gettext("A win was still possible after move %(seq)s, and still when the game ended."), { seq }, true)
      : interpolate(exact
        ? gettext("A win was still possible until move %(seq)s; after move %(lost)s it no longer was.")
        : gettext("A win was still possible after move %(seq)s; after move %(lost)s it no longer was (the solver could not decide the moves in between in its time)."), { seq, lost: lostSeq }, true);
    jump.hidden = false;
    jump.onclick = () => go(seq);
    shown.hidden = false;
    $("analysis-line-summary").textContent = interpolate(ngettext("The winning line from move %(seq)s, in words (%(count)s move)", "The winning line from move %(seq)s, in words (%(count)s moves)", line.length), { seq, count: line.length }, true);
    // The server's phrases (the reader's language), one step of the line as a player thinks of it.
    $("analysis-phrases").replaceChildren(...(answer.data.phrases ?? []).map((phrase) => {
      const item = document.createElement("li");
      item.textContent = phrase.text[0].toUpperCase() + phrase.text.slice(1);
      return item;
    }));
    const lineSteps = answer.data.steps ?? [];
    const watch = $("analysis-watch");
    watch.hidden = !lineSteps.length;
    watch.onclick = () => watchLine(seq, lineSteps);
  }
}

// The winning line on the board, from the move it starts at; "Back" returns to the real game.
function watchLine(seq, lineSteps) {
  if (watching) return;
  pause();
  go(seq);
  const bar = $("line-bar");
  watching = createLineWatch({
    board,
    bar,
    start: steps[seq].view,
    steps: lineSteps,
    label: interpolate(gettext("The solver's winning line from move %(seq)s"), { seq }, true),
    back: () => {
      watching = null;
      const at = index;
      index = -1;
      go(at);
      $("analysis-watch").focus({ preventScroll: true });
    },
  });
  bar.scrollIntoView({ block: "nearest" });
  board.announce(gettext("Watching the solver's line: step through it, or play it."));
}

load();
