#!/usr/bin/env python3
"""A SAT solver binary (Debian's `cadical` or `minisat`) as a peer, on exactly the DIMACS
formulas sudobench's SAT backends solve: `sudobench cnf --out DIR` writes one formula per
puzzle, the binary solves it, the model is read back through the `c v N rRcC=V` comments
into a grid, and the formula plus a clause blocking that grid is solved again: the count to
two that `sudobench bench` does. Prints one line per file in `bench`'s columns, by the CPU
time of the solver processes (the time to write and read files is not billed).

Not a CI dependency: `apt-get install cadical minisat` first. Usage:

    scripts/dimacs_peer.py SUDOBENCH {cadical|minisat} [--sample N] FILE...

Every grid found is checked against the rules and the clues here before it counts; a
second model that is the same grid, or a grid that breaks a rule, stops the script.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def solve(solver, cnf_text, work):
    """Runs the solver on a formula; returns the set of true DIMACS variables, or None if it
    is unsatisfiable."""
    path = work / "formula.cnf"
    path.write_text(cnf_text)
    if solver == "cadical":
        out = subprocess.run(["cadical", "-q", str(path)], capture_output=True, text=True)
        if out.returncode == 20:
            return None
        if out.returncode != 10:
            raise SystemExit(f"cadical exited {out.returncode}: {out.stderr}")
        lits = [int(t) for line in out.stdout.splitlines() if line.startswith("v ")
                for t in line[2:].split()]
    else:
        result = work / "result.txt"
        out = subprocess.run(["minisat", "-verb=0", str(path), str(result)],
                             capture_output=True, text=True)
        if out.returncode == 20:
            return None
        if out.returncode != 10:
            raise SystemExit(f"minisat exited {out.returncode}: {out.stderr}")
        lines = result.read_text().split("\n", 1)
        lits = [int(t) for t in lines[1].split()]
    return {lit for lit in lits if lit > 0}


def meaning(cnf_text):
    """(puzzle cells, side, [(var, cell, value)]) from the formula's comments."""
    title = cnf_text.split("\n", 1)[0]
    line = title.split()[3]
    symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if len(line) in (16, 81, 256, 625):
        cells = [0 if ch in ".0" else symbols.index(ch) + 1 for ch in line]
    else:  # numbers: the title holds them up to the "(" of the source
        cells = [int(t) for t in title.split("(")[0].split()[3:]]
    side = int(round(len(cells) ** 0.5))
    vars_ = []
    for row in cnf_text.splitlines():
        if row.startswith("c v "):
            _, _, var, rc = row.split()
            r, rest = rc[1:].split("c")
            c, v = rest.split("=")
            vars_.append((int(var), (int(r) - 1) * side + int(c) - 1, int(v)))
    return cells, side, vars_


def valid(puzzle, grid, side):
    n = int(round(side ** 0.5))
    if any(p and p != g for p, g in zip(puzzle, grid)):
        return False
    want = set(range(1, side + 1))
    for k in range(side):
        br, bc = (k // n) * n, (k % n) * n
        if {grid[k * side + j] for j in range(side)} != want:
            return False
        if {grid[j * side + k] for j in range(side)} != want:
            return False
        if {grid[(br + j // n) * side + bc + j % n] for j in range(side)} != want:
            return False
    return True


def with_clause(cnf_text, clause):
    head, body = cnf_text.split("p cnf ", 1)
    header, rest = body.split("\n", 1)
    nvars, nclauses = header.split()
    return (f"{head}p cnf {nvars} {int(nclauses) + 1}\n{rest}"
            + " ".join(str(lit) for lit in clause) + " 0\n")


def count_to_two(solver, cnf_text, work):
    cells, side, vars_ = meaning(cnf_text)
    found = []
    text = cnf_text
    while len(found) < 2:
        true = solve(solver, text, work)
        if true is None:
            break
        grid = list(cells)
        chosen = []
        for var, cell, value in vars_:
            if var in true:
                grid[cell] = value
                chosen.append(var)
        if not valid(cells, grid, side) or grid in found:
            raise SystemExit(f"{solver} returned a wrong or repeated grid")
        found.append(grid)
        text = with_clause(text, [-v for v in chosen])
    return len(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sudobench")
    parser.add_argument("solver", choices=["cadical", "minisat"])
    parser.add_argument("--sample", type=int, default=0, help="first N puzzles of each file")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    print(f"{'set':<28} {'cpu puzzles/s':>14} {'cpu µs/puzzle':>14} {'puzzles':>8} "
          f"{'unique':>7} {'multiple':>8} {'none':>5}   ({args.solver})")
    for path in args.files:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            source = path
            if args.sample:
                opened = subprocess.run(["sh", "-c", f"zcat -f {path} | grep -v '^#' | "
                                         f"head -{args.sample}"], capture_output=True, text=True)
                source = str(work / "sample.txt")
                Path(source).write_text(opened.stdout)
            subprocess.run([args.sudobench, "cnf", "--out", str(work / "cnf"), source],
                           check=True, capture_output=True)
            counts = [0, 0, 0]
            spent = 0.0
            files = sorted((work / "cnf").glob("*.cnf"))
            for f in files:
                text = f.read_text()
                before = children_cpu()
                counts[count_to_two(args.solver, text, work)] += 1
                spent += children_cpu() - before
        name = os.path.basename(path).split(".")[0]
        n = len(files)
        print(f"{name:<28} {n / spent if spent else 0:>14,.1f} {spent * 1e6 / max(n, 1):>14,.0f} "
              f"{n:>8} {counts[1]:>7} {counts[2]:>8} {counts[0]:>5}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
