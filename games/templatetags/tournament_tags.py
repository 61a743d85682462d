"""Tournaments in templates: a tournament's name in the reader's language (the race
page's link back to its tournament reads `race.tournament_race`: races import nothing of it)."""

from __future__ import annotations

from django import template

from games.tournaments.models import Tournament
from games.tournaments.services import tournament_display_name

register = template.Library()


@register.filter
def tournament_name(tournament: Tournament) -> str:
    return tournament_display_name(tournament)
