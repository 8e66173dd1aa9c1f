"""The checks of a batch given as arrays of token ids, as a training loop holds one, with their messages.

numpy is imported only here, and only when such a batch arrives: the
lessons up to 09 need the standard library alone.
"""

from numbers import Integral
from typing import Any

from .values import article, shortened


def check_token_arrays(
    list_of_references: Any, hypotheses: Any, pad_id: Any, hypothesis_lengths: Any, reference_lengths: Any
) -> None:
    """Raise a clear error unless the arrays, the pad id and the lengths make a batch of token ids.

    >>> import numpy as np
    >>> check_token_arrays(np.array([[1, 2]]), np.array([[1, 2]]), 0, None, None)
    >>> check_token_arrays(np.array([[1, 2]]), np.array([[1.0, 2.0]]), 0, None, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: hypotheses is a 2-D array of float64, but token ids are integers: ...
    """
    _check_ids("hypotheses", hypotheses, (2,), "(batch, length)")
    _check_ids("list_of_references", list_of_references, (2, 3), "(batch, references, length) or (batch, length)")
    if len(hypotheses) == 0:
        raise ValueError("the batch is empty (no hypotheses): there is nothing to score")
    if len(list_of_references) != len(hypotheses):
        raise ValueError(
            f"there are {len(hypotheses)} hypotheses but {len(list_of_references)} rows of references; "
            f"the arrays need the same first dimension, the batch"
        )
    if list_of_references.ndim == 3 and list_of_references.shape[1] == 0:
        raise ValueError("list_of_references has no reference per hypothesis (shape (batch, 0, length))")
    if pad_id is not None and (not isinstance(pad_id, Integral) or isinstance(pad_id, bool)):
        raise TypeError(f"pad_id must be an int (the id that pads each row), got {shortened(pad_id)}")
    if pad_id is not None and (hypothesis_lengths is not None or reference_lengths is not None):
        raise ValueError("give pad_id or the lengths, not both: each marks where a row's tokens are")
    if (hypothesis_lengths is None) != (reference_lengths is None):
        raise ValueError("give hypothesis_lengths and reference_lengths together (or pad_id)")
    if hypothesis_lengths is not None:
        _check_lengths("hypothesis_lengths", hypothesis_lengths, hypotheses.shape[:1], hypotheses.shape[1])
        _check_lengths(
            "reference_lengths", reference_lengths, list_of_references.shape[:-1], list_of_references.shape[-1]
        )
    pad = None if pad_id is None else int(pad_id)
    for name, rows, lengths in (
        ("hypotheses", hypotheses, hypothesis_lengths),
        ("list_of_references", list_of_references, reference_lengths),
    ):
        if pad is not None:
            _check_pad_id(name, rows, pad)
            _check_padding_around_tokens(name, rows, pad)
        if rows.dtype.kind == "i" and rows.size and rows.min() < 0:
            from ..lesson10_arrays import tokens_mask  # imported when needed: lesson 10 imports this module

            _check_no_negative_id(name, rows, tokens_mask(rows, pad, lengths), pad, lengths is not None)


def _check_padding_around_tokens(name: str, rows: Any, pad_id: int) -> None:
    """``pad_id`` comes before or after each row's tokens, or both, never between them."""
    import numpy as np

    if rows.shape[-1] == 0:  # rows of no column: nothing between tokens
        return
    tokens = (rows != pad_id).reshape(-1, rows.shape[-1])
    runs = np.count_nonzero(tokens[:, 1:] & ~tokens[:, :-1], axis=1) + tokens[:, 0]
    if (runs > 1).any():
        row = int(np.argmax(runs > 1))
        raise ValueError(
            f"{name} has pad_id {pad_id} between tokens in row {row} (as flattened to (rows, length)): "
            f"padding may come before or after a row's tokens, not inside them"
        )


def _check_pad_id(name: str, rows: Any, pad_id: int) -> None:
    """``pad_id`` can occur in ``rows``: an id their integer type cannot hold pads nothing."""
    import numpy as np

    low, high = np.iinfo(rows.dtype).min, np.iinfo(rows.dtype).max
    if not low <= pad_id <= high:
        raise ValueError(
            f"pad_id {pad_id} cannot occur in {name}, an array of {rows.dtype} ({low} to {high}): "
            f"its padding is another id; give that one"
        )


def _check_no_negative_id(name: str, rows: Any, tokens: Any, pad_id: int | None, by_lengths: bool) -> None:
    """No token is a negative id: tokenizers number from 0, and a negative number marks padding (Hugging Face's
    labels use -100), which scored as a token would lower the score without a word said."""
    import numpy as np

    negative = tokens & (rows < 0)
    if negative.any():
        place = tuple(int(i) for i in np.argwhere(negative)[0])
        value = int(rows[place])
        if by_lengths:
            fix = "the lengths count it as a token of its row: check them"
        elif pad_id is not None:
            fix = (
                f"if {value} pads {name}, give both arrays the same pad id "
                f"(e.g. np.where({name} == {value}, {pad_id}, {name})), or pad_id={value} if it pads both"
            )
        else:
            fix = f"if {value} marks padding, pass pad_id={value} (or the lengths)"
        unsigned = f"np.uint{8 * rows.dtype.itemsize}"
        raise ValueError(
            f"{name} holds {value} at {list(place)}, a negative token id, which would be scored as a word: "
            f"tokenizers number from 0. {fix[0].upper()}{fix[1:]}. If negative ids are real tokens (hashed ids, "
            f"say), pass {name}.view({unsigned}): the same tokens, none negative"
        )


def _check_ids(name: str, array: Any, dimensions: tuple[int, ...], shape: str) -> None:
    kind = getattr(getattr(array, "dtype", None), "kind", None)
    if isinstance(array, (list, tuple)):
        raise TypeError(
            f"{name} is {article(array)} while hypotheses is a 2-D array: give it as an array of shape {shape} "
            f"too, its rows padded to one length with the pad id (np.asarray once they are), or give hypotheses "
            f"as lists of tokens too ([row[row != pad_id].tolist() for row in hypotheses])"
        )
    if type(array).__name__ == "MaskedArray":
        raise TypeError(
            f"{name} is a numpy MaskedArray, whose mask lesson 10 does not read: give a plain array "
            f"(np.asarray) with pad_id or lengths marking each row's tokens"
        )
    if getattr(array, "ndim", None) not in dimensions:
        got = f"shape {array.shape}" if hasattr(array, "shape") else article(array)
        raise TypeError(f"{name} must be an array of shape {shape} when hypotheses is a 2-D array, got {got}")
    if kind not in ("i", "u"):
        raise TypeError(
            f"{name} is a {array.ndim}-D array of {array.dtype}, but token ids are integers: "
            f"convert it with .astype(int), or pass lists of tokens"
        )


def _check_lengths(name: str, lengths: Any, shape: tuple[int, ...], longest: int) -> None:
    import numpy as np

    try:
        lengths = np.asarray(lengths)
    except ValueError:
        raise ValueError(
            f"{name} must be integers of shape {shape}, one per row; got rows of different lengths"
        ) from None
    if lengths.dtype.kind not in ("i", "u") or lengths.shape != shape:
        raise ValueError(f"{name} must be integers of shape {shape}, got {lengths.dtype} of shape {lengths.shape}")
    if lengths.size and (lengths.min() < 0 or lengths.max() > longest):
        raise ValueError(f"{name} must be from 0 to the row length {longest}, got {lengths.min()} to {lengths.max()}")
