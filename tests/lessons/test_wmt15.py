"""A real corpus: 100 WMT15 English-Russian segments and their published BLEU figures.

data/wmt15-enru-100/README.md gives Moses' multi-bleu.perl figure for the
tokenized files; mteval-13a.output is NIST's scorer on the same segments, with
its own tokenization (so lengths and scores differ slightly).
"""

import re

import pytest
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

from bleu_scratch import brevity_penalty, corpus_bleu, corpus_stats


@pytest.fixture(scope="module")
def wmt15(data_dir):
    folder = data_dir / "wmt15-enru-100"
    references = [[line.split()] for line in (folder / "ref.ru").read_text(encoding="utf-8").splitlines()]
    hypotheses = [line.split() for line in (folder / "google.ru").read_text(encoding="utf-8").splitlines()]
    assert len(references) == len(hypotheses) == 100
    return references, hypotheses


@pytest.fixture(scope="module")
def multi_bleu(data_dir):
    """The multi-bleu.perl line quoted in the data's README."""
    readme = (data_dir / "wmt15-enru-100" / "README.md").read_text(encoding="utf-8")
    match = re.search(
        r"BLEU = ([\d.]+), ([\d.]+)/([\d.]+)/([\d.]+)/([\d.]+) \(BP=([\d.]+), ratio=([\d.]+), "
        r"hyp_len=(\d+), ref_len=(\d+)\)",
        readme,
    )
    assert match, "the multi-bleu.perl line is missing from the README"
    bleu, *precisions, bp, ratio, hyp_len, ref_len = match.groups()
    return {
        "bleu": bleu,
        "precisions": precisions,
        "bp": bp,
        "ratio": ratio,
        "hyp_len": int(hyp_len),
        "ref_len": int(ref_len),
    }


@pytest.fixture(scope="module")
def mteval_cumulative(data_dir):
    """The nine cumulative BLEU figures (n = 1..9) of mteval-v13a."""
    output = (data_dir / "wmt15-enru-100" / "mteval-13a.output").read_text(encoding="utf-8")
    cumulative = output.split("Cumulative N-gram scoring", 1)[1]
    line = next(line for line in cumulative.splitlines() if line.strip().startswith("BLEU:"))
    figures = [float(x) for x in re.findall(r"\d+\.\d+", line)]
    assert len(figures) == 9
    return figures


def test_published_figure_is_what_the_readme_says(multi_bleu):
    # Guard against a misparse: the line quoted in the issue.
    assert multi_bleu == {
        "bleu": "23.17",
        "precisions": ["53.8", "29.6", "17.6", "10.3"],
        "bp": "1.000",
        "ratio": "1.074",
        "hyp_len": 1989,
        "ref_len": 1852,
    }


def test_corpus_bleu_reproduces_multi_bleu(wmt15, multi_bleu):
    references, hypotheses = wmt15
    assert f"{100 * corpus_bleu(references, hypotheses):.2f}" == multi_bleu["bleu"]


def test_statistics_reproduce_multi_bleu(wmt15, multi_bleu):
    stats = corpus_stats(*wmt15)
    assert (stats.hyp_len, stats.ref_len) == (multi_bleu["hyp_len"], multi_bleu["ref_len"])
    # Every segment has at least 4 tokens, so NLTK's totals equal multi-bleu's.
    assert stats.too_short == (0, 0, 0, 0)
    precisions = [f"{100 * m / t:.1f}" for m, t in zip(stats.matches, stats.totals)]
    assert precisions == multi_bleu["precisions"]
    assert f"{stats.hyp_len / stats.ref_len:.3f}" == multi_bleu["ratio"]
    assert f"{brevity_penalty(stats.ref_len, stats.hyp_len):.3f}" == multi_bleu["bp"]


def test_corpus_bleu_equals_nltk(wmt15, same_as_nltk):
    weights = [(1 / n,) * n for n in range(1, 10)]
    same_as_nltk(corpus_bleu, nltk_corpus_bleu, *wmt15, weights)


@pytest.mark.parametrize("n", range(1, 10))
def test_cumulative_bleu_close_to_mteval(wmt15, mteval_cumulative, n):
    # mteval-v13a re-tokenizes (1998/1862 tokens instead of 1989/1852), so the
    # figures agree to within 0.005, not exactly.
    score = corpus_bleu(*wmt15, weights=(1 / n,) * n)
    assert abs(score - mteval_cumulative[n - 1]) < 0.005
