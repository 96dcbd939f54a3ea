"""``lib:`` backends from Python: the worker is this package's own extension run by the
interpreter in isolated mode, never a file looked up in the current directory."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import sudobench
from conftest import EMPTY, PUZZLE, SOLUTION

SOURCE = Path(__file__).resolve().parents[2] / "tests" / "c" / "sb_solver.c"


@pytest.fixture(scope="session")
def library(tmp_path_factory):
    """The C test solver as a shared library, compiled with the system C compiler."""
    cc = shutil.which("cc")
    if cc is None:
        pytest.fail(f"the system C compiler `cc` is needed to compile {SOURCE}")
    path = tmp_path_factory.mktemp("lib") / "libsb_solver.so"
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(path), str(SOURCE)], check=True)
    return path


def test_a_lib_backend_works_from_python(library):
    backend = f"lib:{library}:sb_solve"
    assert sudobench.count([PUZZLE, EMPTY, "11" + "." * 79], backend=backend) == [1, 2, 0]
    assert sudobench.solve([PUZZLE], backend=backend) == [SOLUTION]
    assert sudobench.count([PUZZLE] * 8, backend=backend, threads=2) == [1] * 8


def test_no_file_in_the_current_directory_is_run(library, tmp_path, monkeypatch):
    # Files an interpreter or a shell would run if the worker were looked up here or the
    # interpreter were handed `lib-worker` as a script.
    pwned = tmp_path / "PWNED"
    script = f"open({str(pwned)!r}, 'w').write('ran')\n"
    (tmp_path / "lib-worker").write_text(script)
    (tmp_path / "lib-worker").chmod(0o755)
    (tmp_path / "os.py").write_text(script)
    (tmp_path / "importlib.py").write_text(script)
    (tmp_path / "sitecustomize.py").write_text(script)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("PYTHONSTARTUP", str(tmp_path / "os.py"))
    assert sudobench.count([PUZZLE], backend=f"lib:{library}:sb_solve") == [1]
    assert not pwned.exists(), "a file of the current directory was run"

