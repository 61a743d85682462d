// Small sounds made on the spot with WebAudio (no files to ship): a move, a refused
// move, a redeal, a win. Off by default; the player turns them on (prefs.js).

import { pref } from "./prefs.js";

let context = null;

// Each sound is a few notes: [start s, frequency Hz, length s, wave, volume].
const SOUNDS = {
  move: [[0, 660, 0.06, "triangle", 0.18]],
  refused: [[0, 180, 0.09, "square", 0.08], [0.1, 150, 0.12, "square", 0.08]],
  redeal: [[0, 420, 0.05, "sawtooth", 0.06], [0.05, 470, 0.05, "sawtooth", 0.06], [0.1, 520, 0.05, "sawtooth", 0.06], [0.15, 580, 0.05, "sawtooth", 0.06]],
  win: [[0, 523, 0.14, "sine", 0.2], [0.14, 659, 0.14, "sine", 0.2], [0.28, 784, 0.14, "sine", 0.2], [0.42, 1047, 0.35, "sine", 0.22]],
};

/** Play a sound by name, if the player wants sounds; never throws. */
export function playSound(name) {
  const notes = SOUNDS[name];
  if (!notes || !pref("sounds")) return;
  try {
    context ??= new AudioContext();
    const now = context.currentTime;
    for (const [at, freq, length, wave, volume] of notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(volume, now + at);
      gain.gain.exponentialRampToValueAtTime(0.001, now + at + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
    document.documentElement.dataset.lastSound = name; // what a test can read
  } catch { /* no audio here: play on in silence */ }
}
