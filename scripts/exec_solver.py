#!/usr/bin/env python3
"""A one-file external solver speaking sudobench's line protocol.

Reads "PUZZLE LIMIT" lines on stdin; answers "COUNT [SOLUTION] [GUESSES]" per line and
flushes. Use it as:  sudobench solve --backend 'exec:python3 scripts/exec_solver.py' FILE
"""
import sys


def count(cells, rows, cols, boxes, limit, found, stats):
    best, best_free = -1, None
    for i in range(81):
        if cells[i]:
            continue
        free = [d for d in range(1, 10)
                if d not in rows[i // 9] and d not in cols[i % 9]
                and d not in boxes[(i // 27) * 3 + (i % 9) // 3]]
        if best_free is None or len(free) < len(best_free):
            best, best_free = i, free
            if len(free) <= 1:
                break
    if best < 0:
        found.append("".join(map(str, cells)))
        return 1
    r, c, b = best // 9, best % 9, (best // 27) * 3 + (best % 9) // 3
    n = 0
    for d in best_free:
        if len(best_free) > 1:
            stats[0] += 1
        cells[best] = d
        rows[r].add(d); cols[c].add(d); boxes[b].add(d)
        n += count(cells, rows, cols, boxes, limit - n, found, stats)
        rows[r].discard(d); cols[c].discard(d); boxes[b].discard(d)
        cells[best] = 0
        if n >= limit:
            break
    return n


def answer(line):
    words = line.split()
    if not words or len(words[0]) != 81:
        return "unknown"
    puzzle = words[0]
    limit = max(1, int(words[1])) if len(words) > 1 and words[1].isdigit() else 1
    cells = [int(ch) if ch in "123456789" else 0 for ch in puzzle]
    rows, cols, boxes = [set() for _ in range(9)], [set() for _ in range(9)], [set() for _ in range(9)]
    for i, d in enumerate(cells):
        if not d:
            continue
        r, c, b = i // 9, i % 9, (i // 27) * 3 + (i % 9) // 3
        if d in rows[r] or d in cols[c] or d in boxes[b]:
            return "0"
        rows[r].add(d); cols[c].add(d); boxes[b].add(d)
    found, stats = [], [0]
    n = count(cells, rows, cols, boxes, limit, found, stats)
    return f"{n} {found[0]} {stats[0]}" if n else f"0 {stats[0]}"


def main():
    for line in sys.stdin:
        sys.stdout.write(answer(line) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
