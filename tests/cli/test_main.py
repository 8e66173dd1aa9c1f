"""The whole pipeline: NLTK's corpus_bleu and sentence_bleu of files, with every option."""

import json

import pytest
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_cli import segments
from bleu_scratch import tokenize_13a
from bleu_scratch.notebook import read_lines
from tests.cli.run_command import WMT15_LINE, run_main, run_module


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


def test_sentence_scores_are_nltk_sentence_bleu(capsys, wmt15):
    hypotheses = [line.split() for line in read_lines(wmt15["google.ru"])]
    references = [line.split() for line in read_lines(wmt15["ref.ru"])]
    method1 = NltkSmoothingFunction().method1
    expected = [nltk_sentence_bleu([r], h, smoothing_function=method1) for r, h in zip(references, hypotheses)]
    status, out, _ = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--sentence", "--json", "--smoothing", "1")
    assert status == 0
    assert [json.loads(line)["bleu"] for line in out.splitlines()] == expected


def test_jobs_give_the_same_output(capsys, wmt15, monkeypatch):
    monkeypatch.setattr(segments, "SHARD_LINES", 7)  # 15 shards over the 2 processes
    assert run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--jobs", "2") == (0, WMT15_LINE + "\n", "")
