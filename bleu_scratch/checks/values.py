"""The checks themselves: each turns one kind of bad argument into an error that says how to fix it.

NLTK accepts some common mistakes silently (a string is scored as a list of
characters) or crashes on them with an error that does not name the cause
(``KeyError``, ``AssertionError``, ``ValueError: min() arg is an empty
sequence``). These checks turn each mistake into a ``TypeError`` or
``ValueError`` that says what is wrong and how to fix it. docs/package.md lists
every case.

Each check returns its input ready for the lesson code: lists and tuples
unchanged, other collections NLTK accepts (a numpy array of tokens, a deque,
a set of references) copied into a list, so the lessons can slice them.
"""

from collections import deque
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence, Set
from itertools import chain
from operator import is_
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..lesson05_sentence import BleuStats


STR_ONLY = {str}
# The types a corpus is almost always made of, tested first for the whole corpus at once.
PLAIN_SEQUENCES = {list, tuple}


def check_tokens(tokens: Any, what: str) -> Sequence:
    """Return ``tokens`` as a sequence of hashable tokens, or raise a clear error.

    >>> check_tokens(["the", "cat"], "hypothesis")
    ['the', 'cat']
    >>> check_tokens("the cat", "hypothesis")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: hypothesis is a str ('the cat'), but BLEU needs a list of tokens; ... 'the cat'.split() -> ['the', 'cat']
    """
    if isinstance(tokens, (str, bytes)):
        raise TypeError(
            f"{what} is a {type(tokens).__name__} ({shortened(tokens)}), but BLEU needs a "
            f"list of tokens; split it first, e.g. {shortened(tokens)}.split() -> "
            f"{shortened(tokens.split())}"
        )
    tokens = as_sequence(tokens, what, "a list of tokens")
    # The usual case, and the cheap test: a corpus checks 100,000s of these,
    # so the types are collected in C (map, set), not in a Python loop.
    if set(map(type, tokens)) <= STR_ONLY:
        return tokens
    try:
        set(tokens)
    except TypeError as error:
        bad = next((t for t in tokens if not _all_hashable([t])), None)
        if bad is None:  # each token hashes, but comparing two of them failed
            raise TypeError(
                f"{what}: comparing its tokens raised TypeError ({error}); tokens must be "
                f"hashable and comparable with each other (usually str)"
            ) from None
        raise TypeError(
            f"{what} contains an unhashable token of type {type(bad).__name__} "
            f"({shortened(bad)}); tokens must be hashable (usually str). If this is a "
            f"list of sentences, score it with corpus_bleu, not sentence_bleu"
        ) from None
    return tokens


def check_references(references: Any, what: str = "references", allow_iterator: bool = False) -> Sequence:
    """Return ``references`` as a non-empty sequence of token sequences, or raise a clear error.

    ``[[]]`` (one empty reference) is valid; ``[]`` (no reference) is not.
    ``allow_iterator`` reads an iterator into a list first: the functions
    that read the references once (``modified_precision``,
    ``closest_ref_length``) accept one, as NLTK's do.

    >>> check_references([["the", "cat"], []])
    [['the', 'cat'], []]
    >>> check_references(iter([["a", "b"], ["c"]]), allow_iterator=True)
    [['a', 'b'], ['c']]
    >>> check_references(["the", "cat"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: references[0] is a str ('the'), but each reference must be a list of tokens. ... not reference
    """
    if isinstance(references, (str, bytes)):
        raise TypeError(
            f"{what} is a {type(references).__name__} ({shortened(references)}), but it must be a "
            f"list of references, each a list of tokens: pass [reference.split()]"
        )
    if allow_iterator and isinstance(references, Iterator):
        references = list(references)
    references = as_sequence(references, what, "a list of references, each a list of tokens", sets=True)
    if len(references) == 0:
        raise ValueError(
            f"{what} is empty: a hypothesis needs at least one reference. "
            f"Give [reference_tokens]; [[]] means one empty reference"
        )
    checked = [
        _check_item(reference, f"{what}[{i}]", "reference", "references", "not reference")
        for i, reference in enumerate(references)
    ]
    return references if all(map(is_, checked, references)) else checked


def check_corpus(list_of_references: Any, hypotheses: Any, hashed_later: bool = False) -> tuple[Sequence, Sequence]:
    """Return the corpus ready to score, or raise a clear error unless it is non-empty, aligned and well formed.

    ``hashed_later``: the caller hashes every token itself (lesson 10's
    numbering does), so the corpus's tokens are not hashed here first; the
    caller runs this check again if a token fails (``named_bad_token``).

    >>> check_corpus([[["a", "b"]]], [["a", "b"]])
    ([[['a', 'b']]], [['a', 'b']])
    >>> check_corpus([[["a"]], [["b"]]], [["a"]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: there are 1 hypotheses but 2 reference lists; corpus_bleu needs exactly one list of references ...
    """
    if isinstance(hypotheses, (str, bytes)):
        raise TypeError(
            f"hypotheses is a {type(hypotheses).__name__} ({shortened(hypotheses)}), but corpus_bleu "
            f"needs a list of hypotheses, each a list of tokens: pass [line.split() for line in lines], "
            f"or use sentence_bleu for one sentence"
        )
    if isinstance(list_of_references, (str, bytes)):
        raise TypeError(
            f"list_of_references is a {type(list_of_references).__name__}, but corpus_bleu needs one "
            f"list of references per hypothesis: pass [[reference.split()] for reference in lines]"
        )
    hypotheses = as_sequence(hypotheses, "hypotheses", "a list of hypotheses")
    list_of_references = as_sequence(list_of_references, "list_of_references", "a list of reference lists")
    if (
        len(hypotheses) == len(list_of_references)
        and hypotheses
        and _plainly_well_formed(list_of_references, hypotheses, hashed_later)
    ):
        return list_of_references, hypotheses
    if len(hypotheses) != len(list_of_references):
        unwrapped = (
            " (hypotheses looks like one hypothesis's tokens: pass [hypothesis])"
            if hypotheses and all(map(_looks_like_a_token, hypotheses))
            else ""
        )
        raise ValueError(
            f"there are {len(hypotheses)} hypotheses but {len(list_of_references)} "
            f"reference lists; corpus_bleu needs exactly one list of references per "
            f"hypothesis{unwrapped}"
        )
    if len(hypotheses) == 0:
        raise ValueError(
            "the corpus is empty (no hypotheses): there is nothing to score; "
            "pass at least one hypothesis with its references"
        )
    checked_hypotheses = [
        _check_item(hypothesis, f"hypotheses[{i}]", "hypothesis", "hypotheses", "or use sentence_bleu for one sentence")
        for i, hypothesis in enumerate(hypotheses)
    ]
    checked_references = [
        check_references(references, f"list_of_references[{i}]") for i, references in enumerate(list_of_references)
    ]
    # Keep the caller's lists where nothing had to be copied, as NLTK reads them.
    if all(map(is_, checked_hypotheses, hypotheses)):
        checked_hypotheses = hypotheses
    if all(map(is_, checked_references, list_of_references)):
        checked_references = list_of_references
    return checked_references, checked_hypotheses


def _plainly_well_formed(list_of_references: Sequence, hypotheses: Sequence, hashed_later: bool) -> bool:
    """Lists (or tuples) of lists of hashable tokens, and a reference in every list: nothing to report or copy.

    Each level is checked in C (map, set) over the whole corpus, so the usual
    corpus passes without a Python loop per sentence. A token is only ever
    wrong for being unhashable, so hashing every token checks them all (unless
    the caller hashes them itself: ``hashed_later``). Anything else goes
    through the checks that name the first mistake.
    """
    return (
        set(map(type, hypotheses)) <= PLAIN_SEQUENCES
        and set(map(type, list_of_references)) <= PLAIN_SEQUENCES
        and all(list_of_references)
        and set(map(type, chain.from_iterable(list_of_references))) <= PLAIN_SEQUENCES
        and (
            hashed_later
            or _all_hashable(
                chain(chain.from_iterable(hypotheses), chain.from_iterable(chain.from_iterable(list_of_references)))
            )
        )
    )


def check_order(n: Any, what: str = "n is the n-gram order") -> None:
    """Raise a clear error unless ``n`` is a positive n-gram order.

    >>> check_order(2)
    >>> check_order(0)
    Traceback (most recent call last):
    ...
    ValueError: n is the n-gram order and must be 1 or more (1 for unigrams, 2 for bigrams, ...), got 0
    >>> check_order(2.0, "max_n is the highest n-gram order")
    Traceback (most recent call last):
    ...
    TypeError: max_n is the highest n-gram order and must be an int (1 for unigrams, 2 for bigrams, ...), got 2.0
    """
    # Anything Python accepts as an index is an order, as for NLTK (numpy ints too).
    if not hasattr(type(n), "__index__"):
        raise TypeError(f"{what} and must be an int (1 for unigrams, 2 for bigrams, ...), got {n!r}")
    if n < 1:
        raise ValueError(f"{what} and must be 1 or more (1 for unigrams, 2 for bigrams, ...), got {n!r}")


def check_weights(weights: Any) -> None:
    """Raise a clear error unless ``weights`` holds at least one weight.

    >>> check_weights((0.5, 0.5))
    >>> check_weights(())
    Traceback (most recent call last):
    ...
    ValueError: weights is empty: give one weight per n-gram order, e.g. (0.25, 0.25, 0.25, 0.25)
    """
    from ..lesson05_sentence import max_n_of  # imported when called: the lessons import these checks

    if max_n_of(weights) == 0:
        raise ValueError("weights is empty: give one weight per n-gram order, e.g. (0.25, 0.25, 0.25, 0.25)")


def check_stats_for_weights(stats: "BleuStats", weights: Any) -> None:
    """Raise a clear error unless ``stats`` counted every n-gram order ``weights`` needs.

    >>> from bleu_scratch import BleuStats
    >>> check_stats_for_weights(BleuStats.zero(2), (0.25, 0.25, 0.25, 0.25))
    Traceback (most recent call last):
    ...
    ValueError: weights need 4-gram statistics, but stats have max_n=2
    """
    from ..lesson05_sentence import max_n_of

    check_weights(weights)
    if stats.max_n < max_n_of(weights):
        raise ValueError(f"weights need {max_n_of(weights)}-gram statistics, but stats have max_n={stats.max_n}")


def check_line(line: Any, tokenizer: str) -> None:
    """Raise a clear error unless ``line`` is one line of text, as a tokenizer takes it.

    A list of tokens passed again would otherwise fail deep inside str methods.

    >>> check_line(["already", "tokens"], "tokenize_13a")
    Traceback (most recent call last):
    ...
    TypeError: tokenize_13a takes one line of text (a str) and returns its tokens; got list
    """
    if not isinstance(line, str):
        raise TypeError(f"{tokenizer} takes one line of text (a str) and returns its tokens; got {type(line).__name__}")


def check_text_references(references: Any, function: str) -> Sequence[str]:
    """Return ``references`` as a non-empty sequence of lines of text, or raise a clear error.

    For the functions that take text and tokenize it themselves, as a blog post's code does.

    >>> check_text_references(["the cat sat"], "kirchhoff_bleu")
    ['the cat sat']
    >>> check_text_references([["the", "cat"]], "kirchhoff_bleu")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: kirchhoff_bleu takes each reference as one line of text ...; references[0] is a list: ...
    """
    if isinstance(references, (str, bytes)):
        raise TypeError(
            f"{function} takes a list of reference lines, got one {type(references).__name__}: pass [reference]"
        )
    references = as_sequence(references, "references", "a list of reference lines", sets=True)
    if len(references) == 0:
        raise ValueError(f"references is empty: {function} needs at least one reference line")
    for i, reference in enumerate(references):
        check_text(reference, f"references[{i}]", function, "each reference")
    return references


def check_text_corpus(hypotheses: Any, list_of_references: Any, function: str) -> tuple[Sequence, Sequence]:
    """Return lines of text, one hypothesis and a list of reference lines per segment, or raise a clear error.

    >>> check_text_corpus(["a b"], [["a b", "a c"]], "tool_bleu")
    (['a b'], [['a b', 'a c']])
    >>> check_text_corpus(["a b", "c"], [["a b"]], "tool_bleu")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: there are 2 hypotheses but 1 lists of references; tool_bleu needs one list per hypothesis
    """
    if isinstance(hypotheses, (str, bytes)):
        raise TypeError(f"{function} takes a list of hypothesis lines, got one {type(hypotheses).__name__}")
    hypotheses = as_sequence(hypotheses, "hypotheses", "a list of hypothesis lines")
    list_of_references = as_sequence(list_of_references, "list_of_references", "a list of lists of reference lines")
    if len(hypotheses) != len(list_of_references):
        raise ValueError(
            f"there are {len(hypotheses)} hypotheses but {len(list_of_references)} lists of references; "
            f"{function} needs one list per hypothesis"
        )
    if not hypotheses:
        raise ValueError(f"the corpus is empty (no hypotheses): {function} has nothing to score")
    for i, hypothesis in enumerate(hypotheses):
        check_text(hypothesis, f"hypotheses[{i}]", function)
    return hypotheses, [check_text_references(references, function) for references in list_of_references]


def check_text(line: Any, what: str, function: str, role: str = "the hypothesis") -> None:
    """Raise a clear error unless ``line`` is one line of text.

    >>> check_text(["a", "b"], "hypothesis", "kirchhoff_bleu")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: kirchhoff_bleu takes the hypothesis as one line of text ...; hypothesis is a list: pass ' '.join(tokens)
    """
    if not isinstance(line, str):
        raise TypeError(
            f"{function} takes {role} as one line of text (a str) and tokenizes it; "
            f"{what} is {article(line)}: pass ' '.join(tokens)"
        )


def check_sacrebleu_options(stats: Any, smooth_method: str, methods: Collection[str]) -> None:
    """Raise a clear error unless ``stats`` are ``BleuStats`` and ``smooth_method`` one of ``methods``.

    >>> from bleu_scratch import BleuStats
    >>> check_sacrebleu_options(BleuStats.zero(4), "exp", ["exp", "none"])
    >>> check_sacrebleu_options(BleuStats.zero(4), "add-one", ["exp", "none"])
    Traceback (most recent call last):
    ...
    ValueError: smooth_method must be one of ['exp', 'none'], got 'add-one'
    """
    from ..lesson05_sentence import BleuStats

    if not isinstance(stats, BleuStats):
        raise TypeError(f"stats must be BleuStats (from sentence_stats or corpus_stats), got {type(stats).__name__}")
    if smooth_method not in methods:
        raise ValueError(f"smooth_method must be one of {sorted(methods)}, got {smooth_method!r}")


def _check_item(value: Any, what: str, kind: str, kinds: str, fix: str) -> Sequence:
    """One reference or hypothesis of a list. A token there means the list was one unwrapped sentence."""
    if _looks_like_a_token(value):
        raise TypeError(
            f"{what} is {article(value)} ({shortened(value)}), but each {kind} must be a list of tokens. "
            f"It looks like one {kind} was passed unwrapped: pass [{kind}] (a list of {kinds}), {fix}"
        )
    return check_tokens(value, what)


def as_sequence(value: Any, what: str, expected: str, sets: bool = False) -> Sequence:
    """A list or tuple as it is; another ordered collection (numpy array, deque) as a list."""
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, Mapping) or (isinstance(value, Set) and not sets):
        raise TypeError(
            f"{what} is {article(value)}, which has no order (or no repeats), but BLEU "
            f"needs {expected} in order; pass a list"
        )
    if isinstance(value, Iterator) or not isinstance(value, Collection):
        raise TypeError(
            f"{what} must be {expected}, got {type(value).__name__} ({shortened(value)}); convert it with list(...)"
        )
    return list(value)


def _looks_like_a_token(value: Any) -> bool:
    """A one-word str, or anything that is no collection of tokens (an int)."""
    if isinstance(value, str):
        return bool(value.strip()) and " " not in value.strip()
    return not isinstance(value, (Collection, Iterator))


def _all_hashable(tokens: Iterable) -> bool:
    try:
        deque(map(hash, tokens), maxlen=0)  # hashes each token in C, keeping none
    except TypeError:
        return False
    return True


def article(value: Any) -> str:
    """'a str', 'an int': the type of ``value`` with its article."""
    name = type(value).__name__
    return f"an {name}" if name[0].lower() in "aeiou" else f"a {name}"


def shortened(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "..." + text[-1]
