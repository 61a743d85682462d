"""Accounts: players, guests, sign-up and log-in.

selectors.py says who the visitor is and never writes; services.py creates
guests and account players and moves a guest's games into an account;
views.py wraps Django's auth views.

May import: games.races (a renamed racer's race is re-announced), games.common,
games.models.
"""
