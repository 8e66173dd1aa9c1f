"""Record sacrebleu 2.6.0's paired tests on the 16 WMT17 systems, for lesson 11's table beside Moses and multeval.

    python tools/record_sacrebleu_significance.py     # writes data/wmt17-en-de-systems/sacrebleu-paired-tests.json

The settings are those of sacrebleu's own test against the published figures
(test/test_significance.py): the baseline LIUM-NMT.4900, tokenize 'none',
SACREBLEU_SEED 12345, paired bootstrap with 2,000 resamples (Moses' script
used 2,000) and approximate randomization with 10,000 trials (as multeval),
with 1,000 bootstrap resamples for the intervals of the latter (``n_ar_confidence``).
The run takes about a minute and a half, too long for the notebook, which
shows this record; tests/lessons/test_significance.py checks lesson 11's
``paired_test`` equal to it, and equal to sacrebleu run live in other settings.
"""

import json
import os

import sacrebleu
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_scratch.notebook import data_dir, read_lines

FOLDER = data_dir() / "wmt17-en-de-systems"
BASELINE = "LIUM-NMT.4900"
SEED = 12345
RUNS = {"bs": 2000, "ar": 10000}
INTERVAL_SAMPLES = 1000


def system_names() -> list[str]:
    """The systems' short names (as in published-figures.json), the baseline first."""
    names = sorted(
        path.name.removeprefix("newstest2017.").removesuffix(".en-de") for path in (FOLDER / "systems").iterdir()
    )
    return [BASELINE, *(name for name in names if name != BASELINE)]


def system_lines(name: str) -> list[str]:
    return read_lines(FOLDER / "systems" / f"newstest2017.{name}.en-de")


def record() -> dict:
    os.environ["SACREBLEU_SEED"] = str(SEED)
    named_systems = [(name, system_lines(name)) for name in system_names()]
    references = [read_lines(FOLDER / "newstest2017.ref.de")]
    runs = {}
    for test_type, n_samples in RUNS.items():
        metrics = {"BLEU": BLEU(references=references, tokenize="none")}
        # With n_ar_confidence set, sacrebleu's signature says bs:1000 for the bootstrap too: set only for AR.
        signatures, results = PairedTest(
            named_systems,
            metrics,
            references=None,
            test_type=test_type,
            n_samples=n_samples,
            n_ar_confidence=INTERVAL_SAMPLES if test_type == "ar" else -1,
        )()
        runs[f"{test_type}_{n_samples}"] = {
            "signature": signatures["BLEU"].format(),
            "systems": {
                name: {"score": result.score, "p_value": result.p_value, "mean": result.mean, "ci": result.ci}
                for name, result in zip(results["System"], results["BLEU"])
            },
        }
    return {
        "about": (
            "sacrebleu's PairedTest on the 16 systems, written by tools/record_sacrebleu_significance.py: the settings "
            "of sacrebleu's test/test_significance.py (baseline LIUM-NMT.4900, tokenize none, SACREBLEU_SEED 12345), "
            "files read with bleu_scratch.notebook.read_lines (no byte order mark), "
            f"n_ar_confidence={INTERVAL_SAMPLES}. "
            "ci is half the width of the 95% interval."
        ),
        "sacrebleu": sacrebleu.__version__,
        "baseline": BASELINE,
        **runs,
    }


if __name__ == "__main__":
    path = FOLDER / "sacrebleu-paired-tests.json"
    path.write_text(json.dumps(record(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
