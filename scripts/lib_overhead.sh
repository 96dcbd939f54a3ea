#!/usr/bin/env bash
# What the lib: backend costs: the rate `sudobench bench` reports for a shared library, next
# to the rate the same library reaches in a tight C loop (scripts/lib_loop.c) over the same
# puzzles. Both count to 2 and time the calls by thread CPU time; each side runs ROUNDS times,
# alternately, and the best round of each is kept (the machine may be shared).
#
# Usage: scripts/lib_overhead.sh [--first N] [--rounds R] [LIBRARY SYMBOL] [SET...]
#   LIBRARY SYMBOL  default: tests/c/sb_solver.c (the tests' C backtracker), built here, and
#                   its sb_solve; e.g. TDOKU/build/libtdoku_shared.so TdokuSolverDpllTriadSimd
#   SET             bundled set names (default: every file in data/)
#   --first N       only the first N puzzles of each set (the tests' backtracker is slow on
#                   17-clue: try --first 200)
set -euo pipefail
cd "$(dirname "$0")/.."
first=0
rounds=3
while [[ $# -gt 0 && $1 == --* ]]; do
    case $1 in
        --first) first=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
command -v cc >/dev/null || { echo "needs a C compiler: cc not found" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $# -ge 2 && $1 != puzzles* ]]; then
    library=$(realpath "$1"); symbol=$2; shift 2
else
    cc -O2 -shared -fPIC -pthread -o "$work/libsb_solver.so" tests/c/sb_solver.c
    library=$work/libsb_solver.so; symbol=sb_solve
fi
cc -O2 -o "$work/lib_loop" scripts/lib_loop.c -ldl
cargo build --release --quiet
sets=("$@")
if [[ ${#sets[@]} -eq 0 ]]; then
    for f in data/puzzles*.gz; do sets+=("$(basename "$f" .gz)"); done
fi
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $library:$symbol"
for set in "${sets[@]}"; do
    file=$work/$set.txt
    # The puzzles as lines of their own (a CSV's first column), so both sides read the same.
    zcat "data/$set.gz" | grep -v '^#' | cut -d, -f1 | grep -E '^.{81}$|^.{729}$' > "$file" || true
    if [[ $first -gt 0 ]]; then head -n "$first" "$file" > "$file.head" && mv "$file.head" "$file"; fi
    loop=0; lib=0
    for ((r = 1; r <= rounds; r++)); do
        l=$("$work/lib_loop" "$library" "$symbol" "$file" 1 | sed -E 's/.*: ([0-9]+) puzzles\/s.*/\1/')
        b=$(./target/release/sudobench bench --backends "lib:$library:$symbol" --format json \
                --time-budget 0 "$file" 2>/dev/null | grep -o '"puzzles_per_sec":[0-9.]*' | cut -d: -f2)
        loop=$(awk -v a="$loop" -v b="$l" 'BEGIN { print (b > a ? b : a) }')
        lib=$(awk -v a="$lib" -v b="$b" 'BEGIN { print (b > a ? b : a) }')
    done
    awk -v s="$set" -v n="$(wc -l < "$file")" -v l="$loop" -v b="$lib" 'BEGIN {
        printf "%-34s %7d puzzles  C loop %10.0f/s  lib: %10.0f/s  lib: / C loop %.3f\n", s, n, l, b, b / l }'
done
