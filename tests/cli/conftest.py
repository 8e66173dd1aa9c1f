"""The WMT15 files the command's tests score."""

import pytest


@pytest.fixture(scope="session")
def wmt15(data_dir):
    folder = data_dir / "wmt15-enru-100"
    return {name: str(folder / name) for name in ["google.ru", "ref.ru", "src.en"]} | {
        "raw hypothesis": str(folder / "newstest-2015-100sents.en-ru.google.ru"),
        "raw reference": str(folder / "newstest-2015-100sents.en-ru.ref.ru"),
    }
