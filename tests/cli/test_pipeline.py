"""The whole pipeline: NLTK's corpus_bleu and sentence_bleu of files, with every option, on one process or a Dask
cluster."""

import gc
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import replace
from importlib.metadata import version
from pathlib import Path

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
    monkeypatch.setattr(pipeline, "workers_read", lambda client, paths: False)
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


def test_a_workers_address_given_as_the_scheduler_is_one_line(capsys, wmt15, dask_client):
    worker = next(iter(dask_client.scheduler_info()["workers"]))
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--scheduler", worker)
    # The Client the command began lies half built; collected later, in another test's watch, its close would
    # take that watch's signal (a command's process ends here).
    gc.collect()
    assert (status, out) == (2, "")
    assert err == (
        f"bleu-scratch: error: cannot reach the Dask scheduler at {worker}: it answers, but not as this Dask's "
        "scheduler: a worker's address, not the scheduler's; start one with `dask scheduler` and "
        "`dask worker ADDRESS`\n"
    )


@pytest.mark.parametrize("seen", ["other bytes", "no file"])
def test_a_worker_that_sees_other_files_stops_the_run_in_one_line(
    capsys, wmt15, monkeypatch, tmp_path, dask_client, seen
):
    # A worker sees the second slice of the hypothesis file as another copy (other bytes), or sees no file there.
    monkeypatch.setattr(inputs, "SHARD_LINES", 30)
    real = pipeline.with_digests

    def as_another_worker_sees_them(slices):
        slices = list(real(slices))
        piece = slices[1]
        if seen == "other bytes":
            changed = replace(piece, digests=("0" * 32, *piece.digests[1:]))
        else:
            changed = replace(piece, paths=(str(tmp_path / "missing.ru"), *piece.paths[1:]))
        return [slices[0], changed, *slices[2:]]

    monkeypatch.setattr(pipeline, "with_digests", as_another_worker_sees_them)
    status, out, err = run_main(
        capsys, wmt15["google.ru"], wmt15["ref.ru"], "--scheduler", dask_client.scheduler.address
    )
    assert (status, out) == (2, "")
    hypothesis = wmt15["google.ru"]
    expected = {
        "other bytes": f"a worker read other bytes in {hypothesis}, lines 31 to 60, than this command did: another "
        "copy of the file, or it changed while it was scored, so there is no score; give every worker the same files",
        "no file": f"a worker cannot read {hypothesis} (No such file or directory), which this command read at the "
        "same path: give every worker the files, or none (then the command sends the lines)",
    }
    assert err == f"bleu-scratch: error: {expected[seen]}\n"


# A worker's site, as Python reads it at start: this bleu-scratch not installed there, or an older one.
WORKER_SITE = """
import importlib.metadata

real = importlib.metadata.version


def version(name):
    if name != "bleu-scratch":
        return real(name)
    if {older!r}:
        return "0.2.0"
    raise importlib.metadata.PackageNotFoundError(name)


importlib.metadata.version = version
"""


@pytest.fixture
def scheduler_of_one_worker(tmp_path):
    """Start a real Dask scheduler and one worker whose site is ``WORKER_SITE``; give the scheduler's address."""
    started = []

    def start(older: bool) -> str:
        (tmp_path / "sitecustomize.py").write_text(WORKER_SITE.format(older=older), encoding="utf-8")
        dask = str(Path(sys.executable).parent / "dask")
        log = tmp_path / "scheduler.log"
        with log.open("wb") as out:
            started.append(
                subprocess.Popen(
                    [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"], stderr=out
                )
            )
        for _ in range(600):
            found = re.search(r"tcp://127\.0\.0\.1:\d+", log.read_text(errors="replace"))
            if found:
                break
            time.sleep(0.1)
        assert found, log.read_text(errors="replace")
        env = dict(os.environ, PYTHONPATH=str(tmp_path))
        worker = [dask, "worker", found[0], "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard", "--no-nanny"]
        started.append(subprocess.Popen(worker, env=env, stderr=subprocess.DEVNULL, cwd=tmp_path))
        return found[0]

    yield start
    for process in reversed(started):
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.parametrize("older", [False, True])
def test_a_worker_without_this_bleu_scratch_is_one_line(capsys, wmt15, scheduler_of_one_worker, older):
    address = scheduler_of_one_worker(older)
    status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--scheduler", address)
    assert (status, out) == (2, "") and err.count("\n") == 1
    if older:
        assert err == (
            f"bleu-scratch: error: a worker of the Dask scheduler at {address} has bleu-scratch 0.2.0, this command "
            f"{version('bleu-scratch')}: install this version where every worker runs (the workers run the command's "
            "code)\n"
        )
    else:
        assert err.startswith(
            f"bleu-scratch: error: a worker of the Dask scheduler at {address} cannot run the command's code ("
        )
        assert "No package metadata was found for bleu-scratch" in err and err.endswith(
            "install bleu-scratch, the same version, where every worker runs\n"
        )
