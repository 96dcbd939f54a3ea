"""Checked by mypy --strict in test_module.py (never run): what the stubs promise callers."""

from pathlib import Path
from typing import Optional, assert_type

import numpy as np
import numpy.typing as npt

import sudobench

puzzles, solutions = sudobench.read(Path("data") / "puzzles2_17_clue.gz")
assert_type(puzzles, list[str])
assert_type(solutions, list[Optional[str]])
assert_type(sudobench.backends(), list[str])
assert_type(sudobench.count(puzzles, "basic", 3, 2, max_nodes=10), list[Optional[int]])
assert_type(sudobench.solve(puzzles, threads=2), list[Optional[str]])
assert_type(sudobench.check(puzzles, sudobench.solve(puzzles)), list[bool])

grids: npt.NDArray[np.uint8] = np.zeros((2, 9, 9), dtype=np.uint8)
assert_type(sudobench.solve(grids), npt.NDArray[np.uint8])
assert_type(sudobench.check(grids, sudobench.solve(grids)), list[bool])
assert_type(sudobench.count(grids), list[Optional[int]])
