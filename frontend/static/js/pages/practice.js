// The practice page: one game against the deal, the server as the referee.
// The board sends intentions; this page posts them to the practice API and
// hands the answer back (ack → animate, reject → roll back with the reason).

import { createBoard } from "../board.js";
import { api, moveId } from "../api.js";
import { clock } from "../format.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { bindToggle, pref } from "../prefs.js";
import { createLineWatch } from "../linewatch.js";
import { byIds } from "../dom.js";
import { celebrate } from "../celebrate.js";
import { bindTableChoice } from "../table-prefs.js";

const root = document.getElementById("practice");
const els = byIds({
  host: "practice-board", loading: "board-loading", error: "practice-error", copy: "copy-link",
  moves: "stat-moves", cards: "stat-cards", clock: "stat-clock",
  resign: "resign", hint: "hint", finish: "finish", showHow: "show-how", lineBar: "line-bar",
  dialog: "resign-dialog", dialogText: "resign-text",
  record: "practice-record", result: "result", resultTitle: "result-title", resultText: "result-text",
  resultReplay: "result-replay", resultAgain: "result-again",
  automatic: "pref-automatic", sounds: "pref-sounds",
});
const RETRIES = 2;

let board = null;
let game = null; // the server's facts about this game: id, started_at, finished_at, replay_url; null until the first move
let creating = null; // the first move's request for a game, while it is on its way
let shown = []; // the last hint's line, played out as far as it shows only seen cards
let hinted = null; // the last hint's move
let watch = null;
let skew = 0; // the server's clock minus ours, so the clock agrees with the server
let ticker = 0;
let inFlight = false; // one request at a time keeps every move's seq right

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function start() {
  showError(null);
  els.result.hidden = true;
  const { deal, variant } = root.dataset;
  // Opening the page writes nothing: the game is made with its first move (createGame).
  const answer = await api("/api/practice", { method: "POST", body: { deal, variant, create: false } });
  if (!answer.ok) {
    els.loading.textContent = "";
    showError(answer.data?.message ?? gettext("The game could not be dealt."), true);
    return;
  }
  const { view, resumed, player } = answer.data;
  adopt(answer.data.game);
  els.loading?.remove();
  if (!board) board = createBoard(els.host, { onIntent: (token) => intent(token) });
  board.setInteractive(true);
  board.render(view);
  showStats(view);
  els.resign.disabled = !game;
  els.hint.disabled = view.status !== "playing";
  if (resumed && view.seq > 0) board.showMessage(interpolate(gettext("Welcome back: your game on deal %(deal)s, as you left it."), { deal: root.dataset.deal }, true));
  if (player?.guest) markGuest(player.nickname);
}

/** The game, made once however many ask at once: a hint and a Space pressed while the
 * first request was on its way made two games (and, for a new visitor, two guests),
 * and the move went to the one the page then dropped. */
async function gameMade() {
  if (game) return { ok: true };
  creating ??= createGame();
  try {
    return await creating;
  } finally {
    creating = null;
  }
}

/** The first move makes the game (and, for a new visitor, the guest who plays it). */
async function createGame() {
  const { deal, variant } = root.dataset;
  const answer = await api("/api/practice", { method: "POST", body: { deal, variant } });
  if (!answer.ok) return answer;
  adopt(answer.data.game);
  els.resign.disabled = false;
  els.hint.disabled = false;
  if (answer.data.player?.guest) markGuest(answer.data.player.nickname);
  return answer;
}

function adopt(info) {
  game = info;
  if (!info) { els.clock.textContent = clock(0); return; }
  skew = Date.parse(info.server_time) - Date.now();
  clearInterval(ticker);
  tick();
  if (!info.finished_at) ticker = setInterval(tick, 1000);
}

function elapsed() {
  if (!game?.started_at) return 0;
  const end = game.finished_at ? Date.parse(game.finished_at) : Date.now() + skew;
  return end - Date.parse(game.started_at);
}

function tick() {
  els.clock.textContent = clock(elapsed());
}

function showStats(view) {
  // The moves on the board: an undo takes one off, it does not add one.
  els.moves.textContent = String(view.moves ?? view.seq);
  root.dataset.seq = String(view.seq); // the log's length, for whoever needs to wait on it
  els.cards.textContent = String(view.cards_played);
  els.finish.hidden = !(view.finishable && view.status === "playing");
}

// The board sends one intention at a time and queues the rest, so every one is answered.
async function intent(token) {
  if (inFlight) {
    board.reject(token, gettext("One moment: your last move is still on its way."));
    return;
  }
  if (!game && (token === "undo" || token === "resign" || token === "finish")) {
    board.reject(token, gettext("Nothing to take back: this deal has no moves yet."));
    return;
  }
  if (!game) {
    inFlight = true;
    const made = await gameMade();
    inFlight = false;
    if (!made.ok) {
      board.reject(token, made.data?.message ?? gettext("The game could not be started."));
      return;
    }
  }
  const answer = await post(token);
  await answered(token, answer);
}

/** Send one intention; the next may go as soon as the answer is in (animations need not finish). */
async function post(token) {
  inFlight = true;
  const id = moveId();
  const seq = board.view.seq;
  try {
    for (let attempt = 0; ; attempt++) {
      const automatic = pref("automatic");
      const answer = await api(`/api/games/${game.id}/moves`, { method: "POST", body: { token, id, seq, automatic } });
      // A retry with the same id is safe: the server stores the move at most once.
      if (answer.status !== 0 || attempt >= RETRIES) return answer;
      await sleep(700 * (attempt + 1));
    }
  } finally {
    inFlight = false;
  }
}

async function answered(token, answer) {
  if (answer.ok && answer.data.type === "ack") {
    await acknowledged(answer.data);
    return;
  }
  if (answer.status === 409) {
    board.reject(token, gettext("This game moved on in another tab. Here is where it stands now."));
    await resync();
    return;
  }
  board.reject(token, answer.data?.message ?? gettext("That move was refused."));
}

async function acknowledged(ack) {
  hideShowHow();
  showStats(ack.view);
  if (ack.events.some((e) => e.type === "undo")) {
    board.render(ack.view);
    board.announce(gettext("Move taken back."));
  } else {
    await board.applyAck(ack.events, ack.view);
  }
  if (ack.view.status !== "playing") await finished(ack.view);
}

async function resync() {
  const answer = await api(`/api/games/${game.id}`);
  if (!answer.ok) return;
  adopt(answer.data.game);
  hideShowHow();
  board.render(answer.data.view);
  showStats(answer.data.view);
  if (answer.data.view.status !== "playing") await finished(answer.data.view);
}

async function finished(view) {
  clearInterval(ticker);
  els.resign.disabled = true;
  els.hint.disabled = true;
  els.finish.hidden = true;
  board.setInteractive(false);
  const answer = await api(`/api/games/${game.id}`);
  if (answer.ok) adopt(answer.data.game);
  if (answer.ok && answer.data.summary) els.record.textContent = answer.data.summary;
  if (view.status === "won") celebrate(els.host);
  const time = clock(elapsed());
  const cards = view.cards_played;
  const moves = view.moves ?? view.seq;
  const words = {
    won: [gettext("The Sultan is surrounded!"), interpolate(ngettext("All 95 cards home in %(time)s, with %(moves)s move.", "All 95 cards home in %(time)s, with %(moves)s moves.", moves), { time, moves }, true)],
    lost: [gettext("No moves left"), interpolate(gettext("You brought %(cards)s of 95 cards home in %(time)s. Watch the replay to see where it slipped away."), { cards, time }, true)],
    resigned: [gettext("You resigned"), interpolate(gettext("%(cards)s of 95 cards were home after %(time)s."), { cards, time }, true)],
  }[view.status] ?? [gettext("Game over"), interpolate(gettext("%(cards)s of 95 cards home."), { cards }, true)];
  els.resultTitle.textContent = words[0];
  els.resultText.textContent = words[1];
  els.result.dataset.status = view.status;
  els.resultReplay.href = `${game.replay_url}#move=${view.seq}`;
  els.result.hidden = false;
  const calm = matchMedia("(prefers-reduced-motion: reduce)").matches;
  els.result.scrollIntoView({ block: "nearest", behavior: calm ? "auto" : "smooth" });
}

function showError(message, retry = false) {
  els.error.hidden = !message;
  els.error.replaceChildren();
  if (!message) return;
  els.error.append(message);
  if (retry) {
    const again = document.createElement("button");
    again.type = "button";
    again.className = "btn btn-small";
    again.style.marginLeft = ".75rem";
    again.textContent = gettext("Try again");
    again.addEventListener("click", start);
    els.error.append(again);
  }
}

function markGuest(nickname) {
  const account = document.querySelector(".account");
  if (!account || account.querySelector(".account-name")) return;
  const name = document.createElement("a");
  name.className = "account-name is-guest";
  name.href = "/#you";
  name.title = gettext("Playing as a guest: change your nickname");
  name.textContent = nickname;
  const tag = document.createElement("span");
  tag.className = "tag";
  tag.textContent = gettext("guest");
  name.append(tag);
  account.prepend(name);
}

els.resign.addEventListener("click", () => {
  if (!game || !board?.view || board.view.status !== "playing") return;
  els.dialogText.textContent = interpolate(ngettext("The game ends now with %(cards)s card home. You can watch its replay, or play the deal again from the start.", "The game ends now with %(cards)s cards home. You can watch its replay, or play the deal again from the start.", board.view.cards_played), { cards: board.view.cards_played }, true);
  els.dialog.returnValue = "";
  els.dialog.showModal();
});

// Back to the table, not to the Resign button: Space must draw again, not reopen this.
const focusTable = () => els.host.querySelector("[data-nav][tabindex='0']")?.focus();

// "Keep playing" closes the dialog itself so the table has focus before the click
// returns: the dialog's own close hands focus to Resign and fires "close" a task
// later, and a Space pressed in between would reopen the dialog.
els.dialog.querySelector("button[value=cancel]").addEventListener("click", (event) => {
  event.preventDefault();
  els.dialog.close("cancel");
  focusTable();
});

els.dialog.addEventListener("close", () => {
  if (els.dialog.returnValue === "resign") {
    intent("resign");
    return;
  }
  if (els.dialog.contains(document.activeElement) || document.activeElement === els.resign) focusTable();
});

// A hint is the solver's next move of a winning line; it may take a moment, or find none.
async function askHint() {
  if (!board?.view || board.view.status !== "playing" || els.hint.disabled) return;
  // Thinking from the click on, the game's making included: one hint at a time.
  els.hint.disabled = true;
  els.hint.textContent = gettext("Thinking…");
  const made = await gameMade(); // asking for a hint starts the game
  if (!made.ok) {
    els.hint.textContent = gettext("Hint");
    els.hint.disabled = false;
    board.showMessage(made.data?.message ?? gettext("The game could not be started."));
    return;
  }
  els.hint.disabled = true; // a new game enables its hint: this one is still on its way
  const answer = await api(`/api/games/${game.id}/hint`, { method: "POST", body: {} });
  els.hint.textContent = gettext("Hint");
  els.hint.disabled = board.view.status !== "playing";
  if (!answer.ok) {
    board.showMessage(answer.data?.message ?? gettext("No hint right now."));
    return;
  }
  const { status, move, reach, reason } = answer.data;
  // The server says why (what the move leads to), in the reader's language.
  const text = status === "won" ? (reason
      ? interpolate(gettext("Hint: %(move)s — it leads to a win (%(why)s)."), { move: describe(move), why: reason }, true)
      : interpolate(gettext("Hint: %(move)s — it leads to a win."), { move: describe(move) }, true))
    : status === "lost" ? gettext("No winning line from here, whatever you play.")
    : move ? interpolate(gettext("No sure win found in time. The solver's best try: %(move)s — it got %(reach)s of 95 cards up."), { move: describe(move), reach }, true)
    : gettext("The solver could not decide in time: no hint.");
  board.showMessage(text, move ? 8000 : 5000);
  if (move) board.point(move);
  shown = answer.data.shown ?? [];
  hinted = move;
  // A draw can always be shown, up to the card it would turn up unseen (then nothing moves).
  els.showHow.hidden = !shown.length && !["draw", "redeal"].includes(move);
}

function hideShowHow() {
  shown = [];
  hinted = null;
  els.showHow.hidden = true;
  watch?.close();
}

// "Show me how": the hint's line on the board, as far as it goes with cards already seen.
function showHow() {
  if ((!shown.length && !hinted) || !board) return;
  const mine = board.view;
  const stops = shown.length ? null : hinted === "draw" ? gettext("The line goes on with a card you have not seen yet: draw it from the stock.") : gettext("The line goes on with a redeal, whose order you have not seen yet.");
  watch = createLineWatch({
    board,
    bar: els.lineBar,
    start: mine,
    steps: shown,
    label: gettext("The solver's line from here"),
    more: stops ?? gettext("The line goes on with a card you have not seen yet."),
    back: () => {
      board.render(mine);
      board.setInteractive(mine.status === "playing");
      watch = null;
    },
  });
}

function describe(token) {
  if (token === "draw") return gettext("draw a card");
  if (token === "redeal") return pgettext("hint", "redeal");
  const to = token[1];
  if (token[0] === "w") {
    return interpolate(/[a-h]/.test(to) ? gettext("the waste to slot %(to)s") : gettext("the waste to foundation %(to)s"), { to }, true);
  }
  return interpolate(gettext("slot %(from)s to foundation %(to)s"), { from: token[0], to }, true);
}

// The skip link lands on the table's own Tab stop, so the arrows and letters work at once.
document.getElementById("skip-to-board")?.addEventListener("click", (event) => {
  const spot = els.host.querySelector("[data-nav][tabindex='0']");
  if (!spot) return;
  event.preventDefault();
  spot.focus();
});
// "Winnable deals only": the next New deal asks the server for one the solver has won.
document.getElementById("pref-winnable")?.addEventListener("change", (event) => {
  for (const link of [document.getElementById("new-deal"), document.getElementById("result-new-deal")]) {
    const url = new URL(link.href);
    if (event.target.checked) url.searchParams.set("winnable", "1");
    else url.searchParams.delete("winnable");
    link.href = url.pathname + url.search;
  }
});
els.hint.addEventListener("click", askHint);
els.showHow.addEventListener("click", showHow);
els.finish.addEventListener("click", () => board?.finish());
bindToggle(els.automatic, "automatic");
bindToggle(els.sounds, "sounds");
document.querySelectorAll("select[data-pref]").forEach(bindTableChoice);
document.addEventListener("keydown", (event) => {
  if (event.key === "?" && !event.ctrlKey && !event.metaKey && !event.altKey && !(event.target instanceof HTMLInputElement)) askHint();
});

els.resultAgain.addEventListener("click", () => {
  els.result.hidden = true;
  start();
});

els.copy.addEventListener("click", async () => {
  const url = new URL(els.copy.dataset.url, location.href).href;
  const label = els.copy.querySelector(".copy-text");
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    copied = false;
  }
  label.textContent = copied ? gettext("Copied!") : gettext("Copy failed");
  board?.announce(copied ? gettext("Link to this deal copied.") : interpolate(gettext("Copy this link: %(url)s"), { url }, true));
  if (!copied) board?.showMessage(url, 6000);
  setTimeout(() => { label.textContent = gettext("Copy link"); }, 2000);
});

start();
