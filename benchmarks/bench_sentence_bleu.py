"""Time sentence BLEU: bleu_scratch's fast paths against a loop of NLTK's (and sacrebleu's), in one process.

    python benchmarks/bench_sentence_bleu.py                  # 20,000 pairs, 1 and 4 references
    python benchmarks/bench_sentence_bleu.py --pairs 5000 --repeats 5

The pairs are bleu_scratch.synthetic_corpus (seeded, Zipfian words, about 25
tokens a segment), as words and as integer token ids. Timed, each scoring
every pair:

- NLTK's sentence_bleu in a loop (words, and token ids);
- sacrebleu's sentence_bleu in a loop on the joined words (its score differs:
  it smooths and uses the effective order; it is here for its speed);
- bleu_scratch.batch_sentence_bleu, the whole list at once (words, and ids).

Before timing, the script checks that bleu_scratch's scores equal NLTK's,
exactly, in each form. Timings include bleu_scratch's input checks; warnings
are silenced for every implementation alike.

The compiled-speed bound: benchmarks/ngram_bound.c counts the same statistics
(clipped matches, totals, closest reference lengths) of the token ids in C,
built here with the system's C compiler (cc -O2). The script checks its sums
against bleu_scratch's and prints how far bleu_scratch's fastest counting (the
batch's, ``chunked_counts``: numbering the ids, then ``batch_counts`` in groups of
about one length) still is from it. Without a C compiler that row is left out.
"""

import argparse
import platform
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import nltk
import sacrebleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from timing import time_calls

from bleu_scratch import batch_corpus_stats, batch_sentence_bleu, synthetic_corpus
from bleu_scratch.lesson10_batch import chunked_counts

BOUND_SOURCE = Path(__file__).with_name("ngram_bound.c")


def as_ids(list_of_references: list, hypotheses: list) -> tuple[list, list]:
    """The corpus with each word replaced by its integer id."""
    ids: dict = {}
    number = lambda tokens: [ids.setdefault(token, len(ids)) for token in tokens]  # noqa: E731
    return [[number(r) for r in refs] for refs in list_of_references], [number(h) for h in hypotheses]


def implementations(list_of_references: list, hypotheses: list, id_references: list, id_hypotheses: list) -> dict:
    """name -> (input, a call with no arguments that scores every pair)."""
    pairs, id_pairs = list(zip(list_of_references, hypotheses)), list(zip(id_references, id_hypotheses))
    lines = [(" ".join(h), [" ".join(r) for r in refs]) for refs, h in pairs]
    return {
        "NLTK sentence_bleu, a loop": ("words", lambda: [nltk_sentence_bleu(r, h) for r, h in pairs]),
        "NLTK sentence_bleu, a loop, ids": ("ids", lambda: [nltk_sentence_bleu(r, h) for r, h in id_pairs]),
        "sacrebleu sentence_bleu, a loop": ("text", lambda: [sacrebleu.sentence_bleu(h, r).score for h, r in lines]),
        "bleu_scratch batch_sentence_bleu": ("words", lambda: batch_sentence_bleu(list_of_references, hypotheses)),
        "bleu_scratch batch_sentence_bleu, ids": ("ids", lambda: batch_sentence_bleu(id_references, id_hypotheses)),
    }


def compiled_bound(id_references: list, id_hypotheses: list, repeats: int) -> tuple[float, float] | None:
    """Seconds for the C program and for bleu_scratch's batch counting of the same token ids; None
    without a compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        program, corpus = Path(folder, "ngram_bound"), Path(folder, "corpus.bin")
        subprocess.run([compiler, "-O2", "-o", str(program), str(BOUND_SOURCE)], check=True)
        with open(corpus, "wb") as out:
            for references, hypothesis in zip(id_references, id_hypotheses):
                out.write(struct.pack(f"<i{len(hypothesis)}i", len(hypothesis), *hypothesis))
                out.write(struct.pack("<i", len(references)))
                for reference in references:
                    out.write(struct.pack(f"<i{len(reference)}i", len(reference), *reference))
        printed = subprocess.run(
            [str(program), str(corpus), "4", str(repeats)], capture_output=True, text=True, check=True
        )
    sums, seconds = printed.stdout.split("\n")[:2]
    stats = batch_corpus_stats(id_references, id_hypotheses)
    expected = [stats.hyp_len, stats.ref_len, *(x for pair in zip(stats.matches, stats.totals) for x in pair)]
    assert [int(x) for x in sums.split()] == expected, "the C program counts other statistics"
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        chunked_counts(id_references, id_hypotheses, 4)
        best = min(best, time.perf_counter() - start)
    return float(seconds), best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--references", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # NLTK's and ours alike: a warning per zero order costs the same in both
    print(
        f"Python {platform.python_version()}, NLTK {nltk.__version__}, sacrebleu {sacrebleu.__version__}, "
        f"{args.pairs:,} pairs, median of {args.repeats} repeats (range in brackets)",
        flush=True,
    )
    rows, bounds = [], []
    for references in args.references:
        list_of_references, hypotheses = synthetic_corpus(args.pairs, references, seed=args.seed)
        id_references, id_hypotheses = as_ids(list_of_references, hypotheses)
        implemented = implementations(list_of_references, hypotheses, id_references, id_hypotheses)
        times, results = time_calls({name: call for name, (_, call) in implemented.items()}, args.repeats)
        nltk_words, nltk_ids = results["NLTK sentence_bleu, a loop"], results["NLTK sentence_bleu, a loop, ids"]
        assert results["bleu_scratch batch_sentence_bleu"] == nltk_words, "the batch differs from NLTK"
        assert results["bleu_scratch batch_sentence_bleu, ids"] == nltk_ids == nltk_words
        baseline = times["NLTK sentence_bleu, a loop"].median
        for name, (given, _) in implemented.items():
            per_pair = 1e6 * times[name].median / args.pairs
            rows.append((references, name, given, times[name].cell(), per_pair, baseline / times[name].median))
        bound = compiled_bound(id_references, id_hypotheses, args.repeats)
        if bound:
            bounds.append((references, *bound))

    print("\n| references | implementation | input | time (s): median (min-max) | µs a pair | NLTK loop time / this |")
    print("|---|---|---|---|---|---|")
    for references, name, given, cell, per_pair, ratio in rows:
        print(f"| {references} | {name} | {given} | {cell} | {per_pair:.1f} | {ratio:.2f} |")
    if bounds:
        print("\n| references | C program, best (s) | bleu_scratch batch counting, best (s) | bleu_scratch / C |")
        print("|---|---|---|---|")
        for references, c_seconds, ours in bounds:
            print(f"| {references} | {c_seconds:.3f} | {ours:.3f} | {ours / c_seconds:.1f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
