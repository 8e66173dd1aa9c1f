"""The graded functions: which lesson function is worth how many points."""

from dataclasses import dataclass

from .errors import ClassroomError


@dataclass(frozen=True)
class Unit:
    """One function a student writes, worth ``points`` when every case agrees with NLTK."""

    exercise: str
    module: str  # bleu_scratch.<module> defines the function: its lesson's module, lessonNN_<name>
    name: str
    points: int
    entry: str = ""  # the function the cases call, when it is not the unit itself

    @property
    def call(self) -> str:
        return self.entry or self.name


# The lesson classes the graded process needs, and their modules: the answers' types, and the
# smoothing an argument names (lesson 07's, copied into the sandbox for the functions handed one).
CLASS_MODULES = {
    "Precision": "lesson03_precision",
    "BleuStats": "lesson05_sentence",
    "SmoothingFunction": "lesson07_smoothing",
}

# The submitted package's files a sandbox may hold, by name: the edition's modules of lessons 01-07 (each sandbox
# takes those up to its function's lesson, and lesson 07 for the smoothing cases) and the support they import.
# Nothing else is copied: a module of the student's own (NLTK's code vendored, a later lesson renamed) is not there.
LESSON_FILES = (
    "lesson01_ngrams.py",
    "lesson01_tokenize.py",
    "lesson02_clipping.py",
    "lesson03_matches.py",
    "lesson03_precision.py",
    "lesson04_brevity.py",
    "lesson05_sentence.py",
    "lesson06_corpus.py",
    "lesson07_smoothing.py",
)
SUPPORT_FILES = (
    "checks/__init__.py",
    "checks/arrays.py",
    "checks/comparisons.py",
    "checks/values.py",
    "notebook/__init__.py",
    "notebook/exercises.py",
    "notebook/match_view.py",
)

UNITS = (
    Unit("01 n-grams", "lesson01_ngrams", "ngrams", 2),
    Unit("01 n-grams", "lesson01_ngrams", "count_ngrams", 1),
    Unit("02 clipping", "lesson02_clipping", "max_reference_counts", 2),
    Unit("02 clipping", "lesson02_clipping", "clipped_counts", 2),
    Unit("03 modified precision", "lesson03_precision", "modified_precision", 3),
    Unit("04 brevity penalty", "lesson04_brevity", "closest_ref_length", 2),
    Unit("04 brevity penalty", "lesson04_brevity", "brevity_penalty", 2),
    Unit("05 sentence score", "lesson05_sentence", "sentence_stats", 3),
    # The weighted geometric mean is what turns statistics into the score;
    # it is checked through lesson 05's sentence_bleu, which NLTK has and can answer.
    Unit("05 sentence score", "lesson05_sentence", "geometric_mean_score", 2, entry="sentence_bleu"),
    Unit("06 corpus score", "lesson06_corpus", "corpus_stats", 2),
    Unit("06 corpus score", "lesson06_corpus", "corpus_bleu", 3),
)


def select_units(only: list[str] | None) -> list[Unit]:
    """The units named by ``--only``: a function name, or an exercise by number or name.

    >>> [unit.name for unit in select_units(["04"])]
    ['closest_ref_length', 'brevity_penalty']
    """
    if not only:
        return list(UNITS)
    chosen = [unit for unit in UNITS if {unit.name, unit.exercise, *unit.exercise.split(" ", 1)} & set(only)]
    if not chosen:
        names = ", ".join(unit.name for unit in UNITS)
        raise ClassroomError(
            f"--only {' '.join(only)} names no exercise; use an exercise number (01-06) or one of: {names}"
        )
    return chosen
