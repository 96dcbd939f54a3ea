#!/usr/bin/env bash
# Builds the peer solvers found in a tdoku checkout into shared libraries with tdoku's C
# signature, for sudobench's `lib:PATH:SYMBOL` backend (and `sudobench report --peers DIR`).
# Nothing is copied into this repository: the sources are read from the checkout and the
# libraries written to OUT_DIR.
#
# Usage: scripts/peers.sh TDOKU_CHECKOUT [OUT_DIR]
#   TDOKU_CHECKOUT  a checkout of https://github.com/t-dillon/tdoku (its src/ and other/)
#   OUT_DIR         where the libraries go (default: TDOKU_CHECKOUT/sudobench-peers)
#
# Built with g++/gcc -O3 -march=native (override with CFLAGS_PEERS), one library per solver:
#   libtdoku.so     TdokuSolverDpllTriadSimd   tdoku's fast solver (src/solver_dpll_triad_simd.cc)
#   libkudoku.so    OtherSolverKudoku          other/kudoku/kudoku.c (DLX)
#   libfsss.so      OtherSolverFsss            other/fsss/fsss.cc, behind other/other_solvers.cc
#   libjsolve.so    OtherSolverJSolve          other/jsolve/JSolve.c, behind other/other_solvers.cc
#   libjczsolve.so  OtherSolverJCZSolve        only when other/jczsolve/JCZSolve.c is there
#                                              (tdoku's other/setup_jczsolve.sh fetches it)
# A peers.txt in OUT_DIR lists `NAME LIBRARY SYMBOL` for each library built; `sudobench
# report --peers OUT_DIR` reads it. A solver that fails to build is reported and skipped.
set -euo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
src=$(realpath "$1")
out=${2:-$src/sudobench-peers}
[[ -f $src/src/solver_dpll_triad_simd.cc ]] || {
    echo "$src does not look like a tdoku checkout (no src/solver_dpll_triad_simd.cc)" >&2
    exit 1
}
mkdir -p "$out"
out=$(realpath "$out")
flags=${CFLAGS_PEERS:--O3 -march=native}
cxx=${CXX:-g++}
cc=${CC:-gcc}
list=$out/peers.txt
: >"$list"
built=0

# build NAME SYMBOL COMMAND...: runs COMMAND (which writes $out/libNAME.so), then checks
# that the library exports SYMBOL.
build() {
    local name=$1 symbol=$2
    shift 2
    local lib=$out/lib$name.so
    if "$@" 2>"$out/$name.log" && nm -D --defined-only "$lib" | grep -qw "$symbol"; then
        echo "$name $lib $symbol" >>"$list"
        echo "built $name: lib:$lib:$symbol"
        built=$((built + 1))
    else
        echo "skipped $name: build failed (see $out/$name.log)" >&2
    fi
}

# tdoku's fast solver, as its CMake target tdoku_shared builds it.
build tdoku TdokuSolverDpllTriadSimd \
    $cxx $flags -std=c++17 -fno-exceptions -fno-rtti -shared -fPIC \
    -o "$out/libtdoku.so" "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc"

# kudoku defines its own tdoku-signature entry point.
build kudoku OtherSolverKudoku \
    $cc $flags -shared -fPIC -o "$out/libkudoku.so" "$src/other/kudoku/kudoku.c"

# fsss and the JSolve family go through tdoku's adapters in other/other_solvers.cc, one
# solver per library (each adapter is compiled in by its -D switch).
build fsss OtherSolverFsss \
    $cxx $flags -std=c++17 -shared -fPIC -DFSSS -I"$src/other" \
    -o "$out/libfsss.so" "$src/other/other_solvers.cc" "$src/other/fsss/fsss.cc"

# JSolve.c is C; compile it as such, then link it with the C++ adapter.
build jsolve OtherSolverJSolve sh -c "
    $cc $flags -fPIC -c -o '$out/jsolve.o' '$src/other/jsolve/JSolve.c' &&
    $cxx $flags -std=c++17 -shared -fPIC -DJSOLVE -I'$src/other' \
        -o '$out/libjsolve.so' '$src/other/other_solvers.cc' '$out/jsolve.o'"

if [[ -f $src/other/jczsolve/JCZSolve.c ]]; then
    build jczsolve OtherSolverJCZSolve sh -c "
        $cc $flags -fPIC -c -o '$out/jczsolve.o' '$src/other/jczsolve/JCZSolve.c' &&
        $cxx $flags -std=c++17 -shared -fPIC -DJCZSOLVE -I'$src/other' \
            -o '$out/libjczsolve.so' '$src/other/other_solvers.cc' '$out/jczsolve.o'"
else
    echo "skipped jczsolve: no other/jczsolve/JCZSolve.c (tdoku's other/setup_jczsolve.sh fetches it)" >&2
fi

echo "$built peers in $list"
[[ $built -gt 0 ]]
