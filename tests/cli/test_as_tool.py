"""``bleu-scratch --as TOOL``: another tool's number for the same files, with what was computed."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

from bleu_scratch import TOOLS, tool_signature
from tests.cli.run_command import run_main, run_module, write

RECORDED = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "tool_scores.json").read_text("utf-8"))


def lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def test_as_nltk_prints_nltks_corpus_bleu_and_the_signature(capsys, wmt15):
    status, out, err = run_main(capsys, "--as", "nltk", wmt15["google.ru"], wmt15["ref.ru"])
    theirs = nltk_corpus_bleu(
        [[line.split()] for line in lines(wmt15["ref.ru"])], [h.split() for h in lines(wmt15["google.ru"])]
    )
    assert (status, err) == (0, "")
    assert out == f"nltk = {theirs} ({tool_signature('nltk')})\n"


def test_as_sacrebleu_prints_sacrebleus_score(capsys, wmt15):
    status, out, _ = run_main(capsys, "--as", "sacrebleu", wmt15["raw hypothesis"], wmt15["raw reference"], "--json")
    theirs = sacrebleu.corpus_bleu(lines(wmt15["raw hypothesis"]), [lines(wmt15["raw reference"])]).score
    assert status == 0
    assert json.loads(out)["score"] == theirs


@pytest.mark.parametrize(
    "tool, options, settings",
    [
        ("sacrebleu", [], {}),
        ("sacrebleu", ["--lowercase"], {"lowercase": True}),
        ("sacrebleu-tok-intl", ["--lowercase"], {"lowercase": True, "tokenize": "intl"}),
        ("sacrebleu-tok-none", [], {"tokenize": "none"}),
        ("sacrebleu-smooth-floor", [], {"smooth_method": "floor"}),
        ("sacrebleu-smooth-add-k", [], {"smooth_method": "add-k"}),
        ("sacrebleu-smooth-none", [], {"smooth_method": "none"}),
    ],
)
def test_as_sacrebleu_prints_sacrebleus_number_and_signature(capsys, wmt15, tool, options, settings):
    hypothesis, reference = wmt15["raw hypothesis"], wmt15["raw reference"]
    status, out, _ = run_main(capsys, "--as", tool, hypothesis, reference, reference, *options)
    metric = sacrebleu.BLEU(**settings)
    theirs = metric.corpus_score(lines(hypothesis), [lines(reference), lines(reference)])
    assert (status, out) == (0, f"{tool} = {theirs.score} ({metric.get_signature()})\n")


@pytest.mark.parametrize("ending", [b" .\n", b" . \n"])
def test_tokenized_text_gets_sacrebleus_warning_after_the_score(tmp_path, ending):
    # sacrebleu's command line warns from 100 lines that end in " ." on (trailing whitespace aside): 99 such lines
    # and 1 other are quiet, 100 are not; other tools than sacrebleu stay quiet.
    reference = write(tmp_path / "ref", b"A cat sat .\n" * 100)
    for periods, warned in [(99, False), (100, True)]:
        hypothesis = write(tmp_path / "hyp", (b"A cat sat" + ending) * periods + b"A cat sat.\n" * (100 - periods))
        theirs = subprocess.run(
            [sys.executable, "-m", "sacrebleu", reference, "-i", hypothesis, "-b"], capture_output=True, text=True
        )
        assert ("That's 100 lines that end in a tokenized period" in theirs.stderr) is warned
        result = run_module("--as", "sacrebleu", hypothesis, reference)
        assert result.returncode == 0 and result.stdout.startswith("sacrebleu = ")
        assert (f"bleu-scratch: warning: {hypothesis}: 100 lines end in a tokenized period" in result.stderr) is warned
        assert result.stderr.count("\n") == int(warned)
    result = run_module("--as", "multi-bleu", hypothesis, reference)
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("tool", ["nmt", "nmt-smooth", "torchmetrics", "torchmetrics-sacrebleu", "d2l", "mteval-v13a"])
def test_as_a_recorded_tool_prints_the_real_tools_number(capsys, data_dir, tool):
    # uedin-nmt's file has no byte order mark, which the command drops and the recording kept.
    entry = RECORDED["corpora"]["wmt17-uedin-nmt"]
    theirs = entry["scores"][tool]
    root = data_dir.parent
    status, out, _ = run_main(
        capsys, "--as", tool, str(root / entry["hypothesis_file"]), str(root / entry["reference_files"][0]), "--json"
    )
    score = json.loads(out)["score"]
    assert status == 0
    if tool.startswith("torchmetrics"):
        assert np.float32(score) == np.float32(theirs)
    elif tool == "mteval-v13a":
        assert float(f"{score:.15g}") == theirs
    else:
        assert score == theirs


def test_a_bad_tool_name_is_one_line_and_exit_2(wmt15):
    result = run_module("--as", "evaluate", wmt15["google.ru"], wmt15["ref.ru"])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "argument --as: no tool 'evaluate': one of " + ", ".join(TOOLS) in result.stderr


@pytest.mark.parametrize(
    "option, message",
    [
        (["--tokenize", "13a"], "--as nmt scores with the tool's own tokenize: drop --tokenize"),
        (["--weights", "0.5,0.5"], "drop --weights"),
        (["--lowercase"], "drop --lowercase"),  # sacrebleu's own -lc is --as sacrebleu --lowercase
        (["--sentence"], "drop --sentence, --jobs and --scheduler"),
    ],
)
def test_options_the_tool_decides_are_refused(capsys, wmt15, option, message):
    with pytest.raises(SystemExit) as exit_info:
        run_main(capsys, "--as", "nmt", wmt15["google.ru"], wmt15["ref.ru"], *option)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("tool", ["nmt", "multi-bleu", "mteval-v13a"])
def test_a_tool_that_itself_fails_is_one_line_and_exit_2(capsys, tmp_path, tool):
    # The recorded real tools fail on an empty hypothesis (tests/fixtures/tool_scores.json, "empty-hypothesis").
    assert isinstance(RECORDED["corpora"]["empty-hypothesis"]["scores"][tool], dict)
    hypothesis, reference = write(tmp_path / "hyp", b"\n"), write(tmp_path / "ref", b"a b c\n")
    status, out, err = run_main(capsys, "--as", tool, hypothesis, reference)
    assert (status, out) == (2, "")
    assert err.startswith(f"bleu-scratch: error: {tool} itself stops on these files (") and err.count("\n") == 1


def test_a_float32_prints_as_numpy_prints_it(capsys, data_dir):
    entry = RECORDED["corpora"]["wmt17-uedin-nmt"]
    root = data_dir.parent
    status, out, _ = run_main(
        capsys, "--as", "torchmetrics", str(root / entry["hypothesis_file"]), str(root / entry["reference_files"][0])
    )
    theirs = np.float32(entry["scores"]["torchmetrics"])
    assert (status, out) == (0, f"torchmetrics = {theirs!s} ({tool_signature('torchmetrics')})\n")
