"""Lesson 01: the tokenizers, against sacrebleu's 13a and NLTK's wordpunct_tokenize."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize import wordpunct_tokenize
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_scratch import (
    TOKENIZERS,
    tokenize_13a,
    tokenize_lowercase,
    tokenize_paper,
    tokenize_punctuation,
    tokenize_whitespace,
)
from bleu_scratch.notebook import read_lines
from tests.quick import examples

SACREBLEU_13A = Tokenizer13a()
PLAIN_FILES = [
    "newstest-2015-100sents.en-ru.src.en",
    "newstest-2015-100sents.en-ru.ref.ru",
    "newstest-2015-100sents.en-ru.google.ru",
]

# Strings where a careless reading of mteval-v13a.pl goes wrong.
TRICKY = [
    "",
    "   ",
    "The cat sat on the mat.",
    "x.,5",  # the period rule consumes the comma's left neighbour: ',5' stays together
    "a..b",
    "..5..",
    "3,5.7,",
    "1.-2",
    "1990-2000 well-known -5 9-9-x",
    "It's Mr. O'Neil's $3.50!",
    "&amp;lt;skipped&amp;gt;",  # decoded in order: &amp; first, so this becomes '<skipped>' ...
    "a<skipped>b",  # ... which is only removed when it was there before decoding
    "&quot;&amp;&lt;&gt;&apos;",
    "end-\nof line\nnext",
    "tab\there\rcarriage\x0bvertical\x1cfile-sep",
    "a\u00a0b\u200bc\u2028d\u3000e",  # Python's str.split() splits on NBSP, not on ZWSP
    '{|}~[\\]^_`!"#$%&()*+:;<=>?@/',
    "«Премьер-министры» Индии, 2014-2015 гг.",
    "Ünïcödé… “quotes” — dash",
    "1,000,000.00 0.5. .5 5.",
]


@pytest.mark.parametrize("name", PLAIN_FILES)
def test_13a_equals_sacrebleu_on_wmt15(data_dir, name):
    lines = read_lines(data_dir / "wmt15-enru-100" / name)
    assert len(lines) == 100
    for line in lines:
        assert tokenize_13a(line) == SACREBLEU_13A(line).split(), line


@pytest.mark.parametrize("line", TRICKY)
def test_13a_equals_sacrebleu_on_tricky_strings(line):
    assert tokenize_13a(line) == SACREBLEU_13A(line).split()


def test_13a_by_hand():
    # mteval-v13a.pl's rules applied by hand: '$' and '!' are symbols; the period
    # in '3.50' sits between digits; the comma before a space is split; the
    # hyphen after '1990' is split, the one in 'well-known' is not; case is kept.
    assert tokenize_13a("It's $3.50, a 1990-2000 well-known deal!") == [
        "It's",
        "$",
        "3.50",
        ",",
        "a",
        "1990",
        "-",
        "2000",
        "well-known",
        "deal",
        "!",
    ]
    assert tokenize_13a("&amp;lt;") == ["<"]
    assert tokenize_13a("hyphen-\nated") == ["hyphenated"]


# Characters that meet every rule, the ones in digit/period/comma/hyphen rules
# drawn as often as all the others together (symbols, escapes, line breaks).
OTHER_PIECES = list("b'&;\"<>$\n\t\u00a0Я") + ["&amp;", "&lt;", "&gt;", "&quot;", "<skipped>"]
TEXT_13A = st.lists(st.one_of(st.sampled_from(list("9.,-a ")), st.sampled_from(OTHER_PIECES)), max_size=20).map("".join)


@settings(max_examples=examples(400))
@given(TEXT_13A)
def test_13a_equals_sacrebleu_on_random_text(line):
    assert tokenize_13a(line) == SACREBLEU_13A(line).split()


@pytest.mark.parametrize("name", PLAIN_FILES)
def test_punctuation_equals_nltk_wordpunct_on_wmt15(data_dir, name):
    for line in read_lines(data_dir / "wmt15-enru-100" / name):
        assert tokenize_punctuation(line) == wordpunct_tokenize(line)


@settings(max_examples=examples(200))
@given(st.text(alphabet=st.sampled_from(list("ab9 .,-'!?\t_Яé\u00a0")), max_size=20))
def test_punctuation_equals_nltk_wordpunct_on_random_text(line):
    assert tokenize_punctuation(line) == wordpunct_tokenize(line)


def test_whitespace_and_lowercase_by_hand():
    line = "Премьер-министры  Индии\tи Японии."
    assert tokenize_whitespace(line) == ["Премьер-министры", "Индии", "и", "Японии."]
    assert tokenize_lowercase(line) == ["премьер-министры", "индии", "и", "японии."]


def test_paper_tokens_by_hand():
    # The BLEU paper counts "Party." as "party", and a lone "-" as nothing.
    assert tokenize_paper("It is the guiding principle of the Party. - O'Neil's 2nd") == [
        "it",
        "is",
        "the",
        "guiding",
        "principle",
        "of",
        "the",
        "party",
        "oneils",
        "2nd",
    ]


def test_one_registry_in_lesson_order_under_sacrebleus_names():
    assert list(TOKENIZERS) == ["none", "lowercase", "punctuation", "paper", "13a"]
    # The registry holds the public functions, which check their input first.
    assert [tokenize.__name__ for tokenize in TOKENIZERS.values()] == [
        "tokenize_whitespace",
        "tokenize_lowercase",
        "tokenize_punctuation",
        "tokenize_paper",
        "tokenize_13a",
    ]
    assert TOKENIZERS["13a"] is tokenize_13a


@pytest.mark.parametrize(
    "tokenize",
    [tokenize_whitespace, tokenize_lowercase, tokenize_punctuation, tokenize_paper, tokenize_13a],
    ids=list(TOKENIZERS),
)
def test_tokens_passed_again_is_a_clear_type_error(tokenize):
    with pytest.raises(TypeError, match="takes one line of text"):
        tokenize(["already", "tokens"])
