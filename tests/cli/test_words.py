"""A shard's words numbered by compiled code (``bleu_cli.words``): the words of ``str.split()``, numbered as a dict
numbers them, and the command's scores the same either way."""

import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_cli import pipeline, words
from bleu_cli.words import MAX_CELLS, word_arrays
from tests.cli.run_command import run_main, write
from tests.quick import examples


def split_and_numbered(texts: list[str]) -> tuple[list[int], list[int]]:
    """What the compiled code must give: each text's ``str.split()``, every word numbered as first seen."""
    numbers: dict[str, int] = {}
    words = [text.split() for text in texts]
    return [numbers.setdefault(word, len(numbers)) for text in words for word in text], [len(text) for text in words]


def numbered_by_word_arrays(segments: list[tuple[str, ...]]) -> tuple[list[int], list[int]]:
    """``word_arrays``' numbers and lengths, in the order texts are numbered: the hypotheses, then each pair's
    references."""
    references, hypotheses, hyp_lens, ref_lens = word_arrays(segments)
    hyp_mask = np.arange(hypotheses.shape[1]) < hyp_lens[:, None]
    ref_mask = np.arange(references.shape[2]) < ref_lens[..., None]
    ids = np.concatenate([hypotheses[hyp_mask], references[ref_mask]]).tolist()
    return ids, [*hyp_lens.tolist(), *ref_lens.ravel().tolist()]


def test_every_character_str_split_splits_on_and_no_other():
    characters = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF and chr(c) != "\n"]
    # Each character between two letters: "a<c>a" is one word, or two when <c> is whitespace; 256 to a line.
    lines = [" ".join(f"a{c}a" for c in characters[i : i + 256]) for i in range(0, len(characters), 256)]
    segments = [(line, "a") for line in lines]
    texts = [*lines, *["a"] * len(lines)]
    assert numbered_by_word_arrays(segments) == split_and_numbered(texts)


# Words from a few letters, with whitespace of one, two and three bytes in UTF-8, and letters of each length too.
TEXT = st.text(alphabet=st.sampled_from("ab \t\x0b\x1f\x85\xa0é\u2003\u3000語\u3001\U0001f600"), max_size=30)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=12))
def test_word_numbers_are_str_split_numbered_as_first_seen(segments):
    arrays = word_arrays(segments)
    texts = [segment[0] for segment in segments] + [line for segment in segments for line in segment[1:]]
    if arrays is not None:  # None: padding would take too many cells, and the shard takes the lists' way
        assert numbered_by_word_arrays(segments) == split_and_numbered(texts)


def test_a_line_far_longer_than_the_others_takes_the_lists_way():
    long_line = " ".join(["w"] * (MAX_CELLS // 50))  # 100 rows that wide hold twice MAX_CELLS
    segments = [("a b", "a b c")] * 99 + [(long_line, "a")]
    assert word_arrays(segments) is None
    assert word_arrays(segments[:99]) is not None


# Lines of whitespace alone, empty lines, whitespace of several bytes, three references; then hypotheses all empty.
EDGES = [
    ("a b\n\n \n\u3000x\r\n", "a b c\n\nb\n x \n", "\n\na\nx\u2028x\n", "b\n\n\n\n"),
    ("\n\n", "a\nb b\n"),
]


def test_the_command_scores_the_same_by_arrays_and_by_lists(capsys, monkeypatch, wmt15, tmp_path):
    numbered = []  # whether each shard took the arrays' way

    def spied(segments):
        arrays = word_arrays(segments)
        numbered.append(arrays is not None)
        return arrays

    file_sets = [[wmt15["google.ru"], wmt15["ref.ru"]]]
    for k, contents in enumerate(EDGES):
        file_sets.append([write(tmp_path / f"{k}-{n}.txt", text.encode()) for n, text in enumerate(contents)])
    for files in file_sets:
        for options in ([], ["--sentence", "--smoothing", "4"], ["--json", "--smoothing", "7", "--weights", "0.5,0.5"]):
            monkeypatch.setattr(words, "word_arrays", spied)
            by_arrays = run_main(capsys, *files, *options)
            monkeypatch.setattr(pipeline, "words_as_arrays", lambda settings: False)
            by_lists = run_main(capsys, *files, *options)
            monkeypatch.undo()
            assert by_arrays == by_lists and by_arrays[0] == 0, (files, options)
            assert numbered and all(numbered), (files, options)
            numbered.clear()


# The command's help, then its message on a missing file: neither counts, so neither loads numba (slow and large).
WITHOUT_COUNTING = """
import sys
from bleu_cli import main
for argv in (["--help"], ["missing.txt", "missing.txt"]):
    try:
        main(argv)
    except SystemExit:
        pass
print("numba" in sys.modules)
"""


def test_help_and_bad_input_load_no_numba(tmp_path):
    finished = subprocess.run(
        [sys.executable, "-c", WITHOUT_COUNTING], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert finished.stdout.splitlines()[-1] == "False" and "missing.txt" in finished.stderr
