"""The module's surface: exports, docstrings, and type stubs that match the runtime."""

import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

import sudobench
import sudobench._native

FUNCTIONS = ["backends", "count", "solve", "check", "read"]
#: The native module's functions that are not the package's own API: the ``lib:`` worker and
#: the building blocks of ``sudobench.distributed``. Their stubs are checked all the same.
INTERNAL = ["_lib_worker", "bench_defaults", "records", "run_chunk", "generate_chunk", "merge"]
REQUIRED = "<required>"


def test_exports_and_docstrings():
    assert sorted(sudobench.__all__) == sorted(FUNCTIONS + ["__version__"])
    assert sudobench.__version__.count(".") == 2
    for name in FUNCTIONS:
        doc = getattr(sudobench, name).__doc__
        assert doc and len(doc) > 80, name


def test_package_is_typed():
    package = Path(sudobench.__file__).parent
    assert (package / "py.typed").exists()
    assert (package / "_native.pyi").exists()


def stub_signatures():
    tree = ast.parse((Path(sudobench.__file__).parent / "_native.pyi").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            defaults = [None] * (len(a.args) - len(a.defaults)) + list(a.defaults)
            params = [(p.arg, "positional", d) for p, d in zip(a.args, defaults)]
            params += [(p.arg, "keyword", d) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
            sig = [
                (name, kind, REQUIRED if d is None else ast.literal_eval(d))
                for name, kind, d in params
            ]
            # Overloads of one function must agree on the parameters.
            assert out.setdefault(node.name, sig) == sig, node.name
    return out


def test_stubs_match_the_runtime_signatures():
    stubs = stub_signatures()
    assert sorted(stubs) == sorted(FUNCTIONS + INTERNAL)
    for name in FUNCTIONS + INTERNAL:
        runtime = []
        for p in inspect.signature(getattr(sudobench._native, name)).parameters.values():
            kind = "keyword" if p.kind == p.KEYWORD_ONLY else "positional"
            default = REQUIRED if p.default is p.empty else p.default
            runtime.append((p.name, kind, default))
        assert stubs[name] == runtime, name


def run_mypy(cwd, *args):
    """Runs mypy (or stubtest) in `cwd`, where it leaves its cache."""
    env = dict(os.environ, MYPY_CACHE_DIR=str(Path(cwd) / ".mypy_cache"))
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd, env=env
    )


def test_stubs_agree_with_the_module_for_mypy_stubtest(tmp_path):
    done = run_mypy(tmp_path, "mypy.stubtest", "sudobench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_stubs_give_callers_the_documented_types(tmp_path):
    usage = Path(__file__).with_name("typing_usage.py")
    done = run_mypy(tmp_path, "mypy", "--strict", str(usage))
    assert done.returncode == 0, done.stdout + done.stderr
