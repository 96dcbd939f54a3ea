"""The manual's "From Python" page (docs/python.md): its example runs as written, from the repository root."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def section():
    text = (ROOT / "docs" / "python.md").read_text() + "\n## end\n"
    start = text.index("# From Python\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_install_line():
    assert "```sh\npip install ./python\n```" in section()


def test_examples_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", section(), re.S)
    assert len(blocks) == 2
    cwd = os.getcwd()
    os.chdir(ROOT)
    names: dict = {}
    try:
        for block in blocks:  # in one namespace, as a reader runs them in one session
            exec(compile(block, "docs/python.md", "exec"), names)
    finally:
        os.chdir(cwd)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("['basic', 'bitmask', 'logic'")
    assert lines[1] == "[2, 1]"
    assert lines[2] == "[288]"
    assert lines[3].startswith("puzzle 0: backend bitmask solves 9x9 puzzles only, this one is 16x16")
