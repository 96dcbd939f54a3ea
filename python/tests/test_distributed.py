"""sudobench.distributed on a real LocalCluster (worker processes): the same output as the
CLI for count, bench totals, verify, grade and generate, for 1 and 2 workers, and failed
chunks reported with their records."""

import gzip
import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import DATA

distributed = pytest.importorskip("dask.distributed")
from sudobench import distributed as sd  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAGIC = str(DATA / "puzzles3_magictour_top1465.gz")
NOSOL = str(DATA / "puzzles9_generated_no_solution.gz")
SERG_FULL = DATA / "puzzles7_serg_benchmark.gz"


@pytest.fixture(scope="module")
def serg(tmp_path_factory):
    """The provenance lines and first 600 puzzles of serg (gzipped, as bundled): enough
    for hundreds of small chunks, where the whole set's 9,994 made these tests the slowest
    of the suite by Dask's cost per task."""
    lines = gzip.open(SERG_FULL, "rt").readlines()
    head = [line for line in lines if line.startswith("#")]
    puzzles = [line for line in lines if not line.startswith("#")][:600]
    path = tmp_path_factory.mktemp("serg") / "serg_part.gz"
    with gzip.open(path, "wt") as f:
        f.writelines(head + puzzles)
    return str(path)


def cli_path():
    """The sudobench binary: $SUDOBENCH, or the one `cargo test --profile ci` (CI) or
    `cargo build --release` left in target/."""
    for path in [os.environ.get("SUDOBENCH"), ROOT / "target/ci/sudobench",
                 ROOT / "target/release/sudobench"]:
        if path and Path(path).is_file():
            return str(path)
    raise AssertionError("no sudobench binary: build it or set SUDOBENCH")


def cli(*args):
    out = subprocess.run([cli_path(), *args], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


@pytest.fixture(scope="module", params=[1, 2])
def client(request):
    cluster = distributed.LocalCluster(
        n_workers=request.param, threads_per_worker=1, processes=True,
        dashboard_address=None,
    )
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


def untimed(rows):
    timed = {"puzzles_per_sec", "us_per_puzzle", "read_puzzles_per_sec",
             "read_cpu_puzzles_per_sec", "solve_seconds"}
    out = []
    for row in rows:
        row = {k: v for k, v in row.items() if k not in timed}
        row["exact"] = {k: v for k, v in row["exact"].items() if not k.endswith("_nanos")}
        out.append(row)
    return out


def test_count_equals_the_cli(client, tmp_path, serg):
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("".join(
        "bad line\n" if i % 11 == 3 else "." * 81 + "\n" if i % 13 == 5 else
        "000000907000420180000705026100904000050000040000507009920108000034059000507000000\n"
        for i in range(60)))
    files = [str(mixed), NOSOL, serg]
    run = sd.count(client, files, chunk_size=7, progress=True)
    assert run.ok
    assert run.output == cli("count", *files)


def test_budgets_are_the_cli_flags(client, serg):
    # No time left: every puzzle that needs a search answers unknown, as on the CLI.
    files = [NOSOL, str(DATA / "orders_16x16_no_solution.gz")]
    run = sd.count(client, files, chunk_size=50, max_seconds=1e-9)
    assert run.output == cli("count", "--max-seconds", "1e-9", *files)
    assert "unknown" in run.output
    tight = sd.count(client, [serg], chunk_size=50, max_nodes=1)
    assert tight.output == cli("count", "--max-nodes", "1", serg)
    certified = sd.certify(client, [serg], chunk_size=50, max_seconds=1e-9)
    assert certified.output.count("search time limit reached after 1 node") == 600
    for bad in (0, -1.0, float("nan"), float("inf"), 1e9):
        with pytest.raises(ValueError, match="max_seconds must be a positive number"):
            sd.count(client, [NOSOL], max_seconds=bad)
    # max_nodes too is checked before any task is sent (a worker could not take it).
    for call in (sd.count, sd.verify, sd.bench, sd.grade, sd.certify):
        for bad in (-1, 2**64):
            with pytest.raises(ValueError, match=f"max_nodes must be from 0 to .*, got {bad}"):
                call(client, [NOSOL], max_nodes=bad)


def test_every_order_runs_as_on_the_cli(client):
    # Character lines (4x4, 16x16) and numbers lines (36x36), each record answered by the
    # default backend of its order, as `sudobench count` does.
    files = [str(DATA / f) for f in (
        "orders_4x4_several.gz", "orders_16x16_no_solution.gz", "orders_36x36_no_solution.gz")]
    run = sd.count(client, files, chunk_size=4)
    assert run.ok
    assert run.output == cli("count", *files)
    checked = sd.verify(client, files[:2], chunk_size=3)
    assert checked.ok
    assert checked.output == cli("verify", "--format", "json", *files[:2])


def test_bench_totals_equal_the_cli(client):
    files = [NOSOL]
    run = sd.bench(client, files, backends=["bitmask", "dlx-array"], chunk_size=9)
    want = [json.loads(line) for line in cli(
        "bench", "--format", "json", "--time-budget", "0", "--backends", "bitmask,dlx-array",
        *files).splitlines()]
    assert untimed(run.records) == untimed(want)


def test_bench_defaults_to_the_cli_backends(client, tmp_path):
    # A 16x16 set too: the default runs backends that answer it, as the CLI's does.
    small = tmp_path / "small.txt"
    small.write_text("".join(gzip.open(NOSOL, "rt").readlines()[:40]))
    files = [str(small), str(DATA / "orders_16x16_no_solution.gz")]
    run = sd.bench(client, files, chunk_size=7)
    want = [json.loads(line) for line in cli(
        "bench", "--format", "json", "--time-budget", "0", *files).splitlines()]
    assert untimed(run.records) == untimed(want)
    assert any(r["none"] == 10 for r in run.records if r["set"] == "orders_16x16_no_solution")


def test_bench_defaults_look_at_the_first_items_as_the_cli_does(client, tmp_path):
    # A 16x16 puzzle behind malformed lines: within the first ORDER_LOOKS_AT items it makes
    # the set one of another order (`wide` runs); one item later it is not looked at, and
    # the 9x9 defaults run and say n/a, in the CLI and here alike, across chunks.
    sixteen = gzip.open(DATA / "orders_16x16_no_solution.gz", "rt").readlines()
    puzzle = next(line for line in sixteen if not line.startswith("#"))
    files = []
    for bad in (sd._native.ORDER_LOOKS_AT - 1, sd._native.ORDER_LOOKS_AT):
        path = tmp_path / f"behind{bad}.txt"
        path.write_text("x\n" * bad + puzzle)
        files.append(str(path))
    run = sd.bench(client, files, chunk_size=7)
    want = [json.loads(line) for line in cli(
        "bench", "--format", "json", "--time-budget", "0", *files).splitlines()]
    assert untimed(run.records) == untimed(want)
    wide = {r["set"] for r in run.records if r["backend"] == "wide"}
    assert wide == {f"behind{sd._native.ORDER_LOOKS_AT - 1}.txt"}, run.records


def test_verify_and_grade_equal_the_cli(client, serg):
    run = sd.verify(client, [NOSOL, serg], chunk_size=5)
    assert run.output == cli("verify", "--format", "json", NOSOL, serg)
    # The default chunks: about four per worker over all the records.
    assert sd.verify(client, [NOSOL, serg]).output == run.output
    graded = sd.grade(client, [NOSOL], symmetries=2, chunk_size=8)
    assert graded.output == cli("grade", "--format", "json", "--symmetries", "2", NOSOL)
    assert graded.sums == cli("grade", "--summary", "--format", "json", "--symmetries", "2",
                              NOSOL)
    # A budget too small for the searches: their guesses so far, and how many ran out.
    tight = sd.grade(client, [serg], symmetries=2, chunk_size=50, max_nodes=2)
    assert tight.output == cli("grade", "--format", "json", "--symmetries", "2",
                               "--max-nodes", "2", serg)
    assert '"undecided":2' in tight.output
    # And a time limit per search: on 25x25 `wide` reads the clock at its first node.
    frisch = str(DATA / "orders_25x25_gecode.gz")
    timed = sd.grade(client, [frisch], symmetries=2, chunk_size=5, max_seconds=1e-9)
    assert timed.output == cli("grade", "--format", "json", "--symmetries", "2",
                               "--max-seconds", "1e-9", frisch)
    assert timed.output.count('"undecided":2') == timed.output.count("\n") > 0
    with pytest.raises(ValueError, match="max_seconds must be a positive number"):
        sd.grade(client, [NOSOL], max_seconds=0)


def test_certify_rows_equal_the_cli(client, tmp_path):
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(
        "800000000003600000070090200050007000000045700000100030001000068008500010090000400\n"
        "bad line\n"
        "11" + "." * 79 + "\n"
        "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642\n"
    )
    files = [str(mixed), NOSOL]
    run = sd.certify(client, files, chunk_size=3)
    assert run.ok
    cpu = {"produce_us", "check_us"}

    def rows(text):
        return [{k: v for k, v in json.loads(line).items() if k not in cpu}
                for line in text.splitlines()]

    assert rows(run.output) == rows(cli("certify", "--format", "json", *files))
    assert len(run.lines) == 3 + 1000
    assert all(json.loads(line)["certified"] for line in run.lines)
    assert "mixed.txt:2:" in run.errors
    # A budget too small to finish: not certified, with the reason.
    tight = sd.certify(client, [str(mixed)], max_nodes=1)
    assert [json.loads(line)["count"] for line in tight.lines][0] == "unknown"


def test_generate_equals_the_cli(client):
    run = sd.generate(client, count=45, seed=7, chunk_size=10)
    assert run.ok
    assert run.output == cli("generate", "--count", "45", "--seed", "7")
    assert len(run.lines) == 45


def test_generate_by_default_equals_the_cli_too(client):
    run = sd.generate(client, count=45, seed=7)
    assert run.ok
    assert run.output == cli("generate", "--count", "45", "--seed", "7")


def test_plain_generate_takes_one_large_task_a_worker_and_hard_generate_four():
    # Plain puzzles cost about the same each: one task per worker, up to the floor size.
    assert sd._generate_chunk_size(2000, 2, {}) == 1000
    assert sd._generate_chunk_size(2000, 1, {}) == 2000
    assert sd._generate_chunk_size(100_000, 2, {}) == 12_500
    assert sd._generate_chunk_size(30_000, 2, {}) == sd.PLAIN_GENERATE_CHUNK
    assert sd._generate_chunk_size(3, 8, {}) == 1
    # A hardness goal makes costs vary: four tasks per worker for balance.
    assert sd._generate_chunk_size(2000, 2, {"min_guesses": 20.0}) == 250


def test_a_chunk_that_keeps_failing_is_reported_with_its_records(client):
    run = sd.generate(client, count=12, seed=1, chunk_size=5, retries=1, confirm="no-such")
    assert not run.ok
    assert [f.records for f in run.failed] == [("generate", 0, 4), ("generate", 5, 9),
                                               ("generate", 10, 11)]
    assert "no-such" in run.failed[0].error
