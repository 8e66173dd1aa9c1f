"""Lesson 12: Pearson's r and Kendall's tau against scipy.stats, on WMT17's published figures and on random scores.

scipy is a test-only dependency (requirements.txt): the lesson computes both
correlations itself, and scipy's pearsonr and kendalltau (tau-b, its
default) are the oracle. They sum in another order, so the two agree to
about 1e-15, not bit for bit.
"""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from bleu_scratch import discordant_pairs, kendall_tau, pearson
from tests.quick import examples


@pytest.fixture(scope="module")
def wmt17(data_dir):
    """The published mteval-v13a BLEU and the human DA z-scores of the 16 systems, in one order."""
    folder = data_dir / "wmt17-en-de-systems"
    bleu = json.loads((folder / "published-figures.json").read_text(encoding="utf-8"))["bleu_mteval_v13a"]["scores"]
    rows = (folder / "human-da-syslevel.en-de.tsv").read_text(encoding="utf-8").splitlines()[1:]
    human = {
        system.removeprefix("newstest2017.").removesuffix(".en-de"): float(z)
        for system, z in (row.split("\t") for row in rows)
    }
    names = sorted(human)
    assert sorted(bleu) == names
    return names, [bleu[name] for name in names], [human[name] for name in names]


def test_pearson_and_kendall_of_bleu_and_humans_are_scipys(wmt17):
    _, bleu, human = wmt17
    assert pearson(bleu, human) == pytest.approx(stats.pearsonr(bleu, human).statistic, rel=1e-12)
    assert kendall_tau(bleu, human) == pytest.approx(stats.kendalltau(bleu, human).statistic, rel=1e-12)


def test_the_discordant_pairs_are_the_pairs_tau_loses(wmt17):
    # Without ties tau = (C - D) / P with C + D = P pairs, so D = P (1 - tau) / 2.
    names, bleu, human = wmt17
    pairs = len(names) * (len(names) - 1) // 2
    tau = stats.kendalltau(bleu, human).statistic
    assert len(discordant_pairs(bleu, human)) == round(pairs * (1 - tau) / 2)


def test_bleu_and_humans_disagree_on_the_best_system(wmt17):
    names, bleu, human = wmt17
    best_by_bleu = names[bleu.index(max(bleu))]
    best_by_humans = names[human.index(max(human))]
    assert (best_by_bleu, best_by_humans) == ("uedin-nmt.4722", "LMU-nmt-reranked.4934")
    i, j = sorted([names.index(best_by_bleu), names.index(best_by_humans)])
    assert (i, j) in discordant_pairs(bleu, human)


@settings(max_examples=examples(200))
@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=2, max_size=12))
def test_on_random_scores_with_ties(pairs):
    xs, ys = [float(x) for x, _ in pairs], [float(y) for _, y in pairs]
    if len(set(xs)) == 1 or len(set(ys)) == 1:
        return  # undefined: the door refuses it (below)
    assert pearson(xs, ys) == pytest.approx(stats.pearsonr(xs, ys).statistic, rel=1e-9, abs=1e-12)
    assert kendall_tau(xs, ys) == pytest.approx(stats.kendalltau(xs, ys).statistic, rel=1e-12, abs=1e-15)


def test_hand_calculations():
    # x = 1 2 3 4, y = 1 3 2 4: deviations from the mean 2.5 are -1.5 -0.5 0.5 1.5 and -1.5 0.5 -0.5 1.5;
    # their products sum to 2.25 - 0.25 - 0.25 + 2.25 = 4 and their squares to 5 each, so r = 4 / 5.
    # One of the six pairs, (3, 2), is discordant: tau = (5 - 1) / 6.
    assert pearson([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    assert discordant_pairs([1, 2, 3, 4], [1, 3, 2, 4]) == [(1, 2)]
    # A lower-is-better metric that ranks exactly as the humans do.
    assert kendall_tau([60.1, 61.0, 75.2], [0.2, 0.1, -0.4]) == -1.0


@pytest.mark.parametrize(
    "xs, ys, error, message",
    [
        ([1, 2, 3], [1, 2], ValueError, "xs has 3 scores but ys has 2"),
        ([1], [1], ValueError, "at least two systems"),
        ([1, 1, 1], [1, 2, 3], ValueError, "all 1: a correlation is undefined"),
        ([1, 2, math.nan], [1, 2, 3], ValueError, r"xs\[2\] is nan"),
        ([1, 2, 3], [1, "2", 3], TypeError, r"ys\[1\] is a str"),
        ("123", [1, 2, 3], TypeError, r"xs\[0\] is a str"),
    ],
)
def test_the_door_refuses_what_has_no_correlation(xs, ys, error, message):
    with pytest.raises(error, match=message):
        pearson(xs, ys)
    with pytest.raises(error, match=message):
        kendall_tau(xs, ys)


def test_discordant_pairs_accepts_a_constant_list():
    assert discordant_pairs([1, 1, 1], [1, 2, 3]) == []
