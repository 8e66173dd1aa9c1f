"""Lesson 09: each of sacrebleu's offline BLEU tokenizers gives sacrebleu's tokens, on text of every script."""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU, _get_tokenizer

from bleu_scratch import TOKENIZERS
from bleu_scratch.lesson09_tokenizers import (
    NEEDS_SENTENCEPIECE_MODEL,
    SACREBLEU_TOKENIZERS,
    sacrebleu_tokenizer,
    tokenize_char,
    tokenize_intl,
    tokenize_zh,
)
from tests.quick import examples

THEIRS = {name: _get_tokenizer(name)() for name in SACREBLEU_TOKENIZERS}


def scripts(*, first: int, last: int) -> st.SearchStrategy[str]:
    return st.characters(min_codepoint=first, max_codepoint=last)


# One character of any script or class a test line can hold; each entry is drawn as often as the others.
CHARACTER = st.one_of(
    scripts(first=0x20, last=0x7E),  # ASCII: 13a's symbols, period, comma, hyphen, digits, '&'
    scripts(first=0xA0, last=0x24F),  # Latin-1 and Latin Extended
    scripts(first=0x370, last=0x3FF),  # Greek
    scripts(first=0x400, last=0x4FF),  # Cyrillic
    scripts(first=0x590, last=0x5FF),  # Hebrew
    scripts(first=0x600, last=0x6FF),  # Arabic, with its digits
    scripts(first=0x900, last=0x97F),  # Devanagari
    scripts(first=0xE00, last=0xE7F),  # Thai
    scripts(first=0x1100, last=0x11FF),  # Hangul jamo
    scripts(first=0x2000, last=0x2E7F),  # general punctuation, currency, arrows, maths, dingbats (zh's odd range)
    scripts(first=0x2E80, last=0x33FF),  # CJK radicals and punctuation, kana, bopomofo, enclosed CJK
    scripts(first=0x3400, last=0x9FFF),  # CJK ideographs
    scripts(first=0xAC00, last=0xD7A3),  # Hangul syllables
    scripts(first=0xF900, last=0xFFFF),  # compatibility ideographs, vertical and fullwidth forms
    scripts(first=0x1F000, last=0x1FAFF),  # emoji and pictographs
    scripts(first=0x20000, last=0x2FA1F),  # CJK extensions B to F
    scripts(first=0, last=sys.maxunicode),  # any code point, also those newer than Python's Unicode
    st.characters(categories=["P", "S", "N"]),  # every punctuation, symbol and number class
    st.characters(categories=["M"]),  # combining marks
    st.sampled_from(" \t\n\r\x0b\x0c\x1c\x85\u00a0\u1680\u2003\u2028\u2029\u200b\u3000"),  # whitespace, and ZWSP
    st.sampled_from(["&amp;", "&quot;", "&lt;", "<skipped>", "-\n", "1.5", "3,000", "9-"]),
)
LINES = st.lists(CHARACTER, max_size=24).map("".join)


@pytest.mark.parametrize("name", list(SACREBLEU_TOKENIZERS))
@settings(max_examples=examples(300))
@given(line=LINES)
def test_same_tokens_as_sacrebleu_on_every_script(name, line):
    assert SACREBLEU_TOKENIZERS[name](line) == THEIRS[name](line).split()


def contexts(char: str) -> str:
    """``char`` where intl's rules tell a punctuation mark, a symbol, a number and anything else apart.

    Between letters (punctuation and symbols split off), between digits (a
    symbol split off, punctuation not), after and before a period beside a
    digit (the period split off unless ``char`` is a number), and alone.
    """
    return f"a{char}a 1{char}1 1.{char} {char}.1 {char}"


@pytest.mark.slow
def test_intl_same_tokens_as_sacrebleu_on_every_code_point():
    # Every code point, newer Unicode too: both read its class from the same regex package.
    chunk = 4096
    for first in range(0, sys.maxunicode + 1, chunk):
        last = min(first + chunk, sys.maxunicode + 1) - 1
        line = " ".join(contexts(chr(code_point)) for code_point in range(first, last + 1))
        assert tokenize_intl(line) == THEIRS["intl"](line).split(), f"in U+{first:04X}-U+{last:04X}"


def test_intl_on_characters_newer_than_pythons_unicode():
    # Python 3.11's unicodedata is Unicode 14 and calls these unassigned. Unicode 15 made the moose (U+1FACE) a
    # symbol (So), split off, and U+1E4F1 a digit of Nag Mundari (Nd), beside which a period stays.
    for line, tokens in [("a\U0001face", ["a", "\U0001face"]), ("5.\U0001e4f1", ["5.\U0001e4f1"])]:
        assert tokenize_intl(line) == tokens == THEIRS["intl"](line).split()


# Lines where the rules meet: numbers beside punctuation, the line's ends, the consumed neighbour.
TRICKY = [
    "",
    "   ",
    "1990.",
    "1990. ",
    "in 1990. Then",
    "a.,5",
    ".5 .x x. 5.5 5,5 5-5 -5-",
    "«Премьер-министры» Индии, 2014—2015 гг.",
    "价格:100€ (约)。第二句",
    "ＡＢＣ１２３！",
    "Ἀθῆναι·",
    "٣٫٥ ٪ «نص»",
    "e\u0301\u0300.!",
    "🤖👍🏽 ok!",
    "&amp; <skipped>",
]


@pytest.mark.parametrize("name", list(SACREBLEU_TOKENIZERS))
@pytest.mark.parametrize("line", TRICKY)
def test_same_tokens_as_sacrebleu_on_tricky_lines(name, line):
    assert SACREBLEU_TOKENIZERS[name](line) == THEIRS[name](line).split()


def test_by_hand():
    # intl: a period after a number is split off only when a character that is not a number follows it, so
    # at the end of the line it stays ('3.5!'); the '.' in '3.5' sits between digits.
    assert tokenize_intl("in 1990. Then 3.5!") == ["in", "1990", ".", "Then", "3.5!"]
    assert tokenize_intl("in 1990.") == ["in", "1990."]
    # char: spaces are not tokens.
    assert tokenize_char("a b\tc") == ["a", "b", "c"]
    # zh: ideographs one by one, Latin words and numbers whole, the em dash (U+2014) counted as Chinese.
    assert tokenize_zh("我有3.5个apple—好") == ["我", "有", "3.5", "个", "apple", "—", "好"]


def test_sacrebleus_names_in_its_order_and_lesson_01s_shared():
    assert list(SACREBLEU_TOKENIZERS) == ["none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab"]
    assert set(BLEU.TOKENIZERS) == set(SACREBLEU_TOKENIZERS) | set(NEEDS_SENTENCEPIECE_MODEL)
    assert SACREBLEU_TOKENIZERS["none"] is TOKENIZERS["none"] and SACREBLEU_TOKENIZERS["13a"] is TOKENIZERS["13a"]


@pytest.mark.parametrize("name", NEEDS_SENTENCEPIECE_MODEL)
def test_a_sentencepiece_tokenizer_is_refused_in_one_line(name):
    with pytest.raises(ValueError, match=f"^tokenize '{name}' needs a downloaded SentencePiece model") as error:
        sacrebleu_tokenizer(name)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="sacrebleu has no BLEU tokenizer 'moses'"):
        sacrebleu_tokenizer("moses")


MISSING_EXTRA = {
    "intl": "tokenize 'intl' needs the regex package for Unicode's classes: pip install 'bleu-scratch[intl]'",
    "ja-mecab": "tokenize 'ja-mecab' needs MeCab and its dictionary: pip install 'bleu-scratch[ja]'",
    "ko-mecab": "tokenize 'ko-mecab' needs MeCab and its dictionary: pip install 'bleu-scratch[ko]'",
}


@pytest.mark.parametrize("name", MISSING_EXTRA)
def test_without_its_extra_the_call_names_it(name):
    # In a fresh interpreter where regex and MeCab's packages cannot be imported; the lesson itself still imports.
    code = (
        "import sys\n"
        "sys.modules.update(regex=None, MeCab=None, mecab_ko=None)\n"
        "from bleu_scratch.lesson09_tokenizers import SACREBLEU_TOKENIZERS\n"
        "try:\n"
        f"    SACREBLEU_TOKENIZERS[{name!r}]('a')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout == MISSING_EXTRA[name] + "\n"


def test_the_lesson_loads_no_analyzer_until_called():
    code = (
        "import sys, bleu_scratch.lesson09_tokenizers; print(sorted({'MeCab', 'mecab_ko', 'regex'} & set(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout == "[]\n"


@pytest.mark.parametrize("name", SACREBLEU_TOKENIZERS)
def test_tokens_passed_again_is_a_clear_type_error(name):
    with pytest.raises(TypeError, match="takes one line of text"):
        SACREBLEU_TOKENIZERS[name](["already", "tokens"])
