"""Reading the service's own Prometheus figures from the benches: scrape every Daphne
process (their metrics ports, games/metrics/), subtract a scrape taken before a round,
and estimate quantiles from histogram buckets as Prometheus' histogram_quantile does.

The estimate is linear inside a bucket, so it is as coarse as the buckets
(games/metrics/definitions.py, LATENCY_BUCKETS); a bench prints it beside its own
exact figure from the clients' clocks, which also include the network and nginx.
"""

from __future__ import annotations

import math
import urllib.request
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families


@dataclass
class Scrape:
    """Sample values summed over processes, keyed by (sample name, sorted labels)."""

    values: dict[tuple[str, tuple[tuple[str, str], ...]], float] = field(
        default_factory=lambda: defaultdict(float)
    )

    def minus(self, earlier: Scrape) -> Scrape:
        out = Scrape()
        for key, value in self.values.items():
            out.values[key] = value - earlier.values.get(key, 0.0)
        return out

    def total(self, name: str, **labels: str) -> float:
        wanted = set(labels.items())
        return sum(v for (n, ls), v in self.values.items() if n == name and wanted <= set(ls))

    def buckets(self, histogram: str, **labels: str) -> list[tuple[float, float]]:
        """(upper bound, cumulative count) of `histogram`, summed over other labels."""
        wanted = set(labels.items())
        by_bound: dict[float, float] = defaultdict(float)
        for (name, ls), value in self.values.items():
            if name != f"{histogram}_bucket" or not wanted <= set(ls):
                continue
            bound = dict(ls)["le"]
            by_bound[math.inf if bound == "+Inf" else float(bound)] += value
        return sorted(by_bound.items())


def scrape(urls: Iterable[str], timeout_s: float = 10.0) -> Scrape:
    result = Scrape()
    for url in urls:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            text = response.read().decode()
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                key = (sample.name, tuple(sorted(sample.labels.items())))
                result.values[key] += sample.value
    return result


def quantile(q: float, buckets: Sequence[tuple[float, float]]) -> float:
    """histogram_quantile: linear within the bucket where the rank falls; NaN when empty."""
    if not buckets or buckets[-1][1] <= 0:
        return math.nan
    rank = q * buckets[-1][1]
    lower_bound, lower_count = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if math.isinf(bound):
                return lower_bound  # above the last finite bucket: its bound, as Prometheus says
            if count == lower_count:
                return bound
            share = (rank - lower_count) / (count - lower_count)
            return lower_bound + (bound - lower_bound) * share
        lower_bound, lower_count = bound, count
    return math.nan


def histogram_line(label: str, delta: Scrape, histogram: str, **labels: str) -> str:
    buckets = delta.buckets(histogram, **labels)
    count = buckets[-1][1] if buckets else 0
    p50, p99 = (quantile(q, buckets) * 1000 for q in (0.5, 0.99))
    return (
        f"  {label:<22} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   ({count:.0f} samples,"
        " from the servers' metrics)"
    )
