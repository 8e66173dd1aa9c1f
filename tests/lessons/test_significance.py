"""Lesson 11: the segment table, resampling and the paired tests, against sacrebleu 2.6.0 and the published p-values.

sacrebleu's ``PairedTest`` is run here on the same lines and compared with
``paired_test`` exactly (==): scores, p-values, bootstrap means, and
sacrebleu's ``ci``, half the width of the 95% interval (sacrebleu computes
``0.5 * (high - low)``, as ``PairedResult.half_width`` does). Nothing is
rounded: sacrebleu returns floats and rounds only when it prints.
"""

import json
import os
from itertools import accumulate

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest, _compute_p_value, estimate_ci

import bleu_scratch
from bleu_scratch import SACREBLEU_TOKENIZERS, BleuStats, paired_test, segment_table, sentence_stats
from bleu_scratch.lesson11_resampling import (
    bootstrap_draws,
    bootstrap_interval,
    draw_counts,
    resampled_stats,
    row_stats,
    stats_row,
)
from bleu_scratch.lesson11_significance import p_value
from bleu_scratch.notebook import read_lines
from tests.lessons.test_sacrebleu_tokenizers import LINES
from tests.quick import examples

# What sacrebleu's own test (test/test_significance.py) allows between its p-values and the published ones.
PUBLISHED_TOLERANCE = 0.01


@pytest.fixture(scope="module")
def systems(wmt17):
    """``(name, lines)`` of the 16 systems, the baseline first, and the reference stream."""
    return [(name, read_lines(wmt17.system_path(name))) for name in wmt17.names], read_lines(wmt17.reference_path)


def sacrebleu_paired_test(named_systems, reference, tokenize, test_type, n_samples, seed=12345):
    """sacrebleu's PairedTest as its command line runs it (references cached in the metric), at ``seed``.

    For AR, the intervals come from 1,000 resamples (``n_ar_confidence``), as in ``paired_test``.
    """
    previous = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        metrics = {"BLEU": BLEU(references=[reference], tokenize=tokenize)}
        _, results = PairedTest(
            named_systems, metrics, references=None, test_type=test_type, n_samples=n_samples, n_ar_confidence=1000
        )()
    finally:
        os.environ.pop("SACREBLEU_SEED") if previous is None else os.environ.update(SACREBLEU_SEED=previous)
    return [(name, r.score, r.p_value, r.mean, r.ci) for name, r in zip(results["System"], results["BLEU"])]


def as_sacrebleu(results):
    return [(r.name, r.score, r.p_value, r.mean, r.half_width) for r in results]


# --- the segment table ---------------------------------------------------------------------------------------

tokens = st.lists(st.sampled_from("a b c d e".split()), max_size=9)


@settings(max_examples=examples(200))
@given(
    st.integers(1, 3).flatmap(
        lambda n_refs: st.lists(
            st.tuples(st.lists(tokens, min_size=2, max_size=2), st.lists(tokens, min_size=n_refs, max_size=n_refs)),
            min_size=1,
            max_size=6,
        )
    ),
    st.integers(1, 5),
)
def test_segment_table_rows_are_lesson_10s_statistics(segments, max_n):
    # Two systems (with repeated n-grams, empty segments, 1-3 references of any length) against lesson 05's
    # sentence_stats (the table is counted with lesson 10's batch_counts).
    systems = [[hyps[k] for hyps, _ in segments] for k in range(2)]
    references = [[refs[r] for _, refs in segments] for r in range(len(segments[0][1]))]
    table = segment_table(systems, references, max_n)
    expected = [[stats_row(sentence_stats(refs, hyps[k], max_n)) for hyps, refs in segments] for k in range(2)]
    assert table.tolist() == expected


def test_segment_table_of_wmt17_is_lesson_10s_statistics(systems):
    named, reference = systems
    tokenize = bleu_scratch.TOKENIZERS["13a"]
    hypotheses = [[tokenize(line) for line in lines] for _, lines in named[:2]]
    references = [[tokenize(line) for line in reference]]
    expected = [
        [stats_row(sentence_stats([ref], hyp)) for ref, hyp in zip(references[0], system)] for system in hypotheses
    ]
    assert segment_table(hypotheses, references).tolist() == expected


def test_row_stats_gives_back_the_statistics():
    stats = BleuStats(hyp_len=7, ref_len=8, matches=(6, 3, 1), totals=(7, 6, 5), too_short=(0, 0, 0))
    assert row_stats(stats_row(stats)) == stats
    single = row_stats(stats_row(stats), single_precision=True)
    assert single == stats and {type(x) for x in single.matches + single.totals} == {np.float32}


# --- resampling, step by step ----------------------------------------------------------------------------------


def test_a_resample_is_the_sum_of_the_chosen_segments_statistics():
    rng = np.random.default_rng(0)
    table = rng.integers(0, 30, size=(12, 14))
    draws = bootstrap_draws(12, 5, np.random.default_rng(1))
    sums = resampled_stats(draw_counts(draws, 12), table)
    for draw, total in zip(draws, sums):
        # Lesson 05's + on BleuStats, one chosen segment at a time.
        expected = list(accumulate((row_stats(table[i]) for i in draw), BleuStats.__add__))[-1]
        assert row_stats(total) == expected
    # Several systems at once: the same sums, one block per system.
    assert (resampled_stats(draw_counts(draws, 12), np.stack([table, 2 * table])) == np.stack([sums, 2 * sums])).all()


def test_draws_are_sacrebleus_draws():
    # sacrebleu: rng = np.random.default_rng(seed); rng.choice(n, size=(n_samples, n), replace=True)
    expected = np.random.default_rng(12345).choice(3004, size=(10, 3004), replace=True)
    assert (bootstrap_draws(3004, 10, np.random.default_rng(12345)) == expected).all()


def test_interval_and_p_value_are_sacrebleus():
    scores = np.random.default_rng(3).normal(26.6, 0.3, size=1000)
    mean, (low, high) = bootstrap_interval(scores)
    assert (mean, 0.5 * (high - low)) == estimate_ci(scores)
    statistics = np.random.default_rng(4).normal(0, 1, size=500)
    assert p_value(statistics, 0.7) == _compute_p_value(statistics, 0.7)


# --- the paired tests against sacrebleu ---------------------------------------------------------------------


# Three of the 15 systems beside the baseline, run live: each is compared with the baseline on the same resamples,
# whatever the others, so three stand for the property; test_the_recorded_sacrebleu_runs_are_ours compares all 16
# with sacrebleu's own recorded runs.
LIVE = ["PROMT-Rule-based.4735", "online-A.0", "uedin-nmt.4722"]


def test_paired_bootstrap_on_wmt17_systems_equals_sacrebleu(systems):
    # sacrebleu's defaults: tokenize 13a, 1,000 resamples, seed 12345.
    named, reference = systems
    named = [named[0], *(system for system in named if system[0] in LIVE)]
    assert len(named) == 1 + len(LIVE)
    assert as_sacrebleu(paired_test(named, [reference])) == sacrebleu_paired_test(named, reference, "13a", "bs", 1000)


def test_approximate_randomization_equals_sacrebleu(systems):
    # sacrebleu's AR takes over a minute for 15 systems and 10,000 trials: two systems and 1,000 trials here.
    named, reference = systems
    ours = paired_test(named[:3], [reference], test_type="ar", n_samples=1000, tokenize="none")
    assert as_sacrebleu(ours) == sacrebleu_paired_test(named[:3], reference, "none", "ar", 1000)


# Segments of every script that share words: a, b and c are random lines (some end in whitespace); the baseline
# says "a b", the system "a c", the reference "a b c".
SHARING_SEGMENTS = st.lists(st.tuples(LINES, LINES, LINES), min_size=2, max_size=8)


@pytest.mark.parametrize("tokenize", SACREBLEU_TOKENIZERS)
@settings(max_examples=examples(20))
@given(segments=SHARING_SEGMENTS, test_type=st.sampled_from(["bs", "ar"]))
def test_every_sacrebleu_tokenizer_gives_sacrebleus_numbers(tokenize, segments, test_type):
    named = [("A", [f"{a} {b}" for a, b, _ in segments]), ("B", [f"{a} {c}" for a, _, c in segments])]
    reference = [f"{a} {b} {c}" for a, b, c in segments]
    ours = paired_test(named, [reference], test_type=test_type, n_samples=20, tokenize=tokenize)
    assert as_sacrebleu(ours) == sacrebleu_paired_test(named, reference, tokenize, test_type, 20)


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_another_seed_is_sacrebleus_seed(systems, test_type):
    named, reference = systems
    ours = paired_test(named[:3], [reference], test_type=test_type, n_samples=100, seed=7, tokenize="none")
    assert as_sacrebleu(ours) == sacrebleu_paired_test(named[:3], reference, "none", test_type, 100, seed=7)


def test_no_seed_draws_one_from_the_operating_system(systems, monkeypatch):
    named, reference = systems

    class Entropy:
        entropy = 42

    monkeypatch.setattr(np.random, "SeedSequence", Entropy)
    unseeded = paired_test(named[:3], [reference], n_samples=100, seed=None, tokenize="none")
    assert unseeded == paired_test(named[:3], [reference], n_samples=100, seed=42, tokenize="none")


def test_progress_is_reported_once_per_stream_and_per_test(systems):
    named, reference = systems
    steps = []
    paired_test(named[:3], [reference], n_samples=10, tokenize="none", progress=steps.append)
    assert steps == [1] * 6


# --- the published p-values -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def published(wmt17):
    figures = json.loads((wmt17.folder / "published-figures.json").read_text(encoding="utf-8"))
    return figures["paired_significance_p_values_vs_LIUM-NMT.4900"]


@pytest.fixture(scope="module")
def recorded(wmt17):
    return json.loads((wmt17.folder / "sacrebleu-paired-tests.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def runs(systems):
    """Our runs in the settings of sacrebleu's test against the published figures: tokenize none, seed 12345."""
    named, reference = systems
    return {
        "bs_2000": paired_test(named, [reference], "bs", 2000, tokenize="none"),
        "ar_10000": paired_test(named, [reference], "ar", 10000, tokenize="none"),
    }


def test_bootstrap_p_values_match_moses_within_0_01(runs, published):
    moses = published["moses_sigdiff_bootstrap_2000"]
    ours = {r.name: r.p_value for r in runs["bs_2000"][1:]}
    assert ours.keys() == moses.keys()
    assert {name: p for name, p in ours.items() if abs(p - moses[name]) >= PUBLISHED_TOLERANCE} == {}


def test_randomization_p_values_match_multeval_within_0_01(runs, published):
    multeval = published["multeval_approximate_randomization_10000_bleu"]
    ours = {r.name: r.p_value for r in runs["ar_10000"][1:]}
    assert ours.keys() == multeval.keys()
    assert {name: p for name, p in ours.items() if abs(p - multeval[name]) >= PUBLISHED_TOLERANCE} == {}


def test_fifteen_null_tests_mark_at_least_one_system_54_percent_of_the_time():
    # Lesson 11's folded simulation: p-values uniform under the null hypothesis, by hand 1 - 0.95**15 = 0.537.
    null_p = np.random.default_rng(2017).uniform(size=(100_000, 15))
    simulated = float(np.mean((null_p < 0.05).any(axis=1)))
    assert round(1 - 0.95**15, 3) == 0.537
    assert round(simulated, 3) == 0.536 and abs(simulated - (1 - 0.95**15)) < 0.005


@pytest.mark.parametrize("run", ["bs_2000", "ar_10000"])
def test_the_recorded_sacrebleu_runs_are_ours(runs, recorded, run):
    expected = [(name, r["score"], r["p_value"], r["mean"], r["ci"]) for name, r in recorded[run]["systems"].items()]
    assert as_sacrebleu(runs[run]) == expected


# --- the door ------------------------------------------------------------------------------------------------

SYSTEMS = [("A", ["a b c", "d e"]), ("B", ["a b", "d e f"])]
REFERENCES = [["a b c", "d e f"]]


@pytest.mark.parametrize(
    "change, error, words",
    [
        ({"test_type": "paired"}, ValueError, "'bs' (paired bootstrap resampling) or 'ar'"),
        ({"n_samples": 0}, ValueError, "n_samples must be a whole number of at least 1"),
        ({"n_samples": True}, ValueError, "n_samples must be a whole number"),
        ({"seed": -1}, ValueError, "seed must be a whole number of at least 0"),
        ({"seed": "12345"}, ValueError, "seed must be a whole number"),
        ({"tokenize": "flores200"}, ValueError, "tokenize must be one of"),
        ({"named_systems": SYSTEMS[:1]}, ValueError, "needs the baseline and at least one system"),
        ({"named_systems": [SYSTEMS[0], ("A", SYSTEMS[1][1])]}, ValueError, "names must differ"),
        ({"named_systems": [SYSTEMS[0], "B"]}, TypeError, "must be a (name, lines) pair"),
        ({"named_systems": [SYSTEMS[0], ("B", "a b\nd e f")]}, TypeError, "use text.splitlines()"),
        ({"named_systems": [SYSTEMS[0], ("B", ["a b", 3])]}, TypeError, "must hold lines of text (str), got int"),
        ({"references": REFERENCES[0]}, TypeError, "pass [lines] for one reference"),
        ({"references": []}, ValueError, "references is empty"),
        ({"references": [["a b c"]]}, ValueError, "one line per segment"),
        ({"named_systems": [("A", []), ("B", [])], "references": [[]]}, ValueError, "and at least one"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_the_door_explains_bad_input(change, error, words):
    arguments = {"named_systems": SYSTEMS, "references": REFERENCES} | change
    with pytest.raises(error) as raised:
        paired_test(**arguments)
    assert words in str(raised.value)


def test_the_door_accepts_tuples_and_passes_lists():
    as_tuples = paired_test(
        tuple((name, tuple(lines)) for name, lines in SYSTEMS), (tuple(REFERENCES[0]),), n_samples=50
    )
    assert as_tuples == paired_test(SYSTEMS, REFERENCES, n_samples=50)
