"""Run the 2017 blog post's sentence-BLEU inputs through old NLTK releases.

Notebook 08 tells how NLTK's unsmoothed ``sentence_bleu`` treated a zero
precision over the years. This script is the record behind that table: for
each release in ``RELEASES`` it makes a throwaway virtual environment, installs
that NLTK from PyPI, runs ``sentence_bleu(references, hypothesis)`` on the
inputs, and writes what each release returned to
``data/nltk_history/sentence_bleu_by_release.json``.

    .venv/bin/python tools/nltk_history.py                     # every release in RELEASES
    .venv/bin/python tools/nltk_history.py 3.2.5 3.3           # some releases only (others kept)

The inputs are the entries of ``data/published_examples.json`` that notebook 08
calls "the seven" (quantity ``sentence_bleu`` with a float figure), plus entry
10 (a ``sentence_bleu`` entry whose post printed no number). All eight are
tokenized with ``str.split()``, as their ``tokenization`` field says (the
script stops on any other rule, so it needs nothing from ``bleu_scratch``).
Tokens, not text, are sent to the old NLTK, so only its BLEU code is under
test.

Which Python. A release older than 3.7 runs on a Python of its time,
``--old-python`` (default: a ``python3.6`` found on the PATH or under pyenv),
with nothing patched. NLTK 3.7 and later need Python 3.7 or newer and run on
``--python`` (default: the Python running this script). This matters for NLTK
3.2: its ``ngrams`` ends with a ``StopIteration`` raised inside a generator,
which Python 3.6 still treats as the end of the generator (with a
DeprecationWarning) and Python 3.7 and later turn into ``RuntimeError``
(PEP 479), so on a new Python 3.2 crashes on inputs it scored in 2016.

Without a Python 3.6 (or with ``--old-python none``) every release runs on
``--python``. There NLTK 3.2.x to 3.4.x need a shim to import: they call
``inspect.getargspec`` and ``inspect.formatargspec``, which Python 3.11
removed, and 3.4.5 imports ``collections.Sequence``, which Python 3.10
removed. The runner puts these back, as Python 3.10 had them, only where they
are missing, so on Python 3.6 it changes nothing. A release that imports a
package it does not declare (3.2.3 imports ``requests``) gets it installed,
and the record says so (``added_packages``). The BLEU code always runs as
released. Each release's record names the Python it ran on.

Each release takes some 5 to 30 seconds (a venv, a pip install, one run);
nothing is left behind but the JSON file.
"""

import argparse
import datetime
import glob
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "data" / "published_examples.json"
OUTPUT = ROOT / "data" / "nltk_history" / "sentence_bleu_by_release.json"

# 3.2 to 3.3 are the releases the notebook's story turns on; the rest sample
# the later series up to the oracle, 3.10.4.
RELEASES = [
    "3.2",
    "3.2.1",
    "3.2.2",
    "3.2.3",
    "3.2.4",
    "3.2.5",
    "3.3",
    "3.4",
    "3.4.5",
    "3.5",
    "3.6.5",
    "3.6.6",
    "3.7",
    "3.8.1",
    "3.9.1",
    "3.10.4",
]

# Runs inside the release's venv: reads the inputs (JSON) on stdin, prints results (JSON).
RUNNER = r'''
import inspect
import json
import sys
import warnings
from collections import namedtuple

if not hasattr(inspect, "getargspec"):  # removed in Python 3.11; NLTK 3.2-3.4 call it on import
    ArgSpec = namedtuple("ArgSpec", "args varargs keywords defaults")

    def getargspec(func):
        spec = inspect.getfullargspec(func)
        return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)

    def formatargspec(args, varargs=None, varkw=None, defaults=None, kwonlyargs=(), kwonlydefaults=None,
                      annotations=None, formatarg=str, formatvarargs=lambda name: "*" + name,
                      formatvarkw=lambda name: "**" + name, formatvalue=lambda value: "=" + repr(value)):
        first_default = len(args) - len(defaults) if defaults else len(args)
        specs = [formatarg(a) + (formatvalue(defaults[i - first_default]) if i >= first_default else "")
                 for i, a in enumerate(args)]
        if varargs is not None:
            specs.append(formatvarargs(formatarg(varargs)))
        if varkw is not None:
            specs.append(formatvarkw(formatarg(varkw)))
        return "(" + ", ".join(specs) + ")"

    inspect.getargspec, inspect.formatargspec = getargspec, formatargspec

import collections
import collections.abc

for name in collections.abc.__all__:  # the aliases Python 3.10 removed; NLTK 3.4.x imports collections.Sequence
    if not hasattr(collections, name):
        setattr(collections, name, getattr(collections.abc, name))

import platform

import nltk
from nltk.translate import bleu_score


def outcome(score, *args, **kwargs):
    """repr of the score, or the exception's name; and the exception's text."""
    try:
        return repr(score(*args, **kwargs)), None
    except Exception as error:
        return type(error).__name__, f"{type(error).__name__}: {error}"


inputs = json.load(sys.stdin)
result = {"nltk_version": nltk.__version__, "python": platform.python_version(), "sentence_bleu": [],
          "errors": [], "warnings": [], "epsilon0_method1": []}
for references, hypothesis in inputs:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value, error = outcome(bleu_score.sentence_bleu, references, hypothesis)
    result["sentence_bleu"].append(value)
    result["errors"].append(error)
    # Only the category and message: a warning's file path and line differ from machine to machine.
    result["warnings"].append(sorted({w.category.__name__ + ": " + str(w.message).strip() for w in caught}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        smoothing = bleu_score.SmoothingFunction(epsilon=0).method1
        value, error = outcome(bleu_score.sentence_bleu, references, hypothesis, smoothing_function=smoothing)
    result["epsilon0_method1"].append(value if error is None else error)
print(json.dumps(result))
'''


def the_inputs() -> list[dict]:
    """The seven of notebook 08, then entry 10: number, hypothesis text, published figure, tokens."""
    examples = json.loads(EXAMPLES.read_text(encoding="utf-8"))["examples"]
    chosen = [(number, entry) for number, entry in enumerate(examples, 1) if entry["quantity"] == "sentence_bleu"]
    seven = [(n, e) for n, e in chosen if isinstance(e["reported"], float)]
    others = [(n, e) for n, e in chosen if not isinstance(e["reported"], float)]
    assert len(seven) == 7, [n for n, _ in seven]
    inputs = []
    for number, entry in seven + others:
        # These entries name the tokenizer "none": str.split().
        assert entry["tokenizer"] == "none", entry["tokenizer"]
        references, hypothesis = [r.split() for r in entry["references"]], entry["hypothesis"].split()
        assert list(entry["weights"]) == [0.25] * 4, entry  # sentence_bleu's default weights
        inputs.append(
            {
                "entry": number,
                "hypothesis": entry["hypothesis"],
                "published": entry["reported"],
                "in_the_seven": isinstance(entry["reported"], float),
                "references": references,
                "hypothesis_tokens": hypothesis,
            }
        )
    return inputs


def find_old_python() -> str | None:
    """A Python 3.6, the Python of NLTK 3.2 to 3.6, if this machine has one that runs."""
    candidates = [shutil.which("python3.6")] + sorted(
        glob.glob(str(Path.home() / ".pyenv/versions/3.6*/bin/python3.6"))
    )
    for candidate in filter(None, candidates):
        # A pyenv shim is on the PATH even where that version is not selected; it then fails.
        check = [candidate, "-c", "import sys; print(sys.version_info[:2] == (3, 6))"]
        if subprocess.run(check, capture_output=True, text=True).stdout.strip() == "True":
            return candidate
    return None


def python_for(release: str, python: str, old_python: str | None) -> str:
    """NLTK 3.7 dropped Python 3.6: older releases run on ``old_python`` where there is one."""
    return old_python if old_python and tuple(int(x) for x in release.split(".")) < (3, 7) else python


def run_release(release: str, inputs: list[dict], python: str) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"nltk-{release}-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        # Python 3.6 ships pip 18, too old for many of today's wheels; 21.3 is the last pip for 3.6.
        old = subprocess.run(
            [pip[0], "-c", "import sys; print(sys.version_info < (3, 7))"], capture_output=True, text=True
        )
        if old.stdout.strip() == "True":
            subprocess.run(pip + ["pip>=21.3,<22"], check=True, stderr=subprocess.DEVNULL)
        subprocess.run(pip + [f"nltk=={release}"], check=True, stderr=subprocess.DEVNULL)
        tokens = [[item["references"], item["hypothesis_tokens"]] for item in inputs]
        added = []
        for _ in range(3):
            done = subprocess.run(
                [str(venv / "bin" / "python"), "-c", RUNNER],
                input=json.dumps(tokens),
                capture_output=True,
                text=True,
                check=False,
                cwd=tmp,
            )
            if done.returncode == 0:
                return {**json.loads(done.stdout), "added_packages": added}
            # Some releases import a package they don't declare (3.2.3: requests); add it and retry.
            missing = re.search(r"ModuleNotFoundError: No module named '([\w]+)", done.stderr)
            if not missing:
                break
            added.append(missing.group(1))
            subprocess.run(pip + [missing.group(1)], check=True, stderr=subprocess.DEVNULL)
        return {"import_error": done.stderr.strip().splitlines()[-1], "added_packages": added}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("releases", nargs="*", help=f"NLTK releases to run (default: {' '.join(RELEASES)})")
    parser.add_argument(
        "--python", default=sys.executable, help="the Python for NLTK 3.7 and later (default: this one)"
    )
    parser.add_argument(
        "--old-python",
        default=find_old_python(),
        help="the Python for NLTK 3.2 to 3.6.x, or 'none' to use --python (default: a Python 3.6 if found)",
    )
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    releases = args.releases or RELEASES
    old_python = None if args.old_python in (None, "none") else args.old_python

    inputs = the_inputs()
    record = json.loads(args.output.read_text(encoding="utf-8")) if args.output.exists() else {}
    details = record.get("details", {})
    started = time.monotonic()
    for release in releases:
        start = time.monotonic()
        details[release] = run_release(release, inputs, python_for(release, args.python, old_python))
        print(
            f"NLTK {release}: {details[release].get('sentence_bleu', details[release].get('import_error'))} "
            f"({time.monotonic() - start:.0f} s)",
            flush=True,
        )
    pythons = {}
    for release in releases:
        python = python_for(release, args.python, old_python)
        pythons.setdefault(python, []).append(release)
    versions = {
        subprocess.run(
            [python, "-c", "import platform; print(platform.python_version())"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip(): ran
        for python, ran in pythons.items()
    }

    order = {release: i for i, release in enumerate(RELEASES)}
    key = lambda release: (order.get(release, len(order)), tuple(int(x) for x in release.split(".")))  # noqa: E731
    details = {release: details[release] for release in sorted(details, key=key)}
    record = {
        "what": (
            "What NLTK's sentence_bleu(references, hypothesis) returned, release by release, for the inputs below "
            "(default weights, no smoothing): repr(score), or the name of the exception it raised. "
            "Made by tools/nltk_history.py; see README.md beside this file."
        ),
        "made": {
            "command": " ".join(["python", "tools/nltk_history.py", *argv]),
            "date": datetime.date.today().isoformat(),
            "python": versions,
            "platform": platform.system(),
            "seconds": round(time.monotonic() - started),
        },
        "inputs": [{key: item[key] for key in ("entry", "hypothesis", "published", "in_the_seven")} for item in inputs],
        "sentence_bleu": {release: result.get("sentence_bleu") for release, result in details.items()},
        "details": details,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"wrote {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output} "
        f"in {time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
