"""read(): every format the library reads, gzip included, and its errors."""

import gzip

import pytest

import sudobench
from conftest import DATA, EMPTY, PUZZLE, SOLUTION, pencilmarks


def test_gzipped_bundled_sets():
    puzzles, solutions = sudobench.read(DATA / "puzzles3_magictour_top1465.gz")
    assert len(puzzles) == 1465 and solutions == [None] * 1465
    assert all(len(p) == 81 and set(p) <= set(".123456789") for p in puzzles)
    puzzles, _ = sudobench.read(str(DATA / "puzzles2_17_clue.gz"))
    assert len(puzzles) == 49158
    assert all(81 - p.count(".") == 17 for p in puzzles)


def test_gzipped_csv_with_expected_solutions(kaggle):
    puzzles, solutions = kaggle
    assert len(puzzles) == len(solutions) == 25386
    assert all(s is not None and "." not in s for s in solutions)
    # CSV puzzles use 0 for empty cells; read() writes them with '.'.
    assert all("0" not in p for p in puzzles[:100])
    assert sudobench.check(puzzles[:100], solutions[:100]) == [True] * 100


def test_plain_file_with_comments_metadata_and_pencilmarks(tmp_path):
    marks = pencilmarks(PUZZLE)
    path = tmp_path / "mixed.txt"
    path.write_text(f"# a comment\n\n{PUZZLE} rating 3.5\r\n{EMPTY}\n{marks}\n")
    puzzles, solutions = sudobench.read(path)
    assert puzzles == [PUZZLE.replace("0", "."), EMPTY, marks]
    assert solutions == [None, None, None]
    assert sudobench.count(puzzles) == [1, 2, 1]


def test_multi_member_gzip_and_csv(tmp_path):
    path = tmp_path / "two.csv.gz"
    with open(path, "wb") as f:
        f.write(gzip.compress(f"quizzes,solutions\n{PUZZLE},{SOLUTION}\n".encode()))
        f.write(gzip.compress(f"{PUZZLE.replace('0', '.')},{SOLUTION}\n".encode()))
    puzzles, solutions = sudobench.read(path)
    assert solutions == [SOLUTION, SOLUTION]
    assert sudobench.solve(puzzles) == solutions


def test_malformed_record_names_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{PUZZLE}\n# fine\n{PUZZLE[:70]}\n{PUZZLE}\n")
    with pytest.raises(ValueError, match=rf"{path}:3: puzzle has 70 characters"):
        sudobench.read(path)


def test_corrupt_gzip(tmp_path):
    data = gzip.compress((PUZZLE + "\n").encode() * 2000)
    path = tmp_path / "broken.gz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=rf"{path}:\d+: read failed"):
        sudobench.read(path)


def test_open_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such-file"):
        sudobench.read(tmp_path / "no-such-file")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        sudobench.read(tmp_path)
