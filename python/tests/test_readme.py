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


def test_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", section(), re.S)
    assert len(blocks) == 1
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(blocks[0], "docs/python.md", "exec"), {})
    finally:
        os.chdir(cwd)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("['basic', 'bitmask', 'logic'")
    assert lines[1] == "[2, 1]"
