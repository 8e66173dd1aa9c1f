"""Score the 16 WMT17 English-German systems with BLEU's relatives, for lesson 12.

Lesson 12 compares BLEU with NIST, chrF, chrF++, TER, WER, GLEU and METEOR on
the 16 system outputs in ``data/wmt17-en-de-systems/``. Scoring 16 systems of
3,004 segments with all of them takes minutes (sacrebleu's TER alone takes
several seconds a system), far more than a notebook may, so this script
computes them once and writes ``data/wmt17-en-de-systems/relatives-scores.json``;
the notebook reads that file, recomputes BLEU for every system and chrF and
TER for some systems in front of the reader, and asserts that they equal the
file. ``tests/lessons/test_wmt17_relatives.py`` recomputes one system with
this script's ``scores_of_system``.

    .venv/bin/python tools/wmt17_relatives.py                 # every system, writes the file
    .venv/bin/python tools/wmt17_relatives.py --jobs 2        # on two processes
    .venv/bin/python tools/wmt17_relatives.py --check xmu.4910 # recompute one system, compare with the file

How each relative is computed (the file records the same under "settings"):

- chrF: sacrebleu's ``CHRF()`` (character 6-grams, beta 2, its default
  averaging) and ``CHRF(eps_smoothing=True)``, chrF++.py's averaging (the mean
  of the six F-scores), which the published figures were made with;
- chrF++: sacrebleu's ``CHRF(word_order=2)``;
- NLTK chrF: ``nltk.translate.chrf_score.corpus_chrf(references, hypotheses,
  beta=2)``, a mean of sentence scores (NLTK's default beta is 3);
- TER: sacrebleu's ``TER()`` (tercom's defaults: case-insensitive, no
  normalization), 0-100;
- WER: ``bleu_scratch.corpus_word_error_rate`` on the lowercased words split
  at whitespace, the tokens TER uses, so that WER is TER without shifts;
- NIST: ``nltk.translate.nist_score.corpus_nist`` (n = 5) on 13a tokens;
- GLEU: ``nltk.translate.gleu_score.corpus_gleu`` (n = 1 to 4) on 13a tokens;
- METEOR: the mean over segments of NLTK's ``meteor_score`` on 13a tokens,
  with NLTK's German Snowball stemmer and no synonyms
  (``bleu_scratch.WordNetStandIn()``): WordNet is English, and its data is
  never downloaded here;
- NLTK LEPOR: the mean over segments of NLTK's ``sentence_lepor`` on 13a
  tokens, as NLTK implements it (lesson 12 shows where that differs from the
  paper).
"""

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from importlib.metadata import version

from nltk.stem.snowball import SnowballStemmer
from nltk.translate.chrf_score import corpus_chrf
from nltk.translate.gleu_score import corpus_gleu
from nltk.translate.lepor import sentence_lepor
from nltk.translate.meteor_score import meteor_score
from nltk.translate.nist_score import corpus_nist
from sacrebleu.metrics import CHRF, TER

from bleu_scratch import WordNetStandIn, tokenize_13a
from bleu_scratch.lesson13_relatives import corpus_word_error_rate
from bleu_scratch.notebook import data_dir, read_lines

FOLDER = data_dir() / "wmt17-en-de-systems"
OUTPUT = FOLDER / "relatives-scores.json"

SETTINGS = {
    "chrF": "sacrebleu CHRF() on the text: character 6-grams, beta 2, precision and recall averaged over the orders",
    "chrF (chrF++.py averaging)": (
        "sacrebleu CHRF(eps_smoothing=True) on the text: the mean of the six F-scores, as chrF++.py -nw 0"
    ),
    "chrF++": "sacrebleu CHRF(word_order=2) on the text: character 6-grams and word 1- and 2-grams, beta 2",
    "NLTK chrF": "nltk corpus_chrf(references, hypotheses, beta=2) on the text: the mean of sentence scores",
    "TER": "sacrebleu TER() on the text (case-insensitive, no normalization), 0-100",
    "WER": "bleu_scratch.lesson13_relatives.corpus_word_error_rate on line.lower().split(), TER's tokens; 0-1",
    "NIST": "nltk corpus_nist(list_of_references, hypotheses, n=5) on 13a tokens",
    "GLEU": "nltk corpus_gleu(list_of_references, hypotheses) on 13a tokens (n-grams of 1 to 4 words)",
    "METEOR": "mean over segments of nltk meteor_score([reference], hypothesis, stemmer=SnowballStemmer('german'), "
    "wordnet=bleu_scratch.WordNetStandIn()) on 13a tokens: exact and stem stages only",
    "NLTK LEPOR": "mean over segments of nltk sentence_lepor([reference], hypothesis, tokenizer=tokenize_13a) "
    "(alpha = beta = 1), as NLTK 3.10.4 implements it: its length penalty is above 1 for any length difference",
}


@dataclass
class System:
    """One system's output and the reference, as text and as the tokens the relatives read."""

    references: list[str]
    hypotheses: list[str]

    @cached_property
    def ref_13a(self) -> list[list[list[str]]]:
        return [[tokenize_13a(line)] for line in self.references]

    @cached_property
    def hyp_13a(self) -> list[list[str]]:
        return [tokenize_13a(line) for line in self.hypotheses]


def meteor(system: System) -> float:
    german, no_synonyms = SnowballStemmer("german"), WordNetStandIn()
    scores = [
        meteor_score(refs, hyp, stemmer=german, wordnet=no_synonyms)
        for refs, hyp in zip(system.ref_13a, system.hyp_13a)
    ]
    return sum(scores) / len(scores)


def nltk_lepor(system: System) -> float:
    scores = [
        sentence_lepor([ref], hyp, tokenizer=tokenize_13a)[0] for ref, hyp in zip(system.references, system.hypotheses)
    ]
    return sum(scores) / len(scores)


SCORERS: dict[str, Callable[[System], float]] = {
    "chrF": lambda system: CHRF().corpus_score(system.hypotheses, [system.references]).score,
    "chrF (chrF++.py averaging)": lambda system: (
        CHRF(eps_smoothing=True).corpus_score(system.hypotheses, [system.references]).score
    ),
    "chrF++": lambda system: CHRF(word_order=2).corpus_score(system.hypotheses, [system.references]).score,
    "NLTK chrF": lambda system: corpus_chrf(system.references, system.hypotheses, beta=2),
    "TER": lambda system: TER().corpus_score(system.hypotheses, [system.references]).score,
    "WER": lambda system: corpus_word_error_rate(
        [[line.lower().split()] for line in system.references], [line.lower().split() for line in system.hypotheses]
    ),
    "NIST": lambda system: corpus_nist(system.ref_13a, system.hyp_13a, n=5),
    "GLEU": lambda system: corpus_gleu(system.ref_13a, system.hyp_13a),
    "METEOR": meteor,
    "NLTK LEPOR": nltk_lepor,
}


def system_names() -> list[str]:
    """The 16 systems, named as in published-figures.json (newstest2017.NAME.en-de)."""
    return sorted(
        path.name.removeprefix("newstest2017.").removesuffix(".en-de") for path in (FOLDER / "systems").iterdir()
    )


def scores_of_system(name: str, metrics: Sequence[str] = tuple(SCORERS)) -> dict[str, float]:
    """The corpus scores of one system, computed as SETTINGS says, for the relatives named in ``metrics``."""
    system = System(
        read_lines(FOLDER / "newstest2017.ref.de"), read_lines(FOLDER / "systems" / f"newstest2017.{name}.en-de")
    )
    return {metric: SCORERS[metric](system) for metric in metrics}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="processes to score systems on (default 1)")
    parser.add_argument(
        "--check", nargs="+", metavar="SYSTEM", help="recompute these systems and compare with the file"
    )
    args = parser.parse_args(argv)
    if args.check:
        stored = json.loads(OUTPUT.read_text(encoding="utf-8"))["scores"]
        differ = [name for name in args.check if scores_of_system(name) != stored[name]]
        print(
            f"{len(args.check) - len(differ)} of {len(args.check)} systems as stored"
            + (f"; differ: {differ}" if differ else "")
        )
        return 1 if differ else 0
    names = system_names()
    with ProcessPoolExecutor(args.jobs) as pool:
        scores = dict(zip(names, pool.map(scores_of_system, names)))
    record = {
        "about": "BLEU's relatives on the 16 WMT17 newstest2017 English-German systems in systems/, against "
        "newstest2017.ref.de (one reference), made by tools/wmt17_relatives.py for lesson 12. Derived data: "
        "recompute it with that script.",
        "versions": {"sacrebleu": version("sacrebleu"), "nltk": version("nltk"), "python": sys.version.split()[0]},
        "settings": SETTINGS,
        "scores": scores,
    }
    OUTPUT.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(FOLDER.parent.parent)}: {len(scores)} systems")
    return 0


if __name__ == "__main__":
    sys.exit(main())
