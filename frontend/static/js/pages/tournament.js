// A tournament's page: the standings as they change, over /ws/tournaments/<code>/
// (docs/protocol.md, "Tournament socket"). An entrant seated in a race while the page is
// open is taken to it; a race they were already in when they opened it is linked, never
// forced: the standings and Pause stay reachable during a race.

import { gettext } from "../i18n.js";
import { takenKey, watchStandings } from "../tournament-socket.js";

const root = document.getElementById("tournament");
const body = document.getElementById("standings-body");
// The server-drawn streak mark (an SVG with a text alternative: an emoji is a blank box
// where the font lacks it), cloned for each racer on fire.
const fireMark = document.getElementById("fire-mark");
const me = Number(root.dataset.player || 0);
// The race its entrant was in when the page was drawn, past its countdown: theirs to go
// back to, not to be sent to (they opened the page to see the table, or to pause). A race
// still counting down is one they were just seated in: they are taken to it.
const rendered = root.dataset.underWay || "";
// The race this tab last showed its entrant (this page took them there, or its own page
// was open): kept across the trip there and back.
const TAKEN = takenKey(root.dataset.code);

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
  root.dataset.version = String(frame.v);
  body.replaceChildren(...frame.rows.map((r) => row(r, frame.phase === "finished")));
  if (!frame.rows.length) {
    const tr = document.createElement("tr");
    tr.className = "is-empty";
    tr.append(cell("", gettext("Nobody has joined yet.")));
    tr.firstChild.colSpan = 6;
    body.append(tr);
  }
  if (frame.phase !== root.dataset.phase && (frame.phase === "finished" || root.dataset.phase === "upcoming")) {
    // The podium and every player's races, or the queue, drawn by the server; the page
    // drawn again takes its entrant to a race they were seated in meanwhile.
    location.reload();
    return;
  }
  const mine = frame.rows.find((r) => r.player === me);
  const link = document.getElementById("your-race-link");
  if (link) {
    link.parentElement.hidden = !mine?.race;
    if (mine?.race) link.href = `/r/${encodeURIComponent(mine.race)}/`;
  }
  const seated = mine?.race && mine.race !== rendered && mine.race !== sessionStorage.getItem(TAKEN);
  if (root.dataset.joined === "true" && seated) {
    sessionStorage.setItem(TAKEN, mine.race);
    location.assign(link?.href ?? `/r/${encodeURIComponent(mine.race)}/`);
  }
}

watchStandings(root.dataset.code, {
  onFrame: draw,
  onLive: (live) => {
    root.dataset.live = String(live);
  },
});
