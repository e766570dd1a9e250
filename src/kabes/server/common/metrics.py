"""Prometheus metrics of one server process, in a registry of its own (one per app, so tests
can build many apps in one process)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
THINK_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
BUDGET_BUCKETS = (0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0)


class Metrics:
    """Tables by status, sockets, moves, action latency, and the computers' think time,
    budgets, searches in flight and late moves."""

    def __init__(self) -> None:
        self._latencies: dict[type, Histogram] = {}
        self.registry = CollectorRegistry()
        self.tables = Gauge(
            "kabes_tables", "Tables in memory, by status.", ["status"], registry=self.registry
        )
        self.connections = Gauge(
            "kabes_connections", "Open table sockets.", registry=self.registry
        )
        self.moves = Counter(
            "kabes_moves", "Moves applied and stored (people, computers, clocks).",
            registry=self.registry,
        )
        self.latency = Histogram(
            "kabes_action_seconds", "From an action received to its answer sent.",
            ["type"], buckets=LATENCY_BUCKETS, registry=self.registry,
        )
        self.think = Histogram(
            "kabes_computer_think_seconds", "A computer seat's thinking time per move.",
            buckets=THINK_BUCKETS, registry=self.registry,
        )
        self.budget = Histogram(
            "kabes_computer_budget_seconds",
            "The budget a computer seat's search was given (shrunk while the workers are busy).",
            buckets=BUDGET_BUCKETS, registry=self.registry,
        )
        self.searches = Gauge(
            "kabes_computer_searches", "Searches sent to the workers and not yet back.",
            registry=self.registry,
        )
        self.computer_moves = Counter(
            "kabes_computer_moves", "Moves computer seats made.", registry=self.registry,
        )
        self.computer_moves_late = Counter(
            "kabes_computer_moves_late",
            "Computer moves later than computer_delay + expert_budget + LATE_MARGIN from the "
            "turn.", registry=self.registry,
        )
        self.commits = Histogram(
            "kabes_store_commit_seconds", "One group commit of the store.",
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )
        self.batch = Histogram(
            "kabes_store_batch_entries", "Entries committed together.",
            buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500), registry=self.registry,
        )

    def action_latency(self, action: Any) -> Histogram:
        """The latency histogram of ``action``'s type (``play``, ``start``...), found once per
        type: every action is timed, and a label lookup takes a lock."""
        kind = type(action)
        found = self._latencies.get(kind)
        if found is None:
            label = kind.__name__.removesuffix("Action").lower()
            found = self._latencies[kind] = self.latency.labels(label)
        return found

    def count_tables(self, statuses: Callable[[], dict[str, int]]) -> None:
        """Read the table counts from ``statuses`` at every scrape."""
        for status in ("waiting", "playing", "between_hands", "over"):
            self.tables.labels(status).set_function(_reader(statuses, status))


def _reader(statuses: Callable[[], dict[str, int]], status: str) -> Callable[[], float]:
    return lambda: float(statuses().get(status, 0))
