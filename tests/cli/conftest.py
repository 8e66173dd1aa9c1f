"""The WMT15 files the command's tests score."""

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def wmt15(data_dir):
    folder = data_dir / "wmt15-enru-100"
    return {name: str(folder / name) for name in ["google.ru", "ref.ru", "src.en"]} | {
        "raw hypothesis": str(folder / "newstest-2015-100sents.en-ru.google.ru"),
        "raw reference": str(folder / "newstest-2015-100sents.en-ru.ref.ru"),
    }


@pytest.fixture(scope="session")
def long_input(tmp_path_factory, wmt15) -> list[str]:
    """The WMT15 files a thousand times over: 100,000 segments."""
    folder = tmp_path_factory.mktemp("long")
    paths = []
    for name in ["google.ru", "ref.ru"]:
        (folder / name).write_bytes(Path(wmt15[name]).read_bytes().rstrip(b"\n") + b"\n")
        (folder / name).write_bytes((folder / name).read_bytes() * 1000)
        paths.append(str(folder / name))
    return paths
