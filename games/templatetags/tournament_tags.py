"""Tournaments in templates: a tournament's name in the reader's language, and the race
page's banner for the next race (the race page reads its tournament through these and
`race.tournament_race`: races import nothing of tournaments)."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Player, Race
from games.tournaments.models import Tournament
from games.tournaments.selectors import next_race_for
from games.tournaments.services import tournament_display_name

register = template.Library()


@register.filter
def tournament_name(tournament: Tournament) -> str:
    return tournament_display_name(tournament)


@register.inclusion_tag("race_tournament_next.html")
def tournament_next(race: Race, player: Player | None) -> dict[str, Any]:
    """The race page's banner for the next race of its tournament: a countdown, Pause,
    and the racer carried into the next race (frontend/static/js/race/tournament.js)."""
    return {"race": race, "next": next_race_for(race_id=race.pk, player=player)}
