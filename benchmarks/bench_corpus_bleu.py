"""Time corpus BLEU: bleu_scratch against NLTK 3.10.4 and sacrebleu 2.6.0, in one process.

    python benchmarks/bench_corpus_bleu.py                 # 100,000 segments, 1 and 4 references
    python benchmarks/bench_corpus_bleu.py --segments 10000 --repeats 5
    python benchmarks/bench_corpus_bleu.py --wmt17         # the 16 WMT17 en-de systems of data/, each a corpus

The corpus is bleu_scratch.synthetic_corpus (seeded, Zipfian words,
segments of about 25 tokens), or with --wmt17 the 16 WMT17 English-German
systems of data/wmt17-en-de-systems (3,004 segments each, one reference),
all 16 scored in each timed call. NLTK's corpus_bleu takes tokens and sacrebleu's
takes lines of text, so bleu_scratch is timed both ways:

- "tokens": bleu_scratch.fast_corpus_bleu and NLTK's on the same token lists;
- "text": sacrebleu.corpus_bleu(tokenize="none") on the lines, and
  bleu_scratch.fast_corpus_bleu on the same lines split on whitespace inside the
  timed call, as sacrebleu splits them. Compare sacrebleu with this row.

Each repeat runs every implementation once, in an order rotated by one place
per repeat (benchmarks/timing.py). The table gives the median time with the
range over the repeats, and the ratios of medians. Before timing, the script
checks that the results agree:

- bleu_scratch.fast_corpus_bleu == nltk corpus_bleu, exactly, from tokens and from text;
- sacrebleu's n-gram counts, totals and lengths equal bleu_scratch's
  statistics, and its score equals bleu_scratch.lesson09_sacrebleu.sacrebleu_from_stats of
  them. sacrebleu's score is not 100 x NLTK's: NLTK counts a segment shorter
  than n as having one n-gram of order n (the denominator is at least 1), and
  sacrebleu smooths with 'exp' by default; the script prints both.

The memory column is tracemalloc's peak: the Python objects allocated during
one call (the corpus, built before, is not counted), not the process's RSS.
It is measured in separate untimed runs, because tracing slows Python down.
Timings include bleu_scratch's input checks.
"""

import argparse
import platform
import sys
import tracemalloc
from pathlib import Path

import nltk
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from timing import time_calls

import bleu_scratch
from bleu_scratch import batch_corpus_stats, sacrebleu_from_stats, synthetic_corpus

WMT17 = Path(__file__).resolve().parent.parent / "data" / "wmt17-en-de-systems"


def wmt17(systems: int) -> list[tuple[list, list]]:
    """The first WMT17 systems as (list_of_references, hypotheses), split on whitespace, newstest2017 the reference."""
    reference = [[line.split()] for line in (WMT17 / "newstest2017.ref.de").read_text(encoding="utf-8").splitlines()]
    paths = sorted((WMT17 / "systems").iterdir())[:systems]
    return [(reference, [line.split() for line in path.read_text(encoding="utf-8").splitlines()]) for path in paths]


def all_of(corpora: list[tuple[list, list]]) -> dict:
    """name -> (input, a call scoring every corpus in turn), from each corpus's implementations."""
    each = [implementations(*corpus) for corpus in corpora]
    return {
        name: (given, lambda name=name: [calls[name][1]() for calls in each]) for name, (given, _) in each[0].items()
    }


def implementations(list_of_references, hypotheses) -> dict:
    """name -> (the input it takes, a call with no arguments that scores the corpus)."""
    hypothesis_lines = [" ".join(hypothesis) for hypothesis in hypotheses]
    # sacrebleu takes one stream of lines per reference position.
    reference_streams = [[" ".join(refs[k]) for refs in list_of_references] for k in range(len(list_of_references[0]))]
    reference_lines = list(zip(*reference_streams))  # one tuple of lines per segment

    def bleu_scratch_from_text():
        # Split as sacrebleu's tokenize="none" does, inside the timed call.
        return bleu_scratch.fast_corpus_bleu(
            [[line.split() for line in lines] for lines in reference_lines], [line.split() for line in hypothesis_lines]
        )

    return {
        "bleu_scratch": ("tokens", lambda: bleu_scratch.fast_corpus_bleu(list_of_references, hypotheses)),
        "NLTK": ("tokens", lambda: nltk_corpus_bleu(list_of_references, hypotheses)),
        "bleu_scratch from text": ("text", bleu_scratch_from_text),
        "sacrebleu": ("text", lambda: sacrebleu.corpus_bleu(hypothesis_lines, reference_streams, tokenize="none")),
    }


def check_agreement(list_of_references, hypotheses, results: dict) -> str:
    """Assert the results agree as they should; describe the comparison."""
    ours, theirs, sacre = results["bleu_scratch"], results["NLTK"], results["sacrebleu"]
    assert ours == theirs, f"bleu_scratch {ours!r} != NLTK {theirs!r}"
    assert results["bleu_scratch from text"] == ours, "splitting the lines did not give the same tokens"
    stats = batch_corpus_stats(list_of_references, hypotheses)
    assert (sacre.counts, sacre.totals) == (list(stats.matches), list(stats.totals))
    assert (sacre.sys_len, sacre.ref_len) == (stats.hyp_len, stats.ref_len)
    assert sacre.score == sacrebleu_from_stats(stats)
    return (
        f"bleu_scratch == NLTK == {ours!r}; sacrebleu {sacre.score:.4f} vs 100 x NLTK {100 * ours:.4f} "
        f"(same counts; NLTK adds {sum(stats.too_short)} one-n-gram denominators for short segments)"
    )


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
    parser.add_argument("--wmt17", action="store_true", help="the 16 WMT17 systems of data/ instead of synthetic text")
    parser.add_argument("--systems", type=int, default=16, help="with --wmt17, the first this many systems")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()}, NLTK {nltk.__version__}, sacrebleu {sacrebleu.__version__}, "
        f"{f'{args.systems} WMT17 systems' if args.wmt17 else f'{args.segments:,} segments'}, "
        f"median of {args.repeats} repeats",
        flush=True,
    )
    rows = []
    for references in [1] if args.wmt17 else args.references:
        corpora = wmt17(args.systems) if args.wmt17 else [synthetic_corpus(args.segments, references, seed=args.seed)]
        implemented = all_of(corpora)
        calls = {name: call for name, (_, call) in implemented.items()}
        times, results = time_calls(calls, args.repeats)
        for i, corpus in enumerate(corpora):
            agreed = check_agreement(*corpus, {name: result[i] for name, result in results.items()})
        print(f"{references} reference(s), {len(corpora)} corpora; the last: {agreed}", flush=True)
        memory = {name: None if args.no_memory else peak_memory(call) for name, call in calls.items()}
        for name, (given, _) in implemented.items():
            ratios = times["NLTK"].median / times[name].median, times["sacrebleu"].median / times[name].median
            rows.append((references, name, given, times[name], *ratios, memory[name]))

    print(
        "\n| references | implementation | input | time (s): median (min-max) "
        "| NLTK time / this | sacrebleu time / this "
        "| tracemalloc peak (kB, Python allocations) |"
    )
    print("|---|---|---|---|---|---|---|")
    for references, name, given, timing, vs_nltk, vs_sacre, memory in rows:
        kilobytes = "-" if memory is None else f"{memory / 1e3:,.0f}"
        print(f"| {references} | {name} | {given} | {timing.cell()} | {vs_nltk:.2f} | {vs_sacre:.2f} | {kilobytes} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
