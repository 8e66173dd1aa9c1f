"""bleu_scratch can replace nltk.translate.bleu_score: same names, same signatures."""

import inspect

import pytest
from nltk.translate import bleu_score as nltk_bleu

import bleu_scratch

PUBLIC_NAMES = [
    "sentence_bleu",
    "corpus_bleu",
    "modified_precision",
    "closest_ref_length",
    "brevity_penalty",
    "SmoothingFunction",
]


def parameters(function):
    """Name, kind and default of each parameter; annotations are allowed to differ."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("name", PUBLIC_NAMES)
def test_name_is_importable_and_public(name):
    assert name in bleu_scratch.__all__
    namespace = {}
    exec(f"from bleu_scratch import {name}", namespace)  # the drop-in import line
    assert callable(namespace[name])


@pytest.mark.parametrize("name", PUBLIC_NAMES)
def test_same_parameters_order_and_defaults(name):
    assert parameters(getattr(bleu_scratch, name)) == parameters(getattr(nltk_bleu, name))


@pytest.mark.parametrize("method", [f"method{i}" for i in range(8)])
def test_smoothing_methods_have_nltk_signatures(method):
    ours = getattr(bleu_scratch.SmoothingFunction, method)
    theirs = getattr(nltk_bleu.SmoothingFunction, method)
    assert parameters(ours) == parameters(theirs)


def test_smoothing_defaults_equal_nltk():
    ours, theirs = bleu_scratch.SmoothingFunction(), nltk_bleu.SmoothingFunction()
    assert (ours.epsilon, ours.alpha, ours.k) == (theirs.epsilon, theirs.alpha, theirs.k) == (0.1, 5, 5)


def test_keyword_calls_work_as_in_nltk(paper, same_as_nltk):
    for module in (bleu_scratch, nltk_bleu):
        assert module.sentence_bleu(
            references=paper.references,
            hypothesis=paper.candidate_1,
            weights=(0.5, 0.5),
            smoothing_function=None,
            auto_reweigh=False,
        ) == nltk_bleu.sentence_bleu(paper.references, paper.candidate_1, (0.5, 0.5))
    corpus = {"list_of_references": [paper.references], "hypotheses": [paper.candidate_2], "weights": (1.0,)}
    same_as_nltk(lambda: bleu_scratch.corpus_bleu(**corpus), lambda: nltk_bleu.corpus_bleu(**corpus))
    pair = {"references": paper.references, "hypothesis": paper.candidate_1, "n": 2}
    same_as_nltk(lambda: bleu_scratch.modified_precision(**pair), lambda: nltk_bleu.modified_precision(**pair))
    lengths = {"closest_ref_len": 16, "hyp_len": 14}
    same_as_nltk(lambda: bleu_scratch.brevity_penalty(**lengths), lambda: nltk_bleu.brevity_penalty(**lengths))
    # Reference lengths 16, 18, 16: 16 and 18 are both 1 away from 17, the shorter wins.
    assert bleu_scratch.closest_ref_length(references=paper.references, hyp_len=17) == 16


@pytest.mark.parametrize("method", [f"method{i}" for i in range(8)])
def test_nltk_smoothing_functions_plug_into_our_scores(paper_cased, same_as_nltk, method):
    # A half-migrated script keeps NLTK's SmoothingFunction: the score must not change.
    smoothing = getattr(nltk_bleu.SmoothingFunction(), method)
    references, hypothesis = paper_cased.references, paper_cased.candidate_1
    same_as_nltk(
        lambda: bleu_scratch.sentence_bleu(references, hypothesis, smoothing_function=smoothing),
        lambda: nltk_bleu.sentence_bleu(references, hypothesis, smoothing_function=smoothing),
    )
    corpus = ([references, [references[0]]], [hypothesis, paper_cased.candidate_2])
    same_as_nltk(
        lambda: bleu_scratch.corpus_bleu(*corpus, smoothing_function=smoothing),
        lambda: nltk_bleu.corpus_bleu(*corpus, smoothing_function=smoothing),
    )
