// A tournament's page: the standings as they change, over /ws/tournaments/<code>/
// (docs/protocol.md, "Tournament socket"); an entrant seated in a race is taken to it.

import { gettext } from "../i18n.js";

const root = document.getElementById("tournament");
const body = document.getElementById("standings-body");
// The server-drawn streak mark (an SVG with a text alternative: an emoji is a blank box
// where the font lacks it), cloned for each racer on fire.
const fireMark = document.getElementById("fire-mark");
const me = Number(root.dataset.player || 0);
let seen = -1;
// The race this page last took its entrant to (kept across the trip there and back):
// a racer whose game is over comes back while the others still race, and stays here.
const TAKEN = `tournament-race-${root.dataset.code}`;
let retry = 500;

function cell(label, text, className = "") {
  const td = document.createElement("td");
  td.dataset.label = label;
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

function row(r, finished) {
  const tr = document.createElement("tr");
  tr.dataset.player = String(r.player);
  if (r.player === me) tr.className = "is-you";
  tr.append(cell("#", String(r.rank), "num"));
  const name = cell(gettext("Player"), r.nickname, "col-name");
  if (r.bot) {
    const tag = document.createElement("span");
    tag.className = "tag tag-bot";
    tag.textContent = gettext("BOT");
    name.append(" ", tag);
  }
  tr.append(name, cell(gettext("Points"), String(r.points), "num"), cell(gettext("Races"), String(r.races), "num col-races"));
  const streak = cell(gettext("Streak"), String(r.streak), "num");
  if (r.fire && fireMark) streak.append(" ", fireMark.content.firstElementChild.cloneNode(true));
  tr.append(streak);
  const now = cell(gettext("Now"), "", "col-now");
  if (finished) {
    now.textContent = "—";
  } else if (r.race) {
    const link = document.createElement("a");
    link.href = `/r/${encodeURIComponent(r.race)}/`;
    link.textContent = gettext("racing: watch");
    now.append(link);
  } else {
    now.textContent = r.paused ? gettext("paused") : gettext("waiting");
  }
  tr.append(now);
  return tr;
}

function draw(frame) {
  if (frame.v <= seen) return; // a version already drawn
  seen = frame.v;
  root.dataset.version = String(frame.v);
  body.replaceChildren(...frame.rows.map((r) => row(r, frame.phase === "finished")));
  if (!frame.rows.length) {
    const tr = document.createElement("tr");
    tr.className = "is-empty";
    tr.append(cell("", gettext("Nobody has joined yet.")));
    tr.firstChild.colSpan = 6;
    body.append(tr);
  }
  const mine = frame.rows.find((r) => r.player === me);
  if (root.dataset.joined === "true" && mine?.race && mine.race !== sessionStorage.getItem(TAKEN)) {
    sessionStorage.setItem(TAKEN, mine.race);
    const url = `/r/${encodeURIComponent(mine.race)}/`;
    const link = document.getElementById("your-race-link");
    if (link) {
      link.href = url;
      link.parentElement.hidden = false;
    }
    location.assign(url);
  }
  if (frame.phase !== root.dataset.phase && (frame.phase === "finished" || root.dataset.phase === "upcoming")) {
    location.reload(); // the podium and every player's races, or the queue, drawn by the server
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(root.dataset.code)}/`);
  let ping = null;
  ws.addEventListener("open", () => {
    retry = 500;
    root.dataset.live = "true";
    ping = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), 20_000);
  });
  ws.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "standings") draw(frame);
  });
  ws.addEventListener("close", () => {
    root.dataset.live = "false";
    clearInterval(ping);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10_000);
  });
}

connect();
