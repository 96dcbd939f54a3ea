"""Type stubs of the native module; the full docstrings are on the functions themselves."""

from collections.abc import Iterable
from os import PathLike
from typing import Optional, TypeVar, Union, overload

import numpy as np
import numpy.typing as npt

_IntArray = TypeVar("_IntArray", bound=npt.NDArray[np.integer])

#: A batch of puzzles: 81-character strings (or 729-character pencilmark lines), or an integer
#: array of shape (N, 81) or (N, 9, 9) with 0 for empty cells; grids of another order n as
#: n⁴ characters (up to 25x25) or n⁴ numbers, arrays of shape (N, n⁴) or (N, n², n²).
_Puzzles = Union[Iterable[str], npt.NDArray[np.integer]]

__all__ = [
    "MAX_SECONDS",
    "ORDER_LOOKS_AT",
    "__version__",
    "_lib_worker",
    "backends",
    "bench_defaults",
    "check",
    "count",
    "generate_chunk",
    "merge",
    "read",
    "records",
    "run_chunk",
    "solve",
]

__version__: str

def backends() -> list[str]:
    """Names of the built-in backends (``"exec:CMD"`` is accepted as a backend too)."""

def count(
    puzzles: _Puzzles,
    backend: str | None = None,
    limit: int = 2,
    threads: int = 1,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> list[int | None]:
    """Solutions of each puzzle up to ``limit`` (``limit`` means that many or more);
    ``None`` where the backend could not decide."""

@overload
def solve(
    puzzles: _IntArray,
    backend: str | None = None,
    threads: int = 1,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> _IntArray:
    """The unique solution of each puzzle, same shape and dtype; all zeros where unsolved."""

@overload
def solve(
    puzzles: Iterable[str],
    backend: str | None = None,
    threads: int = 1,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> list[str | None]:
    """The unique solution of each puzzle as 81 digits; ``None`` where unsolved (no solution,
    several, or undecided)."""

def check(
    puzzles: _Puzzles,
    grids: Union[Iterable[str | None], npt.NDArray[np.integer]],
) -> list[bool]:
    """Whether each grid is a complete valid solution that keeps its puzzle's clues."""

def read(path: Union[str, PathLike[str]]) -> tuple[list[str], list[str | None]]:
    """``(puzzles, expected solutions)`` from a puzzle file in any supported format, gzip
    included."""

def _lib_worker(args: list[str]) -> bool:
    """The worker of a ``lib:`` backend, run by the backend in an interpreter of its own (in
    isolated mode, on this module's file); never called by hand."""

#: One item of a puzzle file, as ``sudobench.distributed`` ships it to a worker:
#: ``(line, puzzle, expected, error)``; a malformed record has only its line and error.
_Item = tuple[int, Optional[str], Optional[str], Optional[str]]

#: How many items of a set ``bench_defaults`` looks at (as the CLI's ``bench``).
ORDER_LOOKS_AT: int
#: Time limits (``max_seconds``) are below this many seconds, as the CLI's.
MAX_SECONDS: float

def bench_defaults(first: list[Optional[str]]) -> list[str]:
    """The backends ``bench`` runs on a set when none is named, as the CLI's: those of the
    order of the first well-formed record among the set's first :data:`ORDER_LOOKS_AT` items
    (``first``: their puzzles as :func:`records` gives them, ``None`` for a malformed one)."""

def records(path: Union[str, PathLike[str]]) -> list[_Item]:
    """Every item of a puzzle file, in order, malformed records included (the building block
    of ``sudobench.distributed``)."""

def run_chunk(
    command: str,
    source: str,
    chunk: list[_Item],
    backends: list[str | None],
    limit: int = 2,
    symmetries: int = 16,
    seed: int = 1,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> tuple[str, str, str]:
    """``(stdout, stderr, sums)`` of the CLI's ``command`` run on one chunk of records."""

def generate_chunk(
    start: int,
    stop: int,
    seed: int = 1,
    symmetry: str = "none",
    min_clues: int = 17,
    max_clues: int = 81,
    min_guesses: float | None = None,
    symmetries: int = 16,
    climb: int = 10000,
    attempts: int = 100000,
    confirm: str = "logic",
    no_solution: bool = False,
) -> tuple[str, str]:
    """``(stdout, stderr)`` of ``sudobench generate`` for puzzles ``start..stop``."""

def merge(parts: list[str]) -> str:
    """The outputs of a run's parts, given in order, joined as ``sudobench merge`` does."""
