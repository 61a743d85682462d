"""Metrics: every Prometheus figure the service exports, defined in one place.

definitions.py holds each metric (name, help, labels, buckets); other rooms
import the objects from there and only call `.inc()`, `.observe()`, `.set()`
at their call sites, so a name or a label set has one home. middleware.py
times every HTTP request by view; collectors.py reads the figures that
belong to the database (races by state) at scrape time; exposition.py serves
them on a port of their own (SULTAN_METRICS_PORT), never on the public one.

Labels never carry a player's name, a race code, a path or anything else a
visitor typed: only fixed words (a view's route name, a refusal code, a kind).

May import: prometheus_client, django, games.models. Nothing here imports
another room of games/ (they import this one).
"""
