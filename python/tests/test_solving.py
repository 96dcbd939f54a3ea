"""count, solve and backends against known answers."""

import sys
from pathlib import Path

import pytest

import sudobench
from conftest import CONTRADICTION, EMPTY, PUZZLE, SOLUTION, pencilmarks

COMPLETE = ["basic", "bitmask", "logic", "logic-lc", "sat", "dlx", "dlx-array"]
EXEC_SOLVER = Path(__file__).resolve().parents[2] / "scripts" / "exec_solver.py"


def test_backends_lists_every_complete_backend_and_the_incomplete_ones():
    names = sudobench.backends()
    assert set(COMPLETE) <= set(names)
    assert "projection" in names
    assert len(names) == len(set(names))


def test_known_puzzle():
    assert sudobench.count([PUZZLE]) == [1]
    assert sudobench.solve([PUZZLE]) == [SOLUTION]
    # '.' and '0' are both empty cells.
    assert sudobench.solve([PUZZLE.replace("0", ".")]) == [SOLUTION]


@pytest.mark.parametrize("backend", COMPLETE)
def test_every_complete_backend_agrees_with_the_expected_solutions(backend, kaggle):
    puzzles, solutions = kaggle
    sample = slice(0, 300) if backend in ("bitmask", "dlx-array") else slice(0, 40)
    assert sudobench.count(puzzles[sample], backend=backend) == [1] * len(puzzles[sample])
    assert sudobench.solve(puzzles[sample], backend=backend) == solutions[sample]


def test_the_whole_kaggle_set_with_bitmask(kaggle):
    puzzles, solutions = kaggle
    assert len(puzzles) == 25386
    assert sudobench.solve(puzzles, threads=2) == solutions


@pytest.mark.parametrize("backend", COMPLETE)
def test_counts_of_no_one_and_many_solutions(backend):
    assert sudobench.count([CONTRADICTION, PUZZLE, EMPTY], backend=backend) == [0, 1, 2]
    assert sudobench.solve([CONTRADICTION, PUZZLE, EMPTY], backend=backend) == [
        None,
        SOLUTION,
        None,
    ]


def two_solution_puzzle():
    """The known solution with the four cells of a rectangle spanning two boxes emptied,
    where the rectangle holds a, b / b, a: exactly two ways to fill it back."""
    g = [SOLUTION[9 * r : 9 * r + 9] for r in range(9)]
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            if r1 // 3 != r2 // 3:
                continue
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if c1 // 3 != c2 // 3 and g[r1][c1] == g[r2][c2] and g[r1][c2] == g[r2][c1]:
                        holes = {9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2}
                        return "".join("." if i in holes else SOLUTION[i] for i in range(81))
    raise AssertionError("no such rectangle in the known solution")


def test_limit_means_that_many_or_more():
    assert sudobench.count([EMPTY, PUZZLE, CONTRADICTION], limit=1) == [1, 1, 0]
    assert sudobench.count([EMPTY, PUZZLE], limit=7) == [7, 1]
    two = two_solution_puzzle()
    assert sudobench.count([two], limit=2) == [2]
    assert sudobench.count([two], limit=50) == [2]
    assert sudobench.count([two], limit=1) == [1]
    assert sudobench.solve([two]) == [None]


def test_multi_solution_set(serg):
    sample = serg[:300]
    assert sudobench.count(sample) == [2] * len(sample)
    assert sudobench.solve(sample) == [None] * len(sample)
    assert sudobench.count(sample[:30], backend="basic") == [2] * 30


def test_max_nodes_gives_unknown():
    assert sudobench.count([EMPTY], limit=10**6, max_nodes=1000) == [None]
    assert sudobench.solve([EMPTY], max_nodes=1000) == [None]
    assert sudobench.count([PUZZLE], max_nodes=10**6) == [1]


def test_max_seconds_gives_unknown():
    # A billion solutions do not fit in 0.1 s; the next puzzle gets its own time.
    assert sudobench.count([EMPTY, PUZZLE], limit=10**9, max_seconds=0.1) == [None, 1]
    assert sudobench.count([PUZZLE], backend="sat", max_seconds=1e-9) == [None]
    assert sudobench.solve([PUZZLE], max_seconds=60) == [SOLUTION]


def test_incomplete_backend_answers_one_or_unknown(magictour):
    for n in sudobench.count(magictour[:5], backend="projection"):
        assert n in (1, None)
    solutions = sudobench.solve(magictour[:5], backend="projection")
    for puzzle, s in zip(magictour[:5], solutions):
        assert s is None or sudobench.check([puzzle], [s]) == [True]


def test_pencilmark_puzzles():
    marks = pencilmarks(PUZZLE)
    assert len(marks) == 729
    assert sudobench.count([marks, pencilmarks(EMPTY)]) == [1, 2]
    assert sudobench.solve([marks]) == [SOLUTION]
    # Take digit 4 out of the first cell, where the solution has it: no solution is left.
    no_four = "...." + marks[4:]
    assert no_four[:9] == "....56789"
    assert sudobench.count([no_four]) == [0]


def test_empty_batch():
    assert sudobench.count([]) == []
    assert sudobench.solve([]) == []
    assert sudobench.check([], []) == []


def test_any_iterable_of_strings():
    assert sudobench.count(iter([PUZZLE, EMPTY])) == [1, 2]
    assert sudobench.solve((PUZZLE,)) == [SOLUTION]


def test_external_program_backend(kaggle):
    backend = f"exec:{sys.executable} {EXEC_SOLVER}"
    sample = kaggle[0][:20] + [PUZZLE, EMPTY, CONTRADICTION]
    assert sudobench.count(sample, backend=backend) == sudobench.count(sample)
    assert sudobench.solve(sample, backend=backend, threads=2) == sudobench.solve(sample)


def test_failing_external_program_raises():
    with pytest.raises(RuntimeError, match="puzzle 0: backend exec:false failed"):
        sudobench.count([PUZZLE], backend="exec:false")
