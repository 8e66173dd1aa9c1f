"""Scoring and printing: errors and warnings in the command's words, the progress bar, a closed pipe."""

import io
import os
import subprocess
import sys

from bleu_cli import main, report
from tests.cli.run_command import WMT15_LINE, run_main, write


def test_sentence_lines_and_warnings_once_without_a_file_path(capsys, wmt15):
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--sentence")
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 100 and all(line.startswith("BLEU = ") for line in lines)
    # Most segments have no 4-gram match; NLTK warns each time, the command once per order.
    warnings = err.splitlines()
    assert warnings and len(warnings) == len(set(warnings)) <= 4, err
    assert all(w.startswith("bleu-scratch: warning: The hypothesis contains 0 counts of ") for w in warnings), err
    assert ".py" not in err, err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only_once_scoring_takes_a_while(capsys, wmt15, monkeypatch):
    argv = [wmt15["google.ru"], wmt15["ref.ru"]]
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert main(argv) == 0
    assert sys.stderr.getvalue() == "", "100 lines score well within the delay: no bar"
    monkeypatch.setattr(report, "PROGRESS_DELAY", 0)
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert main(argv) == 0
    assert "google.ru:" in sys.stderr.getvalue() and "%|" in sys.stderr.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: never a bar
    assert main(argv) == 0
    assert sys.stderr.getvalue() == ""
    assert capsys.readouterr().out == (WMT15_LINE + "\n") * 3


def test_smoothing_method_6_without_trigram_matches_is_an_error_not_a_crash(capsys, tmp_path):
    hyp = write(tmp_path / "hyp.txt", b"a b c d\n")
    ref = write(tmp_path / "ref.txt", b"a b x c d\n")
    status, out, err = run_main(capsys, hyp, ref, "--smoothing", "6")
    assert (status, out) == (2, "") and "trigram" in err


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
        assert main([wmt15["google.ru"], wmt15["ref.ru"], "--sentence"]) == report.BROKEN_PIPE_STATUS
        # stdout now goes to /dev/null, so Python's flush at exit cannot fail again.
        print("more output", file=closed_pipe, flush=True)
    assert capsys.readouterr().err == ""


def test_head_closing_the_pipe_stops_the_command_quietly(tmp_path):
    hyp = write(tmp_path / "hyp.txt", b"the cat sat on the mat\n" * 5000)
    ref = write(tmp_path / "ref.txt", b"the cat sat on a mat\n" * 5000)
    # 5000 score lines are far more than a pipe holds (64 kB): the command is
    # still writing, blocked, when the reader closes its end after one line.
    command = subprocess.Popen(
        [sys.executable, "-m", "bleu_cli", hyp, ref, "--sentence"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert command.stdout.readline().startswith(b"BLEU = ")
    command.stdout.close()
    err = command.stderr.read()
    assert (command.wait(timeout=120), err) == (141, b"")
