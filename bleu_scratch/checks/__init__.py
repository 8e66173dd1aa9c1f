"""The door of each public function: its input checked once per call, before the lesson's code runs.

A lesson function carries one decorator line, ``@door(...)``, naming the checks
its arguments pass; then comes the lesson's own code, unchanged, and
``inspect.getsource`` shows exactly that. Each check below reads the call's
arguments by name and replaces an argument with its checked form (a numpy
array of tokens becomes a list) or raises an error that says how to fix it
(``values.py`` and ``comparisons.py`` hold those messages).

The lessons call one another: ``sentence_bleu`` calls ``sentence_stats``.
Their input is already checked, so a call made while a door's function runs
goes straight in, and every check runs once per public call. (So does a call
from code of yours that a lesson calls, such as a smoothing function: its
arguments are not checked.)
"""

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from .arrays import check_token_arrays
from .comparisons import check_paired_scores, check_paired_test
from .values import (
    article,
    check_corpus,
    check_line,
    check_order,
    check_references,
    check_sacrebleu_options,
    check_stats_for_weights,
    check_text,
    check_text_corpus,
    check_text_references,
    check_tokens,
    check_weights,
)

Function = TypeVar("Function", bound=Callable[..., Any])
# A check: the call's arguments by name (defaults filled in), and the function's name for its messages.
Check = Callable[[dict[str, Any], str], None]

_inside_a_door: ContextVar[bool] = ContextVar("inside_a_door", default=False)


def door(*checks: Check) -> Callable[[Function], Function]:
    """Run ``checks`` on the arguments of each outside call of the decorated function, then the function.

    >>> @door(hypothesis)
    ... def length(hypothesis):
    ...     return len(hypothesis)
    >>> length(["a", "b"])
    2
    >>> length("a b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: hypothesis is a str ('a b'), but BLEU needs a list of tokens; split it first, ...
    """

    def decorate(function: Function) -> Function:
        parameters = inspect.signature(function).parameters.values()
        name, names = function.__name__, [parameter.name for parameter in parameters]
        known = set(names)
        defaults = {p.name: p.default for p in parameters if p.default is not inspect.Parameter.empty}
        if any(parameter.kind != parameter.POSITIONAL_OR_KEYWORD for parameter in parameters):
            raise TypeError(f"a door takes plain parameters: {function.__name__} has {inspect.signature(function)}")

        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            # Read from the door's __dict__, not from this closure: when a lesson's module is saved, IPython's
            # autoreload hands the old door the new door's __dict__, so a name imported before the edit
            # (`from bleu_scratch import corpus_bleu`) runs the saved code.
            plan = checked.__dict__["plan"]
            if _inside_a_door.get():
                return plan[0](*args, **kwargs)
            function, checks, name, names, known, defaults = plan
            arguments = dict(zip(names, args))
            if kwargs:
                if not kwargs.keys().isdisjoint(arguments):
                    return function(*args, **kwargs)  # an argument given twice: Python's own message
                arguments.update(kwargs)
            if len(arguments) < len(names):
                arguments = {**defaults, **arguments}
            if len(args) > len(names) or arguments.keys() != known:
                return function(*args, **kwargs)  # a call that does not fit: Python's own message
            for check in checks:
                check(arguments, name)
            return as_checked(function, **arguments)

        checked.__dict__["plan"] = (function, checks, name, names, known, defaults)
        return checked  # type: ignore[return-value]

    return decorate


def as_checked(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Call ``function`` as from inside a door: for input a door has checked already, in another process.

    A Dask worker counting a shard of a corpus that ``parallel_corpus_stats``
    checked at its door calls the shard's function through this, so the
    lessons that function calls do not check every pair again.

    >>> @door(hypothesis)
    ... def length(hypothesis):
    ...     return len(hypothesis)
    >>> as_checked(length, "a b")  # no check: a str is taken as it is
    3
    """
    entered = _inside_a_door.set(True)
    try:
        return function(*args, **kwargs)
    finally:
        _inside_a_door.reset(entered)


def hypothesis(arguments: dict[str, Any], function: str) -> None:
    """``hypothesis`` is a list of hashable tokens."""
    arguments["hypothesis"] = check_tokens(arguments["hypothesis"], "hypothesis")


def reference(arguments: dict[str, Any], function: str) -> None:
    """``reference`` (one reference) is a list of hashable tokens."""
    arguments["reference"] = check_tokens(arguments["reference"], "reference")


def references(arguments: dict[str, Any], function: str) -> None:
    """``references`` is a non-empty list of references, each a list of tokens."""
    arguments["references"] = check_references(arguments["references"])


def references_read_once(arguments: dict[str, Any], function: str) -> None:
    """As ``references``, and an iterator is read into a list, as NLTK's functions that read it once accept one."""
    arguments["references"] = check_references(arguments["references"], allow_iterator=True)


def sentence_pair(arguments: dict[str, Any], function: str) -> None:
    """``hypothesis`` and ``references`` as ``sentence_bleu`` takes them."""
    hypothesis(arguments, function)
    references(arguments, function)


def corpus(arguments: dict[str, Any], function: str) -> None:
    """``list_of_references`` and ``hypotheses``: non-empty, aligned, each item as ``sentence_bleu`` takes it."""
    arguments["list_of_references"], arguments["hypotheses"] = check_corpus(
        arguments["list_of_references"], arguments["hypotheses"]
    )


def numbered_corpus(arguments: dict[str, Any], function: str) -> None:
    """As ``corpus``, but each token is left to lesson 10's numbering, which hashes it anyway (``named_bad_token``)."""
    arguments["list_of_references"], arguments["hypotheses"] = check_corpus(
        arguments["list_of_references"], arguments["hypotheses"], hashed_later=True
    )


@contextmanager
def named_bad_token(list_of_references: Any, hypotheses: Any) -> Iterator[None]:
    """Around code that hashes every token of a ``numbered_corpus``: a token it cannot hash
    (or compare) raises ``corpus``'s message, which names the sentence that holds it.

    >>> with named_bad_token([[["a"]], [["b", ["c"]]]], [["a"], ["b"]]):  # doctest: +ELLIPSIS
    ...     hash(["c"])
    Traceback (most recent call last):
    ...
    TypeError: list_of_references[1][0] contains an unhashable token of type list (['c']); ...
    """
    try:
        yield
    except TypeError:
        try:
            check_corpus(list_of_references, hypotheses)
        except TypeError as named:
            raise named from None  # its message alone, not after the hash's
        raise


def batch(arguments: dict[str, Any], function: str) -> None:
    """As ``numbered_corpus``; or 2-D integer arrays of token ids, with ``pad_id`` or lengths marking their tokens."""
    padding = {name: arguments[name] for name in ("pad_id", "hypothesis_lengths", "reference_lengths")}
    hypotheses = arguments["hypotheses"]
    if getattr(hypotheses, "ndim", None) == 2:
        check_token_arrays(arguments["list_of_references"], hypotheses, **padding)
        return
    if getattr(getattr(hypotheses, "dtype", None), "kind", None) in ("b", "i", "u", "f"):  # numbers, not 2-D
        raise TypeError(
            f"hypotheses is a {hypotheses.ndim}-D array of shape {hypotheses.shape}, but a batch of token ids is a "
            f"2-D array, (batch, length){' (one sentence: hypotheses[None])' if hypotheses.ndim == 1 else ''}; "
            f"or give lists of tokens"
        )
    given = [name for name, value in padding.items() if value is not None]
    if given:
        raise TypeError(
            f"{given[0]} marks the tokens of each row of a 2-D array of token ids, but hypotheses is "
            f"{article(arguments['hypotheses'])}: with lists, each hypothesis holds its own tokens"
        )
    numbered_corpus(arguments, function)


def weights(arguments: dict[str, Any], function: str) -> None:
    """``weights`` holds at least one weight."""
    check_weights(arguments["weights"])


def stats_for_weights(arguments: dict[str, Any], function: str) -> None:
    """``stats`` counted every order ``weights`` needs."""
    check_stats_for_weights(arguments["stats"], arguments["weights"])


def order(arguments: dict[str, Any], function: str) -> None:
    """``n`` is an n-gram order."""
    check_order(arguments["n"])


def highest_order(arguments: dict[str, Any], function: str) -> None:
    """``max_n`` is an n-gram order."""
    check_order(arguments["max_n"], "max_n is the highest n-gram order")


def line(arguments: dict[str, Any], function: str) -> None:
    """``line`` is one line of text, as a tokenizer takes it."""
    check_line(arguments["line"], function)


def text_pair(arguments: dict[str, Any], function: str) -> None:
    """``hypothesis`` and ``references`` as lines of text, for a function that tokenizes them itself."""
    check_text(arguments["hypothesis"], "hypothesis", function)
    arguments["references"] = check_text_references(arguments["references"], function)


def text_corpus(arguments: dict[str, Any], function: str) -> None:
    """``hypotheses`` and ``list_of_references`` as lines of text, for a function that tokenizes them itself."""
    arguments["hypotheses"], arguments["list_of_references"] = check_text_corpus(
        arguments["hypotheses"], arguments["list_of_references"], function
    )


def sacrebleu_options(arguments: dict[str, Any], function: str) -> None:
    """``stats`` are ``BleuStats`` and ``smooth_method`` one of sacrebleu's."""
    from ..lesson09_sacrebleu import SMOOTH_DEFAULTS  # imported when called: lesson 09 imports this module

    check_sacrebleu_options(arguments["stats"], arguments["smooth_method"], SMOOTH_DEFAULTS)


def paired_test(arguments: dict[str, Any], function: str) -> None:
    """The systems, references and options of a paired significance test."""
    from ..lesson09_tokenizers import ALL_TOKENIZERS

    arguments["named_systems"], arguments["references"] = check_paired_test(
        arguments["named_systems"],
        arguments["references"],
        arguments["test_type"],
        arguments["n_samples"],
        arguments["seed"],
        arguments["tokenize"],
        ALL_TOKENIZERS,
    )


def paired_scores(arguments: dict[str, Any], function: str) -> None:
    """``xs`` and ``ys``: one score per system each, fit for a correlation."""
    arguments["xs"], arguments["ys"] = check_paired_scores(arguments["xs"], arguments["ys"])


def paired_scores_to_compare(arguments: dict[str, Any], function: str) -> None:
    """As ``paired_scores``, and a list that does not vary is allowed (nothing to correlate, but pairs to count)."""
    arguments["xs"], arguments["ys"] = check_paired_scores(arguments["xs"], arguments["ys"], correlation=False)
