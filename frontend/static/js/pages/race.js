// The race page, /r/<code>/: lobby, countdown, your board and the others'
// panels, then the results. Everything shown comes from the race socket
// (docs/protocol.md); this module routes its messages to the views.

import "../table-prefs.js"; // the table colour and card back this browser chose
import { RaceSocket } from "../race/socket.js";
import { RaceState } from "../race/state.js";
import { ServerClock, ClockView } from "../race/clock.js";
import { Announcer } from "../race/announce.js";
import { ConnectionBanner } from "../race/banner.js";
import { LobbyView } from "../race/lobby.js";
import { OpponentsView } from "../race/opponents.js";
import { PlayView } from "../race/play.js";
import { ResultsView } from "../race/results.js";
import { TournamentNext } from "../race/tournament.js";
import { Ghost } from "../race/ghost.js";
import { byId, show } from "../race/dom.js";
import { RESULT_TEXT, ordinal } from "../format.js";
import { bindToggle } from "../prefs.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

const TICK_MS = 200;

const root = byId("race");
const variantLabel = root.dataset.variantLabel;
const state = new RaceState();
const clock = new ServerClock();
const clockView = new ClockView();
const said = new Announcer(byId("race-live"), { interval: 1200 });
const banner = new ConnectionBanner(byId("race-banner"));

const wsScheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new RaceSocket(`${wsScheme}://${location.host}/ws/races/${encodeURIComponent(root.dataset.code)}/`, {
  onMessage: receive,
  onState: connection,
});
const send = (message) => socket.send(message);
const lobby = new LobbyView({ send, announcer: said });
const opponents = new OpponentsView({ announcer: new Announcer(byId("opp-live"), { interval: 5000 }) });
const play = new PlayView({ socket });
const results = new ResultsView({ send });
const tournamentNext = new TournamentNext();

let phase = null;
let connected = false;
let ghost = null; // a challenge's recorded game, played on the race's clock

function receive(message) {
  switch (message.type) {
    case "snapshot": {
      // Arrivals often come as a snapshot (a seat taken over HTTP is a gap), so compare here too.
      const before = state.loaded && phase === "lobby" ? new Map(state.racers.map((r) => [r.player, r])) : null;
      clock.sync(message.server_time);
      state.applySnapshot(message);
      if (message.ghost && !ghost) {
        ghost = new Ghost(message.ghost);
        state.addGhost(ghost.row());
      }
      moveGhost();
      draw();
      if (before && phase === "lobby") lobby.noteChanges(before, state);
      break;
    }
    case "lobby":
      seatsChanged(state.applyLobby(message));
      break;
    case "progress":
      // Every racer that changed since the last frame, each at their latest.
      for (const update of message.racers) {
        const changed = state.applyProgress(update);
        if (changed) opponents.progress(state, changed.row, changed.previous);
        if (update.player === state.me) play.onOwnProgress(update.seq);
      }
      break;
    case "presence":
      seatsChanged(state.applyPresence(message));
      break;
    case "end":
      state.applyEnd(message);
      moveGhost();
      draw();
      break;
    case "closed":
      state.applyClosed();
      draw();
      break;
    case "rematch": {
      // Every racer who joins it from here is broadcast again: announce the first only.
      const news = state.race?.rematch !== message.code;
      state.applyRematch(message);
      if (phase === "finished") results.render(state, variantLabel);
      if (news) said.say("rematch", gettext("A rematch is ready: the link to join it is next to the results."));
      break;
    }
    case "ack":
      play.onAck(message);
      break;
    case "reject":
      play.onReject(message);
      break;
    case "error":
      refused(message);
      break;
  }
}

/** Seats or presence changed (`before`: the racers as they were): the lobby says who
 * came and went; later, the opponents' panel shows who is still here. */
function seatsChanged(before) {
  if (phase === "lobby") {
    lobby.noteChanges(before, state);
    lobby.render(state, { connected });
  } else if (phase) opponents.render(state, { finished: phase === "finished" });
}

function connection(status, detail) {
  banner.update(status, detail);
  const now = status === "open";
  if (now === connected) return;
  connected = now;
  root.dataset.connected = String(connected);
  if (state.loaded) draw();
}

/** Redraw everything for the current phase (snapshots, the end, phase changes). */
function draw() {
  if (!state.loaded) return;
  const now = clock.now();
  const next = state.phase(now);
  const changed = next !== phase;
  phase = next;
  root.dataset.phase = phase;
  root.dataset.role = state.you.role;
  const arena = phase === "countdown" || phase === "racing";
  show(byId("race-lobby"), phase === "lobby");
  show(byId("race-closed"), phase === "closed");
  show(byId("race-arena"), arena || phase === "finished");
  if (phase === "lobby") lobby.render(state, { connected });
  if (arena) {
    opponents.render(state);
    play.show(state.isRacer ? state.you.game : null);
    play.setLive({ racing: phase === "racing", connected });
  } else play.hide();
  if (phase === "finished") opponents.render(state, { finished: true });
  if (phase === "finished") results.render(state, variantLabel);
  else show(byId("race-results"), false);
  if (phase === "finished") tournamentNext.start();
  clockView.paint(phase, state, now);
  if (changed) announcePhase(now);
  fitBoard();
}

function announcePhase(now) {
  if (phase === "countdown") {
    const seconds = Math.max(1, Math.round((state.startsAt - now) / 1000));
    said.say("phase", interpolate(ngettext("The race starts in %s second.", "The race starts in %s seconds.", seconds), [seconds]));
  } else if (phase === "racing" && state.startsAt !== null && now - state.startsAt < 3000) {
    said.say("phase", state.isRacer ? gettext("Go! Space draws a card.") : gettext("The race is on."));
  } else if (phase === "closed") {
    said.say("phase", gettext("This lobby is closed: nothing was played."));
  } else if (phase === "finished" && state.results) {
    const mine = state.results.find((r) => r.player === state.me);
    const who = mine ? " " + interpolate(gettext("You finished %(rank)s of %(count)s: %(result)s."), { rank: ordinal(mine.rank), count: state.results.length, result: RESULT_TEXT[mine.status] ?? mine.status }, true) : "";
    said.say("phase", gettext("The race is over.") + who);
  }
}

function refused({ code, message }) {
  if (phase === "lobby") lobby.showError(message);
  else if (phase === "finished") results.showError(message);
  else if (code !== "flood") console.warn("race:", code, message);
}

/**
 * The board sizes its cards to the height left below the page's own chrome;
 * then its column hugs it, so the board and the panels sit together, centred.
 */
function fitBoard() {
  const wrap = byId("arena-board");
  root.style.removeProperty("--board-w");
  if (wrap.hidden) return;
  const top = wrap.getBoundingClientRect().top + window.scrollY;
  root.style.setProperty("--board-chrome", `${Math.round(top + 8)}px`);
  const table = wrap.querySelector(".sultan-board");
  if (table) root.style.setProperty("--board-w", `${Math.ceil(table.getBoundingClientRect().width)}px`);
}

/** The recorded game's progress at this race time, as a progress broadcast would bring it. */
function moveGhost() {
  if (!ghost || !state.loaded) return;
  // Once the race is over, where the recorded game stopped.
  const t = state.race.status === "finished" ? Infinity : clock.now() - (state.startsAt ?? clock.now());
  const frame = ghost.at(t);
  if (!frame) return;
  // The frame's index stands for the seq a live racer's progress carries.
  const changed = state.applyProgress({ player: ghost.player, seq: frame.seq, progress: frame.progress });
  if (changed) opponents.progress(state, changed.row, changed.previous);
}

// Phases turn on the clock as well as on messages: the countdown ends by itself.
setInterval(() => {
  if (!state.loaded) return;
  moveGhost();
  const now = clock.now();
  if (state.phase(now) !== phase) draw();
  else clockView.paint(phase, state, now);
}, TICK_MS);

window.addEventListener("resize", fitBoard);
socket.open();

bindToggle(document.getElementById("pref-sounds"), "sounds");
