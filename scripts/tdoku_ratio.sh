#!/usr/bin/env bash
# bitmask against tdoku built on this machine: the same puzzles, counting to 2, thread CPU
# time, best of 3 rounds, the two timed alternately set by set (the machines are shared).
#
# Usage: scripts/tdoku_ratio.sh TDOKU_CHECKOUT [ROUNDS]
#   TDOKU_CHECKOUT: a clone of https://github.com/t-dillon/tdoku (include/ and src/ are used)
# tdoku is compiled with g++ -O3 -march=native (its own build uses -O3 and a native -march);
# sudobench's release build targets baseline x86-64 and detects POPCNT at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
tdoku=${1:?usage: scripts/tdoku_ratio.sh TDOKU_CHECKOUT [ROUNDS]}
rounds=${2:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O3 -march=native -std=c++17 -I"$tdoku/include" -I"$tdoku/src" -o "$work/tdoku_bench" \
    scripts/tdoku/bench.cc "$tdoku/src/solver_dpll_triad_simd.cc" "$tdoku/src/util.cc"
cargo build --release --quiet --example logic_rates
for ((r = 1; r <= rounds; r++)); do
    for pair in "puzzles2_17_clue 17-clue" "puzzles3_magictour_top1465 magictour" \
                "puzzles5_forum_hardest_1905_11+ 1905_11+" "puzzles6_forum_hardest_1106 1106"; do
        set -- $pair
        zcat "data/$1.gz" | grep -v '^#' > "$work/$2.txt"
        t=$("$work/tdoku_bench" "$work/$2.txt" 3 | sed -E 's/.*: ([0-9]+) puzzles\/s.*/\1/')
        b=$(./target/release/examples/logic_rates --rounds 3 --backends bitmask --set "$2" \
                --sample 0 --ratio-sample 1 2>/dev/null | awk -F'|' -v s="$2" \
                'index($2, " "s" ") && index($3, " bitmask ") {gsub(/ /, "", $5); print $5}')
        awk -v s="$2" -v t="$t" -v b="$b" \
            'BEGIN { printf "%-10s tdoku %8d/s  bitmask %8d/s  bitmask/tdoku %.2f\n", s, t, b, b / t }'
    done
done
