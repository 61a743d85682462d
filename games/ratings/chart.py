"""A rating's history as an inline SVG line chart, drawn on the server (no script)."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

# About the size the profile's card shows it at, so that its labels stay legible.
WIDTH: Final = 360
HEIGHT: Final = 150
PAD_LEFT: Final = 40  # room for the rating labels
PAD: Final = 10


def rating_chart_svg(
    points: list[tuple[datetime, int]], *, start: int, variant_label: str
) -> SafeString:
    """The rating after each race against the race's number (evenly spaced: a month
    without races would otherwise flatten the rest), from `start`, the rating every
    player begins with, with the first and last races' dates."""
    if not points:
        return SafeString("")
    values = [start] + [rating for _, rating in points]
    low, high = min(values), max(values)
    if high - low < 50:  # a flat line in the middle, not a magnified wobble
        middle = (high + low) // 2
        low, high = middle - 25, middle + 25
    span_x = WIDTH - PAD_LEFT - PAD
    span_y = HEIGHT - 2 * PAD - 16
    step = span_x / (len(values) - 1)

    def y(rating: int) -> float:
        return PAD + span_y * (high - rating) / (high - low)

    coords = [(PAD_LEFT + i * step, y(rating)) for i, rating in enumerate(values)]
    line = " ".join(f"{x:.1f},{yy:.1f}" for x, yy in coords)
    last_x, last_y = coords[-1]
    title = ngettext(
        "%(variant)s rating after %(count)d rated race: %(rating)d",
        "%(variant)s rating over %(count)d rated races, now %(rating)d",
        len(points),
    ) % {
        "variant": variant_label,
        "count": len(points),
        "rating": values[-1],
    }
    dots = (
        format_html_join(
            "",
            '<circle cx="{}" cy="{}" r="2.5" class="chart-dot"/>',
            ((f"{x:.1f}", f"{yy:.1f}") for x, yy in coords[1:]),
        )
        if len(coords) <= 60  # a dot per race while they can be told apart
        else SafeString("")
    )
    first_x, first_y = coords[0]
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{title}">'
        "<title>{title}</title>"
        '<line x1="{pl}" y1="{top}" x2="{right}" y2="{top}" class="chart-grid"/>'
        '<line x1="{pl}" y1="{bottom}" x2="{right}" y2="{bottom}" class="chart-grid"/>'
        '<text x="{lx}" y="{top_t}" class="chart-label" text-anchor="end">{high}</text>'
        '<text x="{lx}" y="{bottom_t}" class="chart-label" text-anchor="end">{low}</text>'
        '<polyline points="{line}" class="chart-line"/>{dots}'
        '<circle cx="{sx}" cy="{sy}" r="3" class="chart-start"/>'
        '<circle cx="{cx}" cy="{cy}" r="4" class="chart-now"/>'
        '<text x="{pl}" y="{date_y}" class="chart-label">{first}</text>'
        '<text x="{right}" y="{date_y}" class="chart-label" text-anchor="end">{last}</text>'
        "</svg>",
        w=WIDTH,
        h=HEIGHT,
        title=title,
        pl=PAD_LEFT,
        right=WIDTH - PAD,
        top=PAD,
        bottom=PAD + span_y,
        lx=PAD_LEFT - 6,
        top_t=PAD + 4,
        bottom_t=PAD + span_y + 4,
        high=high,
        low=low,
        line=line,
        dots=dots,
        sx=f"{first_x:.1f}",
        sy=f"{first_y:.1f}",
        cx=f"{last_x:.1f}",
        cy=f"{last_y:.1f}",
        date_y=HEIGHT - 4,
        first=date_format(points[0][0], "j M Y"),
        last=date_format(points[-1][0], "j M Y"),
    )
