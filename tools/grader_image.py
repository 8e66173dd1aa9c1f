"""The build context of the grader's container image: the grader and its pinned libraries, no lesson.

    python tools/grader_image.py CONTEXT && docker build -t bleu-grader CONTEXT

CONTEXT gets ``Dockerfile`` (tools/grader.Dockerfile), ``bleu_classroom/`` (its Python files and the
edition README's template) and ``requirements.txt``: this repository's pins of what the grader imports.
Nothing of ``bleu_scratch``, the notebooks or their solutions: the grader never imports the lessons
(the student's package comes from the submission, the answers from NLTK).
"""

import argparse
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The sandbox's numpy, the oracle, course-grades' gradebook, and the jsonschema that nbgrader imports, at the
# version requirements.txt pins for its import time.
NEEDS = ("numpy", "nltk", "nbgrader", "jsonschema")
PINS = ("requirements.txt", "requirements-test.txt")


def pins() -> list[str]:
    """``name==version`` of each library the grader needs, as this repository pins it."""
    found = {}
    for name in PINS:
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            pin = re.fullmatch(r"([A-Za-z0-9_.-]+)==\S+", line.strip())
            if pin and pin.group(1).lower() in NEEDS:
                found[pin.group(1).lower()] = pin.group(0)
    missing = sorted(set(NEEDS) - set(found))
    if missing:
        raise SystemExit(f"grader_image.py: no pin of {', '.join(missing)} in {' or '.join(PINS)}")
    return [found[name] for name in NEEDS]


def make_context(context: Path) -> list[str]:
    """Write the build context to ``context`` (new or empty); return its files, relative to it."""
    if context.exists() and any(context.iterdir()):
        raise SystemExit(f"grader_image.py: {context} is not empty")
    context.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "tools" / "grader.Dockerfile", context / "Dockerfile")
    (context / "requirements.txt").write_text("\n".join(pins()) + "\n", encoding="utf-8")
    shutil.copytree(
        ROOT / "bleu_classroom", context / "bleu_classroom", ignore=lambda folder, names: {"__pycache__"} & set(names)
    )
    return sorted(path.relative_to(context).as_posix() for path in context.rglob("*") if path.is_file())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="write the grader image's build context (no lesson, no solution)")
    parser.add_argument("context", type=Path)
    files = make_context(parser.parse_args().context)
    print(f"wrote {len(files)} files; next: docker build -t bleu-grader {parser.parse_args().context}")
