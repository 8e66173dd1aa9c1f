"""Lesson 01: tokens. What BLEU counts is decided before BLEU starts.

BLEU matches tokens, so the same translation gets a different score under a
different tokenizer: ``"mat."`` and ``"mat"`` are different unigrams. Five
tokenizers, from the crudest to the one papers report with, each a function
from one line of text to its list of tokens:

- ``tokenize_whitespace``: split on whitespace (sacrebleu's ``tokenize='none'``);
- ``tokenize_lowercase``: lowercase, then split on whitespace;
- ``tokenize_punctuation``: runs of letters/digits and runs of other symbols
  (NLTK's ``wordpunct_tokenize``);
- ``tokenize_paper``: lowercase, ASCII letters and digits only, as the BLEU
  paper counts its examples;
- ``tokenize_13a``: the tokenizer of NIST's mteval-v13a.pl with its case kept,
  sacrebleu's default (lesson 09 reads its rules one by one).

``TOKENIZERS`` names them; the command line, the published examples and the
lessons all pick a tokenizer from it.
"""

import re
import string
from collections.abc import Callable

from . import checks
from .checks import door

# mteval-v13a.pl's punctuation class spelled out: every ASCII symbol except the
# apostrophe (kept inside words) and the hyphen, period and comma, which have
# rules of their own below because they also occur inside numbers.
SYMBOLS_13A = "".join(c for c in string.punctuation if c not in "'-.,")

# (pattern, replacement) in the order mteval-v13a.pl applies them.
RULES_13A = (
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
ESCAPES_13A = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


@door(checks.line)
def tokenize_whitespace(line: str) -> list[str]:
    """Split on runs of whitespace; what ``str.split()`` and sacrebleu's ``'none'`` do.

    >>> tokenize_whitespace("The cat sat on the mat.")
    ['The', 'cat', 'sat', 'on', 'the', 'mat.']
    """
    return line.split()


@door(checks.line)
def tokenize_lowercase(line: str) -> list[str]:
    """Lowercase, then split on whitespace, so "The" matches "the".

    >>> tokenize_lowercase("The cat sat on the mat.")
    ['the', 'cat', 'sat', 'on', 'the', 'mat.']
    """
    return line.lower().split()


@door(checks.line)
def tokenize_punctuation(line: str) -> list[str]:
    """Runs of word characters and runs of other non-space characters.

    The same tokens as NLTK's ``wordpunct_tokenize`` (pattern ``\\w+|[^\\w\\s]+``):
    punctuation is split from words, but also from inside numbers and
    contractions.

    >>> tokenize_punctuation("It's 3.5 km, isn't it?")
    ['It', "'", 's', '3', '.', '5', 'km', ',', 'isn', "'", 't', 'it', '?']
    """
    return re.findall(r"\w+|[^\w\s]+", line)


@door(checks.line)
def tokenize_paper(line: str) -> list[str]:
    """Lowercase, and keep only the ASCII letters and digits of each whitespace token.

    How the BLEU paper counts its examples: case and punctuation never stop a
    match ("Party." matches "party"), and a token of punctuation alone is gone.

    >>> tokenize_paper("It is the guiding principle of the Party.")
    ['it', 'is', 'the', 'guiding', 'principle', 'of', 'the', 'party']
    """
    words = (re.sub(r"[^0-9a-z]", "", word) for word in line.lower().split())
    return [word for word in words if word]


@door(checks.line)
def tokenize_13a(line: str) -> list[str]:
    """The tokens of mteval-v13a.pl's tokenizer, sacrebleu's default ``'13a'``.

    Symbols are split off; periods and commas too, except inside numbers; a
    hyphen only after a digit. Case is kept, as sacrebleu keeps it and as
    mteval does with ``-c`` (without it, mteval lowercases ASCII letters first).

    >>> tokenize_13a("The cat sat on the mat.")
    ['The', 'cat', 'sat', 'on', 'the', 'mat', '.']
    >>> tokenize_13a("It's $3.50, a 1990-2000 well-known &quot;deal&quot;!")
    ["It's", '$', '3.50', ',', 'a', '1990', '-', '2000', 'well-known', '"', 'deal', '"', '!']
    """
    # Language-independent part: undo mteval's markup and line breaks.
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    for escape, char in ESCAPES_13A:
        line = line.replace(escape, char)
    # Padding gives the first and last characters a neighbour for the rules.
    line = f" {line} "
    for pattern, replacement in RULES_13A:
        line = pattern.sub(replacement, line)
    return line.split()


# The one registry of tokenizers, from the crudest to the standard. "none" is
# sacrebleu's name for splitting on whitespace alone.
TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "none": tokenize_whitespace,
    "lowercase": tokenize_lowercase,
    "punctuation": tokenize_punctuation,
    "paper": tokenize_paper,
    "13a": tokenize_13a,
}
