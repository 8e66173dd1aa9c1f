"""Time corpus BLEU: bleu_scratch against NLTK 3.10.4 and sacrebleu 2.6.0, in one process.

    python benchmarks/bench_corpus_bleu.py                 # 100,000 segments, 1 and 4 references
    python benchmarks/bench_corpus_bleu.py --segments 10000 --repeats 5

The corpus is bleu_scratch.parallel.synthetic_corpus (seeded, Zipfian words,
segments of about 25 tokens). Each repeat runs the three implementations one
after the other (so a busy machine slows all three alike) and the table gives
the median. Before timing, the script checks that the results agree:

- bleu_scratch.corpus_bleu == nltk corpus_bleu, exactly;
- sacrebleu's n-gram counts, totals and lengths equal bleu_scratch's
  statistics, and its score equals bleu_scratch.sacre.sacrebleu_from_stats of
  them. sacrebleu's score is not 100 x NLTK's: NLTK counts a segment shorter
  than n as having one n-gram of order n (the denominator is at least 1), and
  sacrebleu smooths with 'exp' by default; the script prints both.

Peak memory is what tracemalloc sees allocated during one call (the corpus,
built before, is not counted), measured in separate untimed runs because
tracing slows Python down. Timings include bleu_scratch's input checks, and
sacrebleu's splitting of the lines into tokens (its input is text; the others
take tokens).
"""

import argparse
import platform
import statistics
import sys
import time
import tracemalloc

import nltk
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

import bleu_scratch
from bleu_scratch.fast import fast_corpus_stats
from bleu_scratch.parallel import synthetic_corpus
from bleu_scratch.sacre import sacrebleu_from_stats


def implementations(list_of_references, hypotheses) -> dict:
    """name -> a call with no arguments that scores the corpus."""
    hypothesis_lines = [" ".join(hypothesis) for hypothesis in hypotheses]
    # sacrebleu takes one stream of lines per reference position.
    reference_streams = [[" ".join(refs[k]) for refs in list_of_references] for k in range(len(list_of_references[0]))]
    return {
        "bleu_scratch": lambda: bleu_scratch.corpus_bleu(list_of_references, hypotheses),
        "NLTK": lambda: nltk_corpus_bleu(list_of_references, hypotheses),
        "sacrebleu": lambda: sacrebleu.corpus_bleu(hypothesis_lines, reference_streams, tokenize="none"),
    }


def check_agreement(list_of_references, hypotheses, results: dict) -> str:
    """Assert the three results agree as they should; describe the comparison."""
    ours, theirs, sacre = results["bleu_scratch"], results["NLTK"], results["sacrebleu"]
    assert ours == theirs, f"bleu_scratch {ours!r} != NLTK {theirs!r}"
    stats = fast_corpus_stats(list_of_references, hypotheses)
    assert (sacre.counts, sacre.totals) == (list(stats.matches), list(stats.totals))
    assert (sacre.sys_len, sacre.ref_len) == (stats.hyp_len, stats.ref_len)
    assert sacre.score == sacrebleu_from_stats(stats)
    return (
        f"bleu_scratch == NLTK == {ours!r}; sacrebleu {sacre.score:.4f} vs 100 x NLTK {100 * ours:.4f} "
        f"(same counts; NLTK adds {sum(stats.too_short)} one-n-gram denominators for short segments)"
    )


def median_times(calls: dict, repeats: int) -> tuple[dict, dict]:
    """The median time of each call, and what each returned."""
    times, results = {name: [] for name in calls}, {}
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.perf_counter()
            results[name] = call()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}, results


def peak_memory(call) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--references", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-memory", action="store_true", help="skip the (slow) tracemalloc runs")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()}, NLTK {nltk.__version__}, sacrebleu {sacrebleu.__version__}, "
        f"{args.segments:,} segments, median of {args.repeats} repeats",
        flush=True,
    )
    rows = []
    for references in args.references:
        list_of_references, hypotheses = synthetic_corpus(args.segments, references, seed=args.seed)
        calls = implementations(list_of_references, hypotheses)
        times, results = median_times(calls, args.repeats)
        print(f"{references} reference(s): " + check_agreement(list_of_references, hypotheses, results), flush=True)
        memory = {name: None if args.no_memory else peak_memory(call) for name, call in calls.items()}
        for name in calls:
            rows.append((references, name, times[name], times["NLTK"] / times[name], times["sacrebleu"] / times[name], memory[name]))

    print("\n| references | implementation | median time (s) | NLTK time / this | sacrebleu time / this | peak memory (kB) |")
    print("|---|---|---|---|---|---|")
    for references, name, seconds, vs_nltk, vs_sacre, memory in rows:
        kilobytes = "-" if memory is None else f"{memory / 1e3:,.0f}"
        print(f"| {references} | {name} | {seconds:.2f} | {vs_nltk:.2f} | {vs_sacre:.2f} | {kilobytes} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
