"""Lesson 09: sacrebleu 2.6.0 as a second oracle, and every way NLTK's BLEU differs from it.

With the same tokens, bleu_scratch's statistics are sacrebleu's (``counts``,
``totals``, ``sys_len``, ``ref_len``) and ``sacrebleu_from_stats`` returns
sacrebleu's score as the same float (``==``).
"""

import inspect
import math
import subprocess
import sys

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothing
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_scratch import (
    BleuStats,
    corpus_bleu,
    corpus_stats,
    sacrebleu_from_stats,
    sentence_bleu,
    sentence_stats,
    tokenize_13a,
    tokenize_whitespace,
)
from bleu_scratch.notebook import read_lines
from tests.quick import examples

SMOOTHINGS = [("exp", None), ("none", None), ("floor", None), ("floor", 0.5), ("add-k", None), ("add-k", 2)]


def our_stats(hypotheses, reference_streams, tokenize, max_n=4):
    """Statistics of sacrebleu-style input: hypothesis strings and reference streams."""
    list_of_references = [[tokenize(r) for r in refs] for refs in zip(*reference_streams)]
    return corpus_stats(list_of_references, [tokenize(h) for h in hypotheses], max_n)


def assert_same_as_sacrebleu(stats: BleuStats, theirs, **options) -> None:
    assert stats.matches == tuple(theirs.counts)
    assert stats.totals == tuple(theirs.totals)
    assert (stats.hyp_len, stats.ref_len) == (theirs.sys_len, theirs.ref_len)
    ours = sacrebleu_from_stats(stats, **options)
    assert type(ours) is type(theirs.score) is float
    assert ours == theirs.score, (ours, theirs.score)


@pytest.fixture(scope="module")
def wmt15(data_dir):
    names = {
        "plain_ref": "newstest-2015-100sents.en-ru.ref.ru",
        "plain_hyp": "newstest-2015-100sents.en-ru.google.ru",
        "moses_ref": "ref.ru",
        "moses_hyp": "google.ru",
    }
    return {key: read_lines(data_dir / "wmt15-enru-100" / name) for key, name in names.items()}


def test_wmt15_files_are_aligned(data_dir, wmt15):
    # wc -l reports 99 for the plain files: their last line has no newline.
    plain = (data_dir / "wmt15-enru-100" / "newstest-2015-100sents.en-ru.google.ru").read_text(encoding="utf-8")
    assert plain.count("\n") == 99 and not plain.endswith("\n")
    assert {len(lines) for lines in wmt15.values()} == {100}


@pytest.mark.parametrize("smooth_method, smooth_value", SMOOTHINGS)
def test_wmt15_moses_tokenized_with_tokenize_none(wmt15, smooth_method, smooth_value):
    hyps, refs = wmt15["moses_hyp"], [wmt15["moses_ref"]]
    theirs = sacrebleu.corpus_bleu(hyps, refs, tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value)
    stats = our_stats(hyps, refs, tokenize_whitespace)
    if smooth_method == "add-k":
        # sacrebleu adds k into the counts it reports; compare the score only.
        assert sacrebleu_from_stats(stats, smooth_method, smooth_value) == theirs.score
    else:
        assert_same_as_sacrebleu(stats, theirs, smooth_method=smooth_method, smooth_value=smooth_value)


def test_wmt15_moses_tokenized_reproduces_multi_bleu(wmt15):
    # The published figure (data README): BLEU = 23.17, 53.8/29.6/17.6/10.3,
    # hyp_len=1989, ref_len=1852 from multi-bleu.perl, which does not smooth.
    stats = our_stats(wmt15["moses_hyp"], [wmt15["moses_ref"]], tokenize_whitespace)
    assert (stats.hyp_len, stats.ref_len) == (1989, 1852)
    assert [round(100 * m / t, 1) for m, t in zip(stats.matches, stats.totals)] == [53.8, 29.6, 17.6, 10.3]
    assert round(sacrebleu_from_stats(stats, "none"), 2) == 23.17


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenizer", ["sacrebleu's", "ours"])
def test_wmt15_plain_text_with_13a(wmt15, tokenizer, lowercase):
    hyps, refs = wmt15["plain_hyp"], [wmt15["plain_ref"]]
    theirs = sacrebleu.corpus_bleu(hyps, refs, tokenize="13a", lowercase=lowercase)
    tokenize_line = Tokenizer13a() if tokenizer == "sacrebleu's" else tokenize_13a

    def tokenize(line):
        line = line.lower() if lowercase else line
        return tokenize_line(line).split() if tokenizer == "sacrebleu's" else tokenize_line(line)

    assert_same_as_sacrebleu(our_stats(hyps, refs, tokenize), theirs)


# Random corpora: a small vocabulary so that n-grams match, empty lines, 1 to 3
# reference streams, every smoothing method, the effective order on and off.
WORDS = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=7).map(" ".join)


@st.composite
def corpora(draw):
    size = draw(st.integers(1, 5))
    hypotheses = draw(st.lists(WORDS, min_size=size, max_size=size))
    streams = draw(st.lists(st.lists(WORDS, min_size=size, max_size=size), min_size=1, max_size=3))
    return hypotheses, streams


@settings(max_examples=examples(300))
@given(
    corpora(),
    st.integers(1, 4),
    st.sampled_from(SMOOTHINGS),
    st.booleans(),
)
def test_random_corpora(corpus, max_n, smoothing, effective_order):
    hypotheses, streams = corpus
    smooth_method, smooth_value = smoothing
    metric = BLEU(
        tokenize="none",
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_n,
        effective_order=effective_order,
    )
    theirs = metric.corpus_score(hypotheses, streams)
    stats = our_stats(hypotheses, streams, tokenize_whitespace, max_n)
    options = dict(smooth_method=smooth_method, smooth_value=smooth_value, effective_order=effective_order)
    if smooth_method == "add-k":
        assert sacrebleu_from_stats(stats, **options) == theirs.score
    else:
        assert_same_as_sacrebleu(stats, theirs, **options)


RAW = st.lists(st.sampled_from(["a", "b", "A", "9", ".", ",", "-", "'", "!", "&amp;", " ", " "]), max_size=16).map(
    "".join
)


@settings(max_examples=examples(150))
@given(st.lists(st.tuples(RAW, RAW), min_size=1, max_size=4), st.booleans())
def test_random_raw_text_with_13a(pairs, lowercase):
    hypotheses, references = [h for h, _ in pairs], [r for _, r in pairs]
    theirs = sacrebleu.corpus_bleu(hypotheses, [references], tokenize="13a", lowercase=lowercase)
    stats = our_stats(hypotheses, [references], lambda line: tokenize_13a(line.lower() if lowercase else line))
    assert_same_as_sacrebleu(stats, theirs)


def test_package_imports_neither_oracle():
    code = (
        "import sys, bleu_scratch, bleu_scratch.lesson01_tokenize, bleu_scratch.lesson09_sacrebleu;"
        "print(sorted(m for m in ('nltk', 'sacrebleu') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_bad_arguments():
    stats = BleuStats(1, 1, (1,), (1,), (0,))
    with pytest.raises(ValueError, match="smooth_method must be one of"):
        sacrebleu_from_stats(stats, smooth_method="method3")
    with pytest.raises(TypeError, match="stats must be BleuStats"):
        sacrebleu_from_stats([1, 1, 1, 1])


# Every remaining difference between NLTK's corpus BLEU and sacrebleu's, each
# on the smallest example that shows it: bleu_scratch reproduces both sides.


def test_difference_denominator_of_a_short_sentence(record):
    # A perfect corpus with a one-token sentence. sacrebleu: all precisions
    # 6/6, 4/4, 3/3, 2/2 -> 100. NLTK counts "f" as one bigram, trigram and
    # 4-gram: 6/6, 4/5, 3/4, 2/3 -> (4/5 * 3/4 * 2/3) ** (1/4) = 0.4 ** 0.25.
    hyps = ["a b c d e".split(), ["f"]]
    refs = [[h] for h in hyps]
    stats = corpus_stats(refs, hyps)
    assert stats.totals == (6, 4, 3, 2) and stats.nltk_totals == (6, 5, 4, 3)

    nltk = record(nltk_corpus_bleu, refs, hyps)
    assert nltk.warnings == []
    assert math.isclose(nltk.value, 0.4**0.25, rel_tol=1e-15)
    assert corpus_bleu(refs, hyps) == nltk.value

    theirs = sacrebleu.corpus_bleu(["a b c d e", "f"], [["a b c d e", "f"]]).score
    assert theirs == sacrebleu_from_stats(stats)
    assert math.isclose(theirs, 100, rel_tol=1e-15)


def test_difference_order_with_no_match(record):
    # "the cat sat on the mat" vs "the cat is on the mat": 5/6, 3/5, 1/4, 0/3.
    hyp, ref = "the cat sat on the mat", "the cat is on the mat"
    refs, hyps = [[ref.split()]], [hyp.split()]
    stats = corpus_stats(refs, hyps)
    assert stats.matches == (5, 3, 1, 0) and stats.totals == (6, 5, 4, 3)

    # NLTK: 0/3 becomes sys.float_info.min with a warning, so a tiny positive score.
    nltk = record(nltk_corpus_bleu, refs, hyps)
    assert len(nltk.warnings) == 1 and "4-gram overlaps" in nltk.warnings[0]
    assert math.isclose(nltk.value, (5 / 6 * 3 / 5 * 1 / 4 * sys.float_info.min) ** 0.25, rel_tol=1e-12)
    assert 1e-78 < nltk.value < 1e-76
    ours = record(corpus_bleu, refs, hyps)
    assert (ours.value, ours.warnings) == (nltk.value, nltk.warnings)

    # sacrebleu without smoothing: exactly 0.
    none = sacrebleu.corpus_bleu([hyp], [[ref]], smooth_method="none")
    assert none.score == 0.0 == sacrebleu_from_stats(stats, "none")

    # sacrebleu's default 'exp': 0/3 becomes 1/(2*3); NLTK's method3 is the same rule.
    default = sacrebleu.corpus_bleu([hyp], [[ref]])
    assert default.score == sacrebleu_from_stats(stats)
    assert math.isclose(default.score, 100 * (5 / 6 * 3 / 5 * 1 / 4 * 1 / 6) ** 0.25, rel_tol=1e-12)
    method3 = nltk_corpus_bleu(refs, hyps, smoothing_function=NltkSmoothing().method3)
    assert math.isclose(100 * method3, default.score, rel_tol=1e-12)


def test_difference_scale():
    # A perfect hypothesis: NLTK's 1.0 is exact (log 1 = 0); sacrebleu's
    # exp(mean of log 100) lands within rounding of 100, not always on it.
    tokens = "the cat sat on the mat".split()
    stats = corpus_stats([[tokens]], [tokens])
    assert nltk_corpus_bleu([[tokens]], [tokens]) == 1.0 == corpus_bleu([[tokens]], [tokens])
    theirs = sacrebleu.corpus_bleu(["the cat sat on the mat"], [["the cat sat on the mat"]]).score
    assert theirs == sacrebleu_from_stats(stats)
    assert math.isclose(theirs, 100, rel_tol=1e-15)


def test_difference_float_rounding(wmt15):
    # Same statistics, same maths; NLTK adds w * log(m/t) with math.fsum,
    # sacrebleu adds log(100 * m/t) with sum and divides by 4: equal to ~1e-15. Lesson 09's folded
    # aside (5.4) prints both floats: 100 x NLTK is 2 units in the last place below sacrebleu.
    hyps, refs = wmt15["moses_hyp"], [wmt15["moses_ref"]]
    list_of_references = [[r.split()] for r in refs[0]]
    nltk = nltk_corpus_bleu(list_of_references, [h.split() for h in hyps])
    theirs = sacrebleu.corpus_bleu(hyps, refs, tokenize="none").score
    assert math.isclose(100 * nltk, theirs, rel_tol=1e-12, abs_tol=0)
    assert (100 * nltk, theirs) == (23.168256941453304, 23.16825694145331)
    assert theirs - 100 * nltk == 2 * math.ulp(theirs)


def test_difference_sentence_level_defaults(record):
    # sacrebleu's sentence_bleu smooths with 'exp' and uses the effective order;
    # its corpus_bleu smooths with 'exp' but keeps all four orders.
    sentence_defaults = inspect.signature(sacrebleu.sentence_bleu).parameters
    corpus_defaults = inspect.signature(sacrebleu.corpus_bleu).parameters
    assert sentence_defaults["smooth_method"].default == corpus_defaults["smooth_method"].default == "exp"
    assert sentence_defaults["use_effective_order"].default is True
    assert corpus_defaults["use_effective_order"].default is False

    # "the cat sat" vs "the cat sat down": 3/3, 2/2, 1/1 and no 4-gram at all.
    # sacrebleu: three orders, BP = exp(1 - 4/3): 100 * exp(-1/3) = 71.65.
    # NLTK: 4-gram precision 0/1, a warning and a score near 1e-77.
    stats = sentence_stats(["the cat sat down".split()], "the cat sat".split())
    theirs = sacrebleu.sentence_bleu("the cat sat", ["the cat sat down"])
    assert theirs.score == sacrebleu_from_stats(stats, effective_order=True)
    assert math.isclose(theirs.score, 100 * math.exp(-1 / 3), rel_tol=1e-12)
    nltk = record(nltk_sentence_bleu, ["the cat sat down".split()], "the cat sat".split())
    assert len(nltk.warnings) == 1 and 1e-78 < nltk.value < 1e-76
    ours = record(sentence_bleu, ["the cat sat down".split()], "the cat sat".split())
    assert (ours.value, ours.warnings) == (nltk.value, nltk.warnings)


def test_difference_tokenization_defaults():
    # NLTK scores the tokens it is given; sacrebleu tokenizes with 13a by default.
    hyp, ref = "the cat sat on the mat.", "the cat sat on the mat ."
    # Split on spaces, "mat." matches nothing: 5/6, 4/5, 3/4, 2/3, BP = exp(1 - 7/6).
    nltk_split = nltk_corpus_bleu([[ref.split()]], [hyp.split()])
    by_hand = math.exp(1 - 7 / 6) * (5 / 6 * 4 / 5 * 3 / 4 * 2 / 3) ** 0.25
    assert math.isclose(nltk_split, by_hand, rel_tol=1e-12)
    assert math.isclose(sacrebleu.corpus_bleu([hyp], [[ref]]).score, 100, rel_tol=1e-15)
    assert nltk_corpus_bleu([[tokenize_13a(ref)]], [tokenize_13a(hyp)]) == 1.0
