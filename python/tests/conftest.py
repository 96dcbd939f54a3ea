"""Shared data for the sudobench Python tests: the repository's bundled data sets and one
puzzle with its known solution."""

from pathlib import Path

import pytest

import sudobench

DATA = Path(__file__).resolve().parents[2] / "data"

PUZZLE = "000000907000420180000705026100904000050000040000507009920108000034059000507000000"
SOLUTION = "462831957795426183381795426173984265659312748248567319926178534834259671517643892"
#: Two 1s in the first row: no solution.
CONTRADICTION = "11" + "." * 79
EMPTY = "." * 81


@pytest.fixture(scope="session")
def kaggle():
    """(puzzles, solutions) of the Kaggle set: every puzzle comes with its expected solution."""
    return sudobench.read(DATA / "puzzles0_kaggle.csv.gz")


@pytest.fixture(scope="session")
def magictour():
    puzzles, solutions = sudobench.read(DATA / "puzzles3_magictour_top1465.gz")
    assert all(s is None for s in solutions)
    return puzzles


@pytest.fixture(scope="session")
def serg():
    """Puzzles with two or more solutions each."""
    puzzles, _ = sudobench.read(DATA / "puzzles7_serg_benchmark.gz")
    return puzzles


def cells(line):
    """An 81-character line as a list of 81 ints, 0 for empty cells."""
    return [0 if ch in ".0" else int(ch) for ch in line]


def pencilmarks(line):
    """The 729-character pencilmark line of a clue line: a clue allows only its digit, an empty
    cell every digit (character 9*cell + d - 1 is d when d is possible)."""
    out = []
    for v in cells(line):
        out.extend(str(d) if v in (0, d) else "." for d in range(1, 10))
    return "".join(out)
