"""Challenges: race a recorded game.

models.py holds a challenge (a finished game anyone with the link may race)
and its attempts (each a one-racer race whose ghost is the recorded game, so
the race page shows it as a live opponent and ranks it); services.py makes a
challenge and starts an attempt; selectors.py ranks a challenge's attempts
with the original and counts the challenges between two players (their
head-to-head beside the races both ran, from games.friends); views.py serves
/c/<code>/.

May import: games.races (an attempt is a race of one), games.fairness (sealed
deals, which attempts rank), games.store,
games.accounts, games.engine, games.common, games.models,
games.i18n (names of variants), games.friends (head-to-head over races).
"""
