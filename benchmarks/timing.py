"""Timing in one process, shared by the benchmarks: every call once per repeat, in a rotating order."""

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """Seconds of one call over the repeats (each: every repeat's, in repeat order)."""

    median: float
    low: float
    high: float
    each: tuple[float, ...] = ()

    def cell(self) -> str:
        """The median with the range: '1.23 (1.20-1.31)'."""
        return f"{self.median:.3g} ({self.low:.3g}-{self.high:.3g})"


def time_calls(calls: dict[str, Callable[[], object]], repeats: int) -> tuple[dict[str, Timing], dict[str, object]]:
    """Each call's timing, and what each returned.

    Each call runs once untimed first: what a first call pays once (numba
    compiling lesson 10's counter, or loading it from its cache) is not timed.
    Then each repeat runs every call once, in an order rotated by one place per
    repeat (so none always runs first, or always after the same one), after a
    garbage collection: a busy machine slows them all alike, and the ratios
    of medians hold better than any one time.
    """
    names = list(calls)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    results: dict[str, object] = {name: calls[name]() for name in names}
    for repeat in range(repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            gc.collect()  # no call pays for collecting the previous one's garbage
            start = time.perf_counter()
            results[name] = calls[name]()
            seconds[name].append(time.perf_counter() - start)
    timings = {name: of(values) for name, values in seconds.items()}
    return timings, results


def of(values: list[float]) -> Timing:
    """The median, range and list of some numbers."""
    return Timing(statistics.median(values), min(values), max(values), tuple(values))


def ratios(numerator: Timing, denominator: Timing, scale: float = 1.0) -> Timing:
    """scale x numerator / denominator, repeat by repeat (both timed in the same repeats): its median and range.

    >>> ratios(of([2.0, 4.0, 3.0]), of([1.0, 1.0, 2.0]), scale=10).cell()
    '20 (15-40)'
    """
    return of([scale * a / b for a, b in zip(numerator.each, denominator.each, strict=True)])
