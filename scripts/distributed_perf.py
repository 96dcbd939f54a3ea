"""Throughput of sudobench.distributed on a LocalCluster with 1 and 2 worker processes,
against the CLI on the same work (wall-clock seconds; run on a quiet machine).

    python scripts/distributed_perf.py path/to/sudobench [--generate N] [--hard] [--repeat R]
        [--chunk N] [--only NAME]

`--hard` generates with `--hard` (about 0.01 s per puzzle: work worth a cluster); without it
`generate` makes 2,000 puzzles in about 0.1 s, which fixed costs of a cluster run dominate.

Needs `pip install "./python[dask]"` in the running Python. Prints one line per figure.
"""

import argparse
import os
import subprocess
import time

from dask.distributed import Client, LocalCluster

from sudobench import distributed as sd

HARDEST = "data/puzzles5_forum_hardest_1905_11+.gz"
#: Seconds of quiet before each timed run (untimed).
IDLE = 0.2


def best(repeat, fn):
    times = []
    for _ in range(repeat):
        # Each timed run starts from an idle client, as a user's single run does: run after
        # run, the previous run's release of its results is still in the client's 10 ms
        # message batch when the next run sends its tasks, and delays them by up to 10 ms.
        time.sleep(IDLE)
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--generate", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--chunk", type=int, default=None,
                    help="records per bench task (default: the module's, four tasks per worker)")
    ap.add_argument("--only", help="run only the figures whose name starts with this")
    args = ap.parse_args()
    print("load:", os.getloadavg())
    work = {
        f"bench {b}": (
            [args.cli, "bench", "--format", "json", "--time-budget", "0", "--backends", b,
             HARDEST],
            lambda c, b=b: sd.bench(c, [HARDEST], backends=[b], chunk_size=args.chunk),
        )
        for b in ["bitmask", "dlx-array"]
    }
    hard = ["--hard"] if args.hard else []
    options = {"min_guesses": 20.0} if args.hard else {}
    work[f"generate {args.generate}{' --hard' if args.hard else ''}"] = (
        [args.cli, "generate", "--count", str(args.generate), *hard],
        lambda c: sd.generate(c, count=args.generate, **options),
    )
    if args.only:
        work = {name: w for name, w in work.items() if name.startswith(args.only)}
    cli = {
        name: best(args.repeat, lambda cmd=cmd: subprocess.run(
            cmd, check=False, capture_output=True))
        for name, (cmd, _) in work.items()
    }
    dask = {}
    for workers in [1, 2]:
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            for name, (_, fn) in work.items():
                fn(client)  # warm the workers (import, first build)
                dask[name, workers] = best(args.repeat, lambda: fn(client))
    for name in work:
        one, two = dask[name, 1], dask[name, 2]
        print(f"{name}: CLI {cli[name]:.3f} s, 1 worker {one:.3f} s "
              f"({one / cli[name]:.2f}x the CLI's time), 2 workers {two:.3f} s "
              f"(speed-up {one / two:.2f}x)")
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
