"""sudobench from Python: count, solve, check and read Sudoku puzzles with the Rust backends.

Puzzles are 81-character strings (``1``-``9`` for clues, ``.`` or ``0`` for empty cells;
729-character pencilmark lines are accepted too) or numpy integer arrays of shape ``(N, 81)``
or ``(N, 9, 9)`` with 0 for empty cells. Batches are solved in Rust with the GIL released.

>>> import sudobench
>>> p = "000000907000420180000705026100904000050000040000507009920108000034059000507000000"
>>> sudobench.count([p, "." * 81])
[1, 2]
>>> sudobench.solve([p])
['462831957795426183381795426173984265659312748248567319926178534834259671517643892']
"""

from ._native import __version__, backends, check, count, read, solve

__all__ = ["__version__", "backends", "check", "count", "read", "solve"]
