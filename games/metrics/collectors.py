"""Figures read from the database when Prometheus scrapes: races by state.

A gauge moved at each transition would count only this process's
transitions; the database knows all of them. Every web process reports the
same numbers: aggregate them with max(), not sum().
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db import DatabaseError, connection
from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.models import Race, RaceStatus

log = logging.getLogger(__name__)


class RacesByState(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "sultan_races", "Races by state (read from the database).", labels=["state"]
        )
        try:
            rows = Race.objects.values("status").annotate(n=Count("pk"))
            counts = {row["status"]: row["n"] for row in rows}
        except DatabaseError:
            # The scrape still answers (the process's own figures matter most
            # when the database is away); the gap in this series says so.
            log.warning("races by state: the database did not answer", exc_info=True)
            return
        finally:
            # The scrape runs in a thread of its own: hand its connection back.
            connection.close()
        for state in RaceStatus.values:
            family.add_metric([state], counts.get(state, 0))
        yield family
