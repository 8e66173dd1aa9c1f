"""Reading the files: every kind of bad input is one line on stderr and exit status 2, never a partial score.

Also what the reader makes of odd but good input: CRLF line ends, a byte
order mark, standard input, and slices read back from their byte ranges.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

from bleu_cli import inputs
from tests.cli.run_command import WMT15_LINE, run_main, run_module, write


def test_crlf_line_endings_score_like_lf(capsys, tmp_path, wmt15):
    for name in ["google.ru", "ref.ru"]:
        (tmp_path / name).write_bytes(Path(wmt15[name]).read_bytes().replace(b"\n", b"\r\n"))
    assert run_main(capsys, str(tmp_path / "google.ru"), str(tmp_path / "ref.ru"), "--tokenize", "13a") == run_main(
        capsys, wmt15["google.ru"], wmt15["ref.ru"], "--tokenize", "13a"
    )


def bad_inputs(tmp_path) -> dict[str, tuple[list[str], list[str]]]:
    """Each kind of bad input: (argv, what the message must say)."""
    hyp = write(tmp_path / "hyp.txt", b"the cat\n" * 25)
    ref24 = write(tmp_path / "ref24.txt", b"the cat\n" * 24)
    ref25 = write(tmp_path / "ref25.txt", b"the cat\n" * 25)
    # The bad byte is on the last line, after every other line has been scored.
    latin1 = write(tmp_path / "latin1.txt", b"the cat\n" * 24 + "the caf\u00e9\n".encode("latin-1"))
    empty = write(tmp_path / "empty.txt", b"")
    return {
        "fewer reference lines": ([hyp, ref25, ref24], ["ref24.txt has 24 lines", "hyp.txt has 25 lines"]),
        "more reference lines": ([ref24, ref25], ["ref25.txt has 25 lines", "ref24.txt has 24 lines"]),
        "missing file": ([hyp, str(tmp_path / "missing.txt")], ["cannot read", "missing.txt", "No such file"]),
        "unreadable file (a directory)": ([hyp, str(tmp_path)], ["cannot read", str(tmp_path), "Is a directory"]),
        "invalid UTF-8": ([hyp, latin1], ["latin1.txt, line 25: not valid UTF-8", "b'\\xe9'"]),
        "empty hypothesis file": ([empty, ref25], ["empty.txt is empty"]),
        "empty hypothesis and reference": ([empty, empty], ["empty.txt is empty"]),
    }


BAD_INPUTS = [
    "fewer reference lines",
    "more reference lines",
    "missing file",
    "unreadable file (a directory)",
    "invalid UTF-8",
    "empty hypothesis file",
    "empty hypothesis and reference",
]


@pytest.mark.parametrize("kind", BAD_INPUTS)
@pytest.mark.parametrize("mode", [[], ["--sentence"], ["--json"], ["--jobs", "2"]], ids=" ".join)
def test_bad_input_in_process_prints_only_the_error(capsys, tmp_path, monkeypatch, kind, mode):
    monkeypatch.setattr(inputs, "SHARD_LINES", 4)  # several shards are scored before the problem shows
    argv, message = bad_inputs(tmp_path)[kind]
    status, out, err = run_main(capsys, *argv, *mode)
    assert (status, out) == (2, "")
    assert err.startswith("bleu-scratch: error: ") and err.count("\n") == 1
    for part in message:
        assert part in err


@pytest.mark.parametrize("kind", BAD_INPUTS)
def test_bad_input_as_a_module(tmp_path, kind):
    argv, message = bad_inputs(tmp_path)[kind]
    result = run_module(*argv)
    assert (result.returncode, result.stdout) == (2, "")
    for part in message:
        assert part in result.stderr
    assert "Traceback" not in result.stderr


BOM = "\ufeff".encode()


@pytest.mark.parametrize("mode", [[], ["--jobs", "2"]], ids=["one process", "a local cluster"])
def test_a_byte_order_mark_stays_on_the_first_token_as_python_reads_it(capsys, tmp_path, mode):
    # WMT17's online-A output starts with one, as submitted; sacrebleu's command line reads it as a
    # character (tests/cli/test_sacrebleu_command_line.py), and so does Python's open(..., encoding="utf-8").
    hyp = write(tmp_path / "hyp.txt", BOM + b"the cat sat on the mat\nhello there my friend\n")
    plain = write(tmp_path / "plain.txt", b"the cat sat on the mat\nhello there my friend\n")
    status, out, err = run_main(capsys, hyp, plain, "--json", *mode)
    assert (status, err) == (0, "")
    hypotheses = Path(hyp).read_text(encoding="utf-8").splitlines()
    assert hypotheses[0].startswith("\ufeffthe ")
    references = [[line.split()] for line in Path(plain).read_text(encoding="utf-8").splitlines()]
    expected = nltk_corpus_bleu(references, [line.split() for line in hypotheses])
    assert json.loads(out)["bleu"] == expected < 1.0
    assert json.loads(out)["stats"]["matches"][0] == 9  # of 10 words: "\ufeffthe" is no "the"


def test_dash_reads_standard_input(wmt15):
    hypothesis = Path(wmt15["google.ru"]).read_bytes()
    for argv in (["-", wmt15["ref.ru"]], [wmt15["ref.ru"], "-"][::-1]):
        result = subprocess.run(
            [sys.executable, "-m", "bleu_cli", *argv], input=hypothesis, capture_output=True, timeout=120
        )
        assert (result.returncode, result.stdout.decode(), result.stderr) == (0, WMT15_LINE + "\n", b"")
    # Standard input as a reference file.
    result = subprocess.run(
        [sys.executable, "-m", "bleu_cli", wmt15["google.ru"], "-"],
        input=Path(wmt15["ref.ru"]).read_bytes(),
        capture_output=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout.decode()) == (0, WMT15_LINE + "\n")


def test_standard_input_read_in_shards_with_jobs(tmp_path, wmt15):
    result = subprocess.run(
        [sys.executable, "-m", "bleu_cli", "-", wmt15["ref.ru"], "--jobs", "2"],
        input=Path(wmt15["google.ru"]).read_bytes(),
        capture_output=True,
        timeout=180,
    )
    assert (result.returncode, result.stdout.decode(), result.stderr) == (0, WMT15_LINE + "\n", b"")


def test_slices_read_back_the_lines_of_their_byte_ranges(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "SHARD_LINES", 3)
    hyp = write(tmp_path / "hyp.txt", BOM + b"a\r\nb\nc\nd\ne\nf\ng")  # CRLF, no final newline
    ref = write(tmp_path / "ref.txt", b"A\nB\nC\nD\nE\nF\nG\n")
    slices = inputs.file_slices([hyp, ref])
    assert [(piece.first, piece.count) for piece in slices] == [(1, 3), (4, 3), (7, 1)]
    assert [segment for piece in slices for segment in inputs.read_slice(piece)] == [
        ("\ufeffa", "A"),  # the byte order mark stays: sacrebleu's command line reads it so
        ("b", "B"),
        ("c", "C"),
        ("d", "D"),
        ("e", "E"),
        ("f", "F"),
        ("g", "G"),
    ]
    streamed = [segment for shard in inputs.streamed_shards([hyp, ref]) for segment in shard]
    assert streamed == [segment for piece in slices for segment in inputs.read_slice(piece)]


def test_a_shard_of_long_lines_ends_at_its_byte_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "SHARD_LINES", 3)
    monkeypatch.setattr(inputs, "SHARD_BYTES", 10)
    # Bytes per segment, both files and line endings counted: 4, 12, 4, 4, 4, 4.
    hyp = write(tmp_path / "hyp.txt", b"a\nbbbbb\nc\nd\ne\nf\n")
    ref = write(tmp_path / "ref.txt", b"A\nBBBBB\nC\nD\nE\nF\n")
    slices = inputs.file_slices([hyp, ref])
    # A shard ends after 3 lines, or at the line that brings it to 10 bytes: 4 + 12; 4 + 4 + 4; 4.
    assert [(piece.first, piece.count) for piece in slices] == [(1, 2), (3, 3), (6, 1)]
    streamed = [len(shard) for shard in inputs.streamed_shards([hyp, ref])]
    assert streamed == [piece.count for piece in slices]
    assert [segment for piece in slices for segment in inputs.read_slice(piece)] == [
        ("a", "A"),
        ("bbbbb", "BBBBB"),
        ("c", "C"),
        ("d", "D"),
        ("e", "E"),
        ("f", "F"),
    ]
