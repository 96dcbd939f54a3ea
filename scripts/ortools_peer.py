#!/usr/bin/env python3
"""OR-Tools CP-SAT as a peer on Sudoku of any order: the model a constraint programmer would
write (one integer variable per cell, AllDifferent per row, column and box, clues fixed),
solved with one worker, counting to 2 like `sudobench bench` (search for all solutions,
stopped at the second). Prints one line per file in `bench`'s columns, by the process CPU
clock, so RESULTS.md can put CP-SAT beside sudobench's backends.

Not a CI dependency: `pip install ortools` first. Usage:

    scripts/ortools_peer.py [--sample N] [--time-limit S] [--each] FILE...

`--time-limit S` gives CP-SAT S seconds per puzzle (its `max_time_in_seconds`); a puzzle it
does not decide in time is counted `unknown`, with the time spent. `--each` prints one line
per puzzle (file, record number, count, CPU seconds) before the file's summary.

Reads one-line puzzles (characters `.`/`0` and `1-9A-Z`, or n^4 numbers) from plain or
gzipped files; `#` lines are comments. Every solution is checked against the rules here
before it counts.
"""

import argparse
import gzip
import math
import sys
import time

from ortools.sat.python import cp_model

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse(line):
    """The cells of a one-line puzzle (0 for empty), or None for a comment or blank line."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    tokens = text.split()
    if len(tokens) > 1 and all(t.isdigit() for t in tokens):
        return [int(t) for t in tokens]
    return [0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1 for ch in tokens[0]]


def read(path, sample):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    out = []
    with opener(path, "rt") as f:
        for line in f:
            cells = parse(line)
            if cells is not None:
                out.append(cells)
                if sample and len(out) >= sample:
                    break
    return out


class Stop(cp_model.CpSolverSolutionCallback):
    """Keeps the first two solutions and stops the search at the second."""

    def __init__(self, cells):
        super().__init__()
        self.cells = cells
        self.found = []

    def on_solution_callback(self):
        self.found.append([self.Value(v) for v in self.cells])
        if len(self.found) >= 2:
            self.StopSearch()


def valid(puzzle, grid, n):
    side = n * n
    if any(p and p != g for p, g in zip(puzzle, grid)):
        return False
    want = set(range(1, side + 1))
    for k in range(side):
        row = {grid[k * side + j] for j in range(side)}
        col = {grid[j * side + k] for j in range(side)}
        br, bc = (k // n) * n, (k % n) * n
        box = {grid[(br + j // n) * side + bc + j % n] for j in range(side)}
        if row != want or col != want or box != want:
            return False
    return True


def count(puzzle, time_limit=None):
    side = math.isqrt(len(puzzle))
    n = math.isqrt(side)
    model = cp_model.CpModel()
    cells = [model.NewIntVar(1, side, "") for _ in range(side * side)]
    for i, v in enumerate(puzzle):
        if v:
            model.Add(cells[i] == v)
    for k in range(side):
        model.AddAllDifferent([cells[k * side + j] for j in range(side)])
        model.AddAllDifferent([cells[j * side + k] for j in range(side)])
        br, bc = (k // n) * n, (k % n) * n
        model.AddAllDifferent([cells[(br + j // n) * side + bc + j % n] for j in range(side)])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    if time_limit:
        solver.parameters.max_time_in_seconds = time_limit
    stop = Stop(cells)
    status = solver.Solve(model, stop)
    for grid in stop.found:
        if not valid(puzzle, grid, n):
            raise SystemExit(f"CP-SAT returned an invalid solution for {puzzle}")
    # Fewer than two solutions and a search that did not end: undecided (the time ran out).
    if len(stop.found) < 2 and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return None
    return len(stop.found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="first N puzzles of each file")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per puzzle (undecided puzzles count as unknown)")
    parser.add_argument("--each", action="store_true", help="one line per puzzle")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    print(f"{'set':<28} {'cpu puzzles/s':>14} {'cpu µs/puzzle':>14} {'puzzles':>8} "
          f"{'unique':>7} {'multiple':>8} {'none':>5} {'unknown':>7}")
    for path in args.files:
        puzzles = read(path, args.sample)
        counts = [0, 0, 0, 0]
        start = time.process_time()
        for i, p in enumerate(puzzles):
            began = time.process_time()
            found = count(p, args.time_limit)
            counts[3 if found is None else found] += 1
            if args.each:
                said = "unknown" if found is None else ["0", "1", "2+"][found]
                print(f"{path}:{i + 1} {said} {time.process_time() - began:.3f} s")
        spent = time.process_time() - start
        name = path.rsplit("/", 1)[-1].split(".")[0]
        rate = len(puzzles) / spent if spent else 0.0
        print(f"{name:<28} {rate:>14,.1f} {spent * 1e6 / max(len(puzzles), 1):>14,.0f} "
              f"{len(puzzles):>8} {counts[1]:>7} {counts[2]:>8} {counts[0]:>5} {counts[3]:>7}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
