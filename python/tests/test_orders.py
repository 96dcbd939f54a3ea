"""Sudoku of other orders than 9x9 from Python: read, count, solve and check take grids of
any order (n⁴ characters up to 25x25, whitespace-separated numbers for any order, integer
arrays of shape (N, n⁴) or (N, n², n²)), and a 9x9-only backend refuses them by name."""

import numpy as np
import pytest

import sudobench
from conftest import DATA, PUZZLE

EVERY_ORDER = ["wide", "basic", "dlx", "dlx-array", "sat", "sat-batsat", "sat-cadical"]
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def values(line):
    """The cell values of a line of any order (characters or numbers)."""
    if " " in line.strip():
        return [int(t) for t in line.split()]
    return [0 if ch in ".0" else SYMBOLS.index(ch) + 1 for ch in line]


def is_grid(cells, n):
    side = n * n
    want = set(range(1, side + 1))
    for k in range(side):
        br, bc = (k // n) * n, (k % n) * n
        if {cells[k * side + j] for j in range(side)} != want:
            return False
        if {cells[j * side + k] for j in range(side)} != want:
            return False
        if {cells[(br + j // n) * side + bc + j % n] for j in range(side)} != want:
            return False
    return True


@pytest.fixture(scope="module")
def gecode16():
    puzzles, solutions = sudobench.read(DATA / "orders_16x16_gecode.gz")
    assert len(puzzles) == 55 and all(len(p) == 256 for p in puzzles)
    assert solutions == [None] * 55
    return puzzles


def test_every_order_backend_counts_and_solves_16x16_strings(gecode16):
    for backend in EVERY_ORDER:
        assert sudobench.count(gecode16[:3], backend) == [1, 1, 1], backend
    solved = sudobench.solve(gecode16, "wide", threads=2)
    assert all(len(s) == 256 for s in solved)
    # Checked here too, by rules written in this file, clues kept.
    for puzzle, solution in zip(gecode16, solved):
        grid = values(solution)
        assert is_grid(grid, 4)
        assert all(p in (0, g) for p, g in zip(values(puzzle), grid))
    assert sudobench.check(gecode16, solved) == [True] * 55
    # Another puzzle's solution keeps the rules but not these clues.
    assert sudobench.check(gecode16[:2], solved[1:3]) == [False, False]


def test_arrays_of_any_order_keep_their_shape_and_dtype(gecode16):
    flat = np.array([values(p) for p in gecode16[:6]], dtype=np.uint8)
    for array in (flat, flat.reshape(6, 16, 16).astype(np.int32)):
        out = sudobench.solve(array, "wide")
        assert out.shape == array.shape and out.dtype == array.dtype
        assert sudobench.count(array, "dlx") == [1] * 6
        assert sudobench.check(array, out) == [True] * 6
        assert all(is_grid(row.reshape(-1).tolist(), 4) for row in out)


def test_the_empty_4x4_has_288_solutions_and_numbers_lines_read_as_any_order():
    assert sudobench.count(["." * 16], "wide", limit=1000) == [288]
    assert sudobench.count([" ".join(["0"] * 16)], "basic", limit=1000) == [288]
    assert sudobench.count(np.zeros((2, 4, 4), dtype=np.int8), "sat", limit=300) == [288, 288]
    # Clashing clues are a puzzle without a solution, not malformed input.
    assert sudobench.count(["1 1" + " 0" * 14, "11" + "." * 14], "dlx") == [0, 0]


def test_36x36_numbers_lines_from_the_bundled_set():
    puzzles, _ = sudobench.read(DATA / "orders_36x36_unique.gz")
    assert len(puzzles[0].split()) == 1296
    solved = sudobench.solve(puzzles[:1], "wide")
    assert len(solved[0].split()) == 1296
    assert is_grid(values(solved[0]), 6)
    assert sudobench.check(puzzles[:1], solved) == [True]


def test_without_a_backend_every_order_is_answered():
    # bitmask for a batch of 9x9 puzzles, wide for any other batch (mixed ones included).
    assert sudobench.count(["." * 16], limit=1000) == [288]
    assert sudobench.count([PUZZLE, "." * 16]) == [1, 2]
    puzzles, _ = sudobench.read(DATA / "orders_16x16_gecode.gz")
    solved = sudobench.solve(puzzles[:3])
    assert all(sudobench.check(puzzles[:3], solved))
    assert solved == sudobench.solve(puzzles[:3], "wide")


def test_a_9x9_only_backend_refuses_another_order_by_name():
    with pytest.raises(ValueError, match=r"puzzle 1: backend bitmask solves 9x9 puzzles only, "
                                         r"this one is 4x4 \(backends of every order: .*wide"):
        sudobench.count([PUZZLE, "." * 16], "bitmask")


@pytest.mark.parametrize(
    "bad, message",
    [
        ("." * 100, r"puzzle 0: has 100 characters, expected 81 for 9x9 \(16, 256 or 625"),
        ("." * 255 + "H", r"puzzle 0: column 256: 'H' is not a symbol of 16x16 \(use 1-9A-G"),
        ("17" + " 0" * 15, r"puzzle 0: column 1: 17 is above 4, the largest number of 4x4"),
        ("0 " * 17, r"puzzle 0: line has 17 numbers"),
    ],
)
def test_malformed_grids_of_other_orders_name_the_problem(bad, message):
    with pytest.raises(ValueError, match=message):
        sudobench.count([bad], "wide")


def test_array_values_above_the_order_and_shapes_of_no_order():
    array = np.zeros((2, 16, 16), dtype=np.int16)
    array[1, 2, 3] = 17
    with pytest.raises(ValueError, match=r"puzzle 1: cell 35 \(row 3, column 4\) holds 17, "
                                         r"expected 0-16"):
        sudobench.count(array, "wide")
    with pytest.raises(ValueError, match=r"\(N, n⁴\) or \(N, n², n²\)\), got shape \(2, 100\)"):
        sudobench.count(np.zeros((2, 100), dtype=np.int8), "wide")
