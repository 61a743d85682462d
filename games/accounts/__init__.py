"""Accounts: players, guests, sign-up and log-in.

selectors.py says who the visitor is and never writes; services.py creates
guests and account players and moves a guest's games into an account;
deletion.py deletes an account and keeps its games (docs/store.md); views.py
wraps Django's auth views, the deletion page and django-axes' lock-out page.

May import: games.races (a renamed racer's race is re-announced), games.fairness
(identities linked, a guest's results carried unranked), games.quotas (guests and
sign-ups per address), games.common, games.models.
"""
