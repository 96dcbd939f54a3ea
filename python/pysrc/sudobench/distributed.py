"""Runs of sudobench on a Dask cluster (``pip install sudobench[dask]``).

The coordinator (this process) reads the inputs and cuts their records into chunks of
contiguous records, so workers need no shared file system; each chunk runs on a worker
through the Rust library's runner and judge (the extension module), and the chunks'
outputs are joined in input order by the same merge as ``sudobench merge``. The result is
the output the CLI writes for the whole input, for any number of workers:

- :func:`count`: one line per record, as ``sudobench count`` prints it;
- :func:`verify`: ``sudobench verify --format json``'s lines;
- :func:`bench`: ``sudobench bench --format json``'s records (counts added, rates from the
  summed times and puzzles, problems kept with file and line);
- :func:`grade`: ``sudobench grade --format json``'s lines, and with ``summary`` the per-file
  records of ``grade --summary --format json``;
- :func:`generate`: ``sudobench generate``'s puzzles, the same for the same seed;
- :func:`certify`: ``sudobench certify --format json``'s rows, each certificate produced and
  checked on a worker.

A failed task is retried by Dask (``retries``); a chunk that still fails is reported in
:attr:`Run.failed` with its records (source and lines), never dropped silently, and makes
:attr:`Run.ok` false. ``progress=True`` shows records done, rate and ETA on stderr.

>>> from dask.distributed import Client, LocalCluster     # doctest: +SKIP
>>> client = Client(LocalCluster(n_workers=2, threads_per_worker=1))  # doctest: +SKIP
>>> run = count(client, ["data/puzzles3_magictour_top1465.gz"])  # doctest: +SKIP
>>> run.lines[:2]  # doctest: +SKIP
['1', '1']
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from . import _native

__all__ = ["Run", "Failed", "count", "verify", "bench", "grade", "generate", "certify"]

#: Records per chunk by default: big enough that scheduling costs little next to solving.
#: Tasks per worker when ``chunk_size`` is not given: few enough that a task's fixed cost
#: (scheduling, shipping, one runner) is small beside its work, enough to even out the load.
TASKS_PER_WORKER = 4


@dataclass
class Failed:
    """A chunk that kept failing after Dask's retries."""

    #: Position of the chunk in the run.
    index: int
    #: Its records: ``(source, first line, last line)``; for generate, ``("generate", first
    #: index, last index)``.
    records: tuple[str, int, int]
    #: The last error.
    error: str


@dataclass
class Run:
    """The joined output of a distributed run."""

    #: Standard output as the CLI writes it for the whole input.
    output: str = ""
    #: What the CLI writes to standard error for the records (mismatches, malformed
    #: records), in input order.
    errors: str = ""
    #: Chunks that failed for good.
    failed: list[Failed] = field(default_factory=list)
    #: With ``grade(summary=True)`` and ``bench``: the summed records as JSON lines.
    sums: str = ""

    @property
    def lines(self) -> list[str]:
        """Standard output's lines."""
        return self.output.splitlines()

    @property
    def records(self) -> list[dict[str, Any]]:
        """The JSON records of :attr:`sums` (bench rows, grade summaries) or of the output."""
        text = self.sums or self.output
        return [json.loads(line) for line in text.splitlines() if line.startswith("{")]

    @property
    def ok(self) -> bool:
        """Whether every chunk ran."""
        return not self.failed


class _Progress:
    """Records done, rate and ETA on stderr."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.done, self.show = total, 0, show
        self.start = time.monotonic()

    def add(self, n: int) -> None:
        self.done += n
        if not self.show:
            return
        secs = max(time.monotonic() - self.start, 1e-9)
        rate = self.done / secs
        eta = (self.total - self.done) / rate if rate > 0 else float("inf")
        end = "\n" if self.done >= self.total else ""
        sys.stderr.write(
            f"\r{self.done}/{self.total} records, {rate:,.0f}/s, ETA {eta:,.0f} s   {end}"
        )
        sys.stderr.flush()


def _chunks(
    files: Sequence[str], size: int | None, workers: int
) -> list[tuple[str, list[tuple]]]:
    """The records of every file, cut into chunks of at most ``size`` (never across files);
    ``None``: about :data:`TASKS_PER_WORKER` chunks per worker over all the records."""
    if size is not None and size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {size}")
    every = [(str(path), _native.records(str(path))) for path in files]
    if size is None:
        size = _balanced(sum(len(items) for _, items in every), workers)
    chunks = []
    for path, items in every:
        for at in range(0, len(items), size):
            chunks.append((path, items[at : at + size]))
        if not items:
            chunks.append((path, []))
    return chunks


def _balanced(total: int, workers: int) -> int:
    """Records per chunk for about :data:`TASKS_PER_WORKER` chunks per worker (at least 1)."""
    return max(1, -(-total // (TASKS_PER_WORKER * max(1, workers))))


def _workers(client: Any) -> int:
    """How many workers the cluster has now (at least 1)."""
    try:
        return max(1, len(client.scheduler_info()["workers"]))
    except Exception:  # a client without scheduler information: plan for one worker
        return 1


def _where(source: str, items: list[tuple]) -> tuple[str, int, int]:
    return (source, items[0][0], items[-1][0]) if items else (source, 0, 0)


def _run(
    client: Any,
    jobs: list[tuple[Callable[..., Any], tuple, tuple[str, int, int], int]],
    retries: int,
    progress: bool,
) -> tuple[list[Any], list[Failed]]:
    """Submits every job, waits, and returns the results in order (``None`` for a failed
    job) and the failures."""
    from dask.distributed import as_completed

    # One graph for every job: a `submit` per job sends one message each, and the client
    # batches its messages 10 ms apart, so the last job of a run started that much later.
    futures = client.map(
        _call_job, [(fn, args) for fn, args, _, _ in jobs], retries=retries, pure=False
    )
    index = {f.key: i for i, f in enumerate(futures)}
    bar = _Progress(sum(n for *_, n in jobs), progress)
    results: list[Any] = [None] * len(jobs)
    failed = []
    # Results come with their completion, fetched in batches rather than one request each.
    for future, result in as_completed(futures, with_results=True, raise_errors=False):
        i = index[future.key]
        if future.status == "finished":
            results[i] = result
        else:
            failed.append(Failed(i, jobs[i][2], repr(future.exception())))
        bar.add(jobs[i][3])
    failed.sort(key=lambda f: f.index)
    return results, failed


def _call_job(job: tuple[Callable[..., Any], tuple]) -> Any:
    """Runs one job on a worker: ``(function, arguments)``."""
    fn, args = job
    return fn(*args)


def _records_run(
    client: Any,
    command: str,
    files: Sequence[str] | str,
    *,
    backends: Sequence[str | None] | Callable[[list[str | None]], Sequence[str | None]],
    chunk_size: int | None,
    retries: int,
    progress: bool,
    **options: Any,
) -> tuple[list[Any], list[Failed]]:
    """Runs ``command`` on every chunk of ``files`` with ``backends``, or for each file with
    those ``backends(first)`` names, ``first`` being the puzzles of the file's first
    :data:`~sudobench._native.ORDER_LOOKS_AT` items (``None`` for a malformed one)."""
    if isinstance(files, str):
        files = [files]
    chunks = _chunks(files, chunk_size, _workers(client))
    first: dict[str, list[str | None]] = {}
    for source, items in chunks:
        head = first.setdefault(source, [])
        head.extend(p for _, p, _, _ in items[: _native.ORDER_LOOKS_AT - len(head)])
    chosen = {
        source: list(backends(puzzles) if callable(backends) else backends)
        for source, puzzles in first.items()
    }
    # Keyword options travel through a small wrapper (submit's own keywords come first).
    jobs: list[tuple[Callable[..., Any], tuple, tuple[str, int, int], int]] = [
        (
            _call_chunk,
            (options, command, source, _Records(items), chosen[source]),
            _where(source, items),
            len(items),
        )
        for source, items in chunks
    ]
    return _run(client, jobs, retries, progress)


class _Records:
    """A chunk's records as one opaque task argument. Dask looks inside lists and tuples
    given to ``submit`` for futures to depend on: over a list of tuples that walk cost more
    than the submit itself (0.14 s of a 2 s run on 48,766 records); an object of a class of
    its own is only pickled."""

    __slots__ = ("items",)

    def __init__(self, items: list[tuple]) -> None:
        self.items = items

    def __getstate__(self) -> list[tuple]:
        return self.items

    def __setstate__(self, items: list[tuple]) -> None:
        self.items = items


def _nodes(max_nodes: int | None) -> int | None:
    """``max_nodes`` checked here, before any task is sent: a whole number from 0 to 2**64 - 1
    (the workers' type; outside it every task would fail there instead)."""
    if max_nodes is not None and not 0 <= max_nodes < 2**64:
        raise ValueError(f"max_nodes must be from 0 to {2**64 - 1}, got {max_nodes}")
    return max_nodes


def _seconds(max_seconds: float | None) -> float | None:
    """``max_seconds`` checked here, before any task is sent: a positive number below
    :data:`~sudobench._native.MAX_SECONDS`, the bound the workers (and the CLI's
    ``--max-seconds``) take."""
    bound = _native.MAX_SECONDS
    if max_seconds is not None and not (0 < max_seconds < bound):
        raise ValueError(
            f"max_seconds must be a positive number of seconds below {bound:.0f}, got {max_seconds}"
        )
    return max_seconds


def _call_chunk(
    options: dict[str, Any],
    command: str,
    source: str,
    records: _Records,
    backends: list[str | None],
) -> tuple[str, str, str]:
    return _native.run_chunk(command, source, records.items, backends, **options)


def _join(results: Iterable[Any], part: int) -> list[str]:
    return [r[part] for r in results if r is not None]


def count(
    client: Any,
    files: Sequence[str] | str,
    backend: str | None = None,
    limit: int = 2,
    *,
    chunk_size: int | None = None,
    retries: int = 2,
    progress: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> Run:
    """``sudobench count`` on the cluster: one line per record (``0``, ``1``, ``2+``, or
    ``error: FILE:LINE: ...``). Without a ``backend``, as the CLI's default: ``bitmask`` on
    9x9 puzzles, ``wide`` on the other orders. ``max_nodes`` and ``max_seconds``: the CLI's
    ``--max-nodes`` and ``--max-seconds``, a puzzle's budget."""
    results, failed = _records_run(
        client, "count", files, backends=[backend], chunk_size=chunk_size,
        retries=retries, progress=progress, limit=limit, max_nodes=_nodes(max_nodes),
        max_seconds=_seconds(max_seconds),
    )
    return Run(
        output="".join(_join(results, 0)), errors="".join(_join(results, 1)), failed=failed
    )


def verify(
    client: Any,
    files: Sequence[str] | str,
    backend: str | None = None,
    *,
    cross_check: bool = False,
    chunk_size: int | None = None,
    retries: int = 2,
    progress: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> Run:
    """``sudobench verify --format json`` on the cluster (``cross_check``: a second backend
    of another kind, ``sat`` or ``dlx`` for ``sat``, as the CLI picks it). Without a
    ``backend``, the CLI's default (``bitmask`` on 9x9, ``wide`` on the other orders).
    ``max_nodes`` and ``max_seconds`` as for :func:`count`."""
    backends = [backend] + ([("dlx" if backend == "sat" else "sat")] if cross_check else [])
    results, failed = _records_run(
        client, "verify", files, backends=backends, chunk_size=chunk_size,
        retries=retries, progress=progress, max_nodes=_nodes(max_nodes),
        max_seconds=_seconds(max_seconds),
    )
    return Run(
        output="".join(_join(results, 0)), errors="".join(_join(results, 1)), failed=failed
    )


def bench(
    client: Any,
    files: Sequence[str] | str,
    backends: Sequence[str] | None = None,
    limit: int = 2,
    *,
    chunk_size: int | None = None,
    retries: int = 2,
    progress: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> Run:
    """``sudobench bench --format json --time-budget 0`` on the cluster: one record per
    (file, backend), the chunks' figures added up. Times are summed over the workers, so
    puzzles/s is per worker, as the CLI's is per thread. ``backends``: the built-in backends
    to run (default: those the CLI's ``bench`` runs when none is named). ``max_nodes`` and
    ``max_seconds`` as for :func:`count`."""
    # No backends: as the CLI's bench, the defaults of each file's order, which the first
    # well-formed record among its first items decides (`_native.bench_defaults`).
    chosen: Sequence[str | None] | Callable[[list[str | None]], Sequence[str | None]] = (
        _native.bench_defaults if backends is None else list(backends)
    )
    results, failed = _records_run(
        client, "bench", files, backends=chosen, chunk_size=chunk_size,
        retries=retries, progress=progress, limit=limit, max_nodes=_nodes(max_nodes),
        max_seconds=_seconds(max_seconds),
    )
    sums = _native.merge(_join(results, 2))
    return Run(output=sums, errors="".join(_join(results, 1)), failed=failed, sums=sums)


def grade(
    client: Any,
    files: Sequence[str] | str,
    symmetries: int = 16,
    seed: int = 1,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    chunk_size: int | None = None,
    retries: int = 2,
    progress: bool = False,
) -> Run:
    """``sudobench grade --format json`` on the cluster; :attr:`Run.sums` holds the per-file
    summaries of ``grade --summary --format json``. ``max_nodes``: the budget of each search
    (``--max-nodes``; the CLI's default when ``None``); ``max_seconds``: its time limit as
    well (``--max-seconds``)."""
    results, failed = _records_run(
        client, "grade", files, backends=[], chunk_size=chunk_size, retries=retries,
        progress=progress, symmetries=symmetries, seed=seed, max_nodes=_nodes(max_nodes),
        max_seconds=_seconds(max_seconds),
    )
    return Run(
        output="".join(_join(results, 0)),
        errors="".join(_join(results, 1)),
        failed=failed,
        sums=_native.merge(_join(results, 2)),
    )


def certify(
    client: Any,
    files: Sequence[str] | str,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    chunk_size: int | None = None,
    retries: int = 2,
    progress: bool = False,
) -> Run:
    """``sudobench certify --format json`` on the cluster: one row per puzzle (its count, and
    whether the worker's independent checker accepted its certificate), in input order; the
    rows' times are each worker's CPU time. ``max_nodes``: the search budget per puzzle (the
    CLI's default when ``None``); ``max_seconds``: its time limit (``--max-seconds``)."""
    results, failed = _records_run(
        client, "certify", files, backends=[], chunk_size=chunk_size, retries=retries,
        progress=progress, max_nodes=_nodes(max_nodes), max_seconds=_seconds(max_seconds),
    )
    return Run(
        output="".join(_join(results, 0)), errors="".join(_join(results, 1)), failed=failed
    )


def _call_generate(options: dict[str, Any], start: int, stop: int) -> tuple[str, str]:
    return _native.generate_chunk(start, stop, **options)


#: Puzzles of a plain ``generate`` (no hardness goal) per task at least: about 0.3 s of work
#: (65 µs a puzzle on a 2020s x86 core), a hundred times a task's fixed cost on a cluster
#: (a few milliseconds to submit, schedule and gather). Such puzzles cost about the same
#: each, so fewer, larger tasks lose no balance; a hardness goal makes costs vary by orders
#: of magnitude, and those runs keep :data:`TASKS_PER_WORKER` tasks a worker.
PLAIN_GENERATE_CHUNK = 5000


def _generate_chunk_size(count: int, workers: int, options: dict[str, Any]) -> int:
    """Puzzles per task: :data:`TASKS_PER_WORKER` tasks a worker, but for plain puzzles at
    least :data:`PLAIN_GENERATE_CHUNK` a task as long as every worker still gets one."""
    balanced = _balanced(count, workers)
    if options.get("min_guesses") is not None:
        return balanced
    return max(balanced, min(PLAIN_GENERATE_CHUNK, -(-count // workers)))


def generate(
    client: Any,
    count: int = 10,
    seed: int = 1,
    *,
    chunk_size: int | None = None,
    retries: int = 2,
    progress: bool = False,
    **options: Any,
) -> Run:
    """``sudobench generate --count COUNT --seed SEED`` on the cluster: puzzle ``i`` is made
    from the seed and ``i`` alone, so the output is the CLI's for any number of workers.
    ``options``: ``symmetry``, ``min_clues``, ``max_clues``, ``min_guesses``, ``symmetries``,
    ``climb``, ``attempts``, ``confirm``, ``no_solution`` (the CLI's flags)."""
    if chunk_size is None:
        chunk_size = _generate_chunk_size(count, _workers(client), options)
    if count < 0 or chunk_size < 1:
        raise ValueError("count must be >= 0 and chunk_size >= 1")
    options["seed"] = seed
    jobs = [
        (
            _call_generate,
            (options, start, min(start + chunk_size, count)),
            ("generate", start, min(start + chunk_size, count) - 1),
            min(start + chunk_size, count) - start,
        )
        for start in range(0, count, chunk_size)
    ]
    results, failed = _run(client, jobs, retries, progress)
    return Run(
        output="".join(_join(results, 0)), errors="".join(_join(results, 1)), failed=failed
    )
