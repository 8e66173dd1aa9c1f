"""Record every BLEU tool's own number on named corpora, run by the real tools: the fixture lesson 09's tests read.

Input: a JSON file of named corpora, each either inline,
``{"NAME": {"hypotheses": [...], "list_of_references": [[...], ...]}}``, or as
files of the repository, ``{"NAME": {"hypothesis_file": "data/...",
"reference_files": ["data/..."]}}`` (read as UTF-8, split at "\\n", a byte
order mark kept). Output: the same corpora with ``"scores"``: the value each
real tool returned (a float; torchmetrics' float32 as the float64 it widens
to exactly; ``{"error": "ZeroDivisionError"}`` where the tool raised), and
``"versions"``: which tools and versions ran.

The tools, with the inputs ``bleu_scratch.tool_bleu`` gives them (its docstring
says why each):

- nltk: ``corpus_bleu`` on ``str.split()`` tokens;
- sacrebleu: ``corpus_bleu`` with each tokenizer and smoothing method;
- nmt: tensorflow/nmt's ``compute_bleu`` with and without ``smooth``, imported
  from ``--nmt`` (a checkout's ``nmt/scripts/bleu.py``, never copied here), on
  ``str.split()`` tokens;
- torchmetrics: ``BLEUScore`` (smooth off and on) and ``SacreBLEUScore``;
- d2l: ``d2l.torch.bleu(pred, label, k=4)`` against each segment's first
  reference, averaged over the segments.

A tool that is not installed is skipped, and named in ``"versions"`` as missing.
The real tools live outside the project's requirements, e.g.::

    python3 -m venv .venv-real
    .venv-real/bin/pip install torch==2.13.0 torchmetrics==1.9.0 sacrebleu==2.6.0 nltk==3.10.4
    .venv-real/bin/pip install d2l==1.0.3 --no-deps   # then what `import d2l.torch` asks for
    .venv-real/bin/python tools/record_tool_scores.py tests/fixtures/tool_corpora.json \\
        tests/fixtures/tool_scores.json --nmt /path/to/nmt/nmt/scripts/bleu.py --nmt-commit COMMIT
"""

import argparse
import importlib.metadata
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
Corpus = tuple[list[str], list[list[str]]]


def read_lines(path: Path) -> list[str]:
    """A file's lines as the tools' Python callers read them: UTF-8, split at newlines only, a BOM kept."""
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def load_corpus(entry: dict) -> Corpus:
    """The hypotheses and, per segment, the references of one corpus entry."""
    if "hypotheses" in entry:
        return entry["hypotheses"], entry["list_of_references"]
    hypotheses = read_lines(ROOT / entry["hypothesis_file"])
    columns = [read_lines(ROOT / name) for name in entry["reference_files"]]
    return hypotheses, [list(refs) for refs in zip(*columns)]


def version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def nltk_tools() -> dict[str, Callable[[Corpus], float]]:
    from nltk.translate.bleu_score import corpus_bleu

    def score(corpus: Corpus) -> float:
        hypotheses, list_of_references = corpus
        return corpus_bleu([[r.split() for r in refs] for refs in list_of_references], [h.split() for h in hypotheses])

    return {"nltk": score}


def sacrebleu_tools() -> dict[str, Callable[[Corpus], float]]:
    import sacrebleu

    def scorer(**options: str) -> Callable[[Corpus], float]:
        def score(corpus: Corpus) -> float:
            hypotheses, list_of_references = corpus
            return sacrebleu.corpus_bleu(hypotheses, streams(list_of_references), **options).score

        return score

    tools = {"sacrebleu": scorer()}
    for tokenize in ("none", "zh", "intl", "char", "ja-mecab", "ko-mecab"):
        tools[f"sacrebleu-tok-{tokenize}"] = scorer(tokenize=tokenize)
    for method in ("none", "floor", "add-k"):
        tools[f"sacrebleu-smooth-{method}"] = scorer(smooth_method=method)
    return tools


def streams(list_of_references: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """sacrebleu's reference streams (stream j holds every segment's j-th reference), None where a segment has fewer."""
    most = max(len(refs) for refs in list_of_references)
    return [[refs[j] if j < len(refs) else None for refs in list_of_references] for j in range(most)]


def nmt_tools(path: str) -> dict[str, Callable[[Corpus], float]]:
    spec = importlib.util.spec_from_file_location("nmt_bleu", path)
    assert spec and spec.loader, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def scorer(smooth: bool) -> Callable[[Corpus], float]:
        def score(corpus: Corpus) -> float:
            hypotheses, list_of_references = corpus
            references = [[r.split() for r in refs] for refs in list_of_references]
            return module.compute_bleu(references, [h.split() for h in hypotheses], 4, smooth)[0]

        return score

    return {"nmt": scorer(False), "nmt-smooth": scorer(True)}


def torchmetrics_tools() -> dict[str, Callable[[Corpus], float]]:
    from torchmetrics.text import BLEUScore, SacreBLEUScore

    def scorer(metric: Callable[[], object]) -> Callable[[Corpus], float]:
        def score(corpus: Corpus) -> float:
            hypotheses, list_of_references = corpus
            value = metric()(hypotheses, [list(refs) for refs in list_of_references])  # type: ignore[operator]
            assert str(value.dtype) == "torch.float32", value.dtype
            return float(value)

        return score

    return {
        "torchmetrics": scorer(lambda: BLEUScore(n_gram=4, smooth=False)),
        "torchmetrics-smooth": scorer(lambda: BLEUScore(n_gram=4, smooth=True)),
        "torchmetrics-sacrebleu": scorer(lambda: SacreBLEUScore()),
    }


# What d2l.torch imports when it loads, for its plots and image data sets; its bleu uses only math and collections.
D2L_IMPORTS_BLEU_DOES_NOT_USE = (
    "torchvision", "torchvision.transforms", "PIL", "PIL.Image", "pandas", "requests", "IPython", "IPython.display",
    "matplotlib", "matplotlib.pyplot", "matplotlib_inline", "matplotlib_inline.backend_inline", "scipy",
    "scipy.spatial",
)  # fmt: skip


def d2l_tools() -> dict[str, Callable[[Corpus], float]]:
    # `pip install d2l==1.0.3 --no-deps` leaves those out (torchvision would bring another torch): stand-ins
    # let the module load; the bleu function that runs is d2l's own.
    for name in D2L_IMPORTS_BLEU_DOES_NOT_USE:
        if importlib.util.find_spec(name.split(".")[0]) is None:
            sys.modules.setdefault(name, mock.MagicMock(name=name))
    from d2l.torch import bleu

    def score(corpus: Corpus) -> float:
        hypotheses, list_of_references = corpus
        scores = [bleu(h, refs[0], k=4) for h, refs in zip(hypotheses, list_of_references)]
        return sum(scores) / len(scores)

    return {"d2l": score}


def real_tools(nmt: str | None) -> tuple[dict[str, Callable[[Corpus], float]], dict[str, str | None]]:
    """Every real tool that imports here, and the versions (None: not installed, so not recorded)."""
    tools: dict[str, Callable[[Corpus], float]] = {}
    versions: dict[str, str | None] = {"python": sys.version.split()[0]}
    makers = {"nltk": nltk_tools, "sacrebleu": sacrebleu_tools, "torchmetrics": torchmetrics_tools, "d2l": d2l_tools}
    for package, make in makers.items():
        versions[package] = version(package)
        if versions[package] is not None:
            tools |= make()
    versions["torch"] = version("torch")
    if nmt:
        tools |= nmt_tools(nmt)
    return tools, versions


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path, help="JSON file of named corpora")
    parser.add_argument("output", type=Path, help="JSON file to write")
    parser.add_argument("--nmt", help="path of tensorflow/nmt's nmt/scripts/bleu.py")
    parser.add_argument("--nmt-commit", default="unknown", help="the tensorflow/nmt commit that file comes from")
    args = parser.parse_args(argv)
    tools, versions = real_tools(args.nmt)
    versions["tensorflow/nmt"] = args.nmt_commit if args.nmt else None
    corpora = json.loads(args.corpora.read_text(encoding="utf-8"))
    for name, entry in corpora.items():
        corpus = load_corpus(entry)
        entry["scores"] = {}
        for tool, score in tools.items():
            try:
                entry["scores"][tool] = score(corpus)
            except ZeroDivisionError as error:
                entry["scores"][tool] = {"error": type(error).__name__}
        print(name, {tool: round(v, 6) if isinstance(v, float) else v for tool, v in entry["scores"].items()})
    record = {"versions": versions, "corpora": corpora}
    args.output.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
