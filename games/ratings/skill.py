"""The rating model: OpenSkill's Plackett-Luce (Weng-Lin), and its parameters.

A race is a free-for-all of 2 to 8 racers ranked by the race's rule; Plackett-
Luce rates any number of players from one ranking. The parameters are the
library's defaults (mu 25, sigma 25/3, beta sigma/2, tau mu/300) scaled by 60,
so that ratings read like chess ratings: everyone starts at 1500. docs/ratings.md
says why this model.
"""

from __future__ import annotations

from typing import Final

from openskill.models import PlackettLuce

MU: Final = 1500.0
SIGMA: Final = 500.0
BETA: Final = SIGMA / 2
TAU: Final = MU / 300
# A player is listed on the leaderboard after this many rated races (and once
# established: games.fairness.worth): before, one lucky race would put a newcomer on top.
ESTABLISHED_RACES: Final = 5

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

Skill = tuple[float, float]  # (mu, sigma)
START: Final[Skill] = (MU, SIGMA)


def skills_after_race(field: list[Skill], places: list[int]) -> list[Skill]:
    """Each racer's skill after a race, `field` in finishing order (the winner first),
    `places` its places (equal for racers who tied: a draw between them)."""
    teams = [[_MODEL.create_rating([mu, sigma])] for mu, sigma in field]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def shown(skill: Skill) -> int:
    """The number pages show: the skill's mean, rounded."""
    return round(skill[0])
