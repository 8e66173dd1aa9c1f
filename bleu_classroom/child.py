"""The grading process: it imports the student's ``bleu_scratch`` and runs the graded functions.

Each graded function is tested on its own: the other lesson functions it may
call are replaced by stand-ins built on NLTK. Events go to the grader as JSON
lines on a private copy of stdout.
"""

import importlib
import json
import os
import sys
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .oracle import NltkOracle
from .plain import clip, from_plain, to_plain
from .units import UNITS, Unit


# Loads this file under its own name, so that the grader's code comes from here
# while `import bleu_scratch` finds the student's package through PYTHONPATH.
# The grader's own modules come from the instructor's copy of bleu_classroom,
# its folder first on sys.path for that one import; afterwards `import
# bleu_scratch` finds the student's package through PYTHONPATH.
CHILD_BOOTSTRAP = (
    "import sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "import bleu_classroom.child as child\n"
    "del sys.path[0]\n"
    "child.child_main(sys.argv[2])\n"
)


def child_main(job_path: str) -> None:
    """Run the graded functions listed in the job file; report on a private copy of stdout."""
    report_stream = os.fdopen(os.dup(1), "w", buffering=1)
    # The student's prints go to stderr, so they cannot garble the report.
    os.dup2(2, 1)

    def report(**event: Any) -> None:
        report_stream.write(json.dumps(event) + "\n")

    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    _limit_memory(job["memory_mb"])
    oracle = NltkOracle(on_load=lambda stage: report(event=f"oracle-{stage}"))
    report(event="ready")
    try:
        package = {"": importlib.import_module("bleu_scratch")}
        # smoothing is not an exercise, but the score functions take its methods.
        for module in [unit.module for unit in UNITS] + ["smoothing"]:
            package[module] = importlib.import_module(f"bleu_scratch.{module}")
    except BaseException as error:  # noqa: BLE001 (a student's package may fail in any way)
        report(event="import-failed", error=_describe(error))
        return
    outside = [
        f"{name}: {module.__file__}" for name, module in sys.modules.items()
        if name.split(".")[0] == "bleu_scratch" and not Path(module.__file__ or "").resolve().is_relative_to(Path(job["package_dir"]).resolve())
    ]
    report(event="imported", file=package[""].__file__, outside=outside)
    standins = _standins(oracle, package)
    units = {unit.name: unit for unit in UNITS}
    for name in job["units"]:
        unit = units[name]
        report(event="start", unit=name)
        results = _run_unit(unit, job["cases"][name], package, standins, lambda index: report(event="case", unit=name, index=index))
        report(event="done", unit=name, results=results)


def _limit_memory(memory_mb: int) -> None:
    """Make an allocation past ``memory_mb`` MB raise MemoryError, so that a runaway list costs points, not the machine.

    Where the system cannot limit address space (Windows has no ``resource``
    module, and macOS may not enforce the limit), grading goes on without it.
    """
    try:
        import resource
    except ImportError:
        return
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
        except (ValueError, OSError):
            pass  # above the hard limit already set, or not supported


def _run_unit(
    unit: Unit, cases: list, package: dict, standins: dict[str, Callable], on_case: Callable[[int], None] = lambda index: None
) -> list:
    """Call the unit on each case with every other graded function replaced by its stand-in; ``on_case`` is told each case's index."""
    replaced = []
    for other in UNITS:
        original = getattr(package[other.module], other.name, None)
        if other.name == unit.name or other.name not in standins or original is None:
            continue
        # Each `from .x import f` made its own global name for f: replace them all.
        for module_name, module in list(sys.modules.items()):
            if module_name.split(".")[0] == "bleu_scratch":
                for attribute, value in list(vars(module).items()):
                    if value is original:
                        replaced.append((module, attribute, value))
                        setattr(module, attribute, standins[other.name])
    smoothing_class = getattr(package["smoothing"], "SmoothingFunction", None)
    results = []
    try:
        function = getattr(package[unit.module], unit.call, None)
        for index, args in enumerate(cases):
            on_case(index)
            if function is None:
                results.append(["missing", f"bleu_scratch.{unit.module} has no function {unit.call}"])
                continue
            # Code that fills the memory leaves none to report it with: this much is set aside.
            reserve = bytearray(16 << 20)
            try:
                arguments = [from_plain(arg, smoothing_class() if smoothing_class else None) for arg in args]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    results.append(["ok", to_plain(function(*arguments))])
            except Exception as error:  # noqa: BLE001
                if isinstance(error, MemoryError):
                    del reserve
                    # The student's local variables hold what filled the memory.
                    traceback.clear_frames(error.__traceback__)
                results.append(["raised", type(error).__name__, clip(str(error), 160), _where(error)])
                if isinstance(error, MemoryError):
                    break  # the unit has failed; its other cases would fill the memory again
    finally:
        for module, attribute, value in reversed(replaced):
            setattr(module, attribute, value)
    return results


def _standins(oracle: NltkOracle, package: dict) -> dict[str, Callable]:
    """Functions that answer as the lessons should, built on NLTK and the package's own classes."""
    precision_class = getattr(package["precision"], "Precision", None)
    stats_class = getattr(package["sentence"], "BleuStats", None)

    def clipped_counts(hypothesis_counts: Counter, max_ref_counts: Counter) -> Counter:
        # NLTK clips against references: one that says each n-gram its maximum
        # number of times, the copies kept apart by a token no hypothesis has.
        apart = object()
        reference = [token for ngram, count in max_ref_counts.items() for _ in range(count) for token in (*ngram, apart)]
        return Counter({
            ngram: oracle.clipped_count([reference], ngram, count) for ngram, count in hypothesis_counts.items()
        })

    def modified_precision(references: list, hypothesis: list, n: int) -> Any:
        p = oracle.bleu.modified_precision(references, hypothesis, n)
        return precision_class(p.numerator, p.denominator)

    def sentence_stats(references: list, hypothesis: list, max_n: int = 4) -> Any:
        return stats_class(**oracle.sentence_stats(references, hypothesis, max_n))

    def geometric_mean_score(p_n: list, weights: tuple, bp: float) -> float:
        # NLTK's corpus_bleu ends with this mean. On a hypothesis longer than
        # its reference (NLTK's brevity penalty is the int 1) with a unigram
        # match, and a "smoothing" that hands it p_n, it returns 1 * the mean.
        mean = oracle.bleu.corpus_bleu([[["a"]]], [["a", "a"]], weights, lambda *args, **kwargs: p_n)
        return bp * mean

    def corpus_stats(list_of_references: list, hypotheses: list, max_n: int = 4) -> Any:
        return stats_class(**oracle.corpus_stats(list_of_references, hypotheses, max_n))

    def closest_ref_length(references: list, hyp_len: int) -> int:
        return oracle.bleu.closest_ref_length(references, hyp_len)

    def brevity_penalty(closest_ref_len: int, hyp_len: int) -> Any:
        return oracle.bleu.brevity_penalty(closest_ref_len, hyp_len)

    return {
        "ngrams": oracle.ngrams,
        "count_ngrams": oracle.count_ngrams,
        "max_reference_counts": oracle.max_reference_counts,
        "clipped_counts": clipped_counts,
        "modified_precision": modified_precision,
        "closest_ref_length": closest_ref_length,
        "brevity_penalty": brevity_penalty,
        "sentence_stats": sentence_stats,
        "geometric_mean_score": geometric_mean_score,
        "corpus_stats": corpus_stats,
    }


def _describe(error: BaseException) -> str:
    where = _where(error)
    return f"{type(error).__name__}: {clip(str(error), 160)}" + (f" ({where})" if where else "")


def _where(error: BaseException) -> str:
    """The innermost line of the student's package in the traceback, e.g. 'ngrams.py:25 in ngrams'."""
    frames = [
        frame for frame in traceback.extract_tb(error.__traceback__)
        if "bleu_scratch" in Path(frame.filename).parts
    ]
    if isinstance(error, SyntaxError) and error.filename:
        return f"{Path(error.filename).name}:{error.lineno}"
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
