"""Input checks shared by the public functions.

NLTK accepts some common mistakes silently (a string is scored as a list of
characters) or crashes on them with an error that does not name the cause
(``KeyError``, ``AssertionError``, ``ValueError: min() arg is an empty
sequence``). These checks turn each mistake into a ``TypeError`` or
``ValueError`` that says what is wrong and how to fix it. The README lists
every case.
"""

from collections.abc import Iterator, Sequence
from typing import Any


def check_tokens(tokens: Any, what: str) -> None:
    """Raise a clear error unless ``tokens`` is a sequence of hashable tokens.

    >>> check_tokens(["the", "cat"], "hypothesis")
    >>> check_tokens("the cat", "hypothesis")
    Traceback (most recent call last):
    ...
    TypeError: hypothesis is a str ('the cat'), but BLEU needs a list of tokens; split it first, e.g. 'the cat'.split() -> ['the', 'cat']
    """
    if isinstance(tokens, (str, bytes)):
        raise TypeError(
            f"{what} is a {type(tokens).__name__} ({_short(tokens)}), but BLEU needs a "
            f"list of tokens; split it first, e.g. {_short(tokens)}.split() -> "
            f"{_short(tokens.split())}"
        )
    if not isinstance(tokens, Sequence):
        raise TypeError(
            f"{what} must be a list of tokens, got {type(tokens).__name__} "
            f"({_short(tokens)}); convert it with list(...)"
        )
    try:
        set(tokens)
    except TypeError:
        bad = next(t for t in tokens if not _hashable(t))
        raise TypeError(
            f"{what} contains an unhashable token of type {type(bad).__name__} "
            f"({_short(bad)}); tokens must be hashable (usually str). If this is a "
            f"list of sentences, score it with corpus_bleu, not sentence_bleu"
        ) from None


def check_references(references: Any, what: str = "references") -> None:
    """Raise a clear error unless ``references`` is a non-empty list of token lists.

    ``[[]]`` (one empty reference) is valid; ``[]`` (no reference) is not.

    >>> check_references([["the", "cat"], []])
    >>> check_references(["the", "cat"])
    Traceback (most recent call last):
    ...
    TypeError: references[0] is a str ('the'), but each reference must be a list of tokens. It looks like one reference was passed unwrapped: pass [reference] (a list of references), not reference
    """
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise TypeError(
            f"{what} must be a list of references, each a list of tokens, got "
            f"{type(references).__name__} ({_short(references)})"
        )
    if len(references) == 0:
        raise ValueError(
            f"{what} is empty: a hypothesis needs at least one reference. "
            f"Give [reference_tokens]; [[]] means one empty reference"
        )
    for i, reference in enumerate(references):
        if isinstance(reference, str):
            if " " in reference.strip():
                fix = "split each reference into tokens first, e.g. reference.split()"
            else:
                fix = (
                    "It looks like one reference was passed unwrapped: pass "
                    "[reference] (a list of references), not reference"
                )
            raise TypeError(
                f"{what}[{i}] is a str ({_short(reference)}), but each reference "
                f"must be a list of tokens. {fix}"
            )
        check_tokens(reference, f"{what}[{i}]")


def reference_list(references: Any, what: str = "references") -> Sequence:
    """Check ``references`` and return it, reading an iterator into a list first.

    Functions that read the references once (``modified_precision``,
    ``closest_ref_length``) accept an iterator, as NLTK's do.

    >>> reference_list(iter([["a", "b"], ["c"]]))
    [['a', 'b'], ['c']]
    """
    if isinstance(references, Iterator):
        references = list(references)
    check_references(references, what)
    return references


def check_corpus(list_of_references: Any, hypotheses: Any) -> None:
    """Raise a clear error unless the corpus is non-empty, aligned and well formed.

    >>> check_corpus([[["a", "b"]]], [["a", "b"]])
    >>> check_corpus([[["a"]], [["b"]]], [["a"]])
    Traceback (most recent call last):
    ...
    ValueError: there are 1 hypotheses but 2 reference lists; corpus_bleu needs exactly one list of references per hypothesis
    """
    for name, value in (("list_of_references", list_of_references), ("hypotheses", hypotheses)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"{name} must be a list, got {type(value).__name__}")
    if len(hypotheses) != len(list_of_references):
        raise ValueError(
            f"there are {len(hypotheses)} hypotheses but {len(list_of_references)} "
            f"reference lists; corpus_bleu needs exactly one list of references per "
            f"hypothesis"
        )
    if len(hypotheses) == 0:
        raise ValueError(
            "the corpus is empty (no hypotheses): there is nothing to score; "
            "pass at least one hypothesis with its references"
        )
    for i, (references, hypothesis) in enumerate(zip(list_of_references, hypotheses)):
        check_tokens(hypothesis, f"hypotheses[{i}]")
        check_references(references, f"list_of_references[{i}]")


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...]"
