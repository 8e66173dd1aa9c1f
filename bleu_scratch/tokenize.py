"""Lesson 09: tokenization decides what BLEU counts.

BLEU matches tokens, so the same translation gets a different score under a
different tokenizer: ``"mat."`` and ``"mat"`` are different unigrams. Four
tokenizers, from the crudest to the one papers report with:

- ``tokenize_whitespace``: split on whitespace (sacrebleu's ``tokenize='none'``);
- ``tokenize_lowercase``: lowercase, then split on whitespace;
- ``tokenize_punctuation``: runs of letters/digits and runs of other symbols
  (NLTK's ``wordpunct_tokenize``);
- ``tokenize_13a``: the tokenizer of NIST's mteval-v13a.pl, sacrebleu's default.
"""

import re
import string
from collections.abc import Callable
from typing import Any

# mteval-v13a.pl's punctuation class spelled out: every ASCII symbol except the
# apostrophe (kept inside words) and the hyphen, period and comma, which have
# rules of their own below because they also occur inside numbers.
SYMBOLS_13A = "".join(c for c in string.punctuation if c not in "'-.,")

# (pattern, replacement) in the order mteval-v13a.pl applies them.
_RULES_13A = (
    # Every symbol becomes a token of its own.
    (re.compile(f"([{re.escape(SYMBOLS_13A)}])"), r" \1 "),
    # A period or comma is split off unless it sits between digits ("3.5",
    # "1,000"). These two rules consume the neighbour they look at, as Perl's
    # s///g does: in "x.,5" the comma is not split from the 5.
    (re.compile(r"([^0-9])([.,])"), r"\1 \2 "),
    (re.compile(r"([.,])([^0-9])"), r" \1 \2"),
    # A hyphen after a digit is split off ("1990-2000"), not one inside a word.
    (re.compile(r"(?<=[0-9])-"), " - "),
)

# SGML escapes mteval-v13a.pl decodes, in its order: "&amp;lt;" becomes "<".
_ESCAPES_13A = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def tokenize_whitespace(line: str) -> list[str]:
    """Split on runs of whitespace; what ``str.split()`` and sacrebleu's ``'none'`` do.

    >>> tokenize_whitespace("The cat sat on the mat.")
    ['The', 'cat', 'sat', 'on', 'the', 'mat.']
    """
    _check_line(line, "tokenize_whitespace")
    return line.split()


def tokenize_lowercase(line: str) -> list[str]:
    """Lowercase, then split on whitespace, so "The" matches "the".

    >>> tokenize_lowercase("The cat sat on the mat.")
    ['the', 'cat', 'sat', 'on', 'the', 'mat.']
    """
    _check_line(line, "tokenize_lowercase")
    return line.lower().split()


def tokenize_punctuation(line: str) -> list[str]:
    """Runs of word characters and runs of other non-space characters.

    The same tokens as NLTK's ``wordpunct_tokenize`` (pattern ``\\w+|[^\\w\\s]+``):
    punctuation is split from words, but also from inside numbers and
    contractions.

    >>> tokenize_punctuation("It's 3.5 km, isn't it?")
    ['It', "'", 's', '3', '.', '5', 'km', ',', 'isn', "'", 't', 'it', '?']
    """
    _check_line(line, "tokenize_punctuation")
    ### BEGIN SOLUTION
    return re.findall(r"\w+|[^\w\s]+", line)
    ### END SOLUTION


def tokenize_13a(line: str) -> list[str]:
    """The tokens of mteval-v13a.pl's tokenizer, sacrebleu's default ``'13a'``.

    Symbols are split off; periods and commas too, except inside numbers; a
    hyphen only after a digit. Case is kept.

    >>> tokenize_13a("The cat sat on the mat.")
    ['The', 'cat', 'sat', 'on', 'the', 'mat', '.']
    >>> tokenize_13a("It's $3.50, a 1990-2000 well-known &quot;deal&quot;!")
    ["It's", '$', '3.50', ',', 'a', '1990', '-', '2000', 'well-known', '"', 'deal', '"', '!']
    """
    _check_line(line, "tokenize_13a")
    ### BEGIN SOLUTION
    # Language-independent part: undo mteval's markup and line breaks.
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    for escape, char in _ESCAPES_13A:
        line = line.replace(escape, char)
    # Padding gives the first and last characters a neighbour for the rules.
    line = f" {line} "
    for pattern, replacement in _RULES_13A:
        line = pattern.sub(replacement, line)
    return line.split()
    ### END SOLUTION


# Lesson order: each one changes more of what counts as a match.
TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "whitespace": tokenize_whitespace,
    "lowercase": tokenize_lowercase,
    "punctuation": tokenize_punctuation,
    "13a": tokenize_13a,
}


def _check_line(line: Any, tokenizer: str) -> None:
    # A list of tokens passed again would otherwise fail deep inside str methods.
    if not isinstance(line, str):
        raise TypeError(
            f"{tokenizer} takes one line of text (a str) and returns its tokens; "
            f"got {type(line).__name__}"
        )
