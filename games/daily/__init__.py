"""The daily deal: one deal per variant per UTC day, one ranked attempt per player.

rules.py picks the day's deal (a keyed hash of the date and variant, docs/rules.md)
and says when a day is over; models.py holds an attempt (a one-racer race on the
day's deal, sealed until the day is over); services.py starts or resumes an
attempt; selectors.py reads the day's leaderboard (a finished day's cached),
a player's daily results, streaks and the share text; records.py the all-time
records of days that are over (the leaderboard's second table); views.py
serves /daily/ and /daily/<yyyy-mm-dd>/.

May import: games.races (an attempt is a race of one; the ranking rule),
games.fairness (which attempts rank), games.store, games.accounts, games.engine,
games.common, games.models, games.i18n (names of variants).
"""
