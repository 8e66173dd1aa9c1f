"""Time sentence BLEU as a training reward (TensorBLEU's workload) against a loop of NLTK's, in one process.

    python benchmarks/bench_rewards.py                  # 256 and 1024 tokens, batches 16-512, 1 and 4 references
    python benchmarks/bench_rewards.py --quick          # a small grid, in seconds
    python benchmarks/bench_rewards.py --lengths 1024 --batches 256 512 --references 1 --repeats 7

The workload is the one TensorBLEU (Filipek 2025, arXiv:2510.05485) times on
a GPU: integer token ids from a vocabulary of 50,000, every sequence of the
same length (256 or 1024 tokens), batches of 16 to 512 pairs. Each reference
is uniformly random ids; each hypothesis is reference 0 with 30% to 50% of its
positions (a fraction drawn for each pair) replaced by random ids. With four
references, references 1-3 are reference 0 altered the same way, so that they
share n-grams with the hypothesis as real references do. (The paper does not
say how its inputs were made, nor how many references they had.) Seeded.

For each cell of the grid, before timing, the script checks that
bleu_scratch.batch_sentence_bleu gives exactly the values (and types) of a loop
of NLTK's sentence_bleu over every pair of the batch. Then, in one process, each
repeat runs once, in an order rotated each repeat (benchmarks/timing.py):

- NLTK's sentence_bleu in a loop, on lists of ints. A loop of NLTK's costs
  the same for every pair of such a batch (about 1-4 ms a pair at these
  lengths), so it is timed on the first pairs of the batch only (--nltk-pairs)
  and scaled to the batch: NLTK's time for a batch of B pairs is B times its
  time per pair, the sample's time over the sample's size;
- batch_sentence_bleu on the same lists of ints;
- batch_sentence_bleu on 2-D integer arrays as a training loop holds them:
  hypotheses (batch, length), references (batch, length) for one reference each
  and (batch, references, length) for more. If the installed bleu_scratch does
  not take arrays, the script says so and leaves these columns out.

The ratio is NLTK's time for the batch over batch_sentence_bleu's, repeat by
repeat: the median with the range in brackets. Beside it are TensorBLEU's
published ratios (benchmarks/tensorbleu_published.json): its GPU against NLTK
on that machine's own CPU, a T4 (with 256 and 1024 tokens) and an A100 (1024
tokens only), where the paper has the cell. Warnings (NLTK's and
bleu_scratch's alike) are silenced while timing.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import warnings
from pathlib import Path

import nltk
import numpy as np
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from timing import of, ratios, time_calls

import bleu_scratch
from bleu_scratch import batch_sentence_bleu

VOCABULARY = 50_000
REPLACED = (0.3, 0.5)  # the least and most of a hypothesis's positions replaced
PUBLISHED = Path(__file__).with_name("tensorbleu_published.json")
FULL = {"lengths": [256, 1024], "batches": [16, 32, 64, 128, 256, 512], "references": [1, 4], "repeats": 5}
QUICK = {"lengths": [256], "batches": [16, 32], "references": [1, 4], "repeats": 1}


def altered(rng: np.random.Generator, sequences: np.ndarray) -> np.ndarray:
    """A copy of each row with 30-50% of its positions (a fraction drawn per row) replaced by random ids."""
    batch, length = sequences.shape
    replaced = np.rint(rng.uniform(*REPLACED, size=batch) * length).astype(np.int64)
    # A position is replaced when its rank in a random order of its row's positions is below the row's count.
    ranks = rng.random((batch, length)).argsort(axis=1).argsort(axis=1)
    return np.where(ranks < replaced[:, None], rng.integers(0, VOCABULARY, (batch, length)), sequences)


def workload(length: int, references: int, batch: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """References (batch, references, length) and hypotheses (batch, length) of token ids, int64."""
    rng = np.random.default_rng([seed, length, references, batch])
    first = rng.integers(0, VOCABULARY, (batch, length))
    others = [altered(rng, first) for _ in range(references - 1)]
    return np.stack([first, *others], axis=1), altered(rng, first)


def as_arrays(reference_array: np.ndarray) -> np.ndarray:
    """The references as a training loop holds them: 2-D with one reference each, else 3-D."""
    return reference_array[:, 0] if reference_array.shape[1] == 1 else reference_array


def array_input_note() -> str | None:
    """None if the installed batch_sentence_bleu scores 2-D arrays as NLTK scores their lists; else why not."""
    reference_array, hypotheses = workload(8, 1, 2, seed=0)
    expected = [nltk_sentence_bleu(r, h) for r, h in zip(reference_array.tolist(), hypotheses.tolist())]
    try:
        got = batch_sentence_bleu(as_arrays(reference_array), hypotheses)
    except Exception as error:  # whatever the installed version raises for an input it does not take
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return None if got == expected else f"it gives {got!r}, NLTK {expected!r}"


def published() -> dict[tuple[str, int, int], float]:
    """(GPU, tokens, batch) -> TensorBLEU's published speedup over NLTK's loop."""
    cells = {}
    for table in json.loads(PUBLISHED.read_text())["tables"]:
        gpu = table["gpu"].split()[1]  # "NVIDIA T4 (16 GB)" -> "T4"
        for tokens, rows in table["cells"].items():
            for batch, _, _, speedup in rows:
                cells[gpu, int(tokens), batch] = speedup
    return cells


def machine() -> str:
    """The CPU's model (from /proc/cpuinfo, on Linux) and its number of cores."""
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.exists() else []
    models = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return f"{models[0] if models else platform.processor() or 'unknown CPU'}, {os.cpu_count()} cores"


def load() -> str:
    """The load average over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def commit() -> str:
    """The checkout's commit, if this runs from a git checkout."""
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True, cwd=PUBLISHED.parent
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def measure(length: int, references: int, batch: int, args: argparse.Namespace, arrays: bool) -> dict:
    """Check one cell's values against NLTK's, then time it; its row of the table."""
    reference_array, hypothesis_array = workload(length, references, batch, args.seed)
    list_of_references, hypotheses = reference_array.tolist(), hypothesis_array.tolist()
    pairs = list(zip(list_of_references, hypotheses))
    expected = [nltk_sentence_bleu(r, h) for r, h in pairs]
    reference_input = np.ascontiguousarray(as_arrays(reference_array))
    calls = {"lists": lambda: batch_sentence_bleu(list_of_references, hypotheses)}
    if arrays:
        calls["arrays"] = lambda: batch_sentence_bleu(reference_input, hypothesis_array)
    for name, call in calls.items():
        got = call()
        assert got == expected and list(map(type, got)) == list(map(type, expected)), f"{name} differs from NLTK"
    sample = pairs[: args.nltk_pairs]
    calls["NLTK"] = lambda: [nltk_sentence_bleu(r, h) for r, h in sample]
    times, _ = time_calls(calls, args.repeats)
    scale = batch / len(sample)
    return {
        "tokens": length,
        "references": references,
        "batch": batch,
        "sample": len(sample),
        "nltk": of([scale * seconds for seconds in times["NLTK"].each]),
        "nltk_pair": times["NLTK"].median / len(sample),
        **{name: times[name] for name in calls if name != "NLTK"},
        **{f"{name} ratio": ratios(times["NLTK"], times[name], scale) for name in calls if name != "NLTK"},
    }


def table(rows: list[dict], arrays: bool) -> list[str]:
    """The Markdown table of the rows, with TensorBLEU's published ratios beside."""
    speedups = published()
    inputs = ["lists", "arrays"] if arrays else ["lists"]
    head = ["tokens", "refs", "batch", "NLTK loop (s, scaled)", "NLTK ms a pair"]
    for given in inputs:
        head += [f"batch_sentence_bleu, {given} (s)", f"ratio, {given}"]
    head += ["TensorBLEU T4 GPU, published", "TensorBLEU A100 GPU, published"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [str(row["tokens"]), str(row["references"]), str(row["batch"]), row["nltk"].cell()]
        cells.append(f"{1e3 * row['nltk_pair']:.2f}")
        for given in inputs:
            cells += [row[given].cell(), row[f"{given} ratio"].cell()]
        for gpu in ["T4", "A100"]:
            speedup = speedups.get((gpu, row["tokens"], row["batch"]))
            cells.append("-" if speedup is None else f"{speedup}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", help=f"tokens a sequence (default {FULL['lengths']})")
    parser.add_argument("--batches", type=int, nargs="+", help=f"pairs a batch (default {FULL['batches']})")
    parser.add_argument("--references", type=int, nargs="+", help=f"references a pair (default {FULL['references']})")
    parser.add_argument("--repeats", type=int, help=f"timed repeats a cell (default {FULL['repeats']})")
    parser.add_argument("--nltk-pairs", type=int, default=64, help="pairs of each batch NLTK's loop is timed on")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help=f"a small grid, in seconds: {QUICK}")
    args = parser.parse_args()
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)

    print(
        f"{machine()}; load average {load()} at the start\n"
        f"Python {platform.python_version()}, numpy {np.__version__}, NLTK {nltk.__version__}, "
        f"bleu_scratch {bleu_scratch.__version__} (commit {commit()}); median of {args.repeats} repeats "
        "(range in brackets)",
        flush=True,
    )
    warnings.simplefilter("ignore")  # NLTK's and ours alike: a warning per zero order costs the same in both
    note = array_input_note()
    if note:
        print(f"2-D arrays left out: this bleu_scratch's batch_sentence_bleu does not take them ({note}).", flush=True)
    rows = []
    for length in args.lengths:
        for references in args.references:
            for batch in args.batches:
                rows.append(measure(length, references, batch, args, arrays=note is None))
                print(f"  measured {length} tokens, {references} reference(s), batch {batch}", flush=True)
    given = "lists of ints and 2-D arrays" if note is None else "lists of ints"
    print(
        f"\nEqual to NLTK: batch_sentence_bleu ({given}) gave exactly NLTK's sentence_bleu values and types "
        f"for every pair of every batch ({len(rows)} cells, {sum(row['batch'] for row in rows):,} pairs).\n"
        f"NLTK's loop is timed on the first {args.nltk_pairs} pairs of each batch (all of a smaller batch) and "
        "scaled to the batch: a pair's cost is the sample's time over its size (NLTK ms a pair).\n"
        "ratio = NLTK's time for the batch / batch_sentence_bleu's, repeat by repeat. Published: TensorBLEU on "
        "the GPU named over NLTK on that machine's CPU (arXiv:2510.05485, Tables 1 and 2; the paper does not say how "
        "many references), beside every row of its length and batch; - where it has no cell.\n"
    )
    print("\n".join(table(rows, arrays=note is None)))
    print(f"\nload average {load()} at the end")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
