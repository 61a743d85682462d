// Watching a line of moves on a board: the solver's winning line in a replay, a
// hint's line in practice ("show me how"). The server sends each step's events
// and the view after it; this only walks them: step, autoplay, back to the game.

import { gettext, interpolate } from "./i18n.js";

const AUTOPLAY_MS = 700;

/**
 * createLineWatch({ board, bar, start, steps, label, more, back }) → { close() }
 *   start: the view the line starts from; steps: [{token, events, view}];
 *   bar: an element to hold the controls (shown while watching);
 *   more: said at the line's end when it goes on unseen (or null); back(): called on leaving.
 */
export function createLineWatch({ board, bar, start, steps, label: heading, more = null, back }) {
  let index = 0; // 0: the start; i: after steps[i - 1]
  let timer = 0;
  const wasInteractive = board.interactive;
  board.setInteractive(false);
  board.render(start);
  bar.hidden = false;
  bar.innerHTML = "";
  const title = el("p", "line-title", heading);
  const where = el("span", "line-where");
  const controls = el("div", "line-controls");
  const prev = button("line-prev", gettext("Step back"), "◀");
  const play = button("line-play", gettext("Play"), "▶▶");
  const next = button("line-next", gettext("Step forward"), "▶");
  const leave = button("line-back", gettext("Back to the game"));
  leave.classList.add("btn-primary");
  controls.append(prev, play, next, where, leave);
  const note = el("p", "line-note field-help", "");
  bar.append(title, controls, note);
  // Its controls in view (under a tall board the bar starts below the first screen);
  // the page moves no further than that, so the board's lower rows, where a line's
  // draws play, stay in view with it. After the next frame: the board drawn at the
  // line's start may change height first (on a phone the bar ended 40 px below the screen).
  keepInView();

  function keepInView() {
    requestAnimationFrame(() => requestAnimationFrame(() => bar.scrollIntoView({ block: "nearest" })));
  }

  function show() {
    where.textContent = interpolate(gettext("%(at)s of %(total)s"), { at: index, total: steps.length }, true);
    prev.disabled = index === 0;
    next.disabled = index === steps.length;
    const said = index === steps.length && more ? more : "";
    if (said !== note.textContent) {
      note.textContent = said;
      // The note at the line's end makes the bar taller: its last words stay in view.
      if (said) keepInView();
    }
  }

  function go(to, animate) {
    const target = Math.max(0, Math.min(steps.length, to));
    if (target === index) return;
    if (animate && target === index + 1) board.applyAck(steps[target - 1].events, steps[target - 1].view);
    else board.render(target === 0 ? start : steps[target - 1].view);
    index = target;
    show();
  }

  function pause() {
    clearInterval(timer);
    timer = 0;
    play.setAttribute("aria-pressed", "false");
    label(play, gettext("Play"));
  }

  function autoplay() {
    if (timer) { pause(); return; }
    if (index === steps.length) go(0, false);
    play.setAttribute("aria-pressed", "true");
    label(play, gettext("Pause"));
    timer = setInterval(() => {
      if (index >= steps.length) { pause(); return; }
      go(index + 1, true);
    }, AUTOPLAY_MS);
  }

  function close() {
    pause();
    bar.hidden = true;
    bar.innerHTML = "";
    board.setInteractive(wasInteractive);
    back();
  }

  prev.addEventListener("click", () => { pause(); go(index - 1, false); });
  next.addEventListener("click", () => { pause(); go(index + 1, true); });
  play.addEventListener("click", autoplay);
  leave.addEventListener("click", close);
  show();
  play.focus({ preventScroll: true });
  return { close, get index() { return index; } };
}

function el(tag, className, text = "") {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

function button(id, text, glyph = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn btn-small";
  b.id = id;
  if (glyph) {
    const face = document.createElement("span");
    face.setAttribute("aria-hidden", "true");
    face.textContent = glyph;
    b.append(face);
    label(b, text);
  } else {
    b.textContent = text;
  }
  return b;
}

function label(b, text) {
  b.setAttribute("aria-label", text);
  b.title = text;
}
