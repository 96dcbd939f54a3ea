"""check(): the library's independent verifier accepts solutions and rejects everything else."""

import sudobench
from conftest import EMPTY, PUZZLE, SOLUTION, pencilmarks


def swapped(grid, i, j):
    g = list(grid)
    g[i], g[j] = g[j], g[i]
    return "".join(g)


def relabelled(grid, a, b):
    return grid.translate(str.maketrans({a: b, b: a}))


def test_accepts_the_solution():
    assert sudobench.check([PUZZLE, EMPTY], [SOLUTION, SOLUTION]) == [True, True]
    assert sudobench.check([pencilmarks(PUZZLE)], [SOLUTION]) == [True]


def test_rejects_wrong_grids():
    wrong = [
        swapped(SOLUTION, 0, 1),  # a valid row, broken columns
        relabelled(SOLUTION, "1", "2"),  # a valid grid that changes clues
        SOLUTION[:40] + "." + SOLUTION[41:],  # incomplete
        SOLUTION[:40] + "0" + SOLUTION[41:],  # incomplete, 0 for the empty cell
        "1" * 81,  # repeated digits everywhere
        None,  # nothing (an unsolved entry of solve)
    ]
    assert sudobench.check([PUZZLE] * len(wrong), wrong) == [False] * len(wrong)
    # The relabelled grid is a valid solution of the empty puzzle: only the clues rule it out.
    assert sudobench.check([EMPTY], [relabelled(SOLUTION, "1", "2")]) == [True]


def test_pencilmarks_exclude_digits():
    marks = pencilmarks(PUZZLE)
    # Take the solution's digit 4 out of the first cell's candidates.
    no_four = "...." + marks[4:]
    assert sudobench.check([no_four], [SOLUTION]) == [False]


def test_every_solution_of_a_set_checks_and_shifted_ones_do_not(kaggle):
    puzzles, solutions = kaggle
    n = 500
    assert sudobench.check(puzzles[:n], solutions[:n]) == [True] * n
    shifted = solutions[1 : n + 1]
    assert sudobench.check(puzzles[:n], shifted) == [False] * n
