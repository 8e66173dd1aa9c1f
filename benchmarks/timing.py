"""Timing in one process, shared by the benchmarks: every call once per repeat, in a rotating order."""

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """Seconds of one call over the repeats."""

    median: float
    low: float
    high: float

    def cell(self) -> str:
        """The median with the range: '1.23 (1.20-1.31)'."""
        return f"{self.median:.3g} ({self.low:.3g}-{self.high:.3g})"


def time_calls(calls: dict[str, Callable[[], object]], repeats: int) -> tuple[dict[str, Timing], dict[str, object]]:
    """Each call's timing, and what each returned.

    Each repeat runs every call once, in an order rotated by one place per
    repeat (so none always runs first, or always after the same one), after a
    garbage collection: a busy machine slows them all alike, and the ratios
    of medians hold better than any one time.
    """
    names = list(calls)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    results: dict[str, object] = {}
    for repeat in range(repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            gc.collect()  # no call pays for collecting the previous one's garbage
            start = time.perf_counter()
            results[name] = calls[name]()
            seconds[name].append(time.perf_counter() - start)
    timings = {name: Timing(statistics.median(values), min(values), max(values)) for name, values in seconds.items()}
    return timings, results
