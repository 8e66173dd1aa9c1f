"""bleu_scratch.notebook.as_recorded: the real tools' recorded runs are matched to the last bit on the Python they were
recorded with, and within 1e-12 on another (Python 3.12's sum() rounds some float sums differently)."""

import json
import sys
import warnings

import pytest

import bleu_scratch.notebook as notebook
from bleu_scratch.notebook import as_recorded, data_dir


def test_the_recordings_were_made_on_the_python_recorded_on_names():
    versions = json.loads((data_dir() / "atlas" / "real-tool-scores.json").read_text(encoding="utf-8"))["versions"]
    assert tuple(int(part) for part in versions["python"].split(".")[:2]) == notebook.RECORDED_ON


def test_exact_on_the_recording_python():
    assert sys.version_info[:2] == notebook.RECORDED_ON  # the suite runs where the stored outputs were made
    # sum([0.1, 0.2, 0.3]) is 0.6000000000000001 on Python 3.11 and 0.6 on 3.12.
    assert not as_recorded(0.6000000000000001, 0.6)
    assert not as_recorded(0.16015340455745244, 0.16015340455745247)  # A4's nmt on 3.11 and on 3.12
    assert as_recorded(("x", 0.6), ("x", 0.6))


def test_within_1e_12_and_said_once_on_another_python(monkeypatch):
    monkeypatch.setattr(notebook, "RECORDED_ON", (3, 10))
    monkeypatch.setattr(notebook, "_said", set())
    with pytest.warns(UserWarning, match=r"recorded with Python 3.10, whose sum\(\) rounds .* within 1e-12"):
        assert as_recorded((21.609767939750313, 0.5), (21.60976793975032, 0.5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once: a second warning would fail here
        assert as_recorded(0.16015340455745244, 0.16015340455745247)
        assert not as_recorded(0.16, 0.1601)
        assert not as_recorded({"error": "ValueError"}, 0.16)
        assert not as_recorded((1.0,), (1.0, 2.0))
