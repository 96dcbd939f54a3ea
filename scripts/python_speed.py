#!/usr/bin/env python3
"""Rate of a batch `sudobench.count` through Python against the CLI's whole process.

    python3 scripts/python_speed.py [--rounds N] [--cli target/release/sudobench] [FILE]

Runs, alternately so that both see the same machine load: the CLI
(`sudobench count FILE > /dev/null`, the whole process: start, gunzip, parse, count, verify,
print) and, in this process, `sudobench.count(puzzles)` on the puzzles `sudobench.read` got
from the same file (the count alone, and read + count). Prints the median puzzles/s of each by
wall time and by CPU time (the CLI's from its rusage, Python's from process_time, which
counts the worker thread too) and the ratios Python/CLI. Needs the module installed
(`pip install ./python`) and the CLI built (`cargo build --release`).
"""

import argparse
import os
import platform
import resource
import statistics
import subprocess
import time

import sudobench


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def run_cli(cli, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [cli, "count", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def timed(f):
    start, cpu0 = time.perf_counter(), time.process_time()
    result = f()
    return result, time.perf_counter() - start, time.process_time() - cpu0


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", default=os.path.join(root, "data/puzzles2_17_clue.gz"))
    ap.add_argument("--cli", default=os.path.join(root, "target/release/sudobench"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--backend", default="bitmask")
    args = ap.parse_args()

    puzzles, _ = sudobench.read(args.file)
    n = len(puzzles)
    rows = {"cli": [], "count": [], "read+count": []}
    reference = None
    for _ in range(args.rounds):
        rows["cli"].append(run_cli(args.cli, args.file))
        counts, wall, cpu = timed(lambda: sudobench.count(puzzles, backend=args.backend))
        rows["count"].append((wall, cpu))
        _, wall, cpu = timed(
            lambda: sudobench.count(sudobench.read(args.file)[0], backend=args.backend)
        )
        rows["read+count"].append((wall, cpu))
        if reference is None:
            reference = counts
        assert counts == reference

    print(f"{cpu_model()}, {os.cpu_count()} logical CPUs, load {os.getloadavg()[0]:.2f}")
    print(f"{args.file}: {n} puzzles, backend {args.backend}, {args.rounds} rounds, medians")
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in rows.items()}
    for k, (wall, cpu) in med.items():
        print(f"  {k:<11} {n / wall:>9.0f} puzzles/s wall  {n / cpu:>9.0f} puzzles/s CPU")
    for k in ("count", "read+count"):
        print(f"  ratio {k}/cli: {med['cli'][0] / med[k][0]:.2f} wall, "
              f"{med['cli'][1] / med[k][1]:.2f} CPU")


if __name__ == "__main__":
    main()
