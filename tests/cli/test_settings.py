"""The options: what a user means is read, the rest refused with exit status 2 before any file is read."""

import json
import warnings

import pytest
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

import bleu_scratch
from bleu_cli import compare, main
from bleu_cli.settings import WORKERS_PER_CPU, parse, usable_cpus
from bleu_scratch.notebook import read_lines
from tests.cli.run_command import run_main


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
        (["--smoothing", "8"], "must be a smoothing method from 0 to 7, got '8'"),
        (["--jobs", "0"], "at least 1"),
        (["--jobs", "²"], "must be a whole number of at least 1, got '²'"),
        (["--jobs", "2.5"], "must be a whole number of at least 1, got '2.5'"),
        (["--weights", "1_0"], "weights must be numbers separated by commas or spaces, got '1_0'"),
        (["--weights", "٠.٥"], "weights must be numbers"),
        (["--smoothing", "٣"], "must be a smoothing method from 0 to 7, got '٣'"),
        (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"], "--jobs starts a cluster on this machine"),
        (["--jobs", "99999999999999999999"], f"use --jobs {WORKERS_PER_CPU * usable_cpus()} or fewer"),
        (["--jobs", str(WORKERS_PER_CPU * usable_cpus() + 1)], "or --scheduler for a cluster of several machines"),
        (["--scheduler", "tls://127.0.0.1:8786"], "give the scheduler as tcp://HOST:PORT, got 'tls://127.0.0.1:8786'"),
        (["--scheduler", "ucx://127.0.0.1:8786"], "give the scheduler as tcp://HOST:PORT"),
        (["--scheduler", "tcp://"], "give the scheduler as tcp://HOST:PORT"),
        (["--tokenize", "moses"], "invalid choice"),
        (["--tokenize", "flores200"], "tokenize 'flores200' needs a downloaded SentencePiece model"),
        (["--tokenize", "spm"], "tokenize 'spm' needs a downloaded SentencePiece model"),
    ],
)
def test_bad_options_exit_2_before_reading(capsys, wmt15, options, message):
    with pytest.raises(SystemExit) as exit_info:
        main([wmt15["google.ru"], wmt15["ref.ru"], *options])
    captured = capsys.readouterr()
    assert exit_info.value.code == 2 and captured.out == "" and message in captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith("bleu-scratch: error: "), captured.err


@pytest.mark.parametrize(
    "written", [["--weights", "-1,2"], ["--weights=-1,2"], ["--weig", "-1 2"], ["--weights", "-1.0, 2"]]
)
def test_negative_weights_are_read_as_numbers_and_scored_as_nltk_does(capsys, wmt15, written):
    hypotheses = [line.split() for line in read_lines(wmt15["google.ru"])]
    references = [[line.split()] for line in read_lines(wmt15["ref.ru"])]
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], *written, "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["bleu"] == nltk_corpus_bleu(references, hypotheses, weights=(-1, 2))


@pytest.mark.parametrize("orders", [29, 161])
def test_more_orders_than_any_line_has_tokens_score_as_nltk_does(capsys, wmt15, orders):
    """No line of the sample has 161 tokens: those orders have no n-gram, and NLTK still gives a number."""
    hypotheses = [line.split() for line in read_lines(wmt15["google.ru"])]
    references = [[line.split()] for line in read_lines(wmt15["ref.ru"])]
    weights = (1 / orders,) * orders
    status, out, _ = run_main(
        capsys, wmt15["google.ru"], wmt15["ref.ru"], "--weights", ",".join(map(str, weights)), "--json"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert (status, json.loads(out)["bleu"]) == (0, nltk_corpus_bleu(references, hypotheses, weights=weights))


def test_standard_input_can_be_read_once(capsys, wmt15):
    with pytest.raises(SystemExit) as exit_info:
        main(["-", "-"])
    assert exit_info.value.code == 2 and "standard input (-) can be read once" in capsys.readouterr().err


@pytest.mark.parametrize("written, jobs", [(" 2", 2), ("02", 2), ("3 ", 3)])
def test_a_count_reads_as_the_user_means_it(written, jobs):
    assert parse(["h", "r", "--jobs", written]).jobs == jobs


@pytest.mark.parametrize("command, prog", [(main, "bleu-scratch"), (compare.main, "bleu-scratch-compare")])
def test_version_in_process(capsys, command, prog):
    with pytest.raises(SystemExit) as stopped:
        command(["--version"])
    assert (stopped.value.code, capsys.readouterr().out) == (0, f"{prog} {bleu_scratch.__version__}\n")
