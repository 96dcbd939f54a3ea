"""A batch runs without the GIL: other Python threads go on while it works."""

import sys
import threading
import time
from pathlib import Path

import sudobench
from conftest import EMPTY

SLOW_SOLVER = Path(__file__).with_name("slow_solver.py")


def test_other_threads_run_during_a_batch(tmp_path):
    log = tmp_path / "answered"
    backend = f"exec:{sys.executable} {SLOW_SOLVER} {log}"
    n = 1000  # 2 s of answers at 2 ms each
    result = []
    worker = threading.Thread(target=lambda: result.append(sudobench.count([EMPTY] * n, backend)))
    worker.start()
    # This loop needs the GIL for every step: had the batch kept it, the first answer seen here
    # would come after the last one.
    seen = 0
    while seen == 0 and worker.is_alive():
        time.sleep(0.005)
        seen = log.stat().st_size if log.exists() else 0
    alive = worker.is_alive()
    worker.join()
    assert 0 < seen < n and alive
    assert result == [[None] * n]
