"""The bleu-scratch command: NLTK's corpus_bleu of files, clear errors, no partial scores.

Each behaviour is checked in-process through ``main(argv)``; the published
WMT15 line and every kind of bad input also through ``python -m bleu_scratch``
in a subprocess, as a user runs it.
"""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_scratch import cli
from bleu_scratch.notebook import read_lines
from bleu_scratch.tokenize import tokenize_13a

# multi-bleu.perl's published figure for these files (data/wmt15-enru-100/README.md),
# in sacrebleu's layout.
WMT15_LINE = "BLEU = 23.17 53.8/29.6/17.6/10.3 (BP = 1.000 ratio = 1.074 hyp_len = 1989 ref_len = 1852)"


@pytest.fixture(scope="module")
def wmt15(data_dir):
    folder = data_dir / "wmt15-enru-100"
    return {name: str(folder / name) for name in ["google.ru", "ref.ru", "src.en"]} | {
        "raw hypothesis": str(folder / "newstest-2015-100sents.en-ru.google.ru"),
        "raw reference": str(folder / "newstest-2015-100sents.en-ru.ref.ru"),
    }


def run_main(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_module(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bleu_scratch", *argv], capture_output=True, text=True, timeout=120)


def test_wmt15_prints_the_published_line_as_a_module(wmt15):
    result = run_module(wmt15["google.ru"], wmt15["ref.ru"])
    assert (result.returncode, result.stdout, result.stderr) == (0, WMT15_LINE + "\n", "")


def test_wmt15_prints_the_published_line_in_process(capsys, wmt15):
    assert run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"]) == (0, WMT15_LINE + "\n", "")


@pytest.mark.parametrize("method", range(8))
def test_json_score_is_nltk_corpus_bleu_with_each_smoothing_method(capsys, wmt15, method):
    hypotheses = [line.split() for line in read_lines(wmt15["google.ru"])]
    references = [[line.split()] for line in read_lines(wmt15["ref.ru"])]
    expected = nltk_corpus_bleu(references, hypotheses, smoothing_function=getattr(NltkSmoothingFunction(), f"method{method}"))
    status, out, _ = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--json", "--smoothing", str(method))
    assert status == 0
    assert json.loads(out)["bleu"] == expected


def test_weights_lowercase_13a_and_two_references_agree_with_nltk(capsys, wmt15):
    # The source file as a second "reference" adds a few matches (names, numbers).
    hypotheses = [tokenize_13a(line.lower()) for line in read_lines(wmt15["google.ru"])]
    references = [
        [tokenize_13a(ref.lower()), tokenize_13a(src.lower())]
        for ref, src in zip(read_lines(wmt15["ref.ru"]), read_lines(wmt15["src.en"]))
    ]
    expected = nltk_corpus_bleu(references, hypotheses, weights=(0.5, 0.3, 0.2))
    argv = [wmt15["google.ru"], wmt15["ref.ru"], wmt15["src.en"], "--weights", "0.5,0.3,0.2"]
    status, out, _ = run_main(capsys, *argv, "--lowercase", "--tokenize", "13a", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["bleu"] == expected
    assert result["options"] == {"weights": [0.5, 0.3, 0.2], "smoothing": 0, "tokenize": "13a", "lowercase": True}
    # The same weights written with spaces.
    assert json.loads(run_main(capsys, *argv[:-1], "0.5 0.3 0.2", "--lowercase", "--tokenize", "13a", "--json")[1]) == result


def test_13a_statistics_equal_sacrebleu_on_raw_text(capsys, wmt15):
    hypotheses, references = read_lines(wmt15["raw hypothesis"]), read_lines(wmt15["raw reference"])
    theirs = sacrebleu.corpus_bleu(hypotheses, [references], tokenize="13a")
    status, out, _ = run_main(capsys, wmt15["raw hypothesis"], wmt15["raw reference"], "--tokenize", "13a", "--json")
    stats = json.loads(out)["stats"]
    assert status == 0
    assert (stats["matches"], stats["totals"]) == (theirs.counts, theirs.totals)
    assert (stats["hyp_len"], stats["ref_len"]) == (theirs.sys_len, theirs.ref_len)


def test_sentence_scores_are_nltk_sentence_bleu(capsys, wmt15):
    hypotheses = [line.split() for line in read_lines(wmt15["google.ru"])]
    references = [line.split() for line in read_lines(wmt15["ref.ru"])]
    method1 = NltkSmoothingFunction().method1
    expected = [nltk_sentence_bleu([r], h, smoothing_function=method1) for r, h in zip(references, hypotheses)]
    status, out, _ = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--sentence", "--json", "--smoothing", "1")
    assert status == 0
    assert [json.loads(line)["bleu"] for line in out.splitlines()] == expected


def test_sentence_lines_and_warnings_once_without_a_file_path(capsys, wmt15):
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--sentence")
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 100 and all(line.startswith("BLEU = ") for line in lines)
    # Most segments have no 4-gram match; NLTK warns each time, the command once per order.
    warnings = err.splitlines()
    assert warnings and len(warnings) == len(set(warnings)) <= 4
    assert all(w.startswith("bleu-scratch: warning: The hypothesis contains 0 counts of ") for w in warnings)
    assert ".py" not in err


def test_jobs_give_the_same_output(capsys, wmt15, monkeypatch):
    monkeypatch.setattr(cli, "SHARD_LINES", 7)  # 15 shards over the 2 processes
    assert run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--jobs", "2") == (0, WMT15_LINE + "\n", "")


def test_crlf_line_endings_score_like_lf(capsys, tmp_path, wmt15):
    for name in ["google.ru", "ref.ru"]:
        (tmp_path / name).write_bytes(Path(wmt15[name]).read_bytes().replace(b"\n", b"\r\n"))
    assert run_main(capsys, str(tmp_path / "google.ru"), str(tmp_path / "ref.ru"), "--tokenize", "13a") == run_main(
        capsys, wmt15["google.ru"], wmt15["ref.ru"], "--tokenize", "13a"
    )


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only_once_scoring_takes_a_while(capsys, wmt15, monkeypatch):
    argv = [wmt15["google.ru"], wmt15["ref.ru"]]
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert cli.main(argv) == 0
    assert sys.stderr.getvalue() == "", "100 lines score well within the delay: no bar"
    monkeypatch.setattr(cli, "PROGRESS_DELAY", 0)
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert cli.main(argv) == 0
    assert "google.ru:" in sys.stderr.getvalue() and "%|" in sys.stderr.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: never a bar
    assert cli.main(argv) == 0
    assert sys.stderr.getvalue() == ""
    assert capsys.readouterr().out == (WMT15_LINE + "\n") * 3


def write(path, content: bytes) -> str:
    path.write_bytes(content)
    return str(path)


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
    monkeypatch.setattr(cli, "SHARD_LINES", 4)  # several shards are scored before the problem shows
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


@pytest.mark.parametrize(
    "options, message",
    [
        (["--weights", "0.5,x"], "weights must be numbers"),
        (["--weights", ","], "an empty weight in ','"),
        (["--weights", "0.5,,0.5"], "an empty weight in '0.5,,0.5'"),
        (["--weights", "0.5 0.5,"], "an empty weight"),
        (["--weights", "nan"], "weights must be finite numbers, got 'nan'"),
        (["--weights", "0.5,inf"], "weights must be finite numbers"),
        (["--weights", "-inf,1"], "weights must be finite numbers"),
        (["--smoothing", "8"], "invalid choice"),
        (["--jobs", "0"], "at least 1"),
        (["--sentence", "--jobs", "2"], "--sentence scores in one process"),
        (["--tokenize", "moses"], "invalid choice"),
    ],
)
def test_bad_options_exit_2_before_reading(capsys, wmt15, options, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([wmt15["google.ru"], wmt15["ref.ru"], *options])
    captured = capsys.readouterr()
    assert exit_info.value.code == 2 and captured.out == "" and message in captured.err


def test_smoothing_method_6_without_trigram_matches_is_an_error_not_a_crash(capsys, tmp_path):
    hyp = write(tmp_path / "hyp.txt", b"a b c d\n")
    ref = write(tmp_path / "ref.txt", b"a b x c d\n")
    status, out, err = run_main(capsys, hyp, ref, "--smoothing", "6")
    assert (status, out) == (2, "") and "trigram" in err


@pytest.mark.parametrize("written", [["--weights", "-1,2"], ["--weights=-1,2"], ["--weig", "-1 2"], ["--weights", "-1.0, 2"]])
def test_negative_weights_are_read_as_numbers_and_scored_as_nltk_does(capsys, wmt15, written):
    hypotheses = [line.split() for line in read_lines(wmt15["google.ru"])]
    references = [[line.split()] for line in read_lines(wmt15["ref.ru"])]
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], *written, "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["bleu"] == nltk_corpus_bleu(references, hypotheses, weights=(-1, 2))


def test_a_score_that_overflows_is_an_error_not_a_traceback(capsys, wmt15):
    # NLTK raises OverflowError: the weight times log(precision) is beyond a float.
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--weights", "-1e308,1")
    assert (status, out) == (2, "")
    assert err == "bleu-scratch: error: the score overflows a float with --weights -1e+308,1\n"


def test_errors_and_warnings_name_the_commands_options_not_python(capsys, tmp_path, wmt15):
    status, _, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--smoothing", "6", "--weights", "0.5,0.5")
    assert status == 2
    assert err.endswith("Use e.g. --weights 0.25,0.25,0.25,0.25\n") and "weights=(" not in err
    hyp = write(tmp_path / "hyp.txt", b"a b c d\n")
    ref = write(tmp_path / "ref.txt", b"a b x c d\n")
    status, _, err = run_main(capsys, hyp, ref, "--smoothing", "6")
    assert status == 2 and err.endswith("e.g. --smoothing 1\n")
    # NLTK's zero-overlap warning suggests SmoothingFunction().
    status, _, err = run_main(capsys, hyp, ref)
    assert status == 0 and "use --smoothing 1 to 7" in err and "SmoothingFunction" not in err


def test_a_closed_output_pipe_ends_with_status_141_in_process(capsys, wmt15, monkeypatch):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone: every write fails with EPIPE
    with open(write_end, "w") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        assert cli.main([wmt15["google.ru"], wmt15["ref.ru"], "--sentence"]) == cli.BROKEN_PIPE_STATUS
        # stdout now goes to /dev/null, so Python's flush at exit cannot fail again.
        print("more output", file=closed_pipe, flush=True)
    assert capsys.readouterr().err == ""


def test_head_closing_the_pipe_stops_the_command_quietly(tmp_path):
    hyp = write(tmp_path / "hyp.txt", b"the cat sat on the mat\n" * 5000)
    ref = write(tmp_path / "ref.txt", b"the cat sat on a mat\n" * 5000)
    # 5000 score lines are far more than a pipe holds (64 kB): the command is
    # still writing, blocked, when the reader closes its end after one line.
    command = subprocess.Popen(
        [sys.executable, "-m", "bleu_scratch", hyp, ref, "--sentence"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert command.stdout.readline().startswith(b"BLEU = ")
    command.stdout.close()
    err = command.stderr.read()
    assert (command.wait(timeout=120), err) == (141, b"")
