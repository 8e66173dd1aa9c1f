"""Reading the files: every kind of bad input is one line on stderr and exit status 2, never a partial score."""

from pathlib import Path

import pytest

from bleu_cli import segments
from tests.cli.run_command import run_main, run_module, write


def test_crlf_line_endings_score_like_lf(capsys, tmp_path, wmt15):
    for name in ["google.ru", "ref.ru"]:
        (tmp_path / name).write_bytes(Path(wmt15[name]).read_bytes().replace(b"\n", b"\r\n"))
    assert run_main(capsys, str(tmp_path / "google.ru"), str(tmp_path / "ref.ru"), "--tokenize", "13a") == run_main(
        capsys, wmt15["google.ru"], wmt15["ref.ru"], "--tokenize", "13a"
    )


def bad_inputs(tmp_path) -> dict[str, tuple[list[str], list[str]]]:
    """Each kind of bad input: (argv, what the message must say)."""
    hyp = write(tmp_path / "hyp.txt", b"the cat\n" * 25)
    ref24 = write(tmp_path / "ref24.txt", b"the cat\n" * 24)
    ref25 = write(tmp_path / "ref25.txt", b"the cat\n" * 25)
    # The bad byte is on the last line, after every other line has been scored.
    latin1 = write(tmp_path / "latin1.txt", b"the cat\n" * 24 + "the caf\u00e9\n".encode("latin-1"))
    empty = write(tmp_path / "empty.txt", b"")
    return {
        "fewer reference lines": ([hyp, ref25, ref24], ["ref24.txt has 24 lines", "hyp.txt has 25 lines"]),
        "more reference lines": ([ref24, ref25], ["ref25.txt has 25 lines", "ref24.txt has 24 lines"]),
        "missing file": ([hyp, str(tmp_path / "missing.txt")], ["cannot read", "missing.txt", "No such file"]),
        "unreadable file (a directory)": ([hyp, str(tmp_path)], ["cannot read", str(tmp_path), "Is a directory"]),
        "invalid UTF-8": ([hyp, latin1], ["latin1.txt, line 25: not valid UTF-8", "b'\\xe9'"]),
        "empty hypothesis file": ([empty, ref25], ["empty.txt is empty"]),
        "empty hypothesis and reference": ([empty, empty], ["empty.txt is empty"]),
    }


BAD_INPUTS = [
    "fewer reference lines",
    "more reference lines",
    "missing file",
    "unreadable file (a directory)",
    "invalid UTF-8",
    "empty hypothesis file",
    "empty hypothesis and reference",
]


@pytest.mark.parametrize("kind", BAD_INPUTS)
@pytest.mark.parametrize("mode", [[], ["--sentence"], ["--json"], ["--jobs", "2"]], ids=" ".join)
def test_bad_input_in_process_prints_only_the_error(capsys, tmp_path, monkeypatch, kind, mode):
    monkeypatch.setattr(segments, "SHARD_LINES", 4)  # several shards are scored before the problem shows
    argv, message = bad_inputs(tmp_path)[kind]
    status, out, err = run_main(capsys, *argv, *mode)
    assert (status, out) == (2, "")
    assert err.startswith("bleu-scratch: error: ") and err.count("\n") == 1
    for part in message:
        assert part in err


@pytest.mark.parametrize("kind", BAD_INPUTS)
def test_bad_input_as_a_module(tmp_path, kind):
    argv, message = bad_inputs(tmp_path)[kind]
    result = run_module(*argv)
    assert (result.returncode, result.stdout) == (2, "")
    for part in message:
        assert part in result.stderr
    assert "Traceback" not in result.stderr
