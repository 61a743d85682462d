"""Quotas on expensive work: how much solver time one visitor may ask for.

A hint, an analysis and a winnable deal each cost up to seconds of CPU, on
a machine whose cores also carry every race. quotas.py counts requests per
player and per address in fixed windows, shared by every process through
Django's cache (Redis in production); solver.py caps the solver work one
process runs at once (SULTAN_SOLVER_SLOTS) and refuses, with `busy`, what
cannot start within a moment, so that no request hangs behind a queue.

Both raise subclasses of games.common.errors.Refused that carry the HTTP
status (429 for a spent quota, 503 for busy) and the Retry-After seconds.

May import: games.common, games.metrics, django.
"""
