"""The whole pipeline: NLTK's corpus_bleu and sentence_bleu of files, with every option, on one process or a Dask
cluster."""

import json

import pytest
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_cli import inputs, pipeline
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
    expected = nltk_corpus_bleu(
        references, hypotheses, smoothing_function=getattr(NltkSmoothingFunction(), f"method{method}")
    )
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
    assert (
        json.loads(run_main(capsys, *argv[:-1], "0.5 0.3 0.2", "--lowercase", "--tokenize", "13a", "--json")[1])
        == result
    )


def test_sentence_scores_are_nltk_sentence_bleu(capsys, wmt15):
    hypotheses = [line.split() for line in read_lines(wmt15["google.ru"])]
    references = [line.split() for line in read_lines(wmt15["ref.ru"])]
    method1 = NltkSmoothingFunction().method1
    expected = [nltk_sentence_bleu([r], h, smoothing_function=method1) for r, h in zip(references, hypotheses)]
    status, out, _ = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--sentence", "--json", "--smoothing", "1")
    assert status == 0
    assert [json.loads(line)["bleu"] for line in out.splitlines()] == expected


def test_jobs_give_the_same_output(capsys, wmt15, monkeypatch):
    monkeypatch.setattr(inputs, "SHARD_LINES", 7)  # 15 shards over the 2 processes
    assert run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--jobs", "2") == (0, WMT15_LINE + "\n", "")


def test_sentence_scores_on_a_local_cluster_keep_the_line_order(capsys, wmt15, monkeypatch):
    monkeypatch.setattr(inputs, "SHARD_LINES", 9)
    one_process = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--sentence", "--json")
    assert run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--sentence", "--json", "--jobs", "2") == one_process
    assert one_process[0] == 0 and len(one_process[1].splitlines()) == 100


def spy_on_shards(monkeypatch) -> list:
    """The shards the command hands to the cluster, recorded as they go."""
    handed = []
    real = pipeline.map_in_order

    def recording(client, function, stream, *args, **kwargs):
        def recorded():
            for shard in stream:
                handed.append(shard)
                yield shard

        return real(client, function, recorded(), *args, **kwargs)

    monkeypatch.setattr(pipeline, "map_in_order", recording)
    return handed


def test_an_existing_cluster_reads_its_own_slices_of_the_files(capsys, wmt15, monkeypatch, dask_client):
    monkeypatch.setattr(inputs, "SHARD_LINES", 30)
    handed = spy_on_shards(monkeypatch)
    address = dask_client.scheduler.address
    for mode in ([], ["--sentence", "--json"]):
        expected = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], *mode)
        assert run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], *mode, "--scheduler", address) == expected
    # The workers were given byte ranges of the files, never their lines.
    assert handed and all(isinstance(shard, inputs.FileSlice) for shard in handed)
    assert [shard.first for shard in handed[:4]] == [1, 31, 61, 91]


def test_workers_that_cannot_reach_the_files_get_the_lines(capsys, wmt15, monkeypatch, dask_client):
    handed = spy_on_shards(monkeypatch)
    monkeypatch.setattr(pipeline, "_workers_read", lambda client, paths: False)
    expected = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--json")
    assert (
        run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--json", "--scheduler", dask_client.scheduler.address)
        == expected
    )
    assert handed and all(isinstance(shard, list) for shard in handed)


def test_bad_input_found_by_a_worker_is_the_commands_one_line(capsys, tmp_path, dask_client):
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"the cat\n" * 2500 + "caf\u00e9\n".encode("latin-1"))
    status, out, err = run_main(capsys, str(hyp), str(hyp), "--scheduler", dask_client.scheduler.address)
    assert (status, out) == (2, "")
    assert err == (
        f"bleu-scratch: error: {hyp}, line 2501: not valid UTF-8 (byte 4 of the line is b'\\xe9'); "
        "convert the file to UTF-8, e.g. with iconv\n"
    )


def test_an_unreachable_scheduler_is_an_error_in_the_commands_words(capsys, monkeypatch, wmt15):
    monkeypatch.setattr(pipeline, "SCHEDULER_WAIT", 1)  # Dask retries a refused connection until the wait ends
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--scheduler", "tcp://127.0.0.1:1")
    assert (status, out) == (2, "")
    assert (
        err.startswith("bleu-scratch: error: cannot reach the Dask scheduler at tcp://127.0.0.1:1: ")
        and err.count("\n") == 1
    )
