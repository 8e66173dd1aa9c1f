"""Lesson 11: is the difference real? Paired significance tests of systems against a baseline.

System B scores 0.3 BLEU above the baseline A on one test set. Would it on
another? Both tests below are paired: they keep each segment's two
translations together, so the only question is whether B's segments are
better than A's on the same sources.

- Paired bootstrap resampling (Koehn 2004): draw resamples of the test set
  (lesson 11's ``resampling``), score A and B on each, and see how often the
  resampled difference strays from its mean by more than the observed one.
- Paired approximate randomization (Riezler and Maxwell 2005): if A and B
  were the same system, swapping their translations of any segments would
  change nothing. Swap each segment with probability 1/2, many times, and
  see how often the two shuffled systems differ by more than A and B do.

Both count the trials at least as extreme as the observation, plus one, over
the trials plus one: the p-value. A small p-value says the difference would
rarely arise by chance; it does not say by how much B is better.

``paired_test`` gives sacrebleu 2.6.0's ``PairedTest`` numbers (its
definitions, its numpy draws, its seed) from the segment table of
``resampling.segment_table``.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from . import checks
from .checks import door
from .lesson09_sacrebleu import sacrebleu_from_stats
from .lesson09_tokenizers import ALL_TOKENIZERS
from .lesson11_resampling import (
    Stream,
    bootstrap_draws,
    bootstrap_interval,
    draw_counts,
    resampled_scores,
    resampled_stats,
    row_stats,
    segment_table,
)

# sacrebleu's defaults: resamples for the bootstrap, trials for randomization,
# and resamples for the interval that goes with randomization.
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
INTERVAL_SAMPLES = 1000


@dataclass(frozen=True)
class PairedResult:
    """One system's line of a paired test.

    Its score, p-value against the baseline (None for the baseline), bootstrap mean and 95% interval.
    """

    name: str
    score: float
    p_value: float | None
    mean: float
    interval: tuple[float, float]

    @property
    def half_width(self) -> float:
        """Half the interval's width: what sacrebleu prints after the mean (``μ ± ci``)."""
        return 0.5 * (self.interval[1] - self.interval[0])


def p_value(statistics: np.ndarray, observed: float) -> float:
    """The share of trials whose statistic exceeds the observed one, counting the observation as a trial.

    The + 1 keeps the chance of a false "significant" at most the p-value,
    and keeps a p-value from being 0 after a finite number of trials.

    >>> p_value(np.array([0.1, 0.5, 0.9]), 0.5)
    0.5
    """
    return (int(np.sum(statistics > observed)) + 1) / (len(statistics) + 1)


def paired_bootstrap_p_value(baseline_scores: np.ndarray, system_scores: np.ndarray, observed: float) -> float:
    """Koehn's test as Moses' script and sacrebleu run it, from the two systems' scores on the same resamples.

    The absolute resampled differences are shifted by their mean and compared
    with the observed difference ``observed = |score(system) - score(baseline)|``.
    Riezler and Maxwell (2005) shift the signed differences to picture a world
    where the systems do not differ; Moses' script, and sacrebleu after it,
    shift the absolute ones, which gives smaller p-values (lesson 11, section 3).

    Differences 1, 0.5 and 2 shifted by their mean: -0.17, -0.67 and 0.83;
    none exceeds 1, so p = (0 + 1) / (3 + 1):

    >>> paired_bootstrap_p_value(np.array([20.0, 21.0, 22.0]), np.array([21.0, 21.5, 24.0]), 1.0)
    0.25
    """
    differences = np.abs(system_scores - baseline_scores)
    return p_value(differences - differences.mean(), observed)


def randomization_flips(n_segments: int, n_trials: int, rng: np.random.Generator) -> np.ndarray:
    """For each trial, which segments swap their two translations: ``[trial, segment]``, True half the time.

    >>> randomization_flips(4, 2, np.random.default_rng(12345)).astype(int)
    array([[1, 0, 1, 1],
           [1, 0, 0, 1]])
    """
    return rng.integers(2, size=(n_trials, n_segments), dtype=bool)


def randomized_differences(flips: np.ndarray, baseline: np.ndarray, systems: np.ndarray) -> np.ndarray:
    """|BLEU(a) - BLEU(b)| of each trial's shuffled pair, for each system: ``[system, trial]``.

    ``baseline`` is a segment table ``[segment, column]``, ``systems`` one
    ``[system, segment, column]`` (or one system's ``[segment, column]``, which
    gives ``[trial]``). In a trial, ``a`` takes the baseline's segments where
    ``flips`` is True and the system's elsewhere, ``b`` the others. The
    statistics of the flipped segments are a sum (``resampled_stats``), so
    ``a = system + flipped(baseline - system)`` and ``b = baseline -
    flipped(baseline - system)``. These statistics are whole integers, and
    sacrebleu scores them in float64.

    >>> baseline = np.array([[2, 2, 2, 1, 2, 1, 0, 0], [2, 2, 0, 0, 2, 1, 0, 0]])
    >>> system = np.array([[2, 2, 0, 0, 2, 1, 0, 0], [2, 2, 2, 1, 2, 1, 0, 0]])
    >>> randomized_differences(np.array([[False, False], [True, False]]), baseline, system)
    array([  0., 100.])
    """
    flipped = resampled_stats(flips, baseline - systems)
    a = systems.sum(axis=-2, keepdims=True) + flipped
    b = baseline.sum(axis=-2, keepdims=True) - flipped
    return np.abs(resampled_scores(a, single_precision=False) - resampled_scores(b, single_precision=False))


def no_progress(steps: int) -> None:
    """The default ``progress`` of ``paired_test``: nothing to show."""


def tokenized_streams(
    streams: Sequence[Sequence[str]], tokenize: str, progress: Callable[[int], object]
) -> list[Stream]:
    """Each stream's lines as tokens; a line that recurs (in any stream) is tokenized once, as sacrebleu caches it.

    As sacrebleu, trailing whitespace goes before the tokenizer sees a line:
    it would make intl split the period off a number at the end (``'1990. '``).

    >>> tokenized_streams([["a b.", "c"], ["a b."]], "13a", progress=print)
    1
    1
    [[['a', 'b', '.'], ['c']], [['a', 'b', '.']]]
    >>> tokenized_streams([["in 1990. "]], "intl", progress=no_progress)
    [[['in', '1990.']]]
    """
    tokenizer = ALL_TOKENIZERS[tokenize]
    seen: dict[str, list[str]] = {}
    result: list[Stream] = []
    for lines in streams:
        result.append(
            [seen[line] if line in seen else seen.setdefault(line, tokenizer(line.rstrip())) for line in lines]
        )
        progress(1)
    return result


@door(checks.paired_test)
def paired_test(
    named_systems: Sequence[tuple[str, Sequence[str]]],
    references: Sequence[Sequence[str]],
    test_type: str = "bs",
    n_samples: int | None = None,
    seed: int | None = 12345,
    tokenize: str = "13a",
    progress: Callable[[int], object] = no_progress,
) -> list[PairedResult]:
    """sacrebleu's ``PairedTest`` for BLEU: each system against the first, the baseline.

    ``named_systems`` is a list of ``(name, lines)``, the baseline first;
    ``references`` a list of reference streams, each one line per segment.
    ``test_type`` is ``"bs"`` (paired bootstrap, ``n_samples`` resamples,
    1,000 by default) or ``"ar"`` (approximate randomization, ``n_samples``
    trials, 10,000 by default; its intervals come from 1,000 resamples, as in
    sacrebleu's ``PairedTest(..., n_ar_confidence=0)``). ``seed`` plays
    ``SACREBLEU_SEED``'s part: an int fixes the draws (12345 is sacrebleu's
    default) and ``None`` draws a fresh seed from the operating system. Here
    one seed, given or drawn, serves every system; sacrebleu, without a seed,
    draws afresh for each system, and takes a seed of 0 as no seed for the
    systems (not for the baseline's interval). ``tokenize`` is a name of
    ``ALL_TOKENIZERS``: with sacrebleu's (13a, intl, zh, ...) the numbers are
    sacrebleu's with that tokenizer. For a progress bar,
    ``progress(1)`` is called after each system's lines are tokenized, after
    the resampling, and as each system's result is ready.

    >>> refs = [["the cat sat on the mat", "a dog barked at the man", "it rained all day"]]
    >>> baseline = ("A", ["the cat sat on a mat", "a dog barked at a man", "it rained all day"])
    >>> system = ("B", ["the cat sat on the mat", "a dog barked at the man", "it rained all day long"])
    >>> for result in paired_test([baseline, system], refs, test_type="ar"):
    ...     print(result.name, f"{result.score:.2f} ({result.mean:.2f} ± {result.half_width:.2f})", result.p_value)
    A 62.82 (63.86 ± 23.14) None
    B 91.31 (90.84 ± 16.56) 0.25817418258174185
    """
    system_streams = tokenized_streams([lines for _, lines in named_systems], tokenize, progress)
    table = segment_table(system_streams, tokenized_streams(references, tokenize, no_progress))
    scores = [sacrebleu_from_stats(row_stats(system.sum(axis=0))) for system in table]
    n_segments, n_samples = table.shape[1], n_samples or DEFAULT_SAMPLES[test_type]
    seed = np.random.SeedSequence().entropy if seed is None else seed  # type: ignore[assignment]  # an int when drawn

    # sacrebleu seeds a new generator with the same seed for the baseline's
    # interval and for each system: every system meets the same draws.
    interval_samples = n_samples if test_type == "bs" else INTERVAL_SAMPLES
    baseline_counts = draw_counts(
        bootstrap_draws(n_segments, interval_samples, np.random.default_rng(seed)), n_segments
    )
    system_counts = baseline_counts
    if test_type == "ar":
        rng = np.random.default_rng(seed)
        flips = randomization_flips(n_segments, n_samples, rng)
        # The systems' intervals come from the same generator, after the flips.
        system_counts = draw_counts(bootstrap_draws(n_segments, interval_samples, rng), n_segments)
    baseline_resampled = resampled_scores(resampled_stats(baseline_counts, table[0]))
    systems_resampled = resampled_stats(system_counts, table[1:])
    if test_type == "ar":
        differences = randomized_differences(flips, table[0], table[1:])
    progress(1)

    results = [PairedResult(named_systems[0][0], scores[0], None, *bootstrap_interval(baseline_resampled))]
    for k, (name, _) in enumerate(named_systems[1:]):
        resampled = resampled_scores(systems_resampled[k])
        observed = abs(scores[k + 1] - scores[0])
        if test_type == "bs":
            p = paired_bootstrap_p_value(baseline_resampled, resampled, observed)
        else:
            p = p_value(differences[k], observed)
        results.append(PairedResult(name, scores[k + 1], p, *bootstrap_interval(resampled)))
        progress(1)
    return results
