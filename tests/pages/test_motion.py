"""Moving highlights stop by themselves within five seconds (WCAG 2.2.2, Pause, Stop, Hide).

An endless animation also kept the device drawing frames for as long as it showed: a hint's
pulsing outline alone held two fifths of a core of Chromium (bench/browser_cpu.py,
docs/performance.md). Only the reconnecting banner's spinner runs on: it shows only while
the socket is being remade, and says so."""

from __future__ import annotations

import re
from pathlib import Path

STYLES = Path(__file__).resolve().parents[2] / "frontend" / "static" / "css"
ENDLESS_ALLOWED = {"race-spin"}
LONGEST_S = 5.0

DECLARATION = re.compile(r"(?<![-\w])animation\s*:\s*([^;}]+)")
TIME = re.compile(r"^(\d*\.?\d+)(ms|s)$")
KEYWORDS = {
    "ease",
    "ease-in",
    "ease-out",
    "ease-in-out",
    "linear",
    "step-start",
    "step-end",
    "infinite",
    "normal",
    "reverse",
    "alternate",
    "alternate-reverse",
    "none",
    "forwards",
    "backwards",
    "both",
    "running",
    "paused",
    "!important",
}


def _animations() -> list[tuple[str, str]]:
    found = []
    for sheet in sorted(STYLES.glob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
        found += [(sheet.name, value.strip()) for value in DECLARATION.findall(text)]
    return found


def _seconds(token: str) -> float | None:
    match = TIME.match(token)
    if not match:
        return None
    value = float(match.group(1))
    return value / 1000 if match.group(2) == "ms" else value


def _length_s(value: str) -> tuple[str, float]:
    """The animation's name and how long it moves (duration × iterations; inf when endless)."""
    tokens = re.sub(r"\w[\w-]*\([^)]*\)", "", value).split()  # cubic-bezier(…), var(…)
    name = next(t for t in tokens if re.fullmatch(r"[a-z][\w-]*", t) and t not in KEYWORDS)
    durations = [s for s in map(_seconds, tokens) if s is not None]
    if "infinite" in tokens:
        return name, float("inf")
    counts = [float(t) for t in tokens if re.fullmatch(r"\d*\.?\d+", t)]
    return name, (durations[0] if durations else 0.0) * (counts[0] if counts else 1.0)


def test_every_animation_of_our_stylesheets_stops_within_five_seconds() -> None:
    animations = [(s, v) for s, v in _animations() if not v.startswith("none")]
    assert len(animations) >= 10  # the parse found the sheets' animations
    too_long = []
    for sheet, value in animations:
        name, seconds = _length_s(value)
        if name not in ENDLESS_ALLOWED and seconds > LONGEST_S:
            too_long.append(f"{sheet}: {name} moves {seconds} s")
    assert too_long == []


def test_the_length_of_an_animation_is_read_as_the_browser_reads_it() -> None:
    assert _length_s("sb-hint .9s ease-in-out 5 alternate") == ("sb-hint", 4.5)
    assert _length_s("race-spin .8s linear infinite") == ("race-spin", float("inf"))
    assert _length_s("hero-deal .7s cubic-bezier(.2, .8, .2, 1) both") == ("hero-deal", 0.7)
    assert _length_s("race-nudge 400ms ease") == ("race-nudge", 0.4)
    assert _length_s("cascade 2.6s cubic-bezier(.45, .05, .75, .5) var(--delay) both") == (
        "cascade",
        2.6,
    )
