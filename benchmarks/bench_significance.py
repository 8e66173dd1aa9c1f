"""Time paired significance tests: bleu_scratch.paired_test against sacrebleu 2.6.0's PairedTest, in one process.

    python benchmarks/bench_significance.py                  # 16 WMT17 systems x 3,004 segments, 1,000 resamples
    python benchmarks/bench_significance.py --tests bs ar --repeats 1
    python benchmarks/bench_significance.py --systems 3 --segments 300 --repeats 1 --no-memory   # a quick check

Both take the same lines (data/wmt17-en-de-systems/, read with
bleu_scratch.notebook.read_lines), the baseline LIUM-NMT.4900 first, and run
with sacrebleu's defaults: tokenize 13a, seed 12345, 1,000 bootstrap resamples
(``--tests ar``: 10,000 randomization trials, with 1,000 resamples for the
intervals, sacrebleu's ``n_ar_confidence=1000``). sacrebleu runs as its command
line does: the references cached in the metric, built inside the timed call
(``paired_test`` tokenizes them inside too), one process (``n_jobs=1``).

Each repeat runs both once, in an order rotated by one place per repeat, after
a garbage collection (``timing.time_calls``); the table gives the median and
the range. Before the table, the script checks that both give the same scores,
p-values, means and interval widths, exactly.

Memory: tracemalloc's peak during one call (Python's and numpy's allocations;
the lines, read before, are not counted), measured in separate untimed runs;
and, with ``--rss``, the peak resident set size (Linux's VmHWM, else
``ru_maxrss``) of a fresh process that reads the data and runs one call,
beside that of a process that only reads the data.
"""

import argparse
import os
import platform
import resource
import subprocess
import sys
from pathlib import Path

import numpy
import sacrebleu
from bench_corpus_bleu import peak_memory
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest
from timing import time_calls

from bleu_scratch import paired_test
from bleu_scratch.notebook import data_dir, read_lines

FOLDER = data_dir() / "wmt17-en-de-systems"
BASELINE = "LIUM-NMT.4900"
SAMPLES = {"bs": 1000, "ar": 10000}


def wmt17(n_systems: int = 16, n_segments: int = 3004) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """The first ``n_systems`` systems as (name, lines), the baseline first, and the reference lines, cut to
    ``n_segments``."""
    names = sorted(
        path.name.removeprefix("newstest2017.").removesuffix(".en-de") for path in (FOLDER / "systems").iterdir()
    )
    names = [BASELINE, *(name for name in names if name != BASELINE)][:n_systems]
    systems = [(name, read_lines(FOLDER / "systems" / f"newstest2017.{name}.en-de")[:n_segments]) for name in names]
    return systems, read_lines(FOLDER / "newstest2017.ref.de")[:n_segments]


def implementations(systems, reference, test_type: str) -> dict:
    """name -> a call with no arguments that runs the test and returns (name, score, p, mean, ci) rows."""

    def ours():
        results = paired_test(systems, [reference], test_type, SAMPLES[test_type])
        return [(r.name, r.score, r.p_value, r.mean, r.half_width) for r in results]

    def theirs():
        os.environ["SACREBLEU_SEED"] = "12345"
        metrics = {"BLEU": BLEU(references=[reference])}
        _, results = PairedTest(
            systems,
            metrics,
            references=None,
            test_type=test_type,
            n_samples=SAMPLES[test_type],
            n_ar_confidence=1000 if test_type == "ar" else -1,
        )()
        return [(name, r.score, r.p_value, r.mean, r.ci) for name, r in zip(results["System"], results["BLEU"])]

    return {"bleu_scratch.paired_test": ours, "sacrebleu PairedTest": theirs}


def max_rss_kb(test_type: str, name: str | None) -> int:
    """The peak RSS (kB) of a fresh process that reads the data and runs ``name`` once (None: only reads)."""
    argv = [sys.executable, __file__, "--child", test_type, *([name] if name else [])]
    return int(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)


def child(test_type: str, name: str | None) -> None:
    systems, reference = wmt17()
    if name:
        implementations(systems, reference, test_type)[name]()
    # Linux's VmHWM is this program's own peak; ru_maxrss keeps the parent's peak from before exec.
    status = Path("/proc/self/status")
    peaks = (
        [line.split()[1] for line in status.read_text().splitlines() if line.startswith("VmHWM:")]
        if status.exists()
        else []
    )
    print(peaks[0] if peaks else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", nargs="+", choices=["bs", "ar"], default=["bs"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--systems", type=int, default=16, help="the baseline and the first systems after it (default: all 16)"
    )
    parser.add_argument("--segments", type=int, default=3004, help="the first segments of each (default: all 3,004)")
    parser.add_argument("--no-memory", action="store_true", help="skip the (slow) tracemalloc runs")
    parser.add_argument(
        "--rss", action="store_true", help="also measure each call's peak RSS in a fresh process (all the data)"
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], " ".join(args.child[1:]) or None)
        return

    systems, reference = wmt17(args.systems, args.segments)
    print(
        f"Python {platform.python_version()}, numpy {numpy.__version__}, sacrebleu {sacrebleu.__version__}, "
        f"{len(systems)} systems x {len(reference):,} segments, median of {args.repeats} repeats",
        flush=True,
    )
    rows = []
    for test_type in args.tests:
        calls = implementations(systems, reference, test_type)
        times, results = time_calls(calls, args.repeats)
        ours, theirs = results.values()
        assert ours == theirs, "bleu_scratch and sacrebleu disagree"
        print(f"{test_type}: the same {len(ours)} scores, p-values, means and intervals, exactly", flush=True)
        memory = {name: None if args.no_memory else peak_memory(call) for name, call in calls.items()}
        rss = {name: max_rss_kb(test_type, name) for name in calls} if args.rss else {}
        slowest = times["sacrebleu PairedTest"].median
        for name in calls:
            ratio = slowest / times[name].median
            row = [
                test_type,
                name,
                times[name].cell(),
                f"{ratio:.1f}",
                "-" if memory[name] is None else f"{memory[name] / 2**20:,.0f}",
            ]
            rows.append(row + ([f"{rss[name] / 1024:,.0f}"] if rss else []))
    headers = [
        "test",
        "implementation",
        "time (s): median (min-max)",
        "sacrebleu time / this",
        "tracemalloc peak (MiB)",
    ]
    if args.rss:
        headers.append(f"peak RSS (MiB; reading the data alone: {max_rss_kb(args.tests[0], None) / 1024:,.0f})")
    print()
    print("| " + " | ".join(headers) + " |")
    print("|" + "---|" * len(headers))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
