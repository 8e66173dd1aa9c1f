"""Lesson 08: each blog post's code, transcribed here, against the package's reproduction of it.

The transcriptions keep the posts' own code (names, numpy, the order of every
operation); only the layout is ours.

- "Introduction to BLEU in Python" (Arie Pratama): the post's Markdown source,
  _posts/2019-4-14-Introduction-to-BLEU-in-python.md in the GitHub repository
  ariepratama/ariepratama.github.io (commit 2979e035f47d), functions
  count_ngram, count_clip_ngram, modified_precision, closest_ref_length,
  brevity_penalty and bleu_score, word for word.
- The study notes "BLEU (BiLingual Evaluation Understudy)" (from Wikipedia): a
  public Markdown file of notes on GitHub found by its code, functions
  count_ngram, max_ref_count, count_clip, modified_ngram_precision,
  best_match_length, brevity_penalty and bleu_score, word for word.
- "Understanding the BLEU Score for Translation Model Evaluation" (David
  Kirchhoff, https://deconvoluteai.com/blog/bleu-score): the notebook the post
  names as its code, 01_nlp_evals/bleu_score.ipynb in the GitHub repository
  daved01/deconvoluteai-tutorials (commit 5ed2da80bcb1), functions
  preprocess_text, n_gram_precision, brevity_penalty and bleu_score_sentence,
  word for word (its per-character lowercasing, its np.mean and np.exp).

Every value is asserted equal, bit for bit, on thousands of random inputs per
post. The package calls numpy where a post does: numpy's log and exp may differ
from math.log and math.exp in the last bit on some processors (its own
vectorised code), and the posts' values with them, so only the same calls give
the same value on every machine. A post returns a numpy.float64 and the package
a float of the same value.
"""

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk import ngrams

from bleu_scratch import (
    introduction_bleu,
    kirchhoff_bleu,
    kirchhoff_tokenize,
    study_notes_bleu,
    tokenize_paper,
    variant_sentence_bleu,
)
from bleu_scratch.lesson08_variants import shortest_ref_length
from tests.quick import examples

# --- "Introduction to BLEU in Python", as posted -------------------------------------------------


def intro_count_ngram(unigram, ngram=1):
    return Counter(ngrams(unigram, ngram))


def intro_count_clip_ngram(translation_u, list_of_reference_u, ngram=1):
    res = dict()
    ct_translation_u = intro_count_ngram(translation_u, ngram=ngram)
    for reference_u in list_of_reference_u:
        ct_reference_u = intro_count_ngram(reference_u, ngram=ngram)
        for k in ct_reference_u:
            if k in res:
                res[k] = max(ct_reference_u[k], res[k])
            else:
                res[k] = ct_reference_u[k]
    return {k: min(ct_translation_u.get(k, 0), res.get(k, 0)) for k in ct_translation_u}


def intro_modified_precision(translation_u, list_of_reference_u, ngram=1):
    ct_clip = intro_count_clip_ngram(translation_u, list_of_reference_u, ngram)
    ct = intro_count_ngram(translation_u, ngram)
    return sum(ct_clip.values()) / float(max(sum(ct.values()), 1))


def intro_closest_ref_length(translation_u, list_of_reference_u):
    len_trans = len(translation_u)
    closest_ref_idx = np.argmin([abs(len(x) - len_trans) for x in list_of_reference_u])
    return len(list_of_reference_u[closest_ref_idx])


def intro_brevity_penalty(translation_u, list_of_reference_u):
    c = len(translation_u)
    r = intro_closest_ref_length(translation_u, list_of_reference_u)
    if c > r:
        return 1
    else:
        return np.exp(1 - float(r) / c)


def intro_bleu_score(translation_u, list_of_reference_u, W=[0.25 for x in range(4)]):  # noqa: B006 (the post's)
    bp = intro_brevity_penalty(translation_u, list_of_reference_u)
    modified_precisions = [
        intro_modified_precision(translation_u, list_of_reference_u, ngram=ngram) for ngram, _ in enumerate(W, start=1)
    ]
    score = np.sum(
        [wn * np.log(modified_precisions[i]) if modified_precisions[i] != 0 else 0 for i, wn in enumerate(W)]
    )
    return bp * np.exp(score)


# --- the study notes, as written -----------------------------------------------------------------


def notes_count_ngram(cand, n):
    return Counter(ngrams(cand, n))


def notes_max_ref_count(ngram, refs, n):
    maxim = 0
    for ref in refs:
        ngram2cnt_ref = notes_count_ngram(ref, n)
        if ngram2cnt_ref[ngram] > maxim:
            maxim = ngram2cnt_ref[ngram]
    return maxim


def notes_count_clip(ngram, cand, refs, n):
    return min(notes_count_ngram(cand, n)[ngram], notes_max_ref_count(ngram, refs, n))


def notes_modified_ngram_precision(refs, cand, n):
    sum_count_clip = 0
    for ngram, _cnt in notes_count_ngram(cand, n).items():
        sum_count_clip += notes_count_clip(ngram, cand, refs, n)
    return sum_count_clip / (len(cand) - n + 1)


def notes_best_match_length(refs, cand):
    ref_lens = [len(ref) for ref in refs]
    return min(ref_lens, key=lambda x: (abs(x - len(cand)), x))


def notes_brevity_penalty(refs, cand):
    c = len(cand)
    r = notes_best_match_length(refs, cand)
    if c == 0:
        return 0
    else:
        if c <= r:
            return np.exp(1 - r / c)
        else:
            return 1


def notes_bleu_score(refs, cand, weights=[0.25, 0.25, 0.25, 0.25]):  # noqa: B006 (the notes')
    ps = [notes_modified_ngram_precision(refs, cand, n=k + 1) for k, _ in enumerate(weights)]
    score = sum([w * np.log(p) if p != 0 else 0 for w, p in zip(weights, ps)])
    return notes_brevity_penalty(refs, cand) * np.exp(score)


# --- "Understanding the BLEU Score...", as posted ------------------------------------------------
# https://github.com/daved01/deconvoluteai-tutorials/blob/5ed2da80bcb14be3ac4a0b7ed391f288b5d1d68c/01_nlp_evals/bleu_score.ipynb


def kirchhoff_preprocess_text(sentences):
    if not type(sentences) == list:  # noqa: E721 (the post's)
        raise ValueError("Expecting a list of strings as input.")
    return [
        ["".join(char.lower() for char in word if char.isalnum()) for word in sentence.split()]
        for sentence in sentences
    ]


def kirchhoff_n_gram_precision(candidate, references, n):
    if n < 1:
        raise ValueError("n must be greater or equal 1.")
    candidate_n_grams = Counter([tuple(candidate[i : i + n]) for i in range(len(candidate) - n + 1)])
    max_reference_n_grams = Counter()
    for reference in references:
        reference_n_grams = Counter([tuple(reference[i : i + n]) for i in range(len(reference) - n + 1)])
        for n_gram in reference_n_grams:
            max_reference_n_grams[n_gram] = max(max_reference_n_grams[n_gram], reference_n_grams[n_gram])
    clipped_counts = {ng: min(count, max_reference_n_grams[ng]) for ng, count in candidate_n_grams.items()}
    return sum(clipped_counts.values()), sum(candidate_n_grams.values())


def kirchhoff_brevity_penalty(candidate, references):
    c = len(candidate)
    r = min(len(reference) for reference in references)
    if c > r:
        return 1
    else:
        return math.exp(1 - r / c)


def kirchhoff_bleu_score_sentence(candidate_seq, references_seqs, max_n=4):
    candidate_seq = kirchhoff_preprocess_text([candidate_seq])[0]
    references_seqs = kirchhoff_preprocess_text(references_seqs)
    precisions = []
    for n in range(1, max_n + 1):
        p_n, total = kirchhoff_n_gram_precision(candidate_seq, references_seqs, n)
        precisions.append(p_n / total if total > 0 else 0)
    if all(p == 0 for p in precisions):
        return 0
    geometric_mean = np.exp(np.mean([math.log(p) for p in precisions if p > 0]))
    bp = kirchhoff_brevity_penalty(candidate_seq, references_seqs)
    return bp * geometric_mean


# --- the comparison ------------------------------------------------------------------------------


def assert_same_score(ours, theirs):
    """The post's numpy.float64, as the package's float: the same value, to the last bit."""
    assert type(theirs) is np.float64, f"the post's code returned a {type(theirs).__name__}"
    assert type(ours) is float, f"the package returned a {type(ours).__name__}, not a float"
    assert ours == theirs, f"{ours!r} != the post's {theirs!r}"


words = st.sampled_from(["the", "cat", "sat", "on", "mat", "a"])
token_lists = st.lists(words, max_size=12)
weight_vectors = st.one_of(
    st.just((0.25, 0.25, 0.25, 0.25)),
    st.lists(st.floats(0.01, 1.0), min_size=1, max_size=6).map(tuple),
)


# The two posts take the same input: each of the 3,000 generated cases is put to both.
@settings(max_examples=examples(3000))
@given(st.lists(token_lists, min_size=1, max_size=4), token_lists, weight_vectors)
def test_introduction_and_study_notes_bleu_are_their_posts_bleu_score(references, hypothesis, weights):
    if not hypothesis:
        with pytest.raises(ZeroDivisionError):
            intro_bleu_score(hypothesis, references, list(weights))
        with pytest.raises(ZeroDivisionError, match="empty hypothesis"):
            introduction_bleu(references, hypothesis, weights)
    else:
        assert_same_score(
            introduction_bleu(references, hypothesis, weights), intro_bleu_score(hypothesis, references, list(weights))
        )
    if len(hypothesis) < len(weights):
        with pytest.raises(ZeroDivisionError):
            notes_bleu_score(references, hypothesis, list(weights))
        with pytest.raises(ZeroDivisionError, match=f"0 for n = {len(hypothesis) + 1}"):
            study_notes_bleu(references, hypothesis, weights)
    else:
        assert_same_score(
            study_notes_bleu(references, hypothesis, weights), notes_bleu_score(references, hypothesis, list(weights))
        )


# Words with capitals, punctuation alone or inside, digits, an underscore and letters outside ASCII, some
# of whose lowercase depends on lowercasing a letter alone or in its word ("İ", the sigma of "ΟΔΟΣ").
text_words = st.sampled_from(
    ["the", "The", "cat", "cat.", "Café", "café", "-", "...", "it's", "its", "2x", "_", "mat!", "Straße"]
    + ["İstanbul", "istanbul", "ΟΔΟΣ", "οδοσ", "οδος", "ǅemal", "ǆemal", "Ⅻ"]
)
lines = st.lists(text_words, max_size=10).map(" ".join)


@settings(max_examples=examples(3000))
@given(st.lists(lines, min_size=1, max_size=3), lines, st.integers(1, 6))
def test_kirchhoff_bleu_is_the_posts_bleu_score_sentence(references, hypothesis, max_n):
    theirs = kirchhoff_bleu_score_sentence(hypothesis, references, max_n)
    ours = kirchhoff_bleu(references, hypothesis, max_n)
    if type(theirs) is int:
        assert theirs == 0 and ours == 0 and type(ours) is int, f"{ours!r} != the post's {theirs!r}"
        return
    assert_same_score(ours, theirs)


def test_kirchhoffs_tokens_are_the_posts_preprocess_text():
    words = ["İstanbul", "ΟΔΟΣ", "Café,", "-", "it's", "ǅemal", "Ⅻ", "Straße!"]
    line = " ".join(words)
    assert kirchhoff_tokenize(line) == kirchhoff_preprocess_text([line])[0]
    # Lowercasing the line first would lose the dot of "İ" (a combining mark, not alphanumeric) and end "ΟΔΟΣ"
    # with the final sigma: the post lowercases each character after the test.
    assert kirchhoff_tokenize(line)[:2] == ["i\u0307stanbul", "οδοσ"]
    assert ["".join(c for c in w if c.isalnum()) for w in line.lower().split()][:2] == ["istanbul", "οδος"]


def test_the_posts_and_fsum_can_differ_in_the_last_bit():
    # Against the standard variant (math.fsum): the same precisions, another last bit.
    # p_n = 5/5, 3/4, 2/3, 1/2, BP = 1: only the order of adding the four logs differs.
    references, hypothesis = [list("acabda"), list("ccadd")], list("abdaa")
    ours, standard = introduction_bleu(references, hypothesis), variant_sentence_bleu(references, hypothesis)
    assert (ours, standard) == (0.7071067811865475, 0.7071067811865476)
    assert float(intro_bleu_score(hypothesis, references)) == ours


def test_where_the_posts_code_crashes():
    ship = [r.split() for r in ["this is a ship", "it is ship", "ship it is", "a ship, it is"]]
    # The post's brevity penalty divides by the length of an empty hypothesis.
    with pytest.raises(ZeroDivisionError, match="float division by zero"):
        intro_bleu_score([], ship)
    with pytest.raises(ZeroDivisionError, match="empty hypothesis"):
        introduction_bleu(ship, [])
    # The notes divide the trigram matches of "it is" by len(cand) - 3 + 1 = 0.
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        notes_bleu_score(ship, ["it", "is"])
    with pytest.raises(ZeroDivisionError, match="0 for n = 3: a candidate of 2 tokens"):
        study_notes_bleu(ship, ["it", "is"])


def test_no_unigram_match_scores_the_brevity_penalty_in_two_posts_and_0_in_the_variant():
    references, hypothesis = [["it", "is", "a", "ship"]], ["the", "boat", "sails"]
    bp = math.exp(1 - 4 / 3)
    assert float(intro_bleu_score(hypothesis, references)) == introduction_bleu(references, hypothesis) == bp
    references, hypothesis = [["it", "is", "a", "big", "ship"]], ["the", "boat", "sails", "away"]
    bp = math.exp(1 - 5 / 4)
    assert float(notes_bleu_score(references, hypothesis)) == study_notes_bleu(references, hypothesis) == bp
    assert variant_sentence_bleu(references, hypothesis) == 0


def test_kirchhoffs_tokens_keep_empty_words_and_letters_outside_ascii():
    assert kirchhoff_tokenize("Café au lait - s'il vous plaît!") == ["café", "au", "lait", "", "sil", "vous", "plaît"]
    assert tokenize_paper("Café au lait - s'il vous plaît!") == ["caf", "au", "lait", "sil", "vous", "plat"]
    # Issue 15's example, by hand: the empty token is a seventh word. p_1 = 6/7, p_2 = 4/6, p_3 = 2/5,
    # p_4 = 0: the mean of the three, weights 1/3 each; 7 tokens > 6, so no penalty.
    score = kirchhoff_bleu(["the cat sat on the mat"], "the cat sat - on the mat")
    assert math.isclose(score, (6 / 7 * 4 / 6 * 2 / 5) ** (1 / 3), rel_tol=1e-15)
    assert round(score, 3) == 0.611
    # The lessons' tokens lose the "-": a perfect match.
    tokens = [tokenize_paper("the cat sat on the mat")], tokenize_paper("the cat sat - on the mat")
    assert variant_sentence_bleu(*tokens, ref_length=shortest_ref_length, renormalise=True) == 1.0


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: kirchhoff_bleu(["the cat"], ["the", "cat"]), TypeError, "hypothesis as one line of text"),
        (lambda: kirchhoff_bleu([["the", "cat"]], "the cat"), TypeError, r"references\[0\] is a list"),
        (lambda: kirchhoff_bleu([], "the cat"), ValueError, "at least one reference line"),
        (lambda: kirchhoff_bleu(["the cat"], "the cat", max_n=0), ValueError, "max_n is the highest n-gram order"),
        (lambda: kirchhoff_tokenize(["the"]), TypeError, "one line of text"),
        (lambda: introduction_bleu([["a"]], "a b"), TypeError, "split it first"),
        (lambda: study_notes_bleu([["a"]], ["a"], weights=()), ValueError, "weights is empty"),
    ],
)
def test_bad_input_is_refused_at_the_door(call, error, words):
    with pytest.raises(error, match=words):
        call()
