"""Ctrl-C (KeyboardInterrupt) stops a batch that runs without the GIL."""

import _thread
import sys
import threading
from pathlib import Path

import pytest

import sudobench
from conftest import EMPTY

SLOW_SOLVER = Path(__file__).with_name("slow_solver.py")


@pytest.mark.parametrize("threads", [1, 2])
def test_keyboard_interrupt_stops_the_batch(tmp_path, threads):
    log = tmp_path / "answered"
    backend = f"exec:{sys.executable} {SLOW_SOLVER} {log}"
    n = 5000  # 10 s of answers at 2 ms each if nothing stopped it
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sudobench.count([EMPTY] * n, backend=backend, threads=threads)
    finally:
        timer.cancel()
    answered = log.stat().st_size if log.exists() else 0
    assert answered < n / 2
    # The module is usable afterwards.
    assert sudobench.count([EMPTY]) == [2]
