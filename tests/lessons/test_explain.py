"""Lesson 03: the match view. Its marks add up to NLTK's modified precision, n-gram by n-gram."""

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import modified_precision as nltk_modified_precision
from nltk.util import ngrams as nltk_ngrams

from bleu_scratch import explain
from bleu_scratch.notebook.match_view import CLIPPED, MATCHED, UNMATCHED
from tests.quick import examples

tokens = st.lists(st.sampled_from("abcd"), max_size=10)


@settings(max_examples=examples(300))
@given(st.lists(tokens, min_size=1, max_size=3), tokens, st.integers(1, 5))
def test_the_marks_add_up_to_nltks_modified_precision(references, hypothesis, max_n):
    view = explain(references, hypothesis, max_n)
    assert [order.n for order in view.orders] == list(range(1, max_n + 1))
    for order in view.orders:
        n = order.n
        expected = nltk_modified_precision(references, hypothesis, n)
        assert order.tally(MATCHED) == expected.numerator
        assert max(1, len(order.marks)) == expected.denominator
        assert (order.precision.numerator, order.precision.denominator) == (expected.numerator, expected.denominator)
        # Each mark, in hypothesis order, against counts made here from NLTK's n-grams.
        in_hypothesis = list(nltk_ngrams(hypothesis, n))
        assert [mark.ngram for mark in order.marks] == in_hypothesis
        assert [mark.position for mark in order.marks] == list(range(len(in_hypothesis)))
        per_reference = [Counter(nltk_ngrams(reference, n)) for reference in references]
        seen = Counter()
        for mark in order.marks:
            seen[mark.ngram] += 1
            limit = max(counts[mark.ngram] for counts in per_reference)
            assert (mark.count, mark.clip_limit) == (in_hypothesis.count(mark.ngram), limit)
            if limit == 0:
                assert (mark.status, mark.reference) == (UNMATCHED, None)
            else:
                assert mark.status == (MATCHED if seen[mark.ngram] <= limit else CLIPPED)
                assert mark.reference == [counts[mark.ngram] for counts in per_reference].index(limit)


def test_the_papers_example_2_by_hand(paper):
    # "the" 7 times; the first reference has it twice, the second once: 2/7.
    view = explain(paper.the_references, paper.the_candidate, max_n=2)
    unigrams, bigrams = view.orders
    assert [mark.status for mark in unigrams.marks] == [MATCHED] * 2 + [CLIPPED] * 5
    assert {(mark.count, mark.clip_limit, mark.reference) for mark in unigrams.marks} == {(7, 2, 0)}
    # "the the" is in no reference: 6 unmatched bigrams, p_2 = 0/6.
    assert [mark.status for mark in bigrams.marks] == [UNMATCHED] * 6
    assert (bigrams.precision.numerator, bigrams.precision.denominator) == (0, 6)


def test_the_papers_example_1_gives_17_18_and_10_17(paper):
    view = explain(paper.references, paper.candidate_1, max_n=2)
    assert [(order.tally(MATCHED), len(order.marks)) for order in view.orders] == [(17, 18), (10, 17)]


def test_a_hypothesis_shorter_than_n_has_no_marks_and_nltks_0_over_1():
    view = explain([["a", "b"]], ["a"], max_n=3)
    assert [len(order.marks) for order in view.orders] == [1, 0, 0]
    assert str(view.orders[2].precision) == "0"
    assert "3-grams: none, the hypothesis has fewer than 3 tokens; p_3 = 0/1" in str(view)


class Page(HTMLParser):
    """What the HTML holds: the tags, the class and style of each element, whether it nests properly."""

    VOID = {"br", "img", "meta", "hr"}

    def __init__(self, text: str):
        super().__init__()
        self.open: list[str] = []
        self.elements: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, f"</{tag}> closes {self.open[-1:]}"

    def handle_data(self, data):
        self.text.append(data)


def test_the_html_is_self_contained_and_marks_every_ngram():
    references = [["the", "<b>", "cat"], ["a", "cat"]]
    hypothesis = ["the", "<b>", "cat", "cat", "dog"]
    view = explain(references, hypothesis, max_n=2)
    text = view._repr_html_()
    page = Page(text)
    assert page.open == [], "every element is closed"
    assert {tag for tag, _ in page.elements} <= {"div", "span", "b"}
    assert not re.search(r"<script|<style|<link|<img|https?://|url\(", text)
    # Every style is inline; the token "<b>" is text, not a tag.
    assert "&lt;b&gt;" in text and [tag for tag, _ in page.elements].count("b") == 1 + len(references)
    marks = [attrs["class"].split()[1] for tag, attrs in page.elements if "bleu-mark" in attrs.get("class", "").split()]
    expected = ["bleu-matched", "bleu-matched", "bleu-matched", "bleu-clipped", "bleu-unmatched"]
    expected += ["bleu-matched", "bleu-matched", "bleu-unmatched", "bleu-unmatched"]
    assert marks == expected
    # Told apart by more than colour: a symbol and a border style each, and a line through a clipped one.
    for status, symbol, border in [(MATCHED, "✓", "solid"), (CLIPPED, "✂", "dashed"), (UNMATCHED, "✗", "dotted")]:
        assert f"{symbol} {status}" in "".join(page.text)
        assert re.search(rf"border:2px {border} ", text)
    assert text.count("line-through") == 1 + marks.count("bleu-clipped")  # the legend's and each clipped mark's
    assert "2x · limit 1 · R1" in "".join(page.text)  # "cat": twice in the hypothesis, once in R1 (and R2)


def test_printed_it_is_text_and_its_repr_the_same():
    view = explain([["a", "b", "a"]], ["a", "a", "a", "c"], max_n=1)
    assert repr(view) == str(view)
    assert "1-grams: p_1 = 2/4 (2 matched, 1 clipped, 1 unmatched)" in str(view)
    assert "  ✓a ✓a ✂a ✗c" in str(view)
    assert "  a           3           2  R1          ✓✓✂" in str(view)


@pytest.mark.parametrize(
    "references, hypothesis, max_n, error, words",
    [
        ([["a"]], "the cat", 4, TypeError, "split it first"),
        ("the cat", ["a"], 4, TypeError, "reference"),
        ([], ["a"], 4, ValueError, "at least one reference"),
        ([["a"]], ["a"], 0, ValueError, "max_n is the highest n-gram order and must be 1 or more"),
        ([["a"]], ["a"], 2.0, TypeError, "max_n is the highest n-gram order and must be an int"),
    ],
)
def test_bad_input_is_refused_at_the_door(references, hypothesis, max_n, error, words):
    with pytest.raises(error, match=words):
        explain(references, hypothesis, max_n)
