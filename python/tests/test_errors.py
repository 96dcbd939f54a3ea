"""Bad input raises ValueError (TypeError for an argument that is no batch at all), naming the
index of the offending entry and what is wrong with it."""

import numpy as np
import pytest

import sudobench
from conftest import EMPTY, PUZZLE, SOLUTION, cells


@pytest.mark.parametrize(
    "bad, message",
    [
        (PUZZLE[:80], r"puzzle 1: has 80 characters, expected 81 for 9x9 \(16, 256 or 625 "
                      r"for 4x4, 16x16 or 25x25, or 729 for pencilmarks; whitespace-separated "
                      r"numbers for any order\)"),
        (PUZZLE + "1", "puzzle 1: has 82 characters"),
        ("", "puzzle 1: has 0 characters"),
        (PUZZLE[:5] + "x" + PUZZLE[6:], r"puzzle 1: illegal character 'x' at column 6"),
        (PUZZLE[:80] + " ", r"puzzle 1: illegal character ' ' at column 81"),
        (PUZZLE[:9] + "é" + PUZZLE[10:], r"puzzle 1: illegal character 'é' at column 10"),
        (PUZZLE + "é", "puzzle 1: has 82 characters"),
        ("1" * 729, r"puzzle 1: illegal character '1' at column 2"),
        (81, "puzzle 1: expected a str of 81 \\(or 729\\) characters, got int"),
        (None, "puzzle 1: expected a str .* got NoneType"),
        (PUZZLE.encode(), "puzzle 1: expected a str .* got bytes"),
    ],
)
def test_malformed_puzzle_names_index_and_reason(bad, message):
    for function in (sudobench.count, sudobench.solve):
        with pytest.raises(ValueError, match=message):
            function([PUZZLE, bad, PUZZLE])
    with pytest.raises(ValueError, match=message):
        sudobench.check([PUZZLE, bad, PUZZLE], [SOLUTION] * 3)


def test_array_values_out_of_range():
    p = np.array([cells(PUZZLE)] * 3, dtype=np.int64)
    p[2, 17] = 10
    with pytest.raises(ValueError, match=r"puzzle 2: cell 17 \(row 2, column 9\) holds 10"):
        sudobench.count(p)
    p[2, 17] = -1
    with pytest.raises(ValueError, match=r"puzzle 2: cell 17 .* holds -1, expected 0-9"):
        sudobench.solve(p.reshape(3, 9, 9))
    big = np.array([cells(PUZZLE)], dtype=np.uint64)
    big[0, 0] = 2**64 - 1
    with pytest.raises(ValueError, match=f"puzzle 0: cell 0 .* holds {2**64 - 1}"):
        sudobench.count(big)


@pytest.mark.parametrize(
    "array, message",
    [
        (np.zeros((3, 80), dtype=np.int8), r"shape \(N, 81\) or \(N, 9, 9\) .* got shape \(3, 80\)"),
        (np.zeros((81,), dtype=np.int8), r"got shape \(81,\)"),
        (np.zeros((2, 9, 8), dtype=np.int8), r"got shape \(2, 9, 8\)"),
        (np.zeros((2, 3, 9, 9), dtype=np.int8), r"got shape \(2, 3, 9, 9\)"),
        (np.zeros((2, 81), dtype=np.float64), "expected an integer array .* got dtype float64"),
        (np.zeros((2, 81), dtype=bool), "expected an integer array .* got dtype bool"),
        (np.zeros((2, 81), dtype=">i4"), "unsupported dtype >i4"),
    ],
)
def test_bad_arrays(array, message):
    with pytest.raises(ValueError, match=message):
        sudobench.count(array)


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown backend \"nope\""):
        sudobench.count([PUZZLE], backend="nope")
    with pytest.raises(ValueError, match="unknown backend"):
        sudobench.solve([PUZZLE], backend="")
    with pytest.raises(ValueError, match="limit must be from 1 to 4294967295, got 0"):
        sudobench.count([PUZZLE], limit=0)
    with pytest.raises(ValueError, match="limit must be from 1 to 4294967295, got -3"):
        sudobench.count([PUZZLE], limit=-3)
    with pytest.raises(ValueError, match="limit must be from 1 to 4294967295, got 4294967296"):
        sudobench.count([PUZZLE], limit=2**32)
    with pytest.raises(ValueError, match="max_nodes must be from 0 to 18446744073709551615, got -1"):
        sudobench.count([PUZZLE], max_nodes=-1)
    with pytest.raises(ValueError, match="max_nodes must be from 0 .* got 18446744073709551616"):
        sudobench.solve([PUZZLE], max_nodes=2**64)
    for bad in (0, -1, float("inf"), float("nan"), 1e9, 1e20):
        with pytest.raises(ValueError, match="max_seconds must be a positive number of seconds below 1000000000"):
            sudobench.count([PUZZLE], max_seconds=bad)
    with pytest.raises(ValueError, match="an outside backend's calls are bounded by its timeout"):
        sudobench.solve([PUZZLE], backend="exec:cat", max_seconds=1)
    with pytest.raises(ValueError, match="threads must be at least 1, got 0"):
        sudobench.count([PUZZLE], threads=0)
    with pytest.raises(ValueError, match="threads must be at least 1, got -1"):
        sudobench.solve([PUZZLE], threads=-1)


def test_not_a_batch():
    with pytest.raises(TypeError, match="not a single str; wrap one puzzle in a list"):
        sudobench.count(PUZZLE)
    with pytest.raises(TypeError, match="puzzles must be a sequence of strings .* not int"):
        sudobench.solve(5)
    with pytest.raises(TypeError, match="grids must be .* not a single str"):
        sudobench.check([PUZZLE], SOLUTION)


def test_check_arguments():
    with pytest.raises(ValueError, match="got 2 puzzles but 1 grids"):
        sudobench.check([PUZZLE, EMPTY], [SOLUTION])
    with pytest.raises(ValueError, match="grid 1: has 80 characters, expected 81"):
        sudobench.check([PUZZLE, PUZZLE], [SOLUTION, SOLUTION[:80]])
    with pytest.raises(ValueError, match=r"grid 0: has 729 characters, expected 81 for 9x9 "
                                         r"\(16, 256 or 625 for 4x4, 16x16 or 25x25; "):
        sudobench.check([PUZZLE], ["1" * 729])
    with pytest.raises(ValueError, match="grid 0: expected a str of 81 characters or None"):
        sudobench.check([PUZZLE], [42])
    with pytest.raises(ValueError, match=r"grid 0: cell 80 .* holds 11"):
        grid = np.array([cells(SOLUTION)])
        grid[0, 80] = 11
        sudobench.check([PUZZLE], grid)


def test_a_failed_call_leaves_the_module_usable():
    with pytest.raises(ValueError):
        sudobench.count([PUZZLE, "bad"])
    assert sudobench.count([PUZZLE]) == [1]
