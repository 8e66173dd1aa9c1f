"""One student edition and the repository's own grade, made once for all the course tools' tests."""

from pathlib import Path

import pytest

from bleu_classroom import grader, release, report
from tests.classroom.edition_tools import REPO


@pytest.fixture(scope="session")
def edition(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("edition")
    release.release(out)
    return out


@pytest.fixture(scope="session")
def repo_report() -> report.Report:
    return grader.grade(REPO)


@pytest.fixture(scope="session")
def fresh_report(edition, repo_report) -> report.Report:
    return grader.grade(edition)
