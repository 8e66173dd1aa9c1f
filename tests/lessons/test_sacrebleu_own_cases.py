"""sacrebleu 2.6.0's own BLEU test cases, all 57, passed by bleu_scratch.

The cases are sacrebleu's, recorded here as data from mjpost/sacrebleu at tag
v2.6.0: test/test_bleu.py (27 cases) and test/test_sentence_bleu.py (30). Each
keeps its inputs, options, expected value and the tolerance sacrebleu's test
allows. bleu_scratch computes each from its own tokens and statistics
(lesson 09's tokenizers, ``corpus_stats``, ``sacrebleu_from_stats``); the real
sacrebleu runs beside it, so a case recorded wrongly fails too.
"""

from dataclasses import dataclass, field

import pytest
import sacrebleu.compat
from sacrebleu.metrics import BLEU

from bleu_scratch import BleuStats, sacrebleu_from_stats
from bleu_scratch.lesson09_tokenizers import SACREBLEU_TOKENIZERS
from tests.lessons.test_sacrebleu_oracle import our_stats


@dataclass(frozen=True)
class Case:
    """One parametrized case of sacrebleu's tests: a corpus (or statistics), and the checks it asserts.

    ``checks`` holds (options of sacrebleu's ``BLEU``, expected value); ``check`` says how a score meets it:
    'percent' |score - expected| < tolerance, 'fraction' the same on score / 100, 'exact' score / 100 == expected,
    '.2f' the score printed with two decimals, 'statistics' the counts and totals.
    """

    source: str
    hypotheses: tuple[str, ...] = ()
    references: tuple[tuple[str, ...], ...] = ()
    checks: tuple[tuple[dict, object], ...] = ()
    check: str = "fraction"
    tolerance: float = 1e-8
    stats: tuple = field(default=())  # (matches, totals, sys_len, ref_len) for BLEU.compute_bleu's cases


# test_bleu.py's corpus of its README example.
HYPS = ("The dog bit the man.", "It wasn't surprising.", "The man had just bitten him.")
REFS = (
    ("The dog bit the man.", "It was not unexpected.", "The man bit him first."),
    ("The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."),
)
# raw_corpus_bleu(hyps, refs, value): no tokenization, 'floor' smoothing by value, the effective order; the
# cases give the value 0.01.
RAW_FLOOR = {"tokenize": "none", "smooth_method": "floor", "effective_order": True}
RAW = {**RAW_FLOOR, "smooth_value": 0.01}
# test_sentence_bleu.py's sentence pairs (sacrebleu issues #98 and #141).
REF_98 = "producţia de zahăr brut se exprimă în zahăr alb;"
SYS_98 = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
REF_141, SYS_141 = "okay thanks", "this is a cat"
# (smooth_method, smooth_value, lowercase, tokenize, expected score)
SENTENCE_98 = [
    ("exp", None, False, "13a", 8.493),
    ("none", None, False, "13a", 0.0),
    ("floor", None, False, "13a", 4.51688),
    ("floor", 0.1, False, "13a", 4.51688),
    ("floor", 0.5, False, "13a", 10.10),
    ("add-k", None, False, "13a", 14.882),
    ("add-k", 1, False, "13a", 14.882),
    ("add-k", 2, False, "13a", 21.389),
    ("exp", None, False, "none", 7.347),
    ("exp", None, False, "intl", 8.493),
    ("exp", None, False, "char", 40.8759),
    ("exp", None, True, "char", 42.0267),
]
SENTENCE_141 = [
    ("exp", None, False, "13a", 0.0),
    ("none", None, False, "13a", 0.0),
    ("floor", None, False, "13a", 0.0),
    ("floor", 0.1, False, "13a", 0.0),
    ("add-k", None, False, "13a", 0.0),
    ("add-k", 1, False, "13a", 0.0),
]


def sentence_case(source: str, hypothesis: str, reference: str, row: tuple) -> Case:
    smooth_method, smooth_value, lowercase, tokenize, expected = row
    options = {
        "smooth_method": smooth_method,
        "smooth_value": smooth_value,
        "lowercase": lowercase,
        "tokenize": tokenize,
        "effective_order": True,
    }
    return Case(source, (hypothesis,), ((reference,),), ((options, expected),), "percent", 1e-3)


CASES = [
    Case("test_bleu.py::test_raw_bleu[0]", ("this is a test", "another test"), (("ref1", "ref2"),), ((RAW, 0.0),)),
    Case("test_bleu.py::test_raw_bleu[1]", ("this is a test",), (("this is a test",),), ((RAW, 1.0),)),
    Case("test_bleu.py::test_raw_bleu[2]", ("this is a fest",), (("this is a test",),), ((RAW, 0.223606797749979),)),
    *(
        Case(f"test_bleu.py::test_corpus_bleu[{i}]", hyps, REFS, ((options, expected),), "percent")
        for i, (hyps, options, expected) in enumerate(
            [
                (HYPS, {}, 48.530827),
                (("", "", ""), {}, 0.0),
                (HYPS, {"tokenize": "none"}, 49.1919566),
                (HYPS, {"tokenize": "13a"}, 48.530827),
                (HYPS, {"tokenize": "intl"}, 43.91623493),
                (HYPS, {"smooth_method": "none"}, 48.530827),
            ]
        )
    ),
    Case("test_bleu.py::test_effective_order[0]", ("test",), (("a test",),), ((RAW, 0.3678794411714425),)),
    Case("test_bleu.py::test_effective_order[1]", ("a test",), (("a test",),), ((RAW, 1.0),)),
    Case("test_bleu.py::test_effective_order[2]", ("a little test",), (("a test",),), ((RAW, 0.03218297948685433),)),
    Case(
        "test_bleu.py::test_statistics[0]",
        ("am I am a character sequence",),
        (("I am a symbol string sequence a a",),),
        ((RAW, ((4, 2, 1, 0), (6, 5, 4, 3))),),
        "statistics",
    ),
    Case(
        "test_bleu.py::test_scoring[0]",
        checks=(({"smooth_method": "none"}, 0.8375922397),),
        stats=((9, 7, 5, 3), (10, 8, 6, 4), 11, 11),
    ),
    Case(
        "test_bleu.py::test_offset[0]",
        ("am I am a character sequence",),
        (("I am a symbol string sequence a a",),),
        # Without the offset, then with None (BLEU's default 0.1), then raw_corpus_bleu's default value (0.1).
        (
            ({**RAW_FLOOR, "smooth_value": 0.0}, 0),
            ({**RAW_FLOOR, "smooth_value": None}, 0.1555722182),
            ({**RAW_FLOOR, "smooth_value": 0.1}, 0.1555722182),
        ),
    ),
    *(
        Case(
            f"test_bleu.py::test_degenerate_statistics[{i}]",
            checks=(({"smooth_method": "floor", "smooth_value": offset}, 0.0),),
            check="exact",
            stats=stats,
        )
        for i, (stats, offset) in enumerate(
            [
                (((0, 0, 0, 0), (4, 4, 2, 1), 0, 1), 0.0),
                (((0, 0, 0, 0), (10, 11, 12, 0), 14, 10), 0.0),
                (((0, 0, 0, 0), (0, 0, 0, 0), 0, 0), 0.0),
                (((6, 5, 4, 0), (6, 5, 4, 3), 6, 6), 0.0),
                (((0, 0, 0, 0), (0, 0, 0, 0), 0, 0), 0.1),
                (((0, 0, 0, 0), (0, 0, 0, 0), 1, 5), 0.01),
            ]
        )
    ),
    *(
        Case(f"test_bleu.py::test_max_ngram_order[{order - 1}]", HYPS, REFS, (({"max_ngram_order": order}, e),), ".2f")
        for order, e in [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")]
    ),
    # test_compat_sentence_bleu and test_api_sentence_bleu run the same rows (the first through sacrebleu.compat).
    *(
        sentence_case(f"test_sentence_bleu.py::test_compat_sentence_bleu[{i}]", SYS_98, REF_98, row)
        for i, row in enumerate(SENTENCE_98)
    ),
    *(
        sentence_case(f"test_sentence_bleu.py::test_api_sentence_bleu[{i}]", SYS_98, REF_98, row)
        for i, row in enumerate(SENTENCE_98)
    ),
    *(
        sentence_case(f"test_sentence_bleu.py::test_api_sentence_bleu_zero[{i}]", SYS_141, REF_141, row)
        for i, row in enumerate(SENTENCE_141)
    ),
]


def ours(case: Case, options: dict) -> tuple[float, BleuStats]:
    """bleu_scratch's score and statistics: sacrebleu's segment preparation, lesson 09's tokenizer, our counts."""
    options = dict(options)
    tokenize = SACREBLEU_TOKENIZERS[options.pop("tokenize", "13a")]
    lowercase = options.pop("lowercase", False)
    max_n = options.pop("max_ngram_order", 4)
    if case.stats:
        matches, totals, sys_len, ref_len = case.stats
        stats = BleuStats(sys_len, ref_len, matches, totals, (0,) * len(matches))
    else:
        # sacrebleu lowercases a segment if asked and drops its trailing whitespace before tokenizing.
        stats = our_stats(
            case.hypotheses,
            case.references,
            lambda line: tokenize((line.lower() if lowercase else line).rstrip()),
            max_n,
        )
    return sacrebleu_from_stats(stats, **options), stats


def theirs(case: Case, options: dict):
    if "compat" in case.source:
        (hypothesis,), ((reference,),) = case.hypotheses, case.references
        compat = {key: value for key, value in options.items() if key != "effective_order"}
        return sacrebleu.compat.sentence_bleu(
            hypothesis, [reference], use_effective_order=options["effective_order"], **compat
        )
    if case.stats:
        matches, totals, sys_len, ref_len = case.stats
        return BLEU.compute_bleu(list(matches), list(totals), sys_len, ref_len, **options)
    return BLEU(**options).corpus_score(list(case.hypotheses), [list(refs) for refs in case.references])


def meets(score: float, expected: object, case: Case) -> bool:
    if case.check == ".2f":
        return f"{score:.2f}" == expected
    if case.check == "exact":
        return score / 100 == expected
    value = score / 100 if case.check == "fraction" else score
    return abs(value - expected) < case.tolerance


def test_all_57_cases_are_recorded():
    assert len(CASES) == 57 == len({case.source for case in CASES})
    assert sum(case.source.startswith("test_bleu.py") for case in CASES) == 27


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.source)
def test_sacrebleus_own_case(case):
    for options, expected in case.checks:
        score, stats = ours(case, options)
        their_result = theirs(case, options)
        if case.check == "statistics":
            assert (stats.matches, stats.totals) == expected == (tuple(their_result.counts), tuple(their_result.totals))
            continue
        assert meets(their_result.score, expected, case), (their_result.score, expected)
        assert meets(score, expected, case), (score, expected)
        assert score == their_result.score
