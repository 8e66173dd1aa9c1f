"""What the command asks of a Dask cluster's workers before it scores: this bleu-scratch installed, and the files.

The workers run the command's code, so each must have the command's version of
bleu-scratch; a worker that sees the files under the same paths, with the same
sizes, reads its slices itself (each checked against a digest of the bytes the
command read), else the command sends it the lines.
"""

import importlib.metadata
import os
from typing import Any

from bleu_scratch import __version__

from .errors import WorkerLacksTheCommand, WorkerRunsAnother


def workers_run_this_command(client: Any) -> None:
    """Every worker has this version of bleu-scratch installed: the workers run the command's code.

    Asked with a function of the standard library, which a worker without bleu-scratch can run too.
    """
    try:
        ours = importlib.metadata.version("bleu-scratch")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that is not installed
        ours = __version__
    try:
        versions = client.run(importlib.metadata.version, "bleu-scratch")
    except Exception as error:  # Dask raises a worker's error as a plain Exception that quotes it
        raise WorkerLacksTheCommand(client.scheduler.address, str(error)) from None
    others = sorted(set(versions.values()) - {ours})
    if others:
        raise WorkerRunsAnother(client.scheduler.address, ", ".join(others), ours)


def workers_read(client: Any, paths: list[str]) -> bool:
    """Whether every worker sees the files as this process does (same paths, same sizes); each slice's digest
    then checks the bytes a worker reads (``with_digests``)."""
    sizes = {os.path.abspath(path): os.path.getsize(path) for path in paths}
    answers = client.run(_sizes, list(sizes))
    return all(answer == sizes for answer in answers.values())


def _sizes(paths: list[str]) -> dict[str, int | None]:
    """The size of each file as a worker sees it (None where it sees no file)."""
    return {path: os.path.getsize(path) if os.path.isfile(path) else None for path in paths}
