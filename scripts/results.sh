#!/usr/bin/env bash
# Runs the benchmark suite on this machine and rewrites the generated part of RESULTS.md
# (between <!-- bench:begin --> and <!-- bench:end -->) and the chart results.svg.
# Hand-written sections of RESULTS.md outside the markers are kept.
#
# Usage: scripts/results.sh [bench options...]
#   e.g. scripts/results.sh --time-budget 10 --backends all
# Exit status: that of `sudobench report` (1 if any mismatch or malformed record).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
cmd="scripts/results.sh${*:+ $*}"
exec ./target/release/sudobench report --results RESULTS.md --chart results.svg --command "$cmd" "$@"
