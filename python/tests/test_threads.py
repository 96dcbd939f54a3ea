"""threads > 1 splits a batch over threads; the answers do not change."""

import numpy as np

import sudobench
from conftest import CONTRADICTION, EMPTY, cells


def test_identical_results_for_any_thread_count(magictour, serg):
    batch = magictour + serg[:500] + [EMPTY, CONTRADICTION] * 10
    for backend in ("bitmask", "dlx-array"):
        one = sudobench.count(batch, backend=backend)
        assert set(one) == {0, 1, 2}
        for threads in (2, 3, 8):
            assert sudobench.count(batch, backend=backend, threads=threads) == one
    solved = sudobench.solve(batch)
    assert sudobench.solve(batch, threads=4) == solved
    assert sum(s is not None for s in solved) == len(magictour)


def test_numpy_results_with_threads(magictour):
    p = np.array([cells(x) for x in magictour], dtype=np.uint8)
    np.testing.assert_array_equal(sudobench.solve(p, threads=2), sudobench.solve(p))


def test_incomplete_backend_is_deterministic_across_threads(magictour):
    sample = magictour[:40]
    assert sudobench.count(sample, backend="projection", threads=3) == sudobench.count(
        sample, backend="projection"
    )


def test_more_threads_than_puzzles():
    assert sudobench.count([EMPTY, CONTRADICTION], threads=16) == [2, 0]
    assert sudobench.count([], threads=4) == []
