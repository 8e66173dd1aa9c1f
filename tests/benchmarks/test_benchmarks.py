"""The benchmark scripts still run, on inputs small enough for the suite.

Each script checks, before it times anything, that bleu_scratch's scores equal
NLTK's (and sacrebleu's counts ours); run small here, those checks are what is
tested. The times they print are not looked at: the suite asserts no duration.
"""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=BENCHMARKS.parent,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_corpus_benchmark_checks_and_prints_its_table():
    out = run("bench_corpus_bleu.py", "--segments", "300", "--references", "1", "2", "--repeats", "1", "--no-memory")
    assert "| 2 | NLTK | tokens |" in out and "| 1 | bleu_scratch | tokens |" in out, out


def test_corpus_benchmark_on_wmt17_systems_checks_each_against_nltk_and_sacrebleu():
    out = run("bench_corpus_bleu.py", "--wmt17", "--systems", "2", "--repeats", "1", "--no-memory")
    assert "1 reference(s), 2 corpora; the last: bleu_scratch == NLTK == " in out, out
    assert "| 1 | bleu_scratch from text | text |" in out, out


def test_sentence_benchmark_checks_and_prints_its_table():
    out = run("bench_sentence_bleu.py", "--pairs", "200", "--references", "1", "3", "--repeats", "1")
    assert "| 3 | bleu_scratch batch_sentence_bleu, ids | ids |" in out, out


def test_significance_benchmark_checks_and_prints_its_table():
    # Lesson 11's paired_test against sacrebleu's PairedTest, both tests, on 3 WMT17 systems x 300 segments.
    out = run(
        "bench_significance.py",
        "--systems",
        "3",
        "--segments",
        "300",
        "--tests",
        "bs",
        "ar",
        "--repeats",
        "1",
        "--no-memory",
    )
    assert "ar: the same 3 scores, p-values, means and intervals, exactly" in out, out
    assert "| bs | bleu_scratch.paired_test |" in out and "| ar | sacrebleu PairedTest |" in out, out


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="reads /proc (Linux)")
def test_memory_benchmark_runs_the_command(tmp_path):
    out = run("cli_memory.py", "--segments", "3000", "--jobs", "0", "--dir", str(tmp_path), "--sacrebleu")
    assert "(one process): BLEU = " in out and "| (one process) | 1 |" in out, out
    assert "| sacrebleu -tok none | 1 |" in out, out


def test_rewards_benchmark_checks_and_prints_its_table():
    # TensorBLEU's workload, quick grid: 256 tokens, batches 16 and 32, 1 and 4 references.
    out = run("bench_rewards.py", "--quick")
    assert "Equal to NLTK: batch_sentence_bleu" in out and "(4 cells, 96 pairs)" in out, out
    assert "| 256 | 1 | 16 |" in out and "| 256 | 4 | 32 |" in out, out
    assert "TensorBLEU T4 GPU, published" in out and "load average" in out, out
    # Beside it, TensorBLEU's T4 speedup for 256 tokens and 32 pairs as published (Table 1: 3.8x); no A100 cell.
    row = next(line for line in out.splitlines() if line.startswith("| 256 | 1 | 32 |"))
    assert row.endswith("| 3.8 | - |"), row
    assert "2-D arrays left out" in out or "(lists of ints and 2-D arrays)" in out, out
