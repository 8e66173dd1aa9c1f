"""Lesson 12: word error rate against NLTK's edit distance and sacrebleu's TER; METEOR through the WordNet stand-in."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics.distance import edit_distance
from nltk.translate.meteor_score import meteor_score
from sacrebleu.metrics import TER

from bleu_scratch import WordNetStandIn, word_edit_distance, word_error_rate
from bleu_scratch.lesson13_relatives import corpus_word_error_rate, word_errors
from tests.quick import examples

WORDS = st.lists(st.sampled_from("a b c d e".split()), max_size=8)


class TestWordEditDistance:
    def test_the_three_moves(self):
        reference = "the cat sat on the mat".split()
        assert word_edit_distance(reference, reference) == 0
        assert word_edit_distance(reference, "the cat lay on the mat".split()) == 1  # substitute
        assert word_edit_distance(reference, "the cat on the mat".split()) == 1  # insert "sat"
        assert word_edit_distance(reference, "the cat sat on the red mat".split()) == 1  # delete "red"
        assert word_edit_distance(reference, []) == 6
        assert word_edit_distance([], reference) == 6

    @settings(max_examples=examples(300))
    @given(WORDS, WORDS)
    def test_is_nltks_levenshtein_distance_over_words(self, reference, hypothesis):
        assert word_edit_distance(reference, hypothesis) == edit_distance(reference, hypothesis)

    def test_a_string_is_refused_at_the_door(self):
        with pytest.raises(TypeError, match=r"split\(\)"):
            word_edit_distance("the cat", ["the", "cat"])


class TestWordErrorRate:
    def test_edits_over_the_reference_length(self):
        # Substitute sat -> lay and delete "the": 2 edits, 6 reference words.
        assert word_error_rate(["the cat sat on the mat".split()], "the cat lay on mat".split()) == 2 / 6

    def test_several_references_count_as_ter_counts_them(self):
        # The fewest edits (1, to the second reference) over the mean length (3 + 4) / 2.
        references = ["a cat sat".split(), "the cat sat down".split()]
        assert word_errors(references, "the cat sat".split()) == (1, 3.5)
        assert word_error_rate(references, "the cat sat".split()) == 1 / 3.5

    def test_no_reference_word_follows_ters_rule(self):
        assert word_error_rate([[]], ["a"]) == 1.0
        assert word_error_rate([[]], []) == 0.0

    def test_a_corpus_pools_edits_and_lengths(self):
        # Sentence rates 1/4 and 1/1 average 0.625; pooled, 2 edits over 5 words.
        list_of_references = [["a b c d".split()], [["e"]]]
        assert corpus_word_error_rate(list_of_references, ["a b c x".split(), ["f"]]) == 2 / 5

    @pytest.mark.parametrize(
        "reference, hypothesis, a_shift_helps",
        [
            ("the cat sat on the mat", "on the mat the cat sat", True),
            ("he said that it was true", "it was true he said", True),
            ("a b c d e f", "a b c d e f", False),
            ("a b c", "x y z w", False),
            ("the cat sat on the mat", "the dog sat on a mat", False),
        ],
    )
    def test_ter_is_wer_with_shifts_so_never_above_it(self, reference, hypothesis, a_shift_helps):
        ter = TER().sentence_score(hypothesis, [reference]).score / 100
        wer = word_error_rate([reference.split()], hypothesis.split())
        assert ter < wer if a_shift_helps else ter == pytest.approx(wer)

    def test_a_moved_phrase_costs_wer_more_than_ter(self):
        # TER shifts "the cat sat" in one edit; WER deletes and inserts 3 words each.
        ter = TER().sentence_score("on the mat the cat sat", ["the cat sat on the mat"])
        assert ter.num_edits == 1
        assert word_edit_distance("the cat sat on the mat".split(), "on the mat the cat sat".split()) == 6

    def test_the_door_refuses_an_unwrapped_reference(self):
        with pytest.raises(TypeError, match="unwrapped"):
            word_error_rate(["the", "cat"], ["the", "cat"])


class TestWordNetStandIn:
    REFERENCE = "it is a guide to action that ensures that the military will forever heed party commands".split()

    def test_without_synonyms_meteor_runs_its_exact_and_stem_stages(self):
        hypothesis = "it is a guide to action that ensure that the military will forever heed party commands".split()
        # "ensure" matches "ensures" in the stem stage, so every word is aligned, in one chunk.
        score = meteor_score([self.REFERENCE], hypothesis, wordnet=WordNetStandIn())
        fmean, penalty = 1.0, 0.5 * (1 / 16) ** 3
        assert score == pytest.approx(fmean * (1 - penalty))

    def test_a_synonym_aligns_as_the_word_itself_would(self):
        with_synonym = (
            "it is a guide to action that guarantees that the military will forever heed party commands".split()
        )
        # NLTK looks synonyms up for the stems the stem stage leaves (Porter: guarante, ensur).
        stems = WordNetStandIn({"guarante": ["ensur"]})
        unaligned = meteor_score([self.REFERENCE], with_synonym, wordnet=WordNetStandIn())
        aligned = meteor_score([self.REFERENCE], with_synonym, wordnet=stems)
        assert unaligned < aligned == meteor_score([self.REFERENCE], self.REFERENCE, wordnet=WordNetStandIn())

    def test_nltk_looks_up_stems_not_the_words(self):
        with_synonym = (
            "it is a guide to action that guarantees that the military will forever heed party commands".split()
        )
        words = WordNetStandIn({"guarantees": ["ensures"]})
        assert meteor_score([self.REFERENCE], with_synonym, wordnet=words) == meteor_score(
            [self.REFERENCE], with_synonym, wordnet=WordNetStandIn()
        )
