"""bleu-scratch-compare: sacrebleu's paired tests of files, its table and JSON, bad input as one line, the progress
bar."""

import importlib.metadata
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_cli import compare, report
from bleu_scratch import SACREBLEU_TOKENIZERS
from bleu_scratch.notebook import read_lines
from tests.cli.run_command import PATIENCE, first_stderr_line, start, write
from tests.cli.test_sacrebleu_tokenizers import HYPOTHESES, REFERENCES
from tests.cli.test_scoring_and_report import Terminal

# Two systems of WMT17: one significantly better than the baseline, one not.
SYSTEMS = ["uedin-nmt.4722", "xmu.4910"]


# The command as its console script runs it, started by run_command.start (Ctrl-C handled as at a terminal).
COMPARE_PROGRAM = "import sys, bleu_cli; raise SystemExit(bleu_cli.compare_main(sys.argv[1:]))"


def run_compare(capsys, *argv: str) -> tuple[int, str, str]:
    status = compare.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_compare_module(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bleu_cli.compare", *argv], capture_output=True, text=True, timeout=120
    )


@pytest.fixture(scope="module")
def files(wmt17):
    """The command line's files: the baseline, two systems, and ``--references`` with the reference."""
    return [wmt17.system_path("LIUM-NMT.4900"), *map(wmt17.system_path, SYSTEMS), "--references", wmt17.reference_path]


def sacrebleu_run(paths: list[str], test_type: str, n_samples: int, tokenize: str = "13a", n_ar_confidence: int = -1):
    """sacrebleu's PairedTest of the same files (as read_lines reads them), at its default seed 12345.

    ``paths`` are the command line's: the baseline, the systems, ``--references`` and one reference.
    """
    os.environ.pop("SACREBLEU_SEED", None)
    *systems, _, reference = paths
    metrics = {"BLEU": BLEU(references=[read_lines(reference)], tokenize=tokenize)}
    named = [(path, read_lines(path)) for path in systems]
    return PairedTest(named, metrics, None, test_type=test_type, n_samples=n_samples, n_ar_confidence=n_ar_confidence)()


@pytest.fixture(scope="module")
def sacrebleu_defaults(files):
    """sacrebleu's paired bootstrap with its defaults (13a, 1,000 resamples), as the command's defaults."""
    return sacrebleu_run(files, "bs", 1000)


def sacrebleu_rows(results) -> list[tuple]:
    return [(name, r.score, r.p_value, r.mean, r.ci) for name, r in zip(results["System"], results["BLEU"])]


def json_rows(report: dict) -> list[tuple]:
    return [(s["system"], s["score"], s["p_value"], s["mean"], s["ci"]) for s in report["systems"]]


def test_json_is_sacrebleus_paired_bootstrap(capsys, files, sacrebleu_defaults):
    signatures, results = sacrebleu_defaults
    status, out, err = run_compare(capsys, *files, "--json")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert json_rows(report) == sacrebleu_rows(results)
    assert [s["baseline"] for s in report["systems"]] == [True, False, False]
    assert all(s["low"] <= s["mean"] <= s["high"] for s in report["systems"])
    assert report["signature"] == signatures["BLEU"].format()
    assert (report["test"], report["samples"], report["seed"], report["tokenize"]) == ("bs", 1000, 12345, "13a")


def test_json_is_sacrebleus_approximate_randomization(capsys, files):
    # The intervals from 1,000 resamples: sacrebleu's n_ar_confidence=1000.
    signatures, results = sacrebleu_run(files, "ar", 1000, tokenize="none", n_ar_confidence=1000)
    status, out, err = run_compare(capsys, *files, "--test", "ar", "--samples", "1000", "--tokenize", "none", "--json")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert json_rows(report) == sacrebleu_rows(results)
    assert report["signature"] == signatures["BLEU"].format()


def test_table_like_sacrebleus(capsys, files, sacrebleu_defaults):
    _, results = sacrebleu_defaults
    status, out, err = run_compare(capsys, *files)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["System", "BLEU", "(μ", "±", "95%", "CI)", "p-value"]
    # sacrebleu's cells: score (mean ± ci), then (p = p-value), "*" below 0.05; here with two decimals.
    expected = []
    for name, r in zip(results["System"], results["BLEU"]):
        cells = [f"{r.score:.2f} ({r.mean:.2f} ± {r.ci:.2f})"]
        if r.p_value is not None:
            cells.append(f"(p = {r.p_value:.4f})" + ("*" if r.p_value < 0.05 else ""))
        expected.append(("Baseline: " if r.p_value is None else "") + name + "  " + "  ".join(cells))
    assert [" ".join(line.split()) for line in lines[2:5]] == [" ".join(line.split()) for line in expected]
    assert lines[6] == "Paired bootstrap resampling test with 1000 resamples"
    assert "(p = 0.0010)*" in lines[3] and "*" not in lines[4]  # uedin-nmt differs, xmu does not
    assert lines[-1].endswith("nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0")


def test_python_dash_m_and_the_console_script(files):
    result = run_compare_module(*files, "--samples", "100", "--tokenize", "none")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[2].startswith("Baseline: ")
    scripts = {entry.name: entry.value for entry in importlib.metadata.entry_points(group="console_scripts")}
    assert scripts["bleu-scratch-compare"] == "bleu_cli:compare_main"


def test_seed_none_and_other_tokenizers(capsys, files):
    status, out, _ = run_compare(
        capsys, *files, "--samples", "50", "--seed", "none", "--tokenize", "punctuation", "--json"
    )
    report = json.loads(out)
    assert (status, report["seed"], report["signature"]) == (0, None, None)
    status, out, _ = run_compare(capsys, *files, "--samples", "50", "--tokenize", "punctuation")
    assert out.splitlines()[-1] == "tokenizer 'punctuation' is lesson 01's; sacrebleu has none of that name"


def test_lowercase_is_sacrebleus_lc(capsys, files):
    *systems, _, reference = files
    metrics = {"BLEU": BLEU(references=[read_lines(reference)], lowercase=True)}
    named = [(path, read_lines(path)) for path in systems]
    os.environ.pop("SACREBLEU_SEED", None)
    signatures, results = PairedTest(named, metrics, None, test_type="bs", n_samples=100)()
    status, out, _ = run_compare(capsys, *files, "--samples", "100", "--lowercase", "--json")
    report = json.loads(out)
    assert status == 0 and json_rows(report) == sacrebleu_rows(results)
    assert report["signature"] == signatures["BLEU"].format() and "case:lc" in report["signature"]


@pytest.mark.parametrize("test_type, trials", [("bs", 100), ("ar", 200)])
def test_a_system_that_differs_in_no_trial_gets_sacrebleus_p_value_and_no_star(
    capsys, tmp_path, files, test_type, trials
):
    # The baseline's text with a space before each line's end: the same tokens, so the same BLEU in every trial.
    baseline, _, _, option, reference = files
    spaced = write(tmp_path / "spaced.txt", "".join(line + " \n" for line in read_lines(baseline)).encode())
    argv = [baseline, spaced, option, reference, "--test", test_type, "--samples", str(trials)]
    os.environ.pop("SACREBLEU_SEED", None)
    metrics = {"BLEU": BLEU(references=[read_lines(reference)])}
    named = [(path, read_lines(path)) for path in [baseline, spaced]]
    confidence = 1000 if test_type == "ar" else -1
    _, results = PairedTest(named, metrics, None, test_type=test_type, n_samples=trials, n_ar_confidence=confidence)()
    assert results["BLEU"][1].p_value == 1 / (trials + 1)  # sacrebleu's: no trial differs by more than 0
    status, out, _ = run_compare(capsys, *argv, "--json")
    assert status == 0 and json_rows(json.loads(out)) == sacrebleu_rows(results)
    assert [system["no_difference"] for system in json.loads(out)["systems"]] == [False, True]
    status, out, _ = run_compare(capsys, *argv)
    assert f"(p = {1 / (trials + 1):.4f})" in out.splitlines()[3] and "*" not in out.splitlines()[3]
    assert f" - {spaced}: the baseline's BLEU, and no trial differs from it by more than the 0 seen" in out


def test_a_tokenized_system_gets_sacrebleus_warning_after_the_table(tmp_path):
    # sacrebleu's command line warns from 100 lines that end in " ." on, trailing whitespace aside.
    reference = write(tmp_path / "ref", b"A cat sat .\n" * 100)
    tokenized = write(tmp_path / "tokenized", b"A cat sat . \n" * 100)
    detokenized = write(tmp_path / "detokenized", b"A cat sat.\n" * 100)
    theirs = subprocess.run(
        [sys.executable, "-m", "sacrebleu", reference, "-i", tokenized, "-b"], capture_output=True, text=True
    )
    assert "That's 100 lines that end in a tokenized period" in theirs.stderr
    result = run_compare_module(detokenized, tokenized, "-r", reference, "--samples", "10")
    assert result.returncode == 0 and result.stdout.startswith("System")
    assert result.stderr.splitlines() == [
        f"bleu-scratch-compare: warning: {tokenized}: 100 lines end in a tokenized period ('.'): it looks like the "
        "test data is not detokenized, which may hurt the score; sacrebleu warns so too. Score detokenized output "
        "(detokenize it with the tokenizer's own detokenizer, e.g. sacremoses'), or ignore this if it is"
    ]


@pytest.fixture(scope="module")
def scripts(tmp_path_factory):
    """Files of several scripts: the baseline, a system (each line's first half) and the reference."""
    folder = tmp_path_factory.mktemp("scripts")
    texts = {"baseline": HYPOTHESES, "system": [line[: len(line) // 2] for line in HYPOTHESES], "ref": REFERENCES}
    paths = {name: write(folder / f"{name}.txt", ("\n".join(text) + "\n").encode()) for name, text in texts.items()}
    return [paths["baseline"], paths["system"], "--references", paths["ref"]]


@pytest.mark.parametrize("tokenize", SACREBLEU_TOKENIZERS)
def test_every_sacrebleu_tokenizer_gives_sacrebleus_numbers_and_signature(capsys, scripts, tokenize):
    signatures, results = sacrebleu_run(scripts, "bs", 100, tokenize=tokenize)
    status, out, err = run_compare(capsys, *scripts, "--tokenize", tokenize, "--samples", "100", "--json")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert json_rows(report) == sacrebleu_rows(results)
    assert report["signature"] == signatures["BLEU"].format()


def test_a_byte_order_mark_stays_as_sacrebleus_command_line_reads_it(capsys, tmp_path):
    plain = write(tmp_path / "plain.txt", b"a b c d\ne f g h\n")
    marked = write(tmp_path / "marked.txt", b"\xef\xbb\xbfa b c d\ne f g h\n")
    reference = write(tmp_path / "ref.txt", b"a b c d\ne f g x\n")
    _, out, _ = run_compare(capsys, plain, marked, "--references", reference, "--json", "--samples", "20")
    scores = [system["score"] for system in json.loads(out)["systems"]]
    # sacrebleu's own reading: Python's "utf-8" codec keeps the mark, glued to "a".
    lines = {path: Path(path).read_text(encoding="utf-8").splitlines() for path in [plain, marked, reference]}
    expected = [BLEU().corpus_score(lines[path], [lines[reference]]).score for path in [plain, marked]]
    assert scores == expected and scores[1] < scores[0]
    assert lines[marked][0] == "\ufeffa b c d"


def bad_inputs(tmp_path, files) -> dict[str, tuple[list[str], str]]:
    """Each kind of bad input: (argv, what the one line on stderr says)."""
    baseline = write(tmp_path / "baseline.txt", b"a b c\n" * 5)
    system = write(tmp_path / "system.txt", b"a b d\n" * 5)
    short = write(tmp_path / "short.txt", b"a b c\n" * 4)
    empty = write(tmp_path / "empty.txt", b"")
    latin1 = write(tmp_path / "latin1.txt", b"a b c\n" * 4 + "caf\u00e9\n".encode("latin-1"))
    return {
        "a system with fewer lines": (
            [baseline, short, "-r", baseline],
            f"{short} has 4 lines, but the baseline {baseline} has 5 lines: every file needs one line per segment",
        ),
        "a reference with fewer lines": ([baseline, system, "-r", short], f"{short} has 4 lines, but the baseline"),
        "an empty reference": ([baseline, short, "-r", empty], f"{empty} has 0 lines"),
        "an empty baseline": ([empty, baseline, "-r", baseline], f"{empty} is empty"),
        "a missing file": ([baseline, str(tmp_path / "missing.txt"), "-r", baseline], "cannot read"),
        "invalid UTF-8": ([baseline, latin1, "-r", baseline], "latin1.txt, line 5: not valid UTF-8"),
        "a system given twice": ([baseline, short, short, "-r", baseline], f"{short} is given twice"),
        "the baseline given as a system": ([baseline, baseline, "-r", baseline], f"{baseline} is given twice"),
        "a system given twice by two names": (
            [baseline, system, f"{Path(system).parent}/./{Path(system).name}", "-r", baseline],
            f"is {system}, given again: name the baseline and each system once",
        ),
    }


BAD_INPUTS = [
    "a system with fewer lines",
    "a reference with fewer lines",
    "an empty reference",
    "an empty baseline",
    "a missing file",
    "invalid UTF-8",
    "a system given twice",
    "the baseline given as a system",
    "a system given twice by two names",
]


@pytest.mark.parametrize("kind", BAD_INPUTS)
def test_bad_input_is_one_line_and_status_2(capsys, tmp_path, files, kind):
    argv, message = bad_inputs(tmp_path, files)[kind]
    status, out, err = run_compare(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("bleu-scratch-compare: error: ") and err.count("\n") == 1 and message in err


def test_bad_input_as_a_module_has_no_traceback(tmp_path, files):
    argv, message = bad_inputs(tmp_path, files)["a system with fewer lines"]
    result = run_compare_module(*argv)
    assert (result.returncode, result.stdout) == (2, "")
    assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--samples", "0"], "--samples: must be a whole number of at least 1"),
        (["--seed", "-3"], "--seed: must be a whole number of at least 0, or none"),
        (["--test", "sign"], "--test: invalid choice"),
        (["--tokenize", "moses"], "--tokenize: invalid choice"),
        (["--tokenize", "flores200"], "tokenize 'flores200' needs a downloaded SentencePiece model"),
    ],
)
def test_bad_options_stop_argparse_with_status_2(capsys, files, argv, words):
    with pytest.raises(SystemExit) as stopped:
        compare.main([*files, *argv])
    captured = capsys.readouterr()
    assert (stopped.value.code, captured.out) == (2, "")
    assert captured.err.startswith("bleu-scratch-compare: error: ") and captured.err.count("\n") == 1
    assert words in captured.err


def test_references_are_required(capsys, files):
    with pytest.raises(SystemExit):
        compare.main(files[:2])
    assert "the following arguments are required: --references/-r" in capsys.readouterr().err


def test_progress_bar_on_a_terminal_only(capsys, monkeypatch, files):
    argv = [*files, "--samples", "20", "--tokenize", "none"]
    monkeypatch.setattr(report, "PROGRESS_DELAY", 0)
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert compare.main(argv) == 0
    assert "compare:" in sys.stderr.getvalue() and "/6 " in sys.stderr.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: never a bar
    assert compare.main(argv) == 0
    assert sys.stderr.getvalue() == ""
    assert capsys.readouterr().out.count("Baseline: ") == 2


@pytest.mark.parametrize("samples", ["10000000000", "99999999999999999999999"])
def test_more_samples_than_memory_holds_is_one_line_and_status_2(tmp_path, samples):
    hypothesis, reference = write(tmp_path / "h.txt", b"a b c\n"), write(tmp_path / "r.txt", b"a b d\n")
    result = run_compare_module(hypothesis, reference, "--references", reference, "--samples", samples)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and "of 8 bytes, more than this machine's memory; use fewer" in result.stderr


@pytest.mark.parametrize(
    "signal_number, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"]
)
def test_a_signal_stops_it_quietly_with_the_signals_status(tmp_path, signal_number, status):
    """A FIFO with no writer holds the command still: Ctrl-C or SIGTERM then stops it, with no traceback."""
    fifo, reference = tmp_path / "waits.txt", write(tmp_path / "r.txt", b"a b\n")
    os.mkfifo(fifo)
    command = start([str(fifo), reference, "--references", reference], program=COMPARE_PROGRAM)
    try:
        assert b"is a FIFO with no writer yet" in first_stderr_line(command)  # waiting: now the signal
        command.send_signal(signal_number)
        out, err = command.communicate(timeout=PATIENCE)
    finally:
        command.kill()
        command.wait()
    assert (command.returncode, out, err) == (status, b"", b"")


def test_standard_input_can_be_read_once(capsys, files):
    with pytest.raises(SystemExit) as stopped:
        compare.main(["-", files[1], "--references", "-"])
    captured = capsys.readouterr()
    assert (stopped.value.code, captured.out) == (2, "")
    assert "standard input (-) can be read once" in captured.err and captured.err.count("\n") == 1
