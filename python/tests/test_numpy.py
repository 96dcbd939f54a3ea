"""numpy arrays in, numpy arrays out."""

import numpy as np
import pytest

import sudobench
from conftest import CONTRADICTION, EMPTY, PUZZLE, SOLUTION, cells

DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def as_array(lines, dtype=np.int64):
    return np.array([cells(line) for line in lines], dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_keeps_shape_and_dtype(dtype):
    flat = as_array([PUZZLE, EMPTY, CONTRADICTION], dtype)
    out = sudobench.solve(flat)
    assert isinstance(out, np.ndarray)
    assert out.shape == (3, 81) and out.dtype == dtype
    assert out[0].tolist() == cells(SOLUTION)
    # Unsolved (several solutions, none) rows are all zeros.
    assert not out[1].any() and not out[2].any()

    boxes = flat.reshape(3, 9, 9)
    out = sudobench.solve(boxes)
    assert out.shape == (3, 9, 9) and out.dtype == dtype
    assert out[0].ravel().tolist() == cells(SOLUTION)
    assert out[0, 0].tolist() == [4, 6, 2, 8, 3, 1, 9, 5, 7]


def test_count_and_check_take_arrays(kaggle):
    puzzles, solutions = kaggle
    p = as_array(puzzles[:200], np.uint8)
    s = as_array(solutions[:200], np.uint8)
    assert sudobench.count(p) == sudobench.count(puzzles[:200]) == [1] * 200
    assert sudobench.count(p.reshape(-1, 9, 9), limit=1) == [1] * 200
    np.testing.assert_array_equal(sudobench.solve(p), s)
    assert sudobench.check(p, s) == [True] * 200
    assert sudobench.check(p.reshape(-1, 9, 9), s.reshape(-1, 9, 9)) == [True] * 200
    # Mixed: array puzzles, string grids, and the other way round.
    assert sudobench.check(p[:3], solutions[:3]) == [True] * 3
    assert sudobench.check(puzzles[:3], s[:3]) == [True] * 3


def test_solve_output_checks_against_its_input(magictour):
    p = as_array(magictour[:100], np.int32).reshape(-1, 9, 9)
    out = sudobench.solve(p)
    assert out.any(axis=(1, 2)).all()
    assert sudobench.check(p, out) == [True] * 100
    # The clues are kept.
    assert ((p == 0) | (p == out)).all()


def test_non_contiguous_views():
    base = as_array([PUZZLE, EMPTY, PUZZLE, CONTRADICTION], np.int64)
    every_other = base[::2]
    assert not every_other.flags["C_CONTIGUOUS"]
    assert sudobench.count(every_other) == [1, 1]
    # A transposed 9x9 block is the transposed puzzle, whose solution is the transposed one.
    transposed = base.reshape(4, 9, 9).transpose(0, 2, 1)
    out = sudobench.solve(transposed)
    assert out[0].tolist() == np.array(cells(SOLUTION)).reshape(9, 9).T.tolist()
    fortran = np.asfortranarray(base)
    assert sudobench.count(fortran) == [1, 2, 1, 0]


def test_empty_array():
    out = sudobench.solve(np.zeros((0, 81), dtype=np.int8))
    assert out.shape == (0, 81) and out.dtype == np.int8
    assert sudobench.count(np.zeros((0, 9, 9), dtype=np.int8)) == []


def test_string_array_is_a_sequence_of_strings():
    assert sudobench.count(np.array([PUZZLE, EMPTY])) == [1, 2]
    assert sudobench.solve(np.array([PUZZLE])) == [SOLUTION]


def test_solved_rows_check_and_unsolved_rows_do_not():
    p = as_array([PUZZLE, EMPTY])
    out = sudobench.solve(p)
    assert sudobench.check(p, out) == [True, False]
