"""Peak memory of ``bleu-scratch`` on a large file pair, with each number of processes (Linux only).

    python benchmarks/cli_memory.py                          # 1,000,000 segments: one process, --jobs 2, --jobs 4
    python benchmarks/cli_memory.py --segments 200000 --jobs 0 2 --dir /tmp/cli
    python benchmarks/cli_memory.py --jobs 0 --sacrebleu     # and sacrebleu's command on the same files

``--jobs 0`` runs the command without ``--jobs``, in one process.

The files are written from bleu_scratch.synthetic_corpus (about 25
tokens a segment, one reference; 1,000,000 segments are 117 MB a file, and take
about 40 s to write) into --dir, or a temporary directory; files already there
for the same number of segments are reused.

Memory is the peak, over samples every 0.05 s, of the summed RSS of the
command and all its descendants (with ``--jobs N``: the process hosting the
local Dask cluster, its scheduler, and N workers, each under its nanny), read
from /proc. RSS counts a page shared by several processes (the
Python library, say) once per process, so the sum overstates what the tree
really holds; PSS, which divides each shared page among its processes, is
printed too. RSS is a counter the kernel keeps (/proc/PID/statm, updated in
batches, so a little approximate), cheap to read; PSS is not: the kernel
walks the process's page tables for it (/proc/PID/smaps_rollup), in time
that grows with its memory, and the process may wait for the walk. Read at
every sample, it would slow a large process it measures, so PSS is read
only a twentieth of the time: after a read that took t seconds, the next
comes 20 t later. The peak PSS printed is then the largest read, which
may miss a short peak between reads.

With --sacrebleu, sacrebleu's own command scores the same files (``sacrebleu
REF -i HYP -tok none -b``: the same statistics, since neither tokenizes), and
each row's last column is sacrebleu's wall time over its own.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bleu_scratch import synthetic_corpus

COMMAND = [sys.executable, "-m", "bleu_cli"]
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
SACREBLEU = [sys.executable, "-m", "sacrebleu"]


def write_corpus(folder: Path, segments: int) -> tuple[Path, Path]:
    """The hypothesis and reference files of ``segments`` synthetic segments, written 10,000 at a time."""
    hypothesis, reference = folder / f"hyp-{segments}.txt", folder / f"ref-{segments}.txt"
    if hypothesis.exists() and reference.exists():
        return hypothesis, reference
    folder.mkdir(parents=True, exist_ok=True)  # --dir may name a folder not made yet
    with open(hypothesis, "w", encoding="utf-8") as hyp_file, open(reference, "w", encoding="utf-8") as ref_file:
        for seed, start in enumerate(range(0, segments, 10_000)):
            list_of_references, hypotheses = synthetic_corpus(min(10_000, segments - start), seed=seed)
            hyp_file.writelines(" ".join(tokens) + "\n" for tokens in hypotheses)
            ref_file.writelines(" ".join(refs[0]) + "\n" for refs in list_of_references)
    return hypothesis, reference


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it.

    >>> descendants(os.getpid())[0] == os.getpid()
    True
    """
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo.extend(int(child) for child in children.read().split())
        except OSError:  # it has just ended
            pass
    return found


def rss_kb(pid: int) -> int:
    """A process's resident set size in kB, from the kernel's counters (0 once it has ended).

    >>> rss_kb(os.getpid()) > 0
    True
    """
    try:
        with open(f"/proc/{pid}/statm") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return 0
    return pages * PAGE_KB


def pss_kb(pid: int) -> int:
    """A process's proportional set size in kB, from a walk of its page tables (0 once it has ended).

    >>> 0 < pss_kb(os.getpid()) <= 2 * rss_kb(os.getpid())
    True
    """
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
    except (OSError, StopIteration):
        return 0


def peak_memory(argv: list[str]) -> tuple[str, float, int, int, int]:
    """Run ``argv``; its output, seconds, peak tree RSS and PSS (kB), and the processes at the RSS peak."""
    start = time.perf_counter()
    command = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    peak_rss = peak_pss = processes = 0
    next_pss = start
    while command.poll() is None:
        pids = descendants(command.pid)
        rss = sum(map(rss_kb, pids))
        if rss > peak_rss:
            peak_rss, processes = rss, len(pids)
        now = time.perf_counter()
        if now >= next_pss:  # a twentieth of the time at most (the module's docstring says why)
            peak_pss = max(peak_pss, sum(map(pss_kb, pids)))
            next_pss = now + 20 * (time.perf_counter() - now)
        time.sleep(0.05)
    output = command.stdout.read().strip()
    if command.returncode:
        raise SystemExit(f"{' '.join(argv)} failed with status {command.returncode}")
    return output, time.perf_counter() - start, peak_rss, peak_pss, processes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[0, 2, 4], help="0: without --jobs (one process)")
    parser.add_argument("--dir", type=Path, help="where to write (or find) the files; default: a temporary directory")
    parser.add_argument("--sacrebleu", action="store_true", help="also time sacrebleu's command on the same files")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        hypothesis, reference = write_corpus(args.dir or Path(scratch), args.segments)
        print(
            f"{args.segments:,} segments, {os.cpu_count()} CPUs; "
            f"{hypothesis} ({hypothesis.stat().st_size / 1e6:.0f} MB)"
        )
        commands = {" ".join(["--jobs", str(jobs)] if jobs else []) or "(one process)": jobs for jobs in args.jobs}
        runs = {}
        for name, jobs in commands.items():
            option = ["--jobs", str(jobs)] if jobs else []
            runs[name] = peak_memory([*COMMAND, str(hypothesis), str(reference), *option])
            print(f"{name}: {runs[name][0]}", flush=True)
        if args.sacrebleu:
            sacrebleu = [*SACREBLEU, str(reference), "-i", str(hypothesis), "-tok", "none", "-b"]
            runs["sacrebleu -tok none"] = peak_memory(sacrebleu)
            print(f"sacrebleu: {runs['sacrebleu -tok none'][0]}", flush=True)
    print("\n| command | processes | peak RSS of the tree (MB) | peak PSS (MB) | wall time (s) | sacrebleu / this |")
    print("|---|---|---|---|---|---|")
    for name, (_, seconds, rss, pss, processes) in runs.items():
        ratio = f"{runs['sacrebleu -tok none'][1] / seconds:.1f}" if args.sacrebleu else "-"
        print(f"| {name} | {processes} | {rss / 1024:.0f} | {pss / 1024:.0f} | {seconds:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
