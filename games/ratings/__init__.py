"""Ratings: a player's skill per variant, from the results of rated races.

A rating is a projection of race results (games.races.models.RaceStanding, itself
the projection of the racers' logs), never edited by hand. services.py replays a
variant's rated races in the order they finished, from a given race onwards
(a race that finished, a void, a flag: one path), skill.py holds the model
(OpenSkill's Plackett-Luce) and its parameters, selectors.py reads leaderboards
and a player's ratings, chart.py draws a rating's history as inline SVG,
receivers.py hears races finish and guests become accounts.
docs/ratings.md says which games count and why.

May import: games.races, games.fairness (what a result is worth against whom),
games.accounts, games.store, games.engine, games.common,
games.models, games.i18n (names of variants). Imported by games.moderation (a void
recomputes) and games.pages.
"""
